"""`kg report` in headless Chromium with the network blocked: the page loads
with no request but itself, no error, and draws its charts as SVG."""

from __future__ import annotations

import pytest

from kg.builder import build
from kg.cli import main

pytestmark = pytest.mark.browser

CHARTS = """() => Array.from(document.querySelectorAll('section figure svg')).map(svg => {
    const box = svg.getBoundingClientRect();
    return {width: box.width, height: box.height, bars: svg.querySelectorAll('path, rect, use').length};
})"""


def check_report(view, least: int) -> list[dict]:
    page = view.page
    assert view.errors == []
    assert view.requests == [view.url], "the report fetched nothing but itself"
    assert view.refused == []
    charts = page.evaluate(CHARTS)
    assert len(charts) >= least
    for c in charts:
        assert c["width"] > 200 and c["height"] > 80 and c["bars"] > 3, c
    # Under each chart, its query as text.
    queries = page.evaluate("Array.from(document.querySelectorAll('section pre')).map(p => p.textContent)")
    assert len(queries) == page.evaluate("document.querySelectorAll('section').length")
    assert all(q.startswith("PREFIX ") and "SELECT" in q for q in queries)
    assert page.evaluate("document.scripts.length") == 0
    return charts


def test_demo_report_opens_offline(open_view, demo_build, tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", "--store", str(demo_build), "-o", str(out)]) == 0
    check_report(open_view(out, drawn=False), least=6)


@pytest.mark.shared
@pytest.mark.slow
def test_seed_corpus_report_has_six_charts_and_no_network(open_view, shared, tmp_path_factory):
    corpus = shared("corpus/seed-abstracts.jsonl")
    out = tmp_path_factory.mktemp("seed-report") / "out"
    build([corpus], out, view=False)
    assert main(["report", "--store", str(out), "-o", str(out / "report.html")]) == 0
    view = open_view(out / "report.html", width=1200, height=900, drawn=False)
    check_report(view, least=6)
    headings = view.page.evaluate("Array.from(document.querySelectorAll('section h2')).map(h => h.textContent)")
    assert "Datasets used together" in headings and "Proposals per task" in headings
