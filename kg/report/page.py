"""The report page: run the report's questions on a store, draw their charts,
and write one self-contained HTML file.

The page has no script and links nothing: the charts are inline SVG, the
styles inline, and a Content-Security-Policy forbids every load, so it opens
the same offline, from an e-mail or from a file share. Text from abstracts
(entity names, paper ids) reaches the page only escaped: inside the SVG by
matplotlib's writer, in the HTML by html.escape.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path

from kg.io.atomic import atomic_write_text
from kg.report import charts
from kg.report import queries as Q
from kg.sparql.rows import to_rows
from kg.store import KGStore
from kg.version import __version__

CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
       "form-action 'none'; base-uri 'none'")
_SUMMARY_ORDER = ["papers", "methods", "datasets", "tasks", "metrics", "evaluatedOn facts", "addresses facts",
                  "improvesOver facts", "scores", "improvements with a value"]


@dataclass
class Section:
    key: str
    title: str
    about: str
    sparql: str
    svg: str | None       # None: the graph has nothing to draw for this question
    note: str = ""        # a sentence of figures under the chart


def _run(store: KGStore, sparql: str) -> list[dict]:
    return to_rows(store.query(sparql))


def _summary(store: KGStore) -> tuple[Section, dict[str, int]]:
    counts = {r["kind"]: int(r["count"]) for r in _run(store, Q.SUMMARY.sparql)}
    kinds = [k for k in _SUMMARY_ORDER if k in counts] + sorted(set(counts) - set(_SUMMARY_ORDER))
    drawn = charts.bars(kinds, [counts[k] for k in kinds], xlabel="count") if any(counts.values()) else None
    return Section(Q.SUMMARY.key, Q.SUMMARY.title, Q.SUMMARY.about, Q.SUMMARY.sparql, drawn), counts


def _top(store: KGStore, q: Q.Question) -> Section:
    rows = _run(store, q.sparql)
    drawn = charts.bars([r["label"] for r in rows], [r["papers"] for r in rows], xlabel="papers") if rows else None
    return Section(q.key, q.title, q.about, q.sparql, drawn)


def _pairs(store: KGStore) -> tuple[Section, list[dict]]:
    rows = _run(store, Q.PAIRS.sparql)
    drawn = charts.bars([f"{r['datasetLabel']} · {r['metricLabel']}" for r in rows], [r["scores"] for r in rows],
                        xlabel="scores reported") if rows else None
    return Section(Q.PAIRS.key, Q.PAIRS.title, Q.PAIRS.about, Q.PAIRS.sparql, drawn), rows


def _leaderboard(store: KGStore, n: int, pair: dict) -> Section:
    sparql = Q.leaderboard_query(pair["dataset"], pair["metric"])
    rows = _run(store, sparql)
    title = f"Leaderboard {n}: {pair['datasetLabel']}, {pair['metricLabel']}"
    about = (f"Every score reported for {pair['metricLabel']} on {pair['datasetLabel']}, best first "
             f"(by {pair['papers']} paper{'s' if pair['papers'] != 1 else ''}); a bar per result, named by its "
             "method and paper.")
    labels = [f"{r['methodLabel']} ({r['paperId']})" for r in rows]
    values = [r["value"] for r in rows]
    texts = [f"{charts.number(r['value'])}{' ' + r['unit'] if r['unit'] else ''}" for r in rows]
    drawn = charts.bars(labels, values, xlabel=pair["metricLabel"], value_text=texts) if rows else None
    return Section(f"leaderboard-{n}", title, about, sparql, drawn)


def _proposals(store: KGStore) -> Section:
    rows = _run(store, Q.PROPOSALS.sparql)
    drawn = charts.bars([r["taskLabel"] for r in rows], [r["proposals"] for r in rows],
                        xlabel="papers proposing a method for the task", color=charts.OK) if rows else None
    return Section(Q.PROPOSALS.key, Q.PROPOSALS.title, Q.PROPOSALS.about, Q.PROPOSALS.sparql, drawn)


def _co_used(store: KGStore) -> Section:
    rows = _run(store, Q.CO_USED.sparql)
    drawn = charts.bars([f"{r['aLabel']} + {r['bLabel']}" for r in rows], [r["papers"] for r in rows],
                        xlabel="papers naming both", color="#f28e2b") if rows else None
    return Section(Q.CO_USED.key, Q.CO_USED.title, Q.CO_USED.about, Q.CO_USED.sparql, drawn)


def _low_confidence(store: KGStore) -> Section:
    rows = _run(store, Q.LOW_EDGES.sparql)
    low = sum(r["onlyLow"] for r in rows)
    total = sum(r["relations"] for r in rows)
    drawn = note = None
    if rows:
        drawn = charts.stacked(
            [r["relation"] for r in rows],
            {f"some fact ≥ {Q.LOW_CONFIDENCE}": [r["relations"] - r["onlyLow"] for r in rows],
             f"only facts < {Q.LOW_CONFIDENCE}": [r["onlyLow"] for r in rows]},
            [charts.OK, charts.LOW], xlabel="relations between two entities")
        note = (f"{low:,} of {total:,} relations ({100 * low / total:.0f}%) rest only on facts below "
                f"{Q.LOW_CONFIDENCE}; kg build --min-confidence {Q.LOW_CONFIDENCE} would leave them out.")
    return Section(Q.LOW_EDGES.key, Q.LOW_EDGES.title, Q.LOW_EDGES.about, Q.LOW_EDGES.sparql, drawn, note or "")


def _confidence(store: KGStore) -> Section:
    rows = _run(store, Q.CONFIDENCE.sparql)
    drawn = None
    if rows:
        labels = [f"{float(r['band']):.1f}–{float(r['band']) + 0.1:.1f}" for r in rows]  # 0.9–1.0 holds 1
        colors = [charts.LOW if float(r["band"]) < Q.LOW_CONFIDENCE else charts.OK for r in rows]
        drawn = charts.columns(labels, [r["facts"] for r in rows], colors, xlabel="confidence", ylabel="facts")
    return Section(Q.CONFIDENCE.key, Q.CONFIDENCE.title, Q.CONFIDENCE.about, Q.CONFIDENCE.sparql, drawn)


def report_sections(store: KGStore) -> tuple[list[Section], dict[str, int]]:
    """Every section of the report, in page order, and the summary's counts."""
    summary, counts = _summary(store)
    pairs, pair_rows = _pairs(store)
    sections = [summary] + [_top(store, q) for q in (Q.TOP_DATASETS, Q.TOP_METHODS, Q.TOP_TASKS, Q.TOP_METRICS)]
    sections.append(pairs)
    sections += [_leaderboard(store, n, p) for n, p in enumerate(pair_rows[:Q.LEADERBOARDS], start=1)]
    sections += [_proposals(store), _co_used(store), _low_confidence(store), _confidence(store)]
    return sections, counts


_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2733;margin:0;background:#f6f7f9}
header{background:#1d2733;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}
header p{margin:4px 0 0;color:#c9d1db}
main{max-width:980px;margin:0 auto;padding:12px 24px 48px}
nav{columns:2;margin:16px 0;font-size:14px}nav a{color:#2b5d8f}
.figures{display:flex;flex-wrap:wrap;gap:10px;margin:18px 0}
.figures div{background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:8px 14px;min-width:92px}
.figures b{display:block;font-size:22px}.figures span{color:#5b6675;font-size:13px}
section{background:#fff;border:1px solid #dde2e8;border-radius:6px;margin:18px 0;padding:14px 20px}
section h2{font-size:18px;margin:4px 0}section p{margin:4px 0 10px;color:#3c4652}
figure{margin:0}figure svg{max-width:100%;height:auto}
details{margin-top:10px}summary{cursor:pointer;color:#2b5d8f;font-size:14px}
pre{background:#f1f3f6;border:1px solid #dde2e8;border-radius:4px;padding:10px;overflow-x:auto;font-size:12.5px}
.empty{color:#7a8591;font-style:italic}.note{font-weight:600}
"""


def render_report(sections: list[Section], counts: dict[str, int], source: str = "") -> str:
    """The whole page as one HTML string."""
    e = html.escape
    title = f"kg report: {counts.get('papers', 0):,} papers"
    figures = "".join(f"<div><b>{counts[k]:,}</b><span>{e(k)}</span></div>"
                      for k in _SUMMARY_ORDER[:5] if k in counts)
    nav = "".join(f'<a href="#{e(s.key)}">{e(s.title)}</a><br>' for s in sections)
    body = []
    for s in sections:
        chart = (f'<figure role="img" aria-label="{e(s.title)}">{s.svg}</figure>' if s.svg
                 else '<p class="empty">Nothing to draw: the graph has no facts for this question.</p>')
        note = f'<p class="note">{e(s.note)}</p>' if s.note else ""
        body.append(
            f'<section id="{e(s.key)}"><h2>{e(s.title)}</h2><p>{e(s.about)}</p>{chart}{note}'
            f"<details open><summary>The query (runs as it stands with <code>kg query --store DIR -f FILE.rq</code>)"
            f"</summary><pre>{e(s.sparql)}</pre></details></section>")
    made = f"Made by kg {e(__version__)}" + (f" from {e(source)}" if source else "")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{e(title)}</h1><p>{made}. Every chart is one SPARQL query over the graph, "
        "shown under it.</p></header>\n"
        f'<main><div class="figures">{figures}</div><nav>{nav}</nav>\n' + "\n".join(body) +
        "\n</main>\n</body>\n</html>\n")


def write_report(store: KGStore, out: str | os.PathLike) -> Path:
    """Write the report of `store` to `out` (replaced whole, never half-written)."""
    sections, counts = report_sections(store)
    out = Path(out)
    atomic_write_text(out, render_report(sections, counts, source=store.path.parent.name))
    return out
