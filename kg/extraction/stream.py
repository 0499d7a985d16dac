"""Records of a stream of abstracts, by the engine the user chose: this
process, local worker processes, or a Dask cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator

from kg import rules
from kg.extraction.dask_runner import dask_records
from kg.extraction.parallel import parallel_records
from kg.extraction.worker import Worker, with_papers
from kg.io.gazetteer_files import load_file
from kg.model import Abstract, ExtractOptions

if TYPE_CHECKING:
    from kg.graph.paper_output import PaperOutput

Pair = tuple[Abstract, dict]


def record_stream(abstracts: Iterable[Abstract], options: ExtractOptions = ExtractOptions(), *,
                  workers: int = 1, dask: Any = None) -> Iterator[Pair]:
    """The (abstract, record) pairs of `abstracts` in input order: one
    process, `workers` local processes, or a Dask cluster (`dask` is a
    scheduler address or a distributed.Client). Bad gazetteer or rules files
    are reported here, before any work starts."""
    return _stream(abstracts, options, workers, dask, papers=False)


def paper_stream(abstracts: Iterable[Abstract], options: ExtractOptions = ExtractOptions(), *,
                 workers: int = 1, dask: Any = None) -> Iterator[PaperOutput]:
    """What a build writes for each abstract (kg.graph.paper_output), in input
    order, made by the same engines as `record_stream`."""
    return (paper for _, paper in _stream(abstracts, options, workers, dask, papers=True))


def _stream(abstracts: Iterable[Abstract], options: ExtractOptions, workers: int, dask: Any,
            papers: bool) -> Iterator[tuple[Abstract, Any]]:

    for path in options.gazetteers:
        load_file(path)
    rules.check_files(options.rules)
    if dask is not None:

        return dask_records(abstracts, dask, options, papers=papers)
    if workers > 1:

        return parallel_records(abstracts, options, workers=workers, papers=papers)
    if papers:
        return _pipelined_papers(abstracts, options)

    return Worker(options, papers).results(abstracts)


def _pipelined_papers(abstracts: Iterable[Abstract], options: ExtractOptions) -> Iterator[tuple[Abstract, Any]]:
    """A build with one worker: the worker process extracts while this
    process makes each paper's share of the build (and the store's loader
    thread loads it), so the two halves of the work overlap on two cores:
    the build then takes about 1.3x the time of `kg extract`, where one
    process doing both takes about 1.8x (benchmarks/README.md, One worker)."""
    from kg.graph.canonical import entity_resolver  # lazy: rdflib

    return with_papers(parallel_records(abstracts, options, workers=1, papers=False),
                       entity_resolver(options.gazetteers))
