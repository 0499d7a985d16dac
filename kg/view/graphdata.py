"""Store -> the graph the view draws: entities as nodes, relations as edges,
each carrying what the side panel shows (names, papers, sentences, results).

Everything is read from the store with SPARQL; the view never sees text or
records. The same triple can sit in several papers' graphs, hence DISTINCT.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

import networkx as nx

from kg.graph.vocab import DCTERMS, ENTITY_CLASS, FABIO, MLKG, MLS, PREFIXES, PROV, RDF, SKOS
from kg.store import KGStore

# Paper-local baselines ("the previous state of the art") are drawn too, since
# improvesOver edges end on them.
BASELINE = "Baseline"
NODE_CLASS = {**ENTITY_CLASS, BASELINE: MLKG.Baseline}

_PROLOGUE = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in PREFIXES.items())


def _type_values() -> str:
    return " ".join(f'(<{cls}> "{name}")' for name, cls in NODE_CLASS.items())


NODES_Q = _PROLOGUE + f"""
SELECT DISTINCT ?e ?type WHERE {{
  VALUES (?cls ?type) {{ {_type_values()} }}
  ?e a ?cls .
}}"""

# From the labels to the classes, with a FILTER: joining the classes first
# (VALUES) made Oxigraph 0.5 scan every typed node of every paper, 4x slower.
PREF_LABELS_Q = _PROLOGUE + f"""
SELECT ?e ?l (COUNT(DISTINCT ?g) AS ?n) WHERE {{
  GRAPH ?g {{ ?e <{SKOS.prefLabel}> ?l . ?e a ?cls FILTER(?cls IN ({", ".join(f"<{c}>" for c in NODE_CLASS.values())})) }}
}} GROUP BY ?e ?l"""

# Surface names count as names of the entity where no canonical label exists.
# Only entities carry these properties, and the caller keeps the nodes it
# knows; joining on the entity classes here made Oxigraph 0.5 scan the store
# once per class and property (24 s instead of 0.1 s at 10k abstracts).
OTHER_NAMES_Q = _PROLOGUE + f"""
SELECT DISTINCT ?e ?l WHERE {{
  {{ ?e <{SKOS.altLabel}> ?l }} UNION {{ ?e <{MLKG.surfaceName}> ?l }} UNION {{ ?e <{MLKG.surfaceAlias}> ?l }}
}}"""

# A paper has one id and one title; the first row of each paper is kept
# (grouping them in the query cost a third more).
PAPERS_Q = _PROLOGUE + f"""
SELECT ?p ?id ?title WHERE {{
  ?p a <{FABIO.ResearchPaper}> .
  OPTIONAL {{ ?p <{DCTERMS.identifier}> ?id }}
  OPTIONAL {{ ?p <{DCTERMS.title}> ?title }}
}}"""

MENTIONS_Q = _PROLOGUE + f"""
SELECT DISTINCT ?e ?p ?how WHERE {{
  VALUES ?how {{ <{MLKG.mentions}> <{MLKG.proposes}> }}
  ?p ?how ?e .
}}"""

# Relations come from their provenance statements (which paper, which
# sentence) and, for stores without them, from the bare triples.
FACTS_Q = _PROLOGUE + f"""
SELECT DISTINCT ?s ?p ?o ?paper ?sent ?text WHERE {{
  ?f a <{RDF.Statement}> ; <{RDF.subject}> ?s ; <{RDF.predicate}> ?p ; <{RDF.object}> ?o .
  OPTIONAL {{ ?f <{MLKG.reportedIn}> ?paper }}
  OPTIONAL {{ ?f <{PROV.wasDerivedFrom}> ?sent . ?sent <{MLKG.text}> ?text }}
}}"""

RESULTS_Q = _PROLOGUE + f"""
SELECT ?r (SAMPLE(?m) AS ?method) (SAMPLE(?b) AS ?baseline) (SAMPLE(?d) AS ?dataset)
       (SAMPLE(?mt) AS ?metric) (SAMPLE(?vt) AS ?valueText) (SAMPLE(?v) AS ?value) (SAMPLE(?u) AS ?unit)
       (SAMPLE(?paper) AS ?paperOf) (SAMPLE(?sent) AS ?sentence) (SAMPLE(?text) AS ?sentenceText)
       (SAMPLE(?k) AS ?kind) WHERE {{
  ?r a <{MLS.ModelEvaluation}> ; <{MLKG.method}> ?m .
  OPTIONAL {{ ?r a ?k . VALUES ?k {{ <{MLKG.Score}> <{MLKG.Improvement}> }} }}
  OPTIONAL {{ ?r <{MLKG.baseline}> ?b }}
  OPTIONAL {{ ?r <{MLKG.dataset}> ?d }}
  OPTIONAL {{ ?r <{MLS.specifiedBy}> ?mt }}
  OPTIONAL {{ ?r <{MLKG.valueText}> ?vt }}
  OPTIONAL {{ ?r <{MLS.hasValue}> ?v }}
  OPTIONAL {{ ?r <{MLKG.unit}> ?u }}
  OPTIONAL {{ ?r <{MLKG.reportedIn}> ?paper }}
  OPTIONAL {{ ?r <{PROV.wasDerivedFrom}> ?sent . ?sent <{MLKG.text}> ?text }}
}} GROUP BY ?r"""


@dataclass
class ViewGraph:
    """The drawable graph plus the tables its nodes and edges point into.

    `graph` nodes are entity IRIs with attributes label, type, aliases,
    papers, proposed_in, sentences, results; edges (keyed by relation name)
    carry papers, sentences, results. Papers and sentences are keyed by IRI;
    results by their position in `results`.
    """

    graph: nx.MultiDiGraph
    papers: dict[str, dict] = field(default_factory=dict)
    sentences: dict[str, dict] = field(default_factory=dict)
    results: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    total_nodes: int = 0


def _val(row, name: str) -> str | None:
    term = row[name]
    return None if term is None else term.value


def local_name(iri: str) -> str:
    return iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _new_node(etype: str) -> dict:
    return {"type": etype, "label": "", "aliases": set(), "papers": set(), "proposed_in": set(),
            "sentences": set(), "results": []}


def read_view_graph(store: KGStore) -> ViewGraph:
    """Everything the view shows, read from the store."""
    nodes: dict[str, dict] = {}
    for row in store.query(NODES_Q):
        nodes.setdefault(row["e"].value, _new_node(row["type"].value))

    pref: dict[str, Counter] = defaultdict(Counter)
    for row in store.query(PREF_LABELS_Q):
        pref[row["e"].value][row["l"].value] += int(row["n"].value)
    for row in store.query(OTHER_NAMES_Q):
        if row["e"].value in nodes:
            nodes[row["e"].value]["aliases"].add(row["l"].value)
    for iri, node in nodes.items():
        counts = pref.get(iri)
        if counts:
            # The canonical label is the one most graphs give; ties go alphabetically.
            node["label"] = min(counts, key=lambda l: (-counts[l], l))
            node["aliases"].update(counts)
        elif node["aliases"]:
            node["label"] = min(node["aliases"], key=lambda l: (len(l), l))
        else:
            node["label"] = local_name(iri)
        node["aliases"].discard(node["label"])

    vg = ViewGraph(graph=nx.MultiDiGraph())
    for row in store.query(PAPERS_Q):
        iri = row["p"].value
        if iri not in vg.papers:
            vg.papers[iri] = {"id": _val(row, "id") or local_name(iri), "title": _val(row, "title") or ""}

    for row in store.query(MENTIONS_Q):
        node = nodes.get(row["e"].value)
        if node is not None:
            node["papers"].add(row["p"].value)
            if row["how"].value == str(MLKG.proposes):
                node["proposed_in"].add(row["p"].value)

    edges: dict[tuple[str, str, str], dict] = {}
    for row in store.query(FACTS_Q):
        s, o = row["s"].value, row["o"].value
        if s not in nodes or o not in nodes:
            continue
        rel = local_name(row["p"].value)
        edge = edges.setdefault((s, o, rel), {"papers": set(), "sentences": set(), "results": []})
        paper, sent = _val(row, "paper"), _val(row, "sent")
        if paper:
            edge["papers"].add(paper)
        if sent:
            vg.sentences.setdefault(sent, {"text": row["text"].value, "paper": paper})
            edge["sentences"].add(sent)
            nodes[s]["sentences"].add(sent)
            nodes[o]["sentences"].add(sent)
    for (s, o, rel), edge in edges.items():
        for end in (s, o):
            nodes[end]["papers"].update(edge["papers"])

    edges_from: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for key in edges:
        edges_from[key[0]].append(key)
    for row in store.query(RESULTS_Q):
        res = {k: _val(row, k) for k in ("method", "baseline", "dataset", "metric", "valueText", "value",
                                        "unit", "paperOf", "sentence", "kind")}
        res["kind"] = local_name(res["kind"]) if res["kind"] else ""
        index = len(vg.results)
        vg.results.append(res)
        if res["sentence"]:
            vg.sentences.setdefault(res["sentence"], {"text": _val(row, "sentenceText"), "paper": res["paperOf"]})
        for role in ("method", "baseline", "dataset", "metric"):
            node = nodes.get(res[role] or "")
            if node is not None:
                node["results"].append(index)
                if res["sentence"]:
                    node["sentences"].add(res["sentence"])
        for key in edges_from.get(res["method"] or "", ()):
            if key[1] in (res["dataset"], res["baseline"]):
                edges[key]["results"].append(index)

    for iri, node in nodes.items():
        vg.graph.add_node(iri, **node)
    for (s, o, rel), edge in edges.items():
        vg.graph.add_edge(s, o, key=rel, rel=rel, **edge)
    vg.total_nodes = vg.graph.number_of_nodes()
    return vg
