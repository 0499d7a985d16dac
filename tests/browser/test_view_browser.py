"""The HTML view in headless Chromium with the network blocked: it draws every
entity, finds nodes by any name, filters, explains, and runs no text from
an abstract."""

from __future__ import annotations

import pytest

from kg.builder import build
from kg.store import KGStore
from kg.view import write_view
from view_corpus import ENTITY_COUNT_Q, HOSTILE_TITLE, PWN_SCRIPT, RELATION_COUNT_Q, write_corpus

pytestmark = pytest.mark.browser

TYPE_COUNT_Q = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?e a mlkg:Method }"""
# An alias that search can only find through the alias itself.
ALIAS_Q = """
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
SELECT ?label ?alias WHERE {
  ?e a mlkg:Entity ; skos:prefLabel ?label ; skos:altLabel ?alias .
  FILTER (!CONTAINS(LCASE(?label), LCASE(?alias)) && !CONTAINS(LCASE(?alias), LCASE(?label)))
} ORDER BY ?alias LIMIT 1"""

DRAWN_NODES = "Object.keys(kgView.network.body.nodes).length"
VISIBLE_NODES = "kgView.nodes.get({filter: n => !n.hidden}).length"
VISIBLE_EDGES = "kgView.edges.get({filter: e => !e.hidden}).length"
PANEL_TEXT = "document.getElementById('kg-panel').hidden ? null : document.getElementById('kg-panel-body').textContent"


def count(store, q) -> int:
    return int(next(iter(store.query(q)))["n"].value)


@pytest.fixture(scope="module")
def demo(demo_build, tmp_path_factory):
    """The demo build's store, and its view written as `kg build` writes it."""
    html = tmp_path_factory.mktemp("demo-view") / "graph.html"
    write_view(KGStore.at(demo_build, read_only=True), html)
    return demo_build, html


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("small")
    build([write_corpus(folder)], folder / "out")
    return folder / "out"


def assert_offline_and_clean(view):
    assert view.errors == []
    assert view.requests == [view.url], "the page fetched nothing but itself"
    assert view.refused == []


def search(page, text: str) -> None:
    page.fill("#kg-search", text)
    page.wait_for_selector("#kg-matches li[role=option]")
    page.keyboard.press("Enter")


def node_id(page, label: str) -> int:
    return page.evaluate("l => kgView.data.nodes.find(n => n.label === l).id", label)


def click_node(page, label: str) -> None:
    """A real mouse click on the node, after centring it with no animation."""
    target = node_id(page, label)
    page.evaluate("""id => kgView.network.moveTo({position: kgView.network.getPositions([id])[id], scale: 1.5,
                                                  animation: false})""", target)
    dom = page.evaluate("id => kgView.network.canvasToDOM(kgView.network.getPositions([id])[id])", target)
    box = page.locator("#kg-graph").bounding_box()
    page.mouse.move(box["x"] + dom["x"], box["y"] + dom["y"])
    page.mouse.click(box["x"] + dom["x"], box["y"] + dom["y"])


def test_demo_view_draws_every_entity_offline(open_view, demo):
    store = KGStore.at(demo[0], read_only=True)
    view = open_view(demo[1])
    assert_offline_and_clean(view)
    assert view.page.evaluate(DRAWN_NODES) == count(store, ENTITY_COUNT_Q) > 0
    assert view.page.evaluate("Object.keys(kgView.network.body.edges).length") == count(store, RELATION_COUNT_Q)
    # The first screen is the map: the entities off it are hidden, and every one on it lies inside the canvas.
    on_map = view.page.evaluate("kgView.data.nodeInfo.filter(i => i.map).length")
    assert 0 < on_map < count(store, ENTITY_COUNT_Q) and view.page.evaluate(VISIBLE_NODES) == on_map
    outside = view.page.evaluate("""() => {
        const net = kgView.network, box = net.canvas.frame.canvas.getBoundingClientRect();
        const shown = kgView.nodes.get({filter: n => !n.hidden}).map(n => n.id);
        return Object.values(net.getPositions(shown)).map(p => net.canvasToDOM(p))
            .filter(p => p.x < -1 || p.y < -1 || p.x > box.width + 1 || p.y > box.height + 1).length; }""")
    assert outside == 0
    assert view.page.inner_text("#kg-map-note").startswith("The map shows the ")
    # The checkbox shows the others too.
    view.page.check("#kg-show-outside")
    assert view.page.evaluate(VISIBLE_NODES) == count(store, ENTITY_COUNT_Q)
    legend = view.page.inner_text("#kg-legend")
    assert "Method" in legend and "evaluatedOn" in legend


def test_search_finds_a_node_by_an_alias_and_centres_on_it(open_view, demo):
    rows = list(KGStore.at(demo[0], read_only=True).query(ALIAS_Q))
    assert rows, "the demo corpus names some entity by an alias"
    label, alias = rows[0]["label"].value, rows[0]["alias"].value
    view = open_view(demo[1])
    page = view.page
    search(page, alias)
    target = node_id(page, label)
    assert page.evaluate("kgView.network.getSelectedNodes()") == [target]
    page.wait_for_function("""id => {
        const p = kgView.network.getPositions([id])[id], v = kgView.network.getViewPosition();
        return Math.hypot(p.x - v.x, p.y - v.y) < 2; }""", arg=target, timeout=5000)
    panel = page.evaluate(PANEL_TEXT)
    assert panel.startswith(label) and alias in panel
    assert view.errors == []


def test_filters_hide_an_entity_type_and_a_relation(open_view, demo):
    store = KGStore.at(demo[0], read_only=True)
    page = open_view(demo[1]).page
    total, edges = page.evaluate(VISIBLE_NODES), page.evaluate(VISIBLE_EDGES)
    methods = page.evaluate("kgView.nodes.get({filter: n => !n.hidden && kgView.data.nodeInfo[n.id].type === 'Method'})"
                            ".length")
    assert 0 < methods <= count(store, TYPE_COUNT_Q)
    page.uncheck("#kg-type-filters input[data-filter=Method]")
    assert page.evaluate(VISIBLE_NODES) == total - methods
    assert page.evaluate(VISIBLE_EDGES) == 0, "every relation starts at a method"
    page.check("#kg-type-filters input[data-filter=Method]")
    assert page.evaluate(VISIBLE_EDGES) == edges
    hidden = page.evaluate("kgView.edges.get({filter: e => !e.hidden && kgView.data.edgeInfo[e.id].rel === "
                           "'evaluatedOn'}).length")
    page.uncheck("#kg-rel-filters input[data-filter=evaluatedOn]")
    assert hidden > 0 and page.evaluate(VISIBLE_EDGES) == edges - hidden


def test_clicking_a_node_shows_names_papers_sentences_and_results(open_view, small):
    page = open_view(small / "graph.html").page
    click_node(page, "Sparse Gated Mixer")
    panel = page.evaluate(PANEL_TEXT)
    assert panel.startswith("Sparse Gated Mixer")
    for part in ("SGM", "v-sgm", "We evaluate SGM on CIFAR-10 and ImageNet.", "ResNet-50", "1.5 points"):
        assert part in panel


def test_a_hostile_abstract_runs_nothing_and_shows_as_text(open_view, small):
    view = open_view(small / "graph.html")
    page = view.page
    assert_offline_and_clean(view)
    search(page, "HostileNet")
    panel = page.evaluate(PANEL_TEXT)
    assert PWN_SCRIPT in panel and HOSTILE_TITLE in panel, "the markup is shown, as text"
    # A node whose papers include the hostile one, hovered (tooltip) and clicked (panel).
    click_node(page, "CIFAR-10")
    assert HOSTILE_TITLE in page.evaluate(PANEL_TEXT)
    page.wait_for_timeout(400)
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("document.images.length") == 0
    assert page.evaluate("document.scripts.length") == 3
    assert view.errors == [] and view.requests == [view.url]


@pytest.mark.shared
@pytest.mark.slow
def test_seed_corpus_view_opens_and_pans_at_once(open_view, shared, tmp_path_factory):
    corpus = shared("corpus/seed-abstracts.jsonl")
    out = tmp_path_factory.mktemp("seed") / "out"
    build([corpus], out)
    store = KGStore.at(out, read_only=True)
    view = open_view(out / "graph.html")
    page = view.page
    assert_offline_and_clean(view)
    assert page.evaluate(DRAWN_NODES) == count(store, ENTITY_COUNT_Q)
    box = page.locator("#kg-graph").bounding_box()
    # A press on a node (or on the large label of a best-connected one) drags the node, not the view:
    # the centre first, then spots away from it, until one lies on empty canvas.
    for dx, dy in ((0, 0), (-300, -250), (300, 250), (-300, 250), (300, -250)):
        page.evaluate("kgView.network.unselectAll()")
        before = page.evaluate("kgView.network.getViewPosition()")
        x, y = box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2 + dy
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 200, y + 120, steps=8)
        page.mouse.up()
        after = page.evaluate("kgView.network.getViewPosition()")
        if not page.evaluate("kgView.network.getSelectedNodes().length"):
            break
    assert abs(after["x"] - before["x"]) > 1 and abs(after["y"] - before["y"]) > 1
    assert view.errors == []


def test_search_shows_an_entity_that_is_off_the_map(open_view, demo):
    page = open_view(demo[1]).page
    target = page.evaluate("kgView.data.nodeInfo.findIndex(i => !i.map && i.degree === 0)")
    assert target >= 0, "the demo build has entities with no relation, which the map leaves out"
    label = page.evaluate("id => kgView.data.nodes[id].label", target)
    assert page.evaluate("id => kgView.nodes.get(id).hidden", target)
    search(page, label)
    assert page.evaluate("id => !kgView.nodes.get(id).hidden", target)
    assert page.evaluate("kgView.network.getSelectedNodes()") == [target]
    panel = page.evaluate(PANEL_TEXT)
    assert panel.startswith(label) and "Not on the map" in panel
