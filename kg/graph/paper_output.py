"""One paper's share of a build, made where its record is made.

A build writes four things per paper: a line of records.jsonl, the paper's
quads for the store's loader, the part of graph.ttl that is final at once,
and the triples that wait for the canonical pass (kg.graph.union); and it
feeds the resolver the names the paper uses for its entities. All of it
depends only on the abstract, its record and the gazetteers (the local IRIs
of `Resolver.local_iri`), so each extraction engine (this process, local
worker processes, a Dask cluster) makes it next to the record with
`paper_output`, and the build process only appends bytes and feeds the
resolver. With several workers that is what keeps the build process from
setting the pace.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

import pyoxigraph as ox

from kg.graph.build import record_quads
from kg.graph.canonical import Resolver
from kg.graph.entities import node_namings, quad_namings
from kg.graph.turtle import split_paper, turtle_body
from kg.model import Abstract

Naming = tuple[str, tuple[str, ...], tuple[str, ...]]  # (entity type, names, aliases)


@dataclass(frozen=True)
class PaperOutput:
    """What the build writes for one paper, ready to append."""

    id: str
    record_line: str         # the record as a line of records.jsonl
    entities: dict[str, int]   # entities the record lists, by type
    relations: dict[str, int]  # relations the record states, by kind
    quads: int               # quads in `nquads`
    final: bytes             # the quads whose triples are final in graph.ttl (N-Quads)
    turtle: bytes            # the same triples for graph.ttl (Turtle without prefix lines)
    # The quads that wait for the canonical pass (N-Quads): those about the
    # paper's own nodes, then those about entities and the extractor, which
    # other papers state too (kg.graph.turtle.split_paper).
    own_waiting: bytes
    shared: bytes
    namings: tuple[Naming, ...]  # the names the paper uses for each entity, for the resolver
    nodes: tuple[str, ...]   # the entity node (IRI) of each naming, in the same order

    @property
    def nquads(self) -> bytes:
        """Every quad of the paper once (N-Quads), for the store's loader:
        the final quads, then the waiting ones. Each part is serialised and
        sent from the worker once."""
        return self.final + self.own_waiting + self.shared

    @property
    def waiting(self) -> bytes:
        """Every quad that waits for the canonical pass (N-Quads)."""
        return self.own_waiting + self.shared


def paper_output(abstract: Abstract, record: dict, resolver: Resolver) -> PaperOutput:
    """The build's share of one paper. `resolver` gives the entities' local
    IRIs (its gazetteers must be the build's); nothing is added to it."""
    quads = list(dict.fromkeys(record_quads(abstract, record, resolver)))  # a paper may state a triple twice
    final, own, shared = split_paper(record["id"], quads)
    found = list(node_namings(quad_namings(shared)))  # entities are never the paper's own nodes
    return PaperOutput(
        id=record["id"],
        record_line=json.dumps(record, ensure_ascii=False) + "\n",
        entities={etype: len(ents) for etype, ents in record["entities"].items()},
        relations=dict(Counter(rel["p"] for rel in record["relations"])),
        quads=len(quads),
        final=ox.serialize(final, format=ox.RdfFormat.N_QUADS),
        turtle=turtle_body(q.triple for q in final),
        own_waiting=ox.serialize(own, format=ox.RdfFormat.N_QUADS),
        shared=ox.serialize(shared, format=ox.RdfFormat.N_QUADS),
        namings=tuple((etype, tuple(names), tuple(aliases)) for _, (etype, names, aliases) in found),
        nodes=tuple(node for node, _ in found),
    )
