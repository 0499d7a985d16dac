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
from kg.view.layout import layout, map_layout

# Above this many nodes edges are hidden while panning and zooming, which
# keeps a large graph smooth to move.
LIGHT_DRAG_NODES = 1000
# The nodes the page names at any zoom, in the order it tries them (view.js
# shows those whose labels find a place apart from the others): first the
# MUST_LABEL named by the most papers (and any tied with the last of them),
# then the LABEL_PER_TYPE weightiest of each type, then the others by papers.
LABEL_CANDIDATES = 80
MUST_LABEL = 10
LABEL_PER_TYPE = 3


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


def edge_width(papers: int) -> float:
    """Thicker for relations more papers state, as on a bibliometric map."""
    return round(1.0 + min(4.0, 1.2 * max(0, papers - 1) ** 0.5), 1)


def label_order(candidates: list[dict]) -> tuple[list[int], int]:
    """The ids of `candidates` (dicts with id, type, papers, degree, label) in
    the order the page tries to name them, and how many of the first must be named."""
    ranked = sorted(candidates, key=lambda c: (-c["papers"], -c["degree"], c["label"].casefold(), c["id"]))
    if not ranked:
        return [], 0
    must = ranked[:MUST_LABEL]
    cut = must[-1]["papers"]
    must += [c for c in ranked[MUST_LABEL:] if c["papers"] == cut]  # ties with the last are named too
    order = [c["id"] for c in must]
    seen = set(order)
    per_type: dict[str, int] = {}
    for c in ranked:
        if c["id"] not in seen and per_type.get(c["type"], 0) < LABEL_PER_TYPE:
            per_type[c["type"]] = per_type.get(c["type"], 0) + 1
            order.append(c["id"])
            seen.add(c["id"])
    order += [c["id"] for c in ranked if c["id"] not in seen]
    return order[:max(LABEL_CANDIDATES, len(must))], len(must)


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
        # vis-network draws every label at least 5 px tall on screen, which at a
        # map's zoom is a carpet of unreadable text over the labels view.js
        # places; its own labels wait until they are as large as those.
        "nodes": {"borderWidth": 1, "font": {"size": 14, "color": "#1d2733", "strokeWidth": 3,
                                             "strokeColor": "#ffffff"},
                  "scaling": {"label": {"drawThreshold": 14}}},
        "edges": {"smooth": False, "width": 1.2, "selectionWidth": 2.5,
                  "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
                  "font": {"size": 11, "color": "#4a5563", "strokeWidth": 3, "align": "middle"},
                  "scaling": {"label": {"drawThreshold": 11}}},
    }


def view_payload(vg: ViewGraph) -> dict:
    """Everything the page shows, as one JSON-ready value."""
    styles = json.loads(asset("styles.json"))
    g = vg.graph
    order = sorted(g.nodes, key=lambda n: (g.nodes[n]["type"], g.nodes[n]["label"].casefold(), n))
    index = {iri: i for i, iri in enumerate(order)}
    group_of, names = {n: g.nodes[n]["type"] for n in g}, {n: g.nodes[n]["label"] for n in g}
    the_map = vg.overview
    if the_map:
        positions = map_layout(g, the_map.communities, the_map.anchors, group_of=group_of, labels=names)
    else:
        positions = layout(g, group_of=group_of, labels=names)
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
        info = {"iri": iri, "type": d["type"], "aliases": sorted(d["aliases"]), "degree": degree,
                "map": the_map is None or iri in the_map.nodes,
                "proposedIn": [evidence.paper(p) for p in d["proposed_in"]], **evidence.of(d)}
        if the_map and iri in the_map.anchors:
            beside, together = the_map.anchors[iri]
            info["beside"] = [index[beside], together]
        node_info.append(info)
    edges, edge_info = [], []
    for s, o, rel, d in g.edges(keys=True, data=True):
        edges.append({"id": len(edges), "from": index[s], "to": index[o], "label": rel,
                      "color": style_of("relations", rel, styles)["color"], "width": edge_width(d["n_papers"]),
                      "title": f"{g.nodes[s]['label']} {rel} {g.nodes[o]['label']}\n{d['n_papers']} papers"})
        edge_info.append({"rel": rel, **evidence.of(d)})

    labelled, must = label_order([
        {"id": n["id"], "label": n["label"], "type": node_info[n["id"]]["type"],
         "papers": node_info[n["id"]]["nPapers"], "degree": node_info[n["id"]]["degree"]}
        for n in nodes if node_info[n["id"]]["map"] and node_info[n["id"]]["degree"]])
    map_line = ""
    if the_map:
        held = len(nodes) == vg.total_nodes
        map_line = the_map.line() + (" Search finds every entity." if held else
                                     f" Search finds the {len(nodes):,} entities the page holds.")
    type_counts = Counter(i["type"] for i in node_info)
    rel_counts = Counter(e["rel"] for e in edge_info)
    return {
        "meta": {"nodes": len(nodes), "edges": len(edges), "totalNodes": vg.total_nodes,
                 "papers": vg.paper_count, "notes": vg.notes, "map": map_line,
                 "onMap": sum(1 for i in node_info if i["map"])},
        "types": {t: {**style_of("types", t, styles), "count": type_counts[t]}
                  for t in [*styles["types"], *sorted(set(type_counts) - set(styles["types"]))]},
        "relations": {r: {**style_of("relations", r, styles), "count": rel_counts[r]}
                      for r in [*styles["relations"], *sorted(set(rel_counts) - set(styles["relations"]))]},
        "nodes": nodes, "edges": edges, "options": vis_options(len(nodes)), "labelled": labelled,
        "mustLabel": must,
        "nodeInfo": node_info, "edgeInfo": edge_info,
        "papers": evidence.papers, "sentences": evidence.sentences, "results": evidence.results,
    }
