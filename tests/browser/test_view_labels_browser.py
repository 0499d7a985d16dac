"""Labels in the HTML view at overview zoom, in headless Chromium: when the
whole graph is fitted to the window, vis-network would draw its labels a few
pixels tall, or not at all; the page writes the names of the entities most
papers name itself, readable and apart, and leaves the labels to vis-network
again when zoomed in. What is checked is what reaches the canvas: the texts
written on it, where, and vis-network's own test of whether it draws a label."""

from __future__ import annotations

import json

import pytest

from kg.builder import build

pytestmark = pytest.mark.browser

DATASETS = ["CIFAR-10", "ImageNet", "SQuAD", "MNIST", "COCO", "WMT14", "GLUE", "LibriSpeech"]
TASKS = ["image classification", "question answering", "machine translation", "speech recognition",
         "object detection"]


def hub_corpus(path, n: int = 400):
    """Many invented methods, each on two of a few well-known datasets: a graph
    of small stars around a handful of hubs."""
    lines = []
    for i in range(n):
        name = f"Quill{i}Net"
        a, b = DATASETS[i % len(DATASETS)], DATASETS[(i * 3 + 1) % len(DATASETS)]
        task = TASKS[i % len(TASKS)]
        lines.append({"id": f"hub-{i}", "title": f"{name}: a study",
                      "abstract": f"We propose {name}, a network for {task}. We evaluate {name} on {a} and {b}."})
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hubs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hubs")
    build([hub_corpus(folder / "hubs.jsonl")], folder / "out")
    return folder / "out" / "graph.html"


# Whether vis-network draws each node's own label, by its own test.
OWN_LABELS = "ids => ids.map(id => kgView.network.body.nodes[id].labelModule.visible())"
# The texts written on the canvas in one drawing.
CANVAS_TEXTS = """() => new Promise(done => {
    const texts = [], original = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        texts.push(String(text)); return original.call(this, text, ...rest); };
    kgView.network.once("afterDrawing", () => {
        CanvasRenderingContext2D.prototype.fillText = original; done(texts); });
    kgView.network.redraw();
})"""
GRAPH_BOX = "() => { const r = document.getElementById('kg-graph').getBoundingClientRect(); return [r.width, r.height]; }"


def open_labelled(open_view, html, width=900, height=600):
    view = open_view(html, width=width, height=height)
    page = view.page
    page.wait_for_function("() => document.documentElement.getAttribute('data-kg-labelled') === '1'", timeout=30_000)
    page.wait_for_timeout(200)
    return view


def assert_readable(boxes, width, height):
    """Every label inside the graph's box, and no two overlapping."""
    for b in boxes:
        assert 0 <= b["x0"] < b["x1"] <= width and 0 <= b["y0"] < b["y1"] <= height, b
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["x1"] <= b["x0"] or b["x1"] <= a["x0"] or a["y1"] <= b["y0"] or b["y1"] <= a["y0"]
            assert apart, (a, b)


def test_the_most_named_entities_are_named_at_overview_zoom(open_view, hubs):
    view = open_labelled(open_view, hubs)
    page = view.page
    assert view.errors == [] and view.requests == [view.url]
    scale = page.evaluate("kgView.network.getScale()")
    assert scale * 14 < 5, "the fitted graph is small enough that vis-network would hide every label"
    boxes = page.evaluate("kgView.labelBoxes()")
    must = page.evaluate("kgView.data.labelled.slice(0, kgView.data.mustLabel)")
    assert {b["id"] for b in boxes} >= set(must), "the entities most papers name are always named"
    assert {b["label"] for b in boxes} >= set(DATASETS), "the hubs are the datasets every method is evaluated on"
    assert_readable(boxes, *page.evaluate(GRAPH_BOX))
    texts = page.evaluate(CANVAS_TEXTS)
    assert {b["label"] for b in boxes} <= set(texts), "each label is written on the canvas"
    # vis-network's own labels wait for a zoom at which they can be read
    ids = page.evaluate("kgView.data.nodes.map(n => n.id)")
    assert not any(page.evaluate(OWN_LABELS, ids))
    others = set(page.evaluate("kgView.data.nodes.map(n => n.label)")) - {b["label"] for b in boxes}
    assert not others & set(texts)


def test_zoomed_in_vis_network_names_every_node_and_the_page_stops(open_view, hubs):
    page = open_labelled(open_view, hubs).page
    target = page.evaluate("kgView.data.labelled[0]")
    page.evaluate("""id => kgView.network.moveTo({position: kgView.network.getPositions([id])[id], scale: 1.5,
                                                  animation: false})""", target)
    page.wait_for_function("() => kgView.labelled().length === 0", timeout=5000)
    assert page.evaluate(OWN_LABELS, [target]) == [True]
    page.evaluate("kgView.network.fit({animation: false})")
    page.wait_for_function("() => kgView.labelled().length > 0", timeout=5000)


def test_labels_follow_a_pan(open_view, hubs):
    page = open_labelled(open_view, hubs).page
    before = {b["id"]: b for b in page.evaluate("kgView.labelBoxes()")}
    page.evaluate("""() => { const v = kgView.network.getViewPosition(), s = kgView.network.getScale();
                             kgView.network.moveTo({position: {x: v.x + 40 / s, y: v.y}, animation: false}); }""")
    page.wait_for_timeout(100)
    after = {b["id"]: b for b in page.evaluate("kgView.labelBoxes()")}
    moved = [abs((after[i]["x0"] - before[i]["x0"]) + 40) < 1 for i in set(before) & set(after)
             if not before[i]["line"] and not after[i]["line"]]
    assert moved and sum(moved) >= len(moved) * 0.8, "the labels move with the drawing"
