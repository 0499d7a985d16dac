"""kg's version: one place, read by the package, the records' provenance and the report."""

__version__ = "0.1.0"
