"""The store as a property graph (networkx), written as GraphML or GEXF for
Gephi, Cytoscape and yEd.

Nodes are the entities (and the paper-local baselines) with their canonical
label, type, other names and the number of papers that mention them; edges
are the relations evaluatedOn, addresses and improvesOver, each with the
number of papers that state it. Nodes are keyed by IRI, so the file joins
back to the RDF graph.
"""

from __future__ import annotations

from typing import BinaryIO

import networkx as nx

from kg.graph.vocab import ENTITY_CLASS, MLKG, RDF, RELATION, SKOS

FORMATS = ("graphml", "gexf")

_TYPE_VALUES = " ".join(f"(<{cls}> \"{etype}\")" for etype, cls in ENTITY_CLASS.items())
_NODES = f"""
SELECT ?e ?type ?label (GROUP_CONCAT(DISTINCT ?alt; separator="|") AS ?alts) (COUNT(DISTINCT ?paper) AS ?papers)
WHERE {{
  ?e a <{MLKG.Entity}> ; a ?cls ; <{SKOS.prefLabel}> ?label .
  VALUES (?cls ?type) {{ {_TYPE_VALUES} }}
  OPTIONAL {{ ?e <{SKOS.altLabel}> ?alt }}
  OPTIONAL {{ ?paper <{MLKG.mentions}> ?e }}
}} GROUP BY ?e ?type ?label
"""
_BASELINES = f"""
SELECT ?e ?label WHERE {{ ?e a <{MLKG.Baseline}> ; <{SKOS.prefLabel}> ?label }}
"""
_EDGES = f"""
SELECT ?s ?p ?o (COUNT(DISTINCT ?paper) AS ?papers) WHERE {{
  VALUES ?p {{ {" ".join(f"<{p}>" for p in RELATION.values())} }}
  ?s ?p ?o .
  OPTIONAL {{ ?fact <{MLKG.reportedIn}> ?paper ;
              <{RDF.subject}> ?s ; <{RDF.predicate}> ?p ; <{RDF.object}> ?o }}
}} GROUP BY ?s ?p ?o
"""


def to_networkx(store) -> nx.MultiDiGraph:
    """The entities and relations of a KGStore as a directed multigraph."""
    g = nx.MultiDiGraph()
    for row in store.query(_NODES):
        g.add_node(row["e"].value, label=row["label"].value, type=row["type"].value,
                   alt_labels=row["alts"].value if row["alts"] is not None else "",
                   papers=int(row["papers"].value))
    for row in store.query(_BASELINES):
        g.add_node(row["e"].value, label=row["label"].value, type="Baseline", alt_labels="", papers=1)
    edges = sorted((row["s"].value, row["p"].value, row["o"].value, int(row["papers"].value))
                   for row in store.query(_EDGES))
    for s, p, o, papers in edges:
        if s in g and o in g:
            relation = p.rsplit("#", 1)[-1]
            g.add_edge(s, o, key=relation, relation=relation, label=relation, papers=papers, weight=papers)
    return g


def write(store, out: BinaryIO, fmt: str) -> None:
    """Write the property graph of `store` to the binary stream `out`."""
    g = to_networkx(store)
    if fmt == "graphml":
        nx.write_graphml(g, out)
    elif fmt == "gexf":
        nx.write_gexf(g, out)
    else:
        raise ValueError(f"unknown property-graph format {fmt!r}; use one of {', '.join(FORMATS)}")
