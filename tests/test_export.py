"""`kg export --format graphml|gexf`: the entity graph for Gephi and Cytoscape."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

from kg.builder import build, demo_corpus
from kg.cli import main
from kg.graph.networkx_export import to_networkx
from kg.store import KGStore

RELATIONS = {"evaluatedOn", "addresses", "improvesOver"}


@pytest.fixture(scope="module")
def demo_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    build([demo_corpus()], out, view=False)
    return out


def entity_count(out: Path) -> int:
    store = KGStore.at(out, read_only=True)
    try:
        rows = list(store.query("SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { "
                                "GRAPH <https://w3id.org/mlkg/graph/entities> { ?e a <https://w3id.org/mlkg/ontology#Entity> } }"))
        return int(rows[0]["n"].value)
    finally:
        store.close()


@pytest.mark.parametrize("fmt,reader", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_cli_writes_a_property_graph_gephi_can_read(demo_build, tmp_path, fmt, reader, capsys):
    target = tmp_path / f"graph.{fmt}"
    assert main(["export", "--store", str(demo_build), "--format", fmt, "-o", str(target)]) == 0
    g = reader(target)
    entities = [n for n, d in g.nodes(data=True) if d.get("type") != "Baseline"]
    assert len(entities) == entity_count(demo_build) > 0
    types = {d["type"] for _, d in g.nodes(data=True)}
    assert {"Method", "Dataset", "Metric"} <= types <= {"Method", "Dataset", "Task", "Metric", "Baseline"}
    assert all(d["label"] for _, d in g.nodes(data=True))
    assert g.number_of_edges() > 0
    for s, o, d in g.edges(data=True):
        assert d["relation"] in RELATIONS
        assert int(d["papers"]) >= 1


def test_nodes_are_iris_that_join_back_to_rdf_and_edges_match_the_store(demo_build):
    store = KGStore.at(demo_build, read_only=True)
    try:
        g = to_networkx(store)
        rows = {(r["s"].value, r["p"].value.rsplit("#", 1)[-1], r["o"].value) for r in store.query(
            "SELECT DISTINCT ?s ?p ?o WHERE { VALUES ?p { <https://w3id.org/mlkg/ontology#evaluatedOn> "
            "<https://w3id.org/mlkg/ontology#addresses> <https://w3id.org/mlkg/ontology#improvesOver> } ?s ?p ?o }")}
    finally:
        store.close()
    assert all(n.startswith("https://w3id.org/mlkg/id/") for n in g.nodes)
    assert {(s, d["relation"], o) for s, o, d in g.edges(data=True)} == rows


def test_unknown_format_is_a_usage_error(demo_build, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["export", "--store", str(demo_build), "--format", "dot"])
    assert exc.value.code == 2
