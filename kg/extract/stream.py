"""Records of a stream of abstracts, by the engine the user chose: this
process, local worker processes, or a Dask cluster."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from kg.model import Abstract, ExtractOptions

Pair = tuple[Abstract, dict]


def record_stream(abstracts: Iterable[Abstract], options: ExtractOptions = ExtractOptions(), *,
                  workers: int = 1, dask: Any = None) -> Iterator[Pair]:
    """The (abstract, record) pairs of `abstracts` in input order: one
    process, `workers` local processes, or a Dask cluster (`dask` is a
    scheduler address or a distributed.Client). Bad gazetteer or rules files
    are reported here, before any work starts."""
    from kg import rules
    from kg.io.gazetteer_files import load_file

    for path in options.gazetteers:
        load_file(path)
    rules.check_files(options.rules)
    if dask is not None:
        from kg.extract.dask_runner import dask_records

        return dask_records(abstracts, dask, options)
    if workers > 1:
        from kg.extract.parallel import parallel_records

        return parallel_records(abstracts, options, workers=workers)
    from kg.extract.record import Extractor

    return Extractor.from_options(options).records(abstracts)
