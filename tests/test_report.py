"""`kg report` without a browser: the page's charts and sections, that it
links and runs nothing, that every query under a chart runs with `kg query`
as it stands, and that names from abstracts stay text. (Loading the page in
Chromium is in tests/browser/test_report_browser.py.)"""

from __future__ import annotations

import html
import re

import pytest

from kg.cli import main
from kg.report import charts
from kg.report import queries as Q
from kg.report.page import render_report, report_sections, write_report
from kg.store import KGStore


@pytest.fixture(scope="module")
def page(demo_build, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", "--store", str(demo_build), "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def queries_of(page: str) -> list[str]:
    return [html.unescape(q) for q in re.findall(r"<pre>(.*?)</pre>", page, re.S)]


def test_the_demo_report_has_a_chart_and_its_query_per_section(page):
    titles = re.findall(r"<h2>(.*?)</h2>", page)
    for wanted in ("What the graph holds", "The most named datasets", "The most named methods",
                   "The most named tasks", "The most named metrics", "Proposals per task",
                   "Datasets used together", "Relations that rest on low-confidence facts"):
        assert wanted in titles
    assert any(t.startswith("Leaderboard 1: ") for t in titles)
    assert page.count("<figure") == page.count("<svg") == len(titles) >= 10
    assert len(queries_of(page)) == len(titles)


def test_the_page_links_and_runs_nothing(page):
    assert "<script" not in page.lower()
    assert "default-src 'none'" in page
    # No attribute may point outside the page: only in-page anchors and SVG references.
    for ref in re.findall(r'(?:href|src)="([^"]*)"', page):
        assert ref.startswith("#"), ref
    assert "@import" not in page and "url(http" not in page


def test_every_query_runs_with_kg_query_as_it_stands(page, demo_build, capsys):
    for sparql in queries_of(page):
        assert sparql.startswith("PREFIX ")
        capsys.readouterr()
        assert main(["query", "--store", str(demo_build), "--format", "json", sparql]) == 0, sparql
        assert capsys.readouterr().out.strip() != "[]", f"the demo answers every question:\n{sparql}"


def test_leaderboard_is_best_first(demo_build):
    store = KGStore.at(demo_build, read_only=True)
    sections, counts = report_sections(store)
    assert counts["papers"] > 0
    from kg.sparql.rows import to_rows
    pair = to_rows(store.query(Q.PAIRS.sparql))[0]
    rows = to_rows(store.query(Q.leaderboard_query(pair["dataset"], pair["metric"])))
    values = [r["value"] for r in rows]
    lower_is_better = re.search(r"error|wer|cer|perplexity|fid|loss|latency|mse|mae|eer", pair["metricLabel"], re.I)
    assert values == sorted(values, reverse=not lower_is_better)


def test_names_from_abstracts_stay_text():
    svg = charts.bars(["<b>Foo</b> & Co", "$x$-Net", "a" * 80], [3, 2, 1], xlabel="papers")
    assert "<b>" not in svg and "&lt;b&gt;Foo&lt;/b&gt; &amp; Co" in svg
    assert "$x$-Net" in svg, "a dollar sign is text, not mathematics"
    assert "a" * 80 not in svg and "…" in svg
    from kg.report.page import Section
    page = render_report([Section("x", "<img src=x>", "about", "SELECT * WHERE { ?s ?p '</pre>' }", svg)],
                         {"papers": 1})
    assert "<img" not in page and "&lt;/pre&gt;" in page


def test_an_empty_question_says_so(tmp_path):
    from kg.report.page import Section
    page = render_report([Section("x", "Empty", "about", "SELECT * {}", None)], {})
    assert "Nothing to draw" in page and "<svg" not in page


def test_the_same_graph_gives_the_same_page(demo_build, tmp_path):
    store = KGStore.at(demo_build, read_only=True)
    a = write_report(store, tmp_path / "a.html").read_bytes()
    b = write_report(store, tmp_path / "b.html").read_bytes()
    assert a == b


def test_kg_report_defaults_and_errors(demo_build, tmp_path, capsys):
    import shutil
    build = tmp_path / "build"
    shutil.copytree(demo_build, build)
    assert main(["report", "--store", str(build)]) == 0
    assert (build / "report.html").exists()
    assert main(["report", "--store", str(tmp_path / "none")]) == 2
    assert "no store at" in capsys.readouterr().err


def test_an_empty_graph_gives_a_page_that_says_so(tmp_path):
    import kg
    # A build needs at least one abstract; the graph is emptied by removing it.
    one = {"id": "p1", "title": "", "abstract": "We evaluate FooNet on CIFAR-10."}
    with kg.build([one], tmp_path / "empty", view=False) as g:
        g.remove(["p1"])
        assert g.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"] == 0
        page = g.report(tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<svg" not in page and page.count("Nothing to draw") == len(re.findall(r"<section", page)) >= 10


def test_the_summary_counts_improvements_with_a_value_and_scores_apart():
    """An improvesOver without a number is a fact but no improvement with a value."""
    import pyoxigraph as ox

    from kg.graph.build import record_quads
    from kg.graph.canonical import entity_resolver
    from kg.graph.entities import canonicalise
    from kg.model import Abstract

    text = "QuillNet beats BarNet. It beats BazNet by 2.1 points and reaches 91.5% accuracy on QuillBench."
    record = {"id": "p1", "entities": {"Method": [{"name": "QuillNet", "proposed": True}, {"name": "BarNet"},
                                                  {"name": "BazNet"}],
                                       "Dataset": [{"name": "QuillBench"}], "Task": [], "Metric": [{"name": "accuracy"}]},
              "relations": [{"s": "QuillNet", "p": "improvesOver", "o": "BarNet"},
                            {"s": "QuillNet", "p": "improvesOver", "o": "BazNet", "value": "2.1", "unit": "points"},
                            {"s": "QuillNet", "p": "achieves", "metric": "accuracy", "value": "91.5", "unit": "%",
                             "dataset": "QuillBench"}]}
    db = ox.Store()
    resolver = entity_resolver()
    db.extend(record_quads(Abstract("p1", text), record, resolver))
    canonicalise(db, resolver)
    counts = {row["kind"].value: int(row["count"].value)
              for row in db.query(Q.SUMMARY.sparql, use_default_graph_as_union=True)}
    assert counts["improvesOver facts"] == 2
    assert counts["improvements with a value"] == 1
    assert counts["scores"] == 1
