"""A leaderboard is one SPARQL query: on the demo corpus's hand-made records,
"accuracy on CIFAR-10, best first" lists every score reported under any
spelling of the dataset, in numeric order."""

from __future__ import annotations

import json
from decimal import Decimal

import pyoxigraph as ox
import pytest

from kg.builder import demo_corpus
from kg.graph.canonical import entity_resolver
from kg.graph.build import record_quads
from kg.graph.entities import canonicalise
from kg.io import ReadReport, read_inputs

LEADERBOARD = """
PREFIX mls:  <http://www.w3.org/ns/mls#>
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?method ?value ?paper WHERE {
  ?r a mlkg:Score ; mlkg:dataset ?d ; mls:specifiedBy ?m ; mls:hasValue ?value ;
     mlkg:method ?mnode ; mlkg:reportedIn ?p .
  ?d skos:prefLabel "%s" .
  ?m skos:prefLabel "%s" .
  ?mnode skos:prefLabel ?method .
  ?p dcterms:identifier ?paper .
} ORDER BY DESC(?value)
"""
# Spellings of CIFAR-10 the demo corpus uses; the graph must see them as one dataset.
CIFAR_10 = {"CIFAR-10", "CIFAR10", "cifar-10", "Canadian Institute for Advanced Research 10"}


@pytest.fixture(scope="module")
def demo_gold_store() -> tuple[ox.Store, list[dict]]:
    gold_path = demo_corpus().parent / "gold.jsonl"
    if not gold_path.exists():
        pytest.skip("the demo corpus has no gold.jsonl")
    abstracts = {a.id: a for a in read_inputs([demo_corpus()], ReadReport())}
    gold = [json.loads(ln) for ln in gold_path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    db = ox.Store()
    resolver = entity_resolver()
    for rec in gold:
        db.extend(record_quads(abstracts[rec["id"]], rec, resolver))
    canonicalise(db, resolver)
    return db, gold


def test_leaderboard_of_accuracy_on_cifar10_best_first(demo_gold_store):
    db, gold = demo_gold_store
    expected = sorted(((Decimal(r["value"]), g["id"]) for g in gold for r in g["relations"]
                       if r["p"] == "achieves" and r.get("metric") == "accuracy" and r.get("dataset") in CIFAR_10),
                      reverse=True)
    assert len(expected) >= 3, "the demo corpus should report several CIFAR-10 accuracies"
    rows = [(Decimal(row["value"].value), row["paper"].value)
            for row in db.query(LEADERBOARD % ("CIFAR-10", "accuracy"), use_default_graph_as_union=True)]
    assert [v for v, _ in rows] == [v for v, _ in expected]
    assert sorted(rows) == sorted(expected)
