"""The HTML view without a browser: what goes into the page, how it is laid
out, which part of the graph is drawn, and that no text can break out of it.
(Loading it in Chromium is in tests/browser/.)"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.builder import build
from kg.cli import build_parser, main
from kg.store import KGStore
from kg.view import DEFAULT_MAX_NODES, ViewError, parse_types, write_view
from kg.view.graphdata import read_view_graph
from kg.view.html import json_for_html, render_html
from kg.view.layout import layout
from kg.view.payload import view_payload
from kg.view.select import select
from view_corpus import ENTITY_COUNT_Q, HOSTILE_TITLE, PWN_IMG, PWN_SCRIPT, RELATION_COUNT_Q, write_corpus


class Page(HTMLParser):
    """The tags of a page and the text of its scripts."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[tuple[dict, str]] = []
        self._in_script: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("view")
    out = folder / "out"
    build([write_corpus(folder)], out)
    return out


@pytest.fixture(scope="module")
def store(built):
    return KGStore.at(built, read_only=True)


@pytest.fixture(scope="module")
def html(built):
    return (built / "graph.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def payload(store):
    return view_payload(select(read_view_graph(store)))


def count(store, q) -> int:
    return int(next(iter(store.query(q)))["n"].value)


def node_named(payload, label):
    (i,) = [n["id"] for n in payload["nodes"] if n["label"] == label]
    return payload["nodes"][i], payload["nodeInfo"][i]


# -- what is drawn -------------------------------------------------------------
def test_every_entity_and_relation_of_the_store_is_drawn(store, payload):
    assert len(payload["nodes"]) == count(store, ENTITY_COUNT_Q) > 0
    assert len(payload["edges"]) == count(store, RELATION_COUNT_Q) > 0
    assert [n["id"] for n in payload["nodes"]] == list(range(len(payload["nodes"])))
    ids = {n["id"] for n in payload["nodes"]}
    assert all(e["from"] in ids and e["to"] in ids for e in payload["edges"])


def test_nodes_carry_type_style_size_and_fixed_position(payload):
    node, info = node_named(payload, "Sparse Gated Mixer")
    assert info["type"] == "Method" and node["color"] == payload["types"]["Method"]["color"]
    dataset, dinfo = node_named(payload, "CIFAR-10")
    assert dataset["shape"] != node["shape"], "types differ in shape as well as colour"
    leaf, linfo = node_named(payload, "SQuAD")
    assert info["degree"] > linfo["degree"] and node["size"] > leaf["size"], "size grows with degree"
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in payload["nodes"])
    assert payload["options"]["physics"]["enabled"] is False


def test_label_candidates_are_the_entities_most_papers_name_then_each_type_s_first(payload):
    info = payload["nodeInfo"]
    chosen, must = payload["labelled"], payload["mustLabel"]
    assert chosen and must and all(info[i]["degree"] > 0 and info[i]["map"] for i in chosen)
    on_map = [i for i, d in enumerate(info) if d["map"] and d["degree"]]
    papers = sorted((info[i]["nPapers"] for i in on_map), reverse=True)
    assert [info[i]["nPapers"] for i in chosen[:must]] == papers[:must], "the most named come first"
    for kind in {info[i]["type"] for i in on_map}:
        best = max(info[i]["nPapers"] for i in on_map if info[i]["type"] == kind)
        assert any(info[i]["type"] == kind and info[i]["nPapers"] == best for i in chosen), kind


def test_panel_data_has_aliases_papers_sentences_and_results(payload):
    _, info = node_named(payload, "Sparse Gated Mixer")
    assert "SGM" in info["aliases"]
    assert [payload["papers"][p][0] for p in info["papers"]] == ["v-sgm"]
    assert [payload["papers"][p][0] for p in info["proposedIn"]] == ["v-sgm"]
    texts = [payload["sentences"][s][0] for s in info["sentences"]]
    assert "We evaluate SGM on CIFAR-10 and ImageNet." in texts
    results = [payload["results"][r] for r in info["results"]]
    assert any(r["value"] == "1.5" and r["unit"] == "points" and r["baseline"] == "ResNet-50" for r in results)

    by_id = {n["id"]: n["label"] for n in payload["nodes"]}
    (edge,) = [i for e, i in zip(payload["edges"], payload["edgeInfo"])
               if by_id[e["from"]] == "Sparse Gated Mixer" and by_id[e["to"]] == "ResNet-50"]
    assert edge["rel"] == "improvesOver"
    assert [payload["results"][r]["value"] for r in edge["results"]] == ["1.5"]


# -- a self-contained, safe page -----------------------------------------------
def test_page_links_nothing(html):
    page = Page(html)
    tags = {t for t, _ in page.tags}
    assert not tags & {"link", "iframe", "img", "object", "embed", "base", "form"}
    assert all("src" not in attrs and "href" not in attrs for _, attrs in page.tags)
    assert not re.search(r"cdnjs|jsdelivr|unpkg|googleapis|@import|url\(\s*['\"]?https?:", html, re.I)


def test_only_our_scripts_may_run(html):
    page = Page(html)
    (csp,) = [a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'none'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
    code = [text for attrs, text in page.scripts if attrs.get("type") != "application/json"]
    assert len(code) == 2 and len(page.scripts) == 3
    for text in code:
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        assert f"'sha256-{digest}'" in csp


def test_hostile_text_stays_data(html):
    assert PWN_SCRIPT not in html and PWN_IMG not in html and "<img" not in html
    page = Page(html)
    assert [t for t, _ in page.tags].count("script") == 3
    (data,) = [json.loads(text) for attrs, text in page.scripts if attrs.get("type") == "application/json"]
    assert [p for p in data["papers"] if p[0] == "v-evil"] == [["v-evil", HOSTILE_TITLE]]
    assert any(PWN_SCRIPT in s[0] for s in data["sentences"])


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>&/'\"!-sScriptSCRIPT \u2028\u2029x")) | st.characters(), max_size=60))
def test_json_for_html_round_trips_and_cannot_close_a_script(text):
    out = json_for_html({"t": text, "l": [text]})
    assert not set(out) & set("<>&\u2028\u2029")
    assert json.loads(out) == {"t": text, "l": [text]}


def test_writing_a_view_leaves_no_lib_folder(store, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = write_view(store, tmp_path / "v.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.html"]
    assert out.stat().st_size > 100_000  # vis-network is inside


# -- which part is drawn -----------------------------------------------------------
def labels_of(vg) -> set[str]:
    return {d["label"] for _, d in vg.graph.nodes(data=True)}


def test_focus_takes_the_neighbourhood_by_any_name(store):
    vg = read_view_graph(store)
    one = select(vg, focus="sgm", hops=1)
    assert {"Sparse Gated Mixer", "CIFAR-10", "ImageNet", "ResNet-50", "image classification"} <= labels_of(one)
    assert "BERT" not in labels_of(one) and "HostileNet" not in labels_of(one)
    two = select(vg, focus="SGM", hops=2)
    assert "HostileNet" in labels_of(two), "two hops reach through CIFAR-10"
    assert labels_of(select(vg, focus="Sparse-Gated mixer", hops=0)) == {"Sparse Gated Mixer"}
    assert any("Sparse Gated Mixer" in n for n in one.notes)


def test_types_keep_only_those_types(store):
    vg = select(read_view_graph(store), types=parse_types("dataset, Task"))
    assert {d["type"] for _, d in vg.graph.nodes(data=True)} == {"Dataset", "Task"}
    with pytest.raises(ViewError, match="unknown entity type 'Gadget'"):
        parse_types("Method,Gadget")


def test_unknown_focus_names_close_matches(store):
    with pytest.raises(ViewError, match=r"no entity named 'ImageNett'.*did you mean ImageNet"):
        select(read_view_graph(store), focus="ImageNett")


def test_too_large_a_graph_falls_back_to_a_summary(store):
    vg = read_view_graph(store)
    small = select(vg, max_nodes=3)
    assert small.graph.number_of_nodes() == 3
    assert "Sparse Gated Mixer" in labels_of(small), "the best-connected entity is kept"
    assert any("more than the view's limit of 3" in n and "the page holds the 3 weightiest" in n
               for n in small.notes)
    page = render_html(view_payload(small))
    assert "more than the view" in page
    assert select(vg).notes == [], "a graph under the limit is drawn whole, without notes"


# -- layout ---------------------------------------------------------------------
def test_layout_places_every_node_apart_and_neighbours_close():
    g = nx.convert_node_labels_to_integers(nx.grid_2d_graph(10, 10))      # a mesh
    g.add_edges_from((a + 100, b + 100) for a, b in nx.barabasi_albert_graph(150, 1, seed=3).edges)  # hubs, leaves
    g.add_nodes_from(range(300, 360))                       # entities with no relation
    g.add_edges_from([(400, 401), (401, 402), (500, 501)])  # small separate components
    pos = layout(g, labels={n: f"entity {n}" for n in g})
    assert set(pos) == set(g)
    pts = sorted(pos.values())
    assert len(set(pts)) == len(pts)
    xy = [complex(*p) for p in pos.values()]
    nearest = min(abs(a - b) for i, a in enumerate(xy) for b in xy[i + 1:])
    assert nearest > 10, "no two nodes on top of each other"
    edge_len = sum(abs(complex(*pos[a]) - complex(*pos[b])) for a, b in g.edges) / g.number_of_edges()
    sample = list(g)[:250]
    pair_len = sum(abs(complex(*pos[a]) - complex(*pos[b])) for a in sample for b in sample) / len(sample) ** 2
    assert edge_len < pair_len / 4, "related entities are drawn near each other"
    assert layout(g, labels={n: f"entity {n}" for n in g}) == pos, "the same graph gets the same picture"


# -- the command -----------------------------------------------------------------
def test_kg_view_command(built, tmp_path, capsys):
    out = tmp_path / "cifar.html"
    assert main(["view", "--store", str(built), "--focus", "cifar10", "--hops", "1", "-o", str(out)]) == 0
    assert out.exists() and "kg: wrote" in capsys.readouterr().err
    assert main(["view", "--store", str(built), "--focus", "No Such Model", "-o", str(out)]) == 2
    assert "no entity named 'No Such Model'" in capsys.readouterr().err
    assert main(["view", "--store", str(built), "--types", "Gadget"]) == 2
    assert "unknown entity type" in capsys.readouterr().err
    assert main(["view", "--store", str(tmp_path / "nowhere")]) == 2
    assert "no store" in capsys.readouterr().err
    assert build_parser().parse_args(["view"]).max_nodes == DEFAULT_MAX_NODES
