"""The run engines: Doc -> extraction record, in this process, in local
worker processes, or on a Dask cluster."""
