"""Store -> the graph the view draws: entities as nodes, relations as edges,
each carrying what the side panel shows (names, papers, sentences, results).

Everything is read from the store with SPARQL; the view never sees text or
records. The same triple can sit in several papers' graphs, hence DISTINCT.

Two steps, so that memory follows what the page shows, not the corpus:

1. `read_summary`: every entity with its type, names and number of papers,
   and every relation between two entities (one edge per subject, relation
   and object), with the counting done by Oxigraph (GROUP BY). This is the
   size of the vocabulary; `kg.view.select` picks from it what to draw.
2. `add_evidence`: for the nodes and edges picked, their papers, sentences
   and results, read a group of entities at a time (bounded in size) and
   cut to what the page shows (MAX_* below), with the number of each in all.

`read_view_graph` does both for the whole graph.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterator
from urllib.parse import unquote

import networkx as nx
import pyoxigraph as ox

from kg.graph.vocab import (
    DCTERMS,
    ENTITY_CLASS,
    FABIO,
    MLKG,
    MLS,
    PREFIXES,
    PROV,
    RDF,
    SKOS,
)
from kg.store import KGStore
from kg.view.overview import Overview

# Paper-local baselines ("the previous state of the art") are drawn too, since
# improvesOver edges end on them.
BASELINE = "Baseline"
NODE_CLASS = {**ENTITY_CLASS, BASELINE: MLKG.Baseline}

# How much of each node's and edge's evidence the page shows; the panel says
# how many more there are.
MAX_PAPERS, MAX_SENTENCES, MAX_RESULTS = 25, 8, 20

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

PAPER_COUNT_Q = _PROLOGUE + f"""
SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p a <{FABIO.ResearchPaper}> }}"""

# Relations come from their provenance statements.
# GRAPH ?g here and below: a statement, fact or result node lives in one
# paper's graph, so its patterns joined inside that graph give the rows the
# union default graph gives, without the work Oxigraph 0.5 does there to
# state a triple of many graphs once (half the time of these queries).
# Each with the number of papers that state it (a paper's facts are in its
# own graph), which weighs the edge in the map (kg.view.overview).
EDGES_Q = _PROLOGUE + f"""
SELECT ?s ?p ?o (COUNT(DISTINCT ?g) AS ?n) WHERE {{ GRAPH ?g {{
  ?f a <{RDF.Statement}> ; <{RDF.subject}> ?s ; <{RDF.predicate}> ?p ; <{RDF.object}> ?o .
}} }} GROUP BY ?s ?p ?o"""

# A metric takes part in no relation statement: it is tied to methods by their
# results (mls:specifiedBy). The view draws that tie as an edge of its own,
# so that the metrics papers name most are on the map, beside the methods
# measured by them; its evidence is those results.
MEASURED_BY = "measuredBy"
MEASURED_Q = f"""
SELECT ?m ?x (COUNT(DISTINCT ?g) AS ?n) WHERE {{ GRAPH ?g {{
  ?r <{MLS.specifiedBy}> ?x ; <{MLKG.method}> ?m .
}} }} GROUP BY ?m ?x"""

# The papers of an entity: those that mention or propose it, and those that
# report a relation of it. Counted by Oxigraph, so that only one number per
# entity comes back. Only relations' statements have rdf:subject and
# rdf:object; requiring their rdf:type and rdf:predicate too cost 2.5x. (A
# relation whose other end is no entity would count here and not in
# add_evidence; the graph builder makes none.)
NODE_PAPERS_Q = _PROLOGUE + f"""
SELECT ?e (COUNT(DISTINCT ?p) AS ?n) WHERE {{ GRAPH ?g {{
  {{ ?p <{MLKG.mentions}> ?e }} UNION {{ ?p <{MLKG.proposes}> ?e }}
  UNION {{ ?f <{RDF.subject}> ?e ; <{MLKG.reportedIn}> ?p }} UNION {{ ?f <{RDF.object}> ?e ; <{MLKG.reportedIn}> ?p }}
}} }} GROUP BY ?e"""

# For a few entities (ENTITIES), the entities named in the same papers and
# in how many: where the map puts a much-named entity whose relations do not
# reach it (kg.view.overview).
NAMED_WITH_Q = f"""
SELECT ?e ?o (COUNT(DISTINCT ?p) AS ?n) WHERE {{
  VALUES ?e {{ ENTITIES }} ?p <{MLKG.mentions}> ?e . ?p <{MLKG.mentions}> ?o FILTER(?o != ?e)
}} GROUP BY ?e ?o"""

# The queries of a group of entities (ENTITIES is replaced by their IRIs).
# They return IRIs only: looking up a paper's id and title or a sentence's
# text costs a RocksDB read per row, and the page shows a few of each per
# entity, so those are read once the shown ones are known (PAPERS_Q,
# SENTENCES_Q). In Oxigraph 0.5 an OPTIONAL of two patterns is a hash join,
# which evaluates its right side over the whole store first, and so is a
# UNION followed by a join, or VALUES joined with a UNION: every OPTIONAL
# here holds one pattern, and each branch of a UNION has its own VALUES and
# joins on its own (written as one UNION then a join, they take 80x as long).
MENTIONS_OF_Q = f"""
SELECT ?e ?p ?proposes WHERE {{
  {{ VALUES ?e {{ ENTITIES }} ?p <{MLKG.mentions}> ?e }}
  UNION {{ VALUES ?e {{ ENTITIES }} ?p <{MLKG.proposes}> ?e BIND(true AS ?proposes) }}
}}"""

# (As in NODE_PAPERS_Q, only relations' statements have rdf:subject and
# rdf:object; requiring their rdf:type too cost a fifth more.)
FACTS_OF_Q = f"""
SELECT ?e ?s ?p ?o ?paper ?sent WHERE {{ GRAPH ?g {{
  {{ VALUES ?e {{ ENTITIES }} ?f <{RDF.subject}> ?e ; <{RDF.predicate}> ?p ; <{RDF.object}> ?o
     BIND(?e AS ?s) }}
  UNION {{ VALUES ?e {{ ENTITIES }} ?f <{RDF.object}> ?e ; <{RDF.predicate}> ?p ; <{RDF.subject}> ?s
     BIND(?e AS ?o) }}
  OPTIONAL {{ ?f <{MLKG.reportedIn}> ?paper }}
  OPTIONAL {{ ?f <{PROV.wasDerivedFrom}> ?sent }}
}} }}"""

_ROLES = {"method": MLKG.method, "baseline": MLKG.baseline, "dataset": MLKG.dataset, "metric": MLS.specifiedBy}

# One row per entity, result and role (more if a result had two values of a
# property); the caller keeps each result's first row. Grouping them here
# (GROUP BY with SAMPLE) cost Oxigraph five times as much.
# (With VALUES for the entities and another for the roles, Oxigraph read
# `?r ?role ?e` over the whole store: 6x slower at 50k abstracts.)
RESULTS_OF_Q = f"""
SELECT ?e ?r ?method ?baseline ?dataset ?metric ?valueText ?value ?unit ?paperOf ?sentence ?kind WHERE {{ GRAPH ?g {{
  {" UNION ".join(f"{{ VALUES ?e {{ ENTITIES }} ?r <{prop}> ?e ; a <{MLS.ModelEvaluation}> ; <{MLKG.method}> ?method }}"
                  for prop in _ROLES.values())}
  OPTIONAL {{ ?r a ?kind FILTER(?kind IN (<{MLKG.Score}>, <{MLKG.Improvement}>)) }}
  OPTIONAL {{ ?r <{MLKG.baseline}> ?baseline }}
  OPTIONAL {{ ?r <{MLKG.dataset}> ?dataset }}
  OPTIONAL {{ ?r <{MLS.specifiedBy}> ?metric }}
  OPTIONAL {{ ?r <{MLKG.valueText}> ?valueText }}
  OPTIONAL {{ ?r <{MLS.hasValue}> ?value }}
  OPTIONAL {{ ?r <{MLKG.unit}> ?unit }}
  OPTIONAL {{ ?r <{MLKG.reportedIn}> ?paperOf }}
  OPTIONAL {{ ?r <{PROV.wasDerivedFrom}> ?sentence }}
}} }}"""

# Entities are read in groups, one query of each kind per group: per entity,
# a small graph cost thousands of queries. A group holds at most
# GROUP_ENTITIES entities and about GROUP_PAPERS papers (an entity with more is
# read alone), which bounds what is in memory at once.
GROUP_ENTITIES, GROUP_PAPERS = 200, 5_000

# The entities that play a role in some result: the others need no RESULTS_OF_Q.
IN_RESULTS_Q = f"""
SELECT DISTINCT ?e WHERE {{ VALUES ?role {{ {" ".join(f"<{prop}>" for prop in _ROLES.values())} }} ?r ?role ?e }}"""

# The shown papers and sentences (VALUES is replaced by a list of IRIs).
# A paper has one id and one title; the first row of each is kept.
PAPERS_Q = _PROLOGUE + f"""
SELECT ?p ?id ?title WHERE {{
  VALUES ?p {{ IRIS }}
  OPTIONAL {{ ?p <{DCTERMS.identifier}> ?id }}
  OPTIONAL {{ ?p <{DCTERMS.title}> ?title }}
}}"""

SENTENCES_Q = _PROLOGUE + f"""
SELECT ?s ?text WHERE {{ VALUES ?s {{ IRIS }} ?s <{MLKG.text}> ?text }}"""


@dataclass
class ViewGraph:
    """The drawable graph plus the tables its nodes and edges point into.

    `graph` nodes are entity IRIs with attributes label, type, aliases,
    n_papers, linked and scored (see read_summary); edges are keyed by relation
    name (attribute rel), with `weight`, the number of papers stating them. After
    `add_evidence`, nodes and edges also carry papers, sentences and results
    (the ones the page shows, in its order) with n_papers, n_sentences and
    n_results (how many in all), and nodes proposed_in. Papers and sentences
    are keyed by IRI; results by their position in `results`.
    """

    graph: nx.MultiDiGraph
    papers: dict[str, dict] = field(default_factory=dict)
    sentences: dict[str, dict] = field(default_factory=dict)
    results: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    total_nodes: int = 0
    paper_count: int = 0
    # every entity of the store, drawn or not: a relation counts as evidence
    # only between two of them
    entities: frozenset[str] = frozenset()
    # the nodes of the map, the first screen of a whole graph (kg.view.overview);
    # None when every node is drawn (a neighbourhood, some types)
    overview: Overview | None = None


def _val(row, name: str) -> str | None:
    term = row[name]
    return None if term is None else term.value


def local_name(iri: str) -> str:
    return iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def no_evidence() -> dict:
    """The evidence attributes of a node or edge that has none."""
    return {"papers": [], "n_papers": 0, "sentences": [], "n_sentences": 0, "results": [], "n_results": 0}


def read_summary(store: KGStore) -> ViewGraph:
    """Every entity and relation of the store, without their evidence."""
    nodes: dict[str, dict] = {}
    for row in store.query(NODES_Q):
        # linked: has a relation; scored: plays a role in a result (else its
        # queries of relations or results are skipped: most entities have neither)
        nodes.setdefault(row["e"].value, {"type": row["type"].value, "label": "", "aliases": set(), "n_papers": 0,
                                          "linked": False, "scored": False})

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
    for row in store.query(NODE_PAPERS_Q):
        node = nodes.get(row["e"].value)
        if node is not None:
            node["n_papers"] = int(row["n"].value)

    vg = ViewGraph(graph=nx.MultiDiGraph(), entities=frozenset(nodes))
    vg.paper_count = int(next(iter(store.query(PAPER_COUNT_Q)))["n"].value)
    for iri, node in nodes.items():
        vg.graph.add_node(iri, **node)
    for row in store.query(EDGES_Q):
        s, o = row["s"].value, row["o"].value
        if s in nodes and o in nodes:
            rel = local_name(row["p"].value)
            vg.graph.add_edge(s, o, key=rel, rel=rel, weight=int(row["n"].value))
            vg.graph.nodes[s]["linked"] = vg.graph.nodes[o]["linked"] = True
    for row in store.query(MEASURED_Q):
        m, x = row["m"].value, row["x"].value
        if m in nodes and x in nodes:
            vg.graph.add_edge(m, x, key=MEASURED_BY, rel=MEASURED_BY, weight=int(row["n"].value))
    for row in store.query(IN_RESULTS_Q):
        if row["e"].value in nodes:
            vg.graph.nodes[row["e"].value]["scored"] = True
    vg.total_nodes = vg.graph.number_of_nodes()
    return vg


def _query_of(template: str, iris: list[str]) -> str:
    return template.replace("ENTITIES", " ".join(str(ox.NamedNode(iri)) for iri in iris))


def named_with(store: KGStore, iris: list[str]) -> dict[str, list[tuple[str, int]]]:
    """For each of `iris`, the entities named in the same papers, most papers first."""
    out: dict[str, list[tuple[str, int]]] = {iri: [] for iri in iris}
    for row in store.query(_query_of(NAMED_WITH_Q, iris)):
        out[row["e"].value].append((row["o"].value, int(row["n"].value)))
    for found in out.values():
        found.sort(key=lambda pair: (-pair[1], pair[0]))
    return out


def groups(vg: ViewGraph) -> Iterator[list[str]]:
    """`vg`'s nodes in the groups their evidence is read in."""
    group: list[str] = []
    papers = 0
    for iri in sorted(vg.graph.nodes):
        n = vg.graph.nodes[iri]["n_papers"]
        if group and (len(group) >= GROUP_ENTITIES or papers + n > GROUP_PAPERS):
            yield group
            group, papers = [], 0
        group.append(iri)
        papers += n
    if group:
        yield group


def paper_key(iri: str) -> str:
    """The id of the paper `iri` (kg.graph.iris.paper_iri made it from the id):
    the order the page lists papers in, known without reading the store."""
    return unquote(iri.rsplit("/", 1)[-1])


class _Gatherer:
    """The evidence of groups of entities (and of the edges leaving them) from
    the store; what the page shows goes into the view's tables."""

    def __init__(self, vg: ViewGraph):
        self.vg = vg
        self._result_index: dict[str, int] = {}
        # IRI -> its paper, of each sentence shown
        self.sentence_paper: dict[str, str | None] = {}

    def group(self, store: KGStore, iris: list[str]) -> None:
        """Reads the evidence of entities `iris` and fills in theirs and their edges'."""
        vg, graph = self.vg, self.vg.graph
        node_papers: dict[str, set[str]] = {iri: set() for iri in iris}
        proposed: dict[str, set[str]] = {iri: set() for iri in iris}
        node_sentences: dict[str, set[str]] = {iri: set() for iri in iris}
        # (subject, object, rel) -> papers, sentences
        edges: dict[tuple[str, str, str], tuple[set, set]] = {}
        sentence_paper: dict[str, str | None] = {}
        for row in store.query(_query_of(MENTIONS_OF_Q, iris)):
            e, paper = row["e"].value, row["p"].value
            node_papers[e].add(paper)
            if row["proposes"] is not None:
                proposed[e].add(paper)
        linked = [iri for iri in iris if graph.nodes[iri]["linked"]]
        for row in store.query(_query_of(FACTS_OF_Q, linked)) if linked else ():
            e, s, o = row["e"].value, row["s"].value, row["o"].value
            if s not in vg.entities or o not in vg.entities:
                continue
            paper, sent = _val(row, "paper"), _val(row, "sent")
            if paper:
                node_papers[e].add(paper)
            if sent:
                sentence_paper.setdefault(sent, paper)
                node_sentences[e].add(sent)
            rel = local_name(row["p"].value)
            if s == e and graph.has_edge(s, o, key=rel):
                edge_papers, edge_sentences = edges.setdefault((s, o, rel), (set(), set()))
                if paper:
                    edge_papers.add(paper)
                if sent:
                    edge_sentences.add(sent)

        by_iri: dict[str, dict[str, dict]] = {iri: {} for iri in iris}
        scored = [iri for iri in iris if graph.nodes[iri]["scored"]]
        for row in store.query(_query_of(RESULTS_OF_Q, scored)) if scored else ():
            e, r = row["e"].value, row["r"].value
            if r not in by_iri[e]:
                res = {k: _val(row, k) for k in ("method", "baseline", "dataset", "metric", "valueText", "value",
                                                "unit", "paperOf", "sentence", "kind")}
                res["kind"] = local_name(res["kind"]) if res["kind"] else ""
                if res["sentence"]:
                    sentence_paper.setdefault(res["sentence"], res["paperOf"])
                by_iri[e][r] = res

        for iri in iris:
            # in the order of their IRIs, which puts each paper's together
            results = [(r, by_iri[iri][r]) for r in sorted(by_iri[iri])]
            node_results = []
            for r, res in results:
                # once per role the entity plays, as each role links the result to it
                for role in _ROLES:
                    if res[role] == iri:
                        node_results.append((r, res))
                        if res["sentence"]:
                            node_sentences[iri].add(res["sentence"])
            self._fill(graph.nodes[iri], sentence_paper, node_papers[iri], node_sentences[iri], node_results)
            graph.nodes[iri]["proposed_in"] = [self._paper(p) for p in sorted(proposed[iri])[:MAX_PAPERS]]
            for _, o, rel in list(graph.out_edges(iri, keys=True)):
                edge_papers, edge_sentences = edges.get((iri, o, rel), (set(), set()))
                edge_results = [(r, res) for r, res in results
                                if res["method"] == iri and o in (res["dataset"], res["baseline"], res["metric"])]
                if rel == MEASURED_BY:  # no statement of its own: its results are its evidence
                    edge_papers = {res["paperOf"] for _, res in edge_results if res["paperOf"]}
                    edge_sentences = {res["sentence"] for _, res in edge_results if res["sentence"]}
                self._fill(graph.edges[iri, o, rel], sentence_paper, edge_papers, edge_sentences, edge_results)

    def _paper(self, iri: str) -> str:
        self.vg.papers.setdefault(iri, {})
        return iri

    def _sentence(self, iri: str, sentence_paper: dict[str, str | None]) -> str:
        if iri not in self.sentence_paper:
            paper = sentence_paper.get(iri)
            self.sentence_paper[iri] = paper and self._paper(paper)
        return iri

    def _result(self, r: str, res: dict, sentence_paper: dict[str, str | None]) -> int:
        if r not in self._result_index:
            self._result_index[r] = len(self.vg.results)
            self.vg.results.append(res)
            if res["paperOf"]:
                self._paper(res["paperOf"])
            if res["sentence"]:
                self._sentence(res["sentence"], sentence_paper)
        return self._result_index[r]

    def _fill(self, d: dict, sentence_paper: dict[str, str | None], papers: set[str], sentences: set[str],
              results: list[tuple[str, dict]]) -> None:
        """Sets the evidence attributes of node or edge `d`: what the page shows, and the counts."""
        d["papers"] = [self._paper(p) for p in sorted(papers, key=paper_key)[:MAX_PAPERS]]
        d["n_papers"] = len(papers)
        d["sentences"] = [self._sentence(s, sentence_paper) for s in sorted(sentences)[:MAX_SENTENCES]]
        d["n_sentences"] = len(sentences)
        d["results"] = [self._result(r, res, sentence_paper) for r, res in results[:MAX_RESULTS]]
        d["n_results"] = len(results)

    def tables(self, store: KGStore) -> None:
        """The ids and titles of the papers shown and the texts of the sentences shown."""
        vg = self.vg
        for rows in _in_chunks(store, PAPERS_Q, list(vg.papers)):
            for row in rows:
                iri = row["p"].value
                if not vg.papers[iri]:
                    vg.papers[iri] = {"id": _val(row, "id") or local_name(iri), "title": _val(row, "title") or ""}
        for iri, info in vg.papers.items():
            if not info:
                info.update(id=local_name(iri), title="")
        texts: dict[str, str] = {}
        for rows in _in_chunks(store, SENTENCES_Q, list(self.sentence_paper)):
            for row in rows:
                texts.setdefault(row["s"].value, row["text"].value)
        vg.sentences = {s: {"text": texts.get(s), "paper": paper} for s, paper in self.sentence_paper.items()}


def _in_chunks(store: KGStore, template: str, iris: list[str], size: int = 500):
    for i in range(0, len(iris), size):
        yield store.query(template.replace("IRIS", " ".join(str(ox.NamedNode(x)) for x in iris[i:i + size])))


def add_evidence(store: KGStore, vg: ViewGraph) -> ViewGraph:
    """Fills in the papers, sentences and results of `vg`'s nodes and edges
    (those `kg.view.select` kept), a group of entities at a time."""
    vg.papers, vg.sentences, vg.results = {}, {}, []
    gather = _Gatherer(vg)
    for group in groups(vg):
        gather.group(store, group)
    gather.tables(store)
    return vg


def read_view_graph(store: KGStore) -> ViewGraph:
    """Everything the view shows of the whole graph, read from the store."""
    return add_evidence(store, read_summary(store))
