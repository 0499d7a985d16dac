"""Pieces of graph.ttl: the prefix lines it states once at its top, Turtle
without them for each paper, and a paper's quads split by when they can be
written (at once, or after the canonical pass renames entities; see
kg.graph.union)."""

from __future__ import annotations

from typing import Iterable

import pyoxigraph as ox

from kg.graph import iris
from kg.graph.vocab import ID, PREFIXES, SEGMENT_TYPE

_ENTITY_PREFIXES = tuple(str(ID[f"{segment}/"]) for segment in SEGMENT_TYPE)


def turtle_header() -> bytes:
    return "".join(f"@prefix {k}: <{v}> .\n" for k, v in PREFIXES.items()).encode()


def turtle_body(triples: Iterable[ox.Triple]) -> bytes:
    """Turtle for `triples` without the prefix lines the serializer puts first
    (the file states them once, at its top)."""
    data = ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES)
    body = data.split(b"\n", len(PREFIXES))[-1]
    head = data[:len(data) - len(body)]
    # one line per prefix ("@prefix " cannot occur inside an IRI)
    if head.count(b"\n") == head.count(b"@prefix ") == len(PREFIXES):
        return body
    return data  # repeated @prefix lines are still valid Turtle


def split_paper(paper_id: str, quads: Iterable[ox.Quad]) -> tuple[list[ox.Quad], list[ox.Quad], list[ox.Quad]]:
    """One paper's quads as (final, own, shared): final ones go to graph.ttl
    at once; the others wait for the canonical pass (see the module doc):
    those about the paper's own nodes (part 2), and those about nodes that
    other papers state triples about too (part 3)."""
    node = str(iris.paper_iri(paper_id))
    under = node + "/"
    final, own, shared = [], [], []
    for quad in quads:
        subject = quad.subject.value
        if subject == node or subject.startswith(under):
            (own if _is_entity(quad.object) else final).append(quad)
        else:
            shared.append(quad)
    return final, own, shared


def _is_entity(term) -> bool:
    return isinstance(term, ox.NamedNode) and term.value.startswith(_ENTITY_PREFIXES)
