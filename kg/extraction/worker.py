"""What extraction makes of each abstract, the same in every engine (this
process, local worker processes, a Dask cluster): its record, or for a build
the paper's whole share of the build (kg.graph.paper_output), so that the
build process only appends bytes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from kg.model import Abstract, ExtractOptions

if TYPE_CHECKING:
    from kg.graph.canonical import Resolver
    from kg.graph.paper_output import PaperOutput


class Worker:
    """One extraction pipeline, and for `papers` the gazetteer resolver that
    gives the entities' local IRIs: built from the same options as the
    build's own, so every engine makes the same IRIs."""

    def __init__(self, options: ExtractOptions, papers: bool = False):
        from kg.extraction.record import (
            Extractor,  # lazy: spaCy, never needed by the parent of worker processes
        )

        self.extractor = Extractor.from_options(options)
        self.resolver = None
        if papers:
            from kg.graph.canonical import entity_resolver  # lazy: rdflib

            self.resolver = entity_resolver(options.gazetteers)

    def results(self, abstracts: Iterable[Abstract], batch_size: int = 64) -> Iterator[tuple[Abstract, object]]:
        """(abstract, record) pairs in input order, or (abstract, PaperOutput)
        pairs for `papers`."""
        pairs = self.extractor.records(abstracts, batch_size=batch_size)
        return pairs if self.resolver is None else with_papers(pairs, self.resolver)

    def chunk(self, chunk: list[Abstract]) -> list:
        """The results of one chunk of abstracts, without the abstracts (the sender has them)."""
        return [result for _, result in self.results(chunk, batch_size=len(chunk))]


def with_papers(pairs: Iterable[tuple[Abstract, dict]], resolver: Resolver) -> Iterator[tuple[Abstract, PaperOutput]]:
    """(abstract, record) pairs as (abstract, PaperOutput) pairs; `resolver`
    gives the local IRIs and must be built from the build's gazetteers."""
    from kg.graph.paper_output import paper_output  # lazy: rdflib

    for abstract, record in pairs:
        yield abstract, paper_output(abstract, record, resolver)
