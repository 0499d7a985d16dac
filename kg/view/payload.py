"""The drawable graph -> the page's data: vis-network nodes, edges and options
(the dicts pyvis would hand vis-network), and the tables the side panel reads.

Papers, sentences and results are written once each and referred to by
position, so a paper behind fifty entities costs one row, not fifty.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

from kg.view.graphdata import ViewGraph, local_name
from kg.view.layout import layout

# Above this many nodes edges are hidden while panning and zooming, which
# keeps a large graph smooth to move.
LIGHT_DRAG_NODES = 1000
# The best-connected nodes, most relations first, that the page names at any
# zoom (view.js shows those of them whose labels do not overlap).
LABEL_CANDIDATES = 60


def asset(name: str) -> str:
    return (resources.files("kg.view") / "assets" / name).read_text(encoding="utf-8")


def style_of(kind: str, name: str, styles: dict) -> dict:
    """Colour, shape and meaning of an entity type or relation; unknown ones
    (added to the model later) get a colour of their own from the fallbacks."""
    if name in styles[kind]:
        return styles[kind][name]
    palette = styles["fallback_colors"]
    return {"color": palette[sum(map(ord, name)) % len(palette)], "shape": "dot", "meaning": ""}


def node_size(degree: int) -> float:
    return round(min(60.0, 9.0 + 6.0 * degree ** 0.5), 1)


class Evidence:
    """The side tables, filled as nodes and edges refer to their rows."""

    def __init__(self, vg: ViewGraph):
        self.vg = vg
        self.papers: list[list] = []
        self.sentences: list[list] = []
        self.results: list[dict] = []
        self._paper: dict[str, int] = {}
        self._sentence: dict[str, int] = {}
        self._result: dict[int, int] = {}

    def paper(self, iri: str) -> int:
        if iri not in self._paper:
            self._paper[iri] = len(self.papers)
            p = self.vg.papers.get(iri, {"id": local_name(iri), "title": ""})
            self.papers.append([p["id"], p["title"]])
        return self._paper[iri]

    def sentence(self, iri: str) -> int:
        if iri not in self._sentence:
            self._sentence[iri] = len(self.sentences)
            s = self.vg.sentences[iri]
            self.sentences.append([s["text"] or "", self.paper(s["paper"]) if s["paper"] else None])
        return self._sentence[iri]

    def _label(self, iri: str | None) -> str | None:
        if not iri:
            return None
        g = self.vg.graph
        return g.nodes[iri]["label"] if iri in g else local_name(iri)

    def result(self, i: int) -> int:
        if i not in self._result:
            r = self.vg.results[i]
            self._result[i] = len(self.results)
            self.results.append({
                "kind": r["kind"], "method": self._label(r["method"]), "baseline": self._label(r["baseline"]),
                "dataset": self._label(r["dataset"]), "metric": self._label(r["metric"]),
                "value": r["valueText"] or r["value"], "unit": r["unit"],
                "paper": self.paper(r["paperOf"]) if r["paperOf"] else None,
                "sentence": self.sentence(r["sentence"]) if r["sentence"] else None,
            })
        return self._result[i]

    def of(self, d: dict) -> dict:
        """The evidence of one node or edge (as much as kg.view.graphdata read
        for the page): row numbers, and how many there are in all."""
        return {"papers": [self.paper(p) for p in d["papers"]], "nPapers": d["n_papers"],
                "sentences": [self.sentence(s) for s in d["sentences"]], "nSentences": d["n_sentences"],
                "results": [self.result(r) for r in d["results"]], "nResults": d["n_results"]}


def vis_options(node_count: int) -> dict:
    light = node_count > LIGHT_DRAG_NODES
    return {
        "autoResize": True,
        "layout": {"improvedLayout": False},
        # Positions come from kg.view.layout: the browser simulates nothing.
        "physics": {"enabled": False},
        "interaction": {"hover": True, "tooltipDelay": 200, "hideEdgesOnDrag": light, "hideEdgesOnZoom": light,
                        "multiselect": False},
        "nodes": {"borderWidth": 1, "font": {"size": 14, "color": "#1d2733", "strokeWidth": 3,
                                             "strokeColor": "#ffffff"}},
        "edges": {"smooth": False, "width": 1.2, "selectionWidth": 2.5,
                  "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
                  "font": {"size": 11, "color": "#4a5563", "strokeWidth": 3, "align": "middle"}},
    }


def view_payload(vg: ViewGraph) -> dict:
    """Everything the page shows, as one JSON-ready value."""
    styles = json.loads(asset("styles.json"))
    g = vg.graph
    order = sorted(g.nodes, key=lambda n: (g.nodes[n]["type"], g.nodes[n]["label"].casefold(), n))
    index = {iri: i for i, iri in enumerate(order)}
    positions = layout(g, group_of={n: g.nodes[n]["type"] for n in g}, labels={n: g.nodes[n]["label"] for n in g})
    evidence = Evidence(vg)

    nodes, node_info = [], []
    for iri in order:
        d = g.nodes[iri]
        style = style_of("types", d["type"], styles)
        degree = g.degree(iri)
        also = f" (also {', '.join(sorted(d['aliases'])[:3])})" if d["aliases"] else ""
        x, y = positions[iri]
        nodes.append({"id": index[iri], "label": d["label"], "shape": style["shape"], "color": style["color"],
                      "size": node_size(degree), "x": x, "y": y,
                      "title": f"{d['type']}: {d['label']}{also}\n{degree} relations, {d['n_papers']} papers"})
        node_info.append({"iri": iri, "type": d["type"], "aliases": sorted(d["aliases"]), "degree": degree,
                          "proposedIn": [evidence.paper(p) for p in d["proposed_in"]],
                          **evidence.of(d)})
    edges, edge_info = [], []
    for s, o, rel, d in g.edges(keys=True, data=True):
        edges.append({"id": len(edges), "from": index[s], "to": index[o], "label": rel,
                      "color": style_of("relations", rel, styles)["color"],
                      "title": f"{g.nodes[s]['label']} {rel} {g.nodes[o]['label']}\n{d['n_papers']} papers"})
        edge_info.append({"rel": rel, **evidence.of(d)})

    linked = sorted((n for n in nodes if node_info[n["id"]]["degree"]),
                    key=lambda n: (-node_info[n["id"]]["degree"], n["label"].casefold(), n["id"]))
    labelled = [n["id"] for n in linked[:LABEL_CANDIDATES]]
    type_counts = Counter(i["type"] for i in node_info)
    rel_counts = Counter(e["rel"] for e in edge_info)
    return {
        "meta": {"nodes": len(nodes), "edges": len(edges), "totalNodes": vg.total_nodes,
                 "papers": vg.paper_count, "notes": vg.notes},
        "types": {t: {**style_of("types", t, styles), "count": type_counts[t]}
                  for t in [*styles["types"], *sorted(set(type_counts) - set(styles["types"]))]},
        "relations": {r: {**style_of("relations", r, styles), "count": rel_counts[r]}
                      for r in [*styles["relations"], *sorted(set(rel_counts) - set(styles["relations"]))]},
        "nodes": nodes, "edges": edges, "options": vis_options(len(nodes)), "labelled": labelled,
        "nodeInfo": node_info, "edgeInfo": edge_info,
        "papers": evidence.papers, "sentences": evidence.sentences, "results": evidence.results,
    }
