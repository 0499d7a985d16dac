"""The map of 1,000 real abstracts (the first 1,000 of the team's pool in
../shared), in headless Chromium at a common laptop size: the ten entities
named by the most papers are named on the first screen, readable and apart,
and the confetti of entities with no relation and of pairs that touch
nothing else is not drawn, while search still finds it."""

from __future__ import annotations

import itertools
from pathlib import Path

import networkx as nx
import pytest

from kg.builder import build
from kg.sparql.prefixes import PREFIXES
from kg.store import KGStore

pytestmark = [pytest.mark.browser, pytest.mark.shared, pytest.mark.slow]

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
POOL = "corpus/pwc-abstracts.jsonl"
ABSTRACTS = 1000
WIDTH, HEIGHT = 1400, 900

# Papers naming each entity: those that mention or propose it.
NAMED_Q = """
SELECT ?e ?label (COUNT(DISTINCT ?p) AS ?n) WHERE {
  { ?p mlkg:mentions ?e } UNION { ?p mlkg:proposes ?e }
  GRAPH kgg:entities { ?e skos:prefLabel ?label }
} GROUP BY ?e ?label"""
# What ties two entities, as the graph states it: relations, and a method's results in a metric.
TIES_Q = """
SELECT DISTINCT ?a ?b WHERE {
  { ?f a rdf:Statement ; rdf:subject ?a ; rdf:object ?b }
  UNION { ?r mlkg:method ?a ; mls:specifiedBy ?b }
}"""
ENTITIES_Q = "SELECT DISTINCT ?e WHERE { GRAPH kgg:entities { ?e a mlkg:Entity } }"


@pytest.fixture(scope="module")
def pool_map(tmp_path_factory):
    source = SHARED / POOL  # as tests/conftest.py finds ../shared; module-scoped, so not through its fixture
    if not source.exists():
        pytest.skip(f"../shared/{POOL} is not here (only present in the team's workplace)")
    folder = tmp_path_factory.mktemp("pool-map")
    corpus = folder / "pool-1000.jsonl"
    with source.open(encoding="utf-8") as fh, corpus.open("w", encoding="utf-8") as out:
        out.writelines(itertools.islice(fh, ABSTRACTS))
    build([corpus], folder / "out", workers=2)
    return folder / "out"


def most_named(store: KGStore, top: int = 10) -> list[str]:
    """The labels of the `top` entities most papers name, and of any tied with the last."""
    rows = sorted(((int(r["n"].value), r["label"].value) for r in store.query(NAMED_Q, prefixes=PREFIXES)),
                  reverse=True)
    cut = rows[top - 1][0]
    return [label for n, label in rows if n >= cut]


def ties(store: KGStore) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(r["e"].value for r in store.query(ENTITIES_Q, prefixes=PREFIXES))
    g.add_edges_from((r["a"].value, r["b"].value) for r in store.query(TIES_Q, prefixes=PREFIXES)
                     if r["a"].value != r["b"].value)
    return g


def test_the_most_named_are_named_on_the_first_screen_and_no_confetti(open_view, pool_map, tmp_path_factory):
    store = KGStore.at(pool_map, read_only=True)
    top = most_named(store)
    graph = ties(store)

    view = open_view(pool_map / "graph.html", width=WIDTH, height=HEIGHT)
    page = view.page
    page.wait_for_function("() => document.documentElement.getAttribute('data-kg-labelled') === '1'", timeout=60_000)
    page.wait_for_timeout(300)
    assert view.errors == [] and view.requests == [view.url]
    shot = tmp_path_factory.mktemp("pool-map-shot") / "first-screen.png"
    page.screenshot(path=str(shot))

    boxes = page.evaluate("kgView.labelBoxes()")
    named = {b["label"] for b in boxes}
    missing = [label for label in top if label not in named]
    assert not missing, f"not named on the first screen: {missing} (screenshot {shot})"
    width, height = page.evaluate(
        "() => { const r = document.getElementById('kg-graph').getBoundingClientRect(); return [r.width, r.height]; }")
    for b in boxes:
        assert 0 <= b["x0"] < b["x1"] <= width and 0 <= b["y0"] < b["y1"] <= height, b
    for a, b in itertools.combinations(boxes, 2):
        assert a["x1"] <= b["x0"] or b["x1"] <= a["x0"] or a["y1"] <= b["y0"] or b["y1"] <= a["y0"], (a, b)
    written = page.evaluate("""() => new Promise(done => {
        const texts = [], original = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (t, ...rest) {
            texts.push(String(t)); return original.call(this, t, ...rest); };
        kgView.network.once("afterDrawing", () => { CanvasRenderingContext2D.prototype.fillText = original; done(texts); });
        kgView.network.redraw(); })""")
    assert set(top) <= set(written)

    # What is drawn: no entity without a tie, and neither a pair that touches nothing else nor its tie.
    shown = set(page.evaluate("""() => kgView.nodes.get({filter: n => !n.hidden})
                                     .map(n => kgView.data.nodeInfo[n.id].iri)"""))
    shown_edges = {frozenset(e) for e in page.evaluate("""() => kgView.edges.get({filter: e => !e.hidden})
        .map(e => [kgView.data.nodeInfo[e.from].iri, kgView.data.nodeInfo[e.to].iri])""")}
    assert 0 < len(shown) <= 450, "the map is the best-connected few hundred, not the whole graph"
    loners = {n for n in graph if graph.degree(n) == 0}
    pairs = [set(p) for p in nx.connected_components(graph) if len(p) == 2]
    assert len(loners) > 1000 and len(pairs) > 50, "the build has the confetti the map leaves out"
    assert not shown & loners
    assert not [p for p in pairs if p <= shown or frozenset(p) in shown_edges]
    note = page.inner_text("#kg-map-note")
    assert f"{len(shown):,} best-connected" in note and "with no relation" in note and "isolated pairs" in note

    # Search still reaches what the map leaves out, and shows it.
    loner = sorted(loners)[0]
    label = page.evaluate("iri => kgView.data.nodes[kgView.data.nodeInfo.findIndex(i => i.iri === iri)].label", loner)
    page.fill("#kg-search", label)
    page.wait_for_selector("#kg-matches li[role=option]")
    page.keyboard.press("Enter")
    target = page.evaluate("iri => kgView.data.nodeInfo.findIndex(i => i.iri === iri)", loner)
    assert page.evaluate("id => !kgView.nodes.get(id).hidden", target)
    assert page.evaluate("kgView.network.getSelectedNodes()") == [target]
    assert "Not on the map" in page.inner_text("#kg-panel-body")

