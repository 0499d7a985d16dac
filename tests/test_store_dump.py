"""The Turtle / N-Triples export streams the union of all papers, each triple once."""

from __future__ import annotations

import io
import random

import pyoxigraph as ox
import pytest

import kg.store
from kg.bloom import BloomFilter
from kg.store import KGStore

EX = "https://example.org/"


def _node(name: str) -> ox.NamedNode:
    return ox.NamedNode(EX + name)


def _fill(store: KGStore, papers: int = 60) -> set[ox.Triple]:
    """Papers share entity triples (a popular dataset in every paper, others
    in some) and have triples of their own; returns the union."""
    rng = random.Random(7)
    quads = []
    for i in range(papers):
        g = _node(f"graph/{i}")
        paper = _node(f"paper/{i}")
        quads.append(ox.Quad(paper, _node("title"), ox.Literal(f"Paper {i}"), g))
        for name in ["popular", *rng.sample([f"entity{k}" for k in range(15)], 4)]:
            ent = _node(f"entity/{name}")
            quads += [ox.Quad(paper, _node("mentions"), ent, g),
                      ox.Quad(ent, _node("label"), ox.Literal(name), g),
                      ox.Quad(ent, _node("type"), _node("Dataset"), g)]
    store.bulk_load(quads)
    store.flush()
    return {q.triple for q in quads}


def _triples(data: bytes, fmt: ox.RdfFormat) -> list[ox.Triple]:
    return [q.triple for q in ox.parse(data, fmt)]


@pytest.mark.parametrize("fmt,rdf", [("nt", ox.RdfFormat.N_TRIPLES), ("ttl", ox.RdfFormat.TURTLE)])
def test_union_has_every_triple_exactly_once(tmp_path, fmt, rdf):
    store = KGStore(tmp_path / "store")
    union = _fill(store)
    out = io.BytesIO()
    store.dump(out, fmt)
    got = _triples(out.getvalue(), rdf)
    assert len(got) == len(set(got)) == len(union)
    assert set(got) == union


def test_exact_when_the_filter_answers_maybe_for_everything(tmp_path, monkeypatch):
    # A one-byte filter says "maybe seen" for nearly every triple, and no
    # repeated triple is remembered: every answer comes from the store look-up.
    monkeypatch.setattr("kg.bloom.BloomFilter.__init__", _tiny_filter)
    monkeypatch.setattr(kg.store, "_REPEATED_CAP", 0)
    store = KGStore(tmp_path / "store")
    union = _fill(store)
    got = list(store._union_triples())
    assert len(got) == len(union) and set(got) == union


def _tiny_filter(self, capacity: int, error_rate: float = 0.01) -> None:
    self.bits, self.hashes, self._array = 8, 1, bytearray(1)


def test_dataset_formats_keep_the_papers_apart(tmp_path):
    store = KGStore(tmp_path / "store")
    _fill(store, papers=5)
    out = io.BytesIO()
    store.dump(out, "nq")
    quads = list(ox.parse(out.getvalue(), ox.RdfFormat.N_QUADS))
    assert len({q.graph_name for q in quads}) == 5
    assert len(quads) == len(store)


def test_bloom_filter_never_forgets_and_rarely_imagines():
    bloom = BloomFilter(5000)
    added = [f"item-{i}" for i in range(5000)]
    assert sum(bloom.add(x) for x in added) < 5000 * 0.02  # all new: only a few false "maybe"s
    assert all(bloom.add(x) for x in added)
    false_maybe = sum(f"other-{i}" in bloom for i in range(5000))
    assert false_maybe < 5000 * 0.03
