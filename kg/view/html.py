"""The view as one self-contained HTML file: vis-network as pyvis installs it,
our own small controls, and the data, all inline; the page links nothing.

The nodes, edges and options are the dicts pyvis would hand vis-network, made
here directly: importing pyvis's Python module pulls in IPython, which costs
seconds on every build, while its vis-network build is plain package data.

Safety: every text that came from an abstract travels only inside a JSON
block whose `<`, `>` and `&` are escaped, and the page's scripts put it on
screen with textContent (and vis-network draws labels on a canvas and sets
tooltips with innerText). A Content-Security-Policy allows exactly the two
inline scripts we wrote, by hash, and no network at all, so even text that
slipped through could neither run nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from string import Template

from kg.io.atomic import atomic_write_text
from kg.store import KGStore
from kg.view.graphdata import ViewGraph, read_view_graph
from kg.view.layout import layout
from kg.view.select import DEFAULT_MAX_NODES, select

# Above this many nodes edges are hidden while panning and zooming, which
# keeps a large graph smooth to move.
LIGHT_DRAG_NODES = 1000
# How much of each node's and edge's evidence goes into the page; the panel
# says how many more there are.
MAX_PAPERS, MAX_SENTENCES, MAX_RESULTS = 25, 8, 20


def _asset(name: str) -> str:
    return (resources.files("kg.view") / "assets" / name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def vis_network_js() -> str:
    """vis-network as pyvis installs it (never fetched, never copied into kg)."""
    spec = importlib.util.find_spec("pyvis")  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pyvis is not installed; the HTML view takes vis-network from it (pip install pyvis)")
    lib = Path(list(spec.submodule_search_locations)[0]) / "templates" / "lib"
    found = sorted((p for p in lib.iterdir() if p.name.startswith("vis-")),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", p.name)]) if lib.is_dir() else []
    if not found:
        raise RuntimeError(f"vis-network not found in the installed pyvis ({lib}); reinstall pyvis")
    text = (found[-1] / "vis-network.min.js").read_text(encoding="utf-8")
    # A source-map comment would make developer tools ask for a file that is not there.
    text = re.sub(r"//# sourceMappingURL=\S*", "", text)
    return re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)


def json_for_html(value) -> str:
    """JSON that cannot end the <script> element it sits in, or start a comment there."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def _csp_hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode() + "'"


def _style_of(kind: str, name: str, styles: dict) -> dict:
    table = styles[kind]
    if name in table:
        return table[name]
    palette = styles["fallback_colors"]
    return {"color": palette[sum(map(ord, name)) % len(palette)], "shape": "dot", "meaning": ""}


def _node_size(degree: int) -> float:
    return round(min(60.0, 9.0 + 6.0 * degree ** 0.5), 1)


def view_payload(vg: ViewGraph) -> dict:
    """The page's data: vis-network nodes, edges and options plus the side
    tables the panel reads."""
    styles = json.loads(_asset("styles.json"))
    g = vg.graph
    order = sorted(g.nodes, key=lambda n: (g.nodes[n]["type"], g.nodes[n]["label"].casefold(), n))
    index = {iri: i for i, iri in enumerate(order)}
    paper_ix: dict[str, int] = {}
    sent_ix: dict[str, int] = {}
    result_ix: dict[int, int] = {}
    papers_out: list[list] = []
    sentences_out: list[list] = []
    results_out: list[dict] = []

    def paper_ref(iri: str) -> int:
        if iri not in paper_ix:
            paper_ix[iri] = len(papers_out)
            p = vg.papers.get(iri, {"id": iri.rsplit("/", 1)[-1], "title": ""})
            papers_out.append([p["id"], p["title"]])
        return paper_ix[iri]

    def sentence_ref(iri: str) -> int:
        if iri not in sent_ix:
            sent_ix[iri] = len(sentences_out)
            s = vg.sentences[iri]
            sentences_out.append([s["text"] or "", paper_ref(s["paper"]) if s["paper"] else None])
        return sent_ix[iri]

    def label_of(iri: str | None) -> str | None:
        if not iri:
            return None
        return g.nodes[iri]["label"] if iri in g else iri.rsplit("/", 1)[-1]

    def result_ref(i: int) -> int:
        if i not in result_ix:
            r = vg.results[i]
            result_ix[i] = len(results_out)
            results_out.append({
                "kind": r["kind"], "method": label_of(r["method"]), "baseline": label_of(r["baseline"]),
                "dataset": label_of(r["dataset"]), "metric": label_of(r["metric"]),
                "value": r["valueText"] or r["value"], "unit": r["unit"],
                "paper": paper_ref(r["paperOf"]) if r["paperOf"] else None,
                "sentence": sentence_ref(r["sentence"]) if r["sentence"] else None,
            })
        return result_ix[i]

    def evidence(d: dict) -> dict:
        papers = sorted(d["papers"], key=lambda p: vg.papers.get(p, {}).get("id", p))
        sents = sorted(d["sentences"])
        return {"papers": [paper_ref(p) for p in papers[:MAX_PAPERS]], "nPapers": len(papers),
                "sentences": [sentence_ref(s) for s in sents[:MAX_SENTENCES]], "nSentences": len(sents),
                "results": [result_ref(r) for r in d["results"][:MAX_RESULTS]], "nResults": len(d["results"])}

    light = g.number_of_nodes() > LIGHT_DRAG_NODES
    positions = layout(g, group_of={n: g.nodes[n]["type"] for n in g}, labels={n: g.nodes[n]["label"] for n in g})
    nodes: list[dict] = []
    info: list[dict] = []
    for iri in order:
        d = g.nodes[iri]
        style = _style_of("types", d["type"], styles)
        degree = g.degree(iri)
        x, y = positions[iri]
        names = f" (also {', '.join(sorted(d['aliases'])[:3])})" if d["aliases"] else ""
        nodes.append({"id": index[iri], "label": d["label"], "shape": style["shape"], "color": style["color"],
                      "size": _node_size(degree), "x": x, "y": y,
                      "title": f"{d['type']}: {d['label']}{names}\n{degree} relations, {len(d['papers'])} papers"})
        info.append({"iri": iri, "type": d["type"], "aliases": sorted(d["aliases"]), "degree": degree,
                     "proposedIn": [paper_ref(p) for p in sorted(d["proposed_in"])[:MAX_PAPERS]], **evidence(d)})
    edges: list[dict] = []
    edge_info: list[dict] = []
    for s, o, rel, d in g.edges(keys=True, data=True):
        style = _style_of("relations", rel, styles)
        edges.append({"id": len(edges), "from": index[s], "to": index[o], "label": rel, "color": style["color"],
                      "title": f"{g.nodes[s]['label']} {rel} {g.nodes[o]['label']}\n{len(d['papers'])} papers"})
        edge_info.append({"rel": rel, **evidence(d)})

    options = {
        "autoResize": True,
        "layout": {"improvedLayout": False},
        # Positions come from kg.view.layout: the browser simulates nothing.
        "physics": {"enabled": False},
        "interaction": {"hover": True, "tooltipDelay": 200, "hideEdgesOnDrag": light,
                        "hideEdgesOnZoom": light, "multiselect": False},
        "nodes": {"borderWidth": 1, "font": {"size": 14, "color": "#1d2733", "strokeWidth": 3,
                                             "strokeColor": "#ffffff"}},
        "edges": {"smooth": False, "width": 1.2, "selectionWidth": 2.5,
                  "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
                  "font": {"size": 11, "color": "#4a5563", "strokeWidth": 3, "align": "middle"}},
    }
    type_counts: dict[str, int] = {}
    for i in info:
        type_counts[i["type"]] = type_counts.get(i["type"], 0) + 1
    rel_counts: dict[str, int] = {}
    for e in edge_info:
        rel_counts[e["rel"]] = rel_counts.get(e["rel"], 0) + 1
    return {
        "meta": {"nodes": len(nodes), "edges": len(edges), "totalNodes": vg.total_nodes,
                 "papers": len(vg.papers), "notes": vg.notes},
        "types": {t: {**_style_of("types", t, styles), "count": type_counts.get(t, 0)}
                  for t in [*styles["types"], *sorted(set(type_counts) - set(styles["types"]))]},
        "relations": {r: {**_style_of("relations", r, styles), "count": rel_counts.get(r, 0)}
                      for r in [*styles["relations"], *sorted(set(rel_counts) - set(styles["relations"]))]},
        "nodes": nodes, "edges": edges, "options": options,
        "nodeInfo": info, "edgeInfo": edge_info,
        "papers": papers_out, "sentences": sentences_out, "results": results_out,
    }


def render_html(payload: dict) -> str:
    """The page for `payload`, with every script and style inside it."""
    vis_js, app_js = vis_network_js(), _asset("view.js")
    csp = ("default-src 'none'; "
           f"script-src {_csp_hash(vis_js)} {_csp_hash(app_js)}; "
           "style-src 'unsafe-inline'; img-src data:; font-src data:; "
           "connect-src 'none'; form-action 'none'; base-uri 'none'")
    meta = payload["meta"]
    page = Template((resources.files("kg.view") / "templates" / "page.html").read_text(encoding="utf-8"))
    return page.substitute(
        csp=csp,
        title=f"kg view: {meta['nodes']:,} entities, {meta['edges']:,} relations",
        style=_asset("view.css"),
        vis_js=vis_js,
        data=json_for_html(payload),
        app_js=app_js,
    )


def write_view(store: KGStore, out: str | os.PathLike, *, focus: str | None = None, hops: int = 1,
               types: list[str] | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> Path:
    """Write the HTML view of `store` (or of a neighbourhood or some types of it) to `out`."""
    vg = select(read_view_graph(store), focus=focus, hops=hops, types=types, max_nodes=max_nodes)
    out = Path(out)
    atomic_write_text(out, render_html(view_payload(vg)))
    return out
