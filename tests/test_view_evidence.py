"""What the view reads for each node and edge (kg.view.graphdata), against the
store read quad by quad in plain Python: the papers, sentences and results
the page shows, their order and cut-off, and how many there are in all; and
that a summary reads the evidence of the drawn nodes only."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.builder import build
from kg.graph.vocab import MLKG, MLS, PROV, RDF
from kg.store import KGStore
from kg.view.graphdata import (MAX_PAPERS, MAX_RESULTS, MAX_SENTENCES, add_evidence, paper_key, read_summary,
                               read_view_graph)
from kg.view.select import select
from view_corpus import write_corpus

# Thirty papers that all evaluate on CIFAR-10 and report a score there (sentences
# written for this test): more papers, sentences and results than the page shows.
CROWD = [
    {"id": f"crowd-{i:02d}", "title": f"Crowd paper {i}",
     "abstract": f"We propose Crowd{i}Net, a convolutional network for image classification. "
                 f"We evaluate Crowd{i}Net on CIFAR-10. "
                 f"Crowd{i}Net achieves {60 + i}.5% accuracy on CIFAR-10."}
    for i in range(30)
]


def reference(store: KGStore, entities: set[str]) -> tuple[dict, dict]:
    """Each entity's and each relation's papers, sentences and results, read quad by quad."""
    db = store.db
    quads = lambda s=None, p=None, o=None: db.quads_for_pattern(s, p, o, None)  # noqa: E731
    node_papers, node_sentences, node_results = defaultdict(set), defaultdict(set), defaultdict(list)
    edge_papers, edge_sentences = defaultdict(set), defaultdict(set)
    for how in (MLKG.mentions, MLKG.proposes):
        for q in quads(p=ox.NamedNode(str(how))):
            node_papers[q.object.value].add(q.subject.value)
    statements = {q.subject for q in quads(p=ox.NamedNode(str(RDF.type)), o=ox.NamedNode(str(RDF.Statement)))}
    one = lambda s, p: next((q.object for q in quads(s=s, p=ox.NamedNode(str(p)))), None)  # noqa: E731
    for f in statements:
        s, p, o = one(f, RDF.subject), one(f, RDF.predicate), one(f, RDF.object)
        if s.value not in entities or o.value not in entities:
            continue
        paper, sent = one(f, MLKG.reportedIn), one(f, PROV.wasDerivedFrom)
        key = (s.value, o.value, p.value.rsplit("#", 1)[-1])
        for end in (s.value, o.value):
            if paper:
                node_papers[end].add(paper.value)
            if sent:
                node_sentences[end].add(sent.value)
        if paper:
            edge_papers[key].add(paper.value)
        if sent:
            edge_sentences[key].add(sent.value)
    results = {q.subject for q in quads(p=ox.NamedNode(str(RDF.type)), o=ox.NamedNode(str(MLS.ModelEvaluation)))}
    edge_results = defaultdict(set)
    for r in results:
        roles = {role: one(r, prop) for role, prop in
                 (("method", MLKG.method), ("baseline", MLKG.baseline), ("dataset", MLKG.dataset),
                  ("metric", MLS.specifiedBy))}
        sent, paper = one(r, PROV.wasDerivedFrom), one(r, MLKG.reportedIn)
        for term in roles.values():
            if term is not None:
                node_results[term.value].append(r.value)
                if sent:
                    node_sentences[term.value].add(sent.value)
        for target in (roles["dataset"], roles["baseline"], roles["metric"]):
            if roles["method"] is not None and target is not None:
                edge_results[(roles["method"].value, target.value)].add(r.value)
        # the view's measuredBy edge: a method to the metric of its result, with the result's paper and sentence
        if roles["method"] is not None and roles["metric"] is not None:
            key = (roles["method"].value, roles["metric"].value, "measuredBy")
            edge_results[key[:2]].add(r.value)
            measured = edge_papers.setdefault(key, set()), edge_sentences.setdefault(key, set())
            if paper:
                measured[0].add(paper.value)
            if sent:
                measured[1].add(sent.value)
    nodes = {e: {"papers": node_papers[e], "sentences": node_sentences[e], "results": node_results[e]}
             for e in entities}
    edges = {k: {"papers": edge_papers[k], "sentences": edge_sentences[k], "results": edge_results[k[:2]]}
             for k in set(edge_papers) | set(edge_sentences)}
    return nodes, edges


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    folder = tmp_path_factory.mktemp("evidence")
    crowd = folder / "crowd.jsonl"
    crowd.write_text("".join(json.dumps(r) + "\n" for r in CROWD), encoding="utf-8")
    out = folder / "out"
    build([write_corpus(folder), crowd], out, view=False)
    return KGStore.at(out, read_only=True)


def test_every_node_and_edge_shows_the_first_of_its_evidence_and_counts_all(store):
    vg = read_view_graph(store)
    nodes, edges = reference(store, set(vg.entities))
    cifar = next(n for n, d in vg.graph.nodes(data=True) if d["label"] == "CIFAR-10")
    assert len(nodes[cifar]["papers"]) > MAX_PAPERS and len(nodes[cifar]["sentences"]) > MAX_SENTENCES
    assert len(nodes[cifar]["results"]) > MAX_RESULTS, "the corpus must go past every cut-off"
    for iri, d in vg.graph.nodes(data=True):
        exp = nodes[iri]
        assert (d["n_papers"], d["n_sentences"], d["n_results"]) == \
            (len(exp["papers"]), len(exp["sentences"]), len(exp["results"])), d["label"]
        assert d["papers"] == sorted(exp["papers"], key=paper_key)[:MAX_PAPERS], d["label"]
        assert d["sentences"] == sorted(exp["sentences"])[:MAX_SENTENCES], d["label"]
        assert len(d["results"]) == min(MAX_RESULTS, len(exp["results"]))
    for s, o, rel, d in vg.graph.edges(keys=True, data=True):
        exp = edges[(s, o, rel)]
        assert (d["n_papers"], d["n_sentences"], d["n_results"]) == \
            (len(exp["papers"]), len(exp["sentences"]), len(exp["results"])), (s, rel, o)
        assert d["papers"] == sorted(exp["papers"], key=paper_key)[:MAX_PAPERS]
        assert d["sentences"] == sorted(exp["sentences"])[:MAX_SENTENCES]
        assert len(d["results"]) == min(MAX_RESULTS, len(exp["results"]))
    assert any(rel == "measuredBy" for _, _, rel in vg.graph.edges(keys=True))
    # the summary's paper counts (GROUP BY in the store) agree with the evidence, for nodes and edges
    summary = read_summary(store)
    assert {n: d["n_papers"] for n, d in summary.graph.nodes(data=True)} == \
        {n: d["n_papers"] for n, d in vg.graph.nodes(data=True)}
    assert {(s, o, k): d["weight"] for s, o, k, d in summary.graph.edges(keys=True, data=True)} == \
        {(s, o, k): d["n_papers"] for s, o, k, d in vg.graph.edges(keys=True, data=True)}


def test_results_shown_are_the_first_by_iri_with_their_sentences_and_papers(store):
    vg = read_view_graph(store)
    cifar = next(n for n, d in vg.graph.nodes(data=True) if d["label"] == "CIFAR-10")
    rows = [vg.results[i] for i in vg.graph.nodes[cifar]["results"]]
    assert len(rows) == MAX_RESULTS
    # the first twenty results by IRI are those of the twenty papers first by id
    assert [vg.papers[r["paperOf"]]["id"] for r in rows] == [f"crowd-{i:02d}" for i in range(MAX_RESULTS)]
    for r in rows:
        assert r["dataset"] == cifar and r["kind"] == "Score"
        assert vg.sentences[r["sentence"]]["paper"] == r["paperOf"]
        assert "accuracy on CIFAR-10" in vg.sentences[r["sentence"]]["text"]
    assert vg.papers[vg.graph.nodes[cifar]["papers"][0]] == {"id": "crowd-00", "title": "Crowd paper 0"}


def test_a_summary_reads_the_evidence_of_the_drawn_nodes_only(store):
    whole = read_view_graph(store)
    small = add_evidence(store, select(read_summary(store), max_nodes=3))
    assert small.graph.number_of_nodes() == 3
    assert small.total_nodes == whole.total_nodes and small.paper_count == whole.paper_count == 33
    for iri, d in small.graph.nodes(data=True):
        full = whole.graph.nodes[iri]
        assert {k: d[k] for k in ("n_papers", "n_sentences", "n_results", "papers", "sentences")} == \
            {k: full[k] for k in ("n_papers", "n_sentences", "n_results", "papers", "sentences")}
        assert [small.results[i] for i in d["results"]] == [whole.results[i] for i in full["results"]]
    shown_papers = {p for _, d in small.graph.nodes(data=True) for p in d["papers"] + d["proposed_in"]}
    shown_papers |= {p for _, _, d in small.graph.edges(data=True) for p in d["papers"]}
    shown_papers |= {r["paperOf"] for r in small.results} | {s["paper"] for s in small.sentences.values()}
    assert set(small.papers) == shown_papers, "the papers table holds the shown papers only"
    assert len(small.papers) < len(whole.papers)


def test_groups_of_any_size_read_the_same_evidence(store, monkeypatch):
    import kg.view.graphdata as graphdata

    whole = read_view_graph(store)
    monkeypatch.setattr(graphdata, "GROUP_ENTITIES", 2)
    monkeypatch.setattr(graphdata, "GROUP_PAPERS", 3)
    small = read_view_graph(store)
    assert len(list(graphdata.groups(small))) > small.graph.number_of_nodes() // 2
    assert [len(g) for g in graphdata.groups(small) if len(g) == 1], "an entity with more papers is read alone"
    keys = ("n_papers", "n_sentences", "n_results", "papers", "sentences", "proposed_in")
    for iri, d in small.graph.nodes(data=True):
        assert {k: d[k] for k in keys} == {k: whole.graph.nodes[iri][k] for k in keys}
        assert [small.results[i] for i in d["results"]] == [whole.results[i] for i in whole.graph.nodes[iri]["results"]]
    for s, o, rel, d in small.graph.edges(keys=True, data=True):
        full = whole.graph.edges[s, o, rel]
        assert {k: d[k] for k in keys[:5]} == {k: full[k] for k in keys[:5]}
    assert small.papers == whole.papers and small.sentences == whole.sentences
