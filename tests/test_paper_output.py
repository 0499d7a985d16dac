"""Each paper's share of a build (kg.graph.paper_output), made where the record
is made: it holds the paper's quads, split as graph.ttl needs them, and every
engine makes the same bytes."""

from __future__ import annotations

import json
import multiprocessing

import pyoxigraph as ox
import pytest

from kg.graph.canonical import entity_resolver
from kg.extraction.record import Extractor
from kg.extraction.stream import paper_stream
from kg.graph import iris
from kg.graph.build import record_quads
from kg.graph.entities import node_namings, quad_namings, typed_namings
from kg.graph.paper_output import PaperOutput, paper_output
from kg.graph.turtle import turtle_header
from kg.model import Abstract, ExtractOptions

from test_parallel import invented_abstracts


@pytest.fixture(scope="module")
def extracted():
    abstracts = invented_abstracts(12)
    return list(Extractor().records(abstracts))


def _triples(turtle: bytes) -> set[ox.Triple]:
    return {q.triple for q in ox.parse(turtle_header() + turtle, ox.RdfFormat.TURTLE)}


def test_a_paper_output_holds_its_quads_split_for_graph_ttl(extracted):
    resolver = entity_resolver()
    for abstract, record in extracted:
        quads = list(dict.fromkeys(record_quads(abstract, record, resolver)))
        paper = paper_output(abstract, record, resolver)
        assert paper.id == record["id"]
        assert json.loads(paper.record_line) == record and paper.record_line.endswith("\n")
        stored = list(ox.parse(paper.nquads, ox.RdfFormat.N_QUADS))
        assert paper.quads == len(stored)
        assert sorted(stored, key=str) == sorted(quads, key=str)  # each quad once
        waiting = set(ox.parse(paper.waiting, ox.RdfFormat.N_QUADS))
        final = _triples(paper.turtle)
        # The store gets the final quads, then the waiting ones, each part serialised once.
        assert paper.nquads == paper.final + paper.waiting
        assert {q.triple for q in ox.parse(paper.final, ox.RdfFormat.N_QUADS)} == final
        assert waiting <= set(quads)
        assert final | {q.triple for q in waiting} == {q.triple for q in quads}
        assert not final & {q.triple for q in waiting}
        assert all(t.subject.value.startswith(str(iris.paper_iri(paper.id))) for t in final)  # the paper's own
        # the waiting quads about the paper's own nodes first, then those other papers state too
        own = list(ox.parse(paper.own_waiting, ox.RdfFormat.N_QUADS))
        shared = list(ox.parse(paper.shared, ox.RdfFormat.N_QUADS))
        assert paper.waiting == paper.own_waiting + paper.shared and set(own) | set(shared) == waiting
        assert all(q.subject.value.startswith(str(iris.paper_iri(paper.id))) for q in own)
        assert not any(q.subject.value.startswith(str(iris.paper_iri(paper.id))) for q in shared)
        assert list(paper.namings) == [(t, tuple(n), tuple(a)) for t, n, a in typed_namings(quad_namings(quads))]
        # each naming's entity node, for the renames (kg.graph.union)
        assert list(paper.nodes) == [node for node, _ in node_namings(quad_namings(quads))]
        assert all(node.startswith(str(iris.ID)) for node in paper.nodes)
        assert paper.entities == {t: len(e) for t, e in record["entities"].items()}
        assert sum(paper.relations.values()) == len(record["relations"])
    assert any(p.namings for p in (paper_output(a, r, resolver) for a, r in extracted))


def test_every_local_engine_makes_the_same_papers(extracted):
    from kg.extraction.worker import Worker
    from kg.model import ExtractOptions

    abstracts = [a for a, _ in extracted]
    here = [paper for _, paper in Worker(ExtractOptions(), papers=True).results(abstracts)]
    assert all(isinstance(p, PaperOutput) for p in here)
    assert [p.id for p in here] == [a.id for a in abstracts]
    assert list(paper_stream(abstracts, workers=2)) == here
    # One worker: a worker process extracts while this process makes the papers.
    stream = paper_stream(abstracts, workers=1)
    first = next(stream)
    assert multiprocessing.active_children()
    assert [first, *stream] == here


def test_workers_give_the_users_gazetteer_names_the_same_iris(tmp_path):
    # A name only the user's gazetteer knows, written differently in the text:
    # its IRI comes from the gazetteer's name, in the workers as in this process.
    gaz = tmp_path / "datasets.jsonl"
    gaz.write_text('{"name": "Numbat Tracks", "aliases": ["NT-7"]}\n', encoding="utf-8")
    options = ExtractOptions(gazetteers=(str(gaz),))
    abstracts = [Abstract(id=f"n{i}", text=f"We evaluate Quoll{i}Net on NT-7. Quoll{i}Net beats the baseline.")
                 for i in range(4)]
    here = list(paper_stream(abstracts, options))
    assert b"/id/dataset/numbat-tracks>" in here[0].nquads
    assert list(paper_stream(abstracts, options, workers=2)) == here
