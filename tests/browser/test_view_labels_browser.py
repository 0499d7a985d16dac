"""Labels in the HTML view at overview zoom, in headless Chromium: when the
whole graph is fitted to the window, vis-network would draw no label at all;
the page keeps the best-connected nodes named, readable and apart, and gives
them back their normal size when zoomed in. What is checked is what
vis-network draws: its own test of whether a label is drawn, the label's size
on screen, and the texts that reach the canvas."""

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


# For each node id: is its label drawn by vis-network's own test, and how tall is it on screen.
LABEL_STATE = """ids => ids.map(id => {
    const node = kgView.network.body.nodes[id];
    return {id: id, label: node.options.label, drawn: node.labelModule.visible(),
            px: node.labelModule.fontOptions.size * kgView.network.getScale()};
})"""
# The texts vis-network writes on the canvas in one drawing.
CANVAS_TEXTS = """() => new Promise(done => {
    const texts = [], original = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        texts.push(String(text)); return original.call(this, text, ...rest); };
    kgView.network.once("afterDrawing", () => {
        CanvasRenderingContext2D.prototype.fillText = original; done(texts); });
    kgView.network.redraw();
})"""


def open_labelled(open_view, html):
    view = open_view(html, width=900, height=600)
    page = view.page
    page.wait_for_function("() => document.documentElement.getAttribute('data-kg-labelled') === '1'", timeout=30_000)
    page.wait_for_timeout(200)  # the drawing after the labels' update
    return view


def test_best_connected_nodes_are_named_at_overview_zoom(open_view, hubs):
    view = open_labelled(open_view, hubs)
    page = view.page
    assert view.errors == [] and view.requests == [view.url]
    scale = page.evaluate("kgView.network.getScale()")
    assert scale * 14 < 5, "the fitted graph is small enough that vis-network would hide every label"
    labelled = page.evaluate("kgView.labelled()")
    top = page.evaluate("kgView.data.labelled")
    assert top[0] in labelled, "the best-connected node is always named"
    best = page.evaluate("kgView.data.labelled.slice(0, 5).map(i => kgView.data.nodes[i].label)")
    assert set(best) & set(DATASETS), "the hubs are the datasets many methods use"
    state = page.evaluate(LABEL_STATE, labelled)
    assert len(state) >= 5
    for s in state:
        assert s["drawn"] and 12 <= s["px"] <= 14, s
    # Any other node's label is not drawn at this zoom.
    others = page.evaluate("ids => kgView.data.nodes.map(n => n.id).filter(i => !ids.includes(i)).slice(0, 50)",
                           labelled)
    assert not any(s["drawn"] for s in page.evaluate(LABEL_STATE, others))
    # And on the canvas: exactly the chosen labels are written.
    texts = page.evaluate(CANVAS_TEXTS)
    names = {s["label"] for s in state}
    assert names <= set(texts)
    assert not {page.evaluate("i => kgView.data.nodes[i].label", i) for i in others} & set(texts)


def test_labels_do_not_overlap_and_shrink_back_when_zoomed_in(open_view, hubs):
    page = open_labelled(open_view, hubs).page
    boxes = page.evaluate("""() => kgView.labelled().map(id => {
        const net = kgView.network, p = net.canvasToDOM(net.getPositions([id])[id]);
        const w = net.body.nodes[id].labelModule.size.width * net.getScale();
        return [p.x - w / 2, p.x + w / 2, p.y]; })""")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[1] <= b[0] or b[1] <= a[0] or abs(a[2] - b[2]) > 13
            assert apart, (a, b)
    page.evaluate("kgView.network.moveTo({scale: 1.5, animation: false})")
    page.wait_for_function("() => kgView.labelled().length === 0", timeout=5000)
    sizes = page.evaluate("kgView.data.labelled.map(i => kgView.network.body.nodes[i].labelModule.fontOptions.size)")
    assert set(sizes) == {14}
    page.evaluate("kgView.network.fit({animation: false})")
    page.wait_for_function("() => kgView.labelled().length > 0", timeout=5000)
