"""How heavy the HTML view is and how fast it opens, measured in headless Chromium.

Builds the corpus (the shared seed corpus by default) unless --store points at
a build, writes the view, then opens it --repeat times in Chromium with every
request but the file refused, and prints: the time to write the view, the
HTML size, the time from navigation to vis-network's first drawing (median),
and the time one full redraw (a frame of a pan) takes. --synthetic N instead draws a made-up
graph of N entities (hubs and leaves, a third with no relation), to see the
view at its node limit.

    python3 benchmarks/bench_view.py
    kg build ../shared/corpus/seed-abstracts.jsonl -o ../kg-seed
    python3 benchmarks/bench_view.py --store ../kg-seed --screenshot docs/img/seed-view.png
    python3 benchmarks/bench_view.py --store outputs --detail docs/img/demo-view-detail.png   # after `kg build`
    python3 benchmarks/bench_view.py --synthetic 4000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.builder import build  # noqa: E402
from kg.store import KGStore  # noqa: E402
from kg.view.html import render_html, write_view  # noqa: E402
from kg.view.payload import view_payload  # noqa: E402

SEED = ROOT.parent / "shared" / "corpus" / "seed-abstracts.jsonl"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def synthetic_view(n: int, path: Path) -> None:
    """A graph shaped like a knowledge graph: a few hubs, many leaves, many loners."""
    import networkx as nx
    from kg.view.graphdata import ViewGraph, no_evidence

    linked = n * 2 // 3
    shape = nx.barabasi_albert_graph(linked, 1, seed=5)
    vg = ViewGraph(graph=nx.MultiDiGraph(), total_nodes=n)
    types = ["Method", "Dataset", "Task", "Metric"]
    for i in range(n):
        vg.graph.add_node(f"e{i}", type=types[i % 4], label=f"Entity {i}", aliases=set(), proposed_in=[],
                          **no_evidence())
    for a, b in shape.edges:
        vg.graph.add_edge(f"e{a}", f"e{b}", key="evaluatedOn", rel="evaluatedOn", **no_evidence())
    path.write_text(render_html(view_payload(vg)), encoding="utf-8")


def measure(html: Path, repeat: int, screenshot: Path | None, detail: Path | None) -> dict:
    from playwright.sync_api import sync_playwright

    url = html.resolve().as_uri()
    draws, pans, nodes, refused = [], [], 0, []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for i in range(repeat):
            ctx = browser.new_context(viewport={"width": 1400, "height": 900})
            ctx.route("**/*", lambda r: r.continue_() if r.request.url == url
                      else (refused.append(r.request.url), r.abort()))
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_function("window.kgFirstDraw !== undefined", timeout=120_000)
            draws.append(page.evaluate("window.kgFirstDraw"))
            nodes = page.evaluate("Object.keys(kgView.network.body.nodes).length")
            # Panning redraws the whole canvas each frame: time one full redraw.
            pans.append(page.evaluate("""() => { const net = kgView.network, t = [];
                for (let k = 0; k < 10; k++) { const s = performance.now(); net.redraw(); t.push(performance.now() - s); }
                return t.sort((a, b) => a - b)[5]; }"""))
            if screenshot and i == 0:
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(screenshot))
            if detail and i == 0:
                # The best-connected entity found by search, centred and explained.
                hub = page.evaluate("kgView.data.nodeInfo.reduce((b, x, k, all) => x.degree > all[b].degree ? k : b, 0)")
                page.fill("#kg-search", page.evaluate("id => kgView.data.nodes[id].label", hub))
                page.keyboard.press("Enter")
                page.evaluate("id => kgView.network.moveTo({position: kgView.network.getPositions([id])[id], "
                              "scale: 1.0, offset: {x: -150, y: 0}, animation: false})", hub)
                page.wait_for_timeout(500)
                detail.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(detail))
            ctx.close()
        browser.close()
    return {"first_draw_ms": statistics.median(draws), "pan_ms": statistics.median(pans), "nodes": nodes,
            "refused": refused}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", default=str(SEED), help="abstracts to build (default: the seed corpus)")
    ap.add_argument("--store", metavar="DIR", help="use this build instead of building the corpus")
    ap.add_argument("--synthetic", type=int, metavar="N", help="draw a made-up graph of N entities instead")
    ap.add_argument("--repeat", type=int, default=3, help="page loads to take the median of (default: 3)")
    ap.add_argument("--screenshot", type=Path, metavar="PNG", help="save a screenshot of the first load")
    ap.add_argument("--detail", type=Path, metavar="PNG",
                    help="save a screenshot of the best-connected entity found by search, with its panel "
                         "(its sentences show: use it on corpora the project may show, such as the demo)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "view.html"
        t0 = time.perf_counter()
        if args.synthetic:
            synthetic_view(args.synthetic, html)
            what = f"synthetic graph of {args.synthetic:,} entities"
        else:
            folder = Path(args.store) if args.store else Path(tmp) / "build"
            if not args.store:
                print(f"building {args.corpus} ...", file=sys.stderr)
                build([args.corpus], folder, view=False)
            t0 = time.perf_counter()
            write_view(KGStore.at(folder, read_only=True), html)
            what = f"view of {args.store or args.corpus}"
        written = time.perf_counter() - t0
        size = html.stat().st_size
        m = measure(html, args.repeat, args.screenshot, args.detail)
    print(what)
    print(f"entities drawn: {m['nodes']:,}")
    print(f"view written in: {written:.2f} s (store -> layout -> HTML)")
    print(f"HTML size: {size / 1e6:.2f} MB")
    print(f"time to first draw (median of {args.repeat}): {m['first_draw_ms']:.0f} ms after navigation start")
    print(f"one full redraw, as each frame of a pan (median): {m['pan_ms']:.0f} ms")
    print(f"requests refused: {len(m['refused'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
