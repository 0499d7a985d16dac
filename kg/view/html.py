"""A first HTML view: entities as nodes, relations as edges, drawn by pyvis.

The graph for the view is read from the store with SPARQL, so the view never
re-reads text or records.
"""

from __future__ import annotations

import os
from pathlib import Path

import networkx as nx

from kg.io.atomic import atomic_write_text
from kg.store import KGStore

COLOURS = {"Method": "#4e79a7", "Dataset": "#f28e2b", "Task": "#59a14f", "Metric": "#b07aa1", "Baseline": "#9c9c9c"}

NODES_Q = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?e (SAMPLE(?l) AS ?label) (SAMPLE(?t) AS ?type) WHERE {
  ?e a mlkg:Entity ; skos:prefLabel ?l ; a ?cls .
  VALUES (?cls ?t) { (mlkg:Method "Method") (<http://www.w3.org/ns/mls#Dataset> "Dataset")
                     (<http://www.w3.org/ns/mls#Task> "Task") (<http://www.w3.org/ns/mls#EvaluationMeasure> "Metric") }
} GROUP BY ?e
"""
EDGES_Q = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
SELECT DISTINCT ?s ?p ?o WHERE {
  VALUES ?p { mlkg:evaluatedOn mlkg:addresses mlkg:improvesOver }
  ?s ?p ?o .
}
"""


def store_to_networkx(store: KGStore) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    for row in store.query(NODES_Q):
        g.add_node(row["e"].value, label=row["label"].value, type=row["type"].value)
    for row in store.query(EDGES_Q):
        s, o = row["s"].value, row["o"].value
        for n in (s, o):
            if n not in g:
                g.add_node(n, label=n.rsplit("/", 1)[-1], type="Baseline")
        g.add_edge(s, o, label=row["p"].value.rsplit("#", 1)[-1])
    return g


def write_view(store: KGStore, out: str | os.PathLike) -> Path:
    from pyvis.network import Network

    g = store_to_networkx(store)
    net = Network(height="800px", width="100%", directed=True, cdn_resources="in_line")
    for n, d in g.nodes(data=True):
        net.add_node(n, label=d["label"], color=COLOURS.get(d["type"], "#cccccc"), title=f"{d['type']}: {d['label']}")
    for s, o, d in g.edges(data=True):
        net.add_edge(s, o, label=d["label"])
    out = Path(out)
    atomic_write_text(out, net.generate_html())
    return out
