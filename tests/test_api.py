"""kg from Python (kg.api), end to end: extract, build, open, query to rows
and to a DataFrame, ask, to_rdflib, to_networkx, update, remove, and errors
that carry the command line's messages. The abstracts are written for these tests."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal

import pyoxigraph as ox
import pytest

import kg
from kg.sparql.rows import python_value

ABSTRACTS = [
    {"id": "api-foo", "title": "FooNet: small convolutions for image classification",
     "abstract": "We propose FooNet, a convolutional network for image classification. "
                 "FooNet reaches 96.2% accuracy on CIFAR-10 and improves over ResNet-50 by 1.3 points of accuracy."},
    {"id": "api-bar", "title": "BarNet",
     "abstract": "We introduce BarNet for image classification. On CIFAR-10, BarNet achieves 95.0% accuracy. "
                 "We also evaluate BarNet on ImageNet."},
]
MORE = {"id": "api-baz", "title": "BazNet: translation with fewer layers",
        "abstract": "We present BazNet for machine translation and evaluate it on WMT14, where it reaches 29.1 BLEU."}

PREFIX = """PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX mls: <http://www.w3.org/ns/mls#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
"""
SCORES_Q = PREFIX + """SELECT ?method ?value (COUNT(*) AS ?n) WHERE {
  ?r a mlkg:Score ; mlkg:method ?m ; mls:hasValue ?value . ?m skos:prefLabel ?method
} GROUP BY ?method ?value ORDER BY DESC(?value)"""
PAPERS_Q = "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a <http://purl.org/spar/fabio/ResearchPaper> }"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("api") / "out"
    with kg.build(ABSTRACTS, out, view=False) as g:
        assert g.summary.read == 2
    return out


def test_import_kg_loads_neither_spacy_nor_the_store():
    code = "import sys, kg; print('spacy' in sys.modules, 'pyoxigraph' in sys.modules, 'rdflib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "False"]


def test_api_names_stay_functions_when_submodules_load():
    import kg.builder
    import kg.extraction.record  # noqa: F401
    from kg.builder import build as build_function

    assert callable(kg.build) and kg.build.__module__ == "kg.api"
    assert callable(kg.extract) and kg.extract.__module__ == "kg.api"
    assert build_function.__module__ == "kg.builder"


# -- extract --------------------------------------------------------------------
def test_extract_one_text_gives_one_record():
    rec = kg.extract("We propose FooNet and evaluate it on CIFAR-10, where it reaches 96.2% accuracy.")
    assert isinstance(rec, dict) and len(rec["id"]) == 16
    assert [e["name"] for e in rec["entities"]["Dataset"]] == ["CIFAR-10"]
    assert any(r["p"] == "achieves" and r["value"] == "96.2" for r in rec["relations"])


def test_extract_many_gives_an_iterator_in_order():
    out = kg.extract([ABSTRACTS[0], "We evaluate BERT on SQuAD."])
    assert not isinstance(out, (list, dict))
    records = list(out)
    assert records[0]["id"] == "api-foo"
    assert [e["name"] for e in records[1]["entities"]["Dataset"]] == ["SQuAD"]
    # A dict alone is one abstract, and the title tells the paper's own method.
    one = kg.extract(ABSTRACTS[0])
    assert one["id"] == "api-foo"
    assert [m["name"] for m in one["entities"]["Method"] if m.get("proposed")] == ["FooNet"]


def test_extract_refuses_what_is_not_an_abstract():
    with pytest.raises(kg.KGError, match="empty abstract"):
        kg.extract("   ")
    with pytest.raises(kg.KGError, match="abstract 2: field 'abstract' must be a string"):
        list(kg.extract(["We use BERT.", {"id": "x"}]))
    with pytest.raises(kg.KGError, match="gazetteer"):
        kg.extract("We use BERT.", gazetteers=["/nonexistent/gazetteer.jsonl"])


def test_api_and_command_line_give_the_same_message(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{"relation_cues": {"improves": 3}}', encoding="utf-8")
    abstracts = tmp_path / "a.jsonl"
    abstracts.write_text('{"id": "a", "abstract": "We use BERT."}\n', encoding="utf-8")
    with pytest.raises(kg.KGError) as raised:
        kg.extract("We use BERT.", rules=[rules])
    cli = subprocess.run([sys.executable, "-m", "kg", "extract", str(abstracts), "--rules", str(rules), "-q"],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    assert str(raised.value).startswith("rules: ")
    assert f"kg: error: {raised.value}" in cli.stderr


# -- build, open, query ------------------------------------------------------------
def test_query_gives_rows_of_python_values(built):
    with kg.open(built) as g:
        rows = g.query(SCORES_Q)
        assert rows.variables == ["method", "value", "n"]
        assert rows[0] == {"method": "FooNet", "value": Decimal("96.2"), "n": 1}
        assert {r["method"] for r in rows} == {"FooNet", "BarNet"}
        assert g.query(PAPERS_Q) == [{"n": 2}]
        assert g.query("ASK { ?s ?p ?o }") is True
        iris = g.query(PREFIX + "SELECT ?d WHERE { ?d a mls:Dataset } LIMIT 1")
        assert iris[0]["d"].startswith("https://w3id.org/mlkg/id/dataset/")


def test_literals_map_to_python_types():
    xsd = "http://www.w3.org/2001/XMLSchema#"
    lit = lambda v, t: ox.Literal(v, datatype=ox.NamedNode(xsd + t))
    assert python_value(lit("42", "integer")) == 42 and type(python_value(lit("42", "integer"))) is int
    assert python_value(lit("7", "nonNegativeInteger")) == 7
    assert python_value(lit("0.10", "decimal")) == Decimal("0.10")
    assert python_value(lit("1.5E0", "double")) == 1.5 and type(python_value(lit("1", "float"))) is float
    assert python_value(lit("true", "boolean")) is True
    assert python_value(lit("2026-12-01", "date")) == "2026-12-01"
    assert python_value(lit("many", "integer")) == "many", "an ill-typed literal keeps its text"
    assert python_value(ox.Literal("hi", language="en")) == "hi"
    assert python_value(ox.NamedNode("https://example.org/x")) == "https://example.org/x"
    assert python_value(None) is None


def test_ask_runs_a_ready_question_with_keywords(built):
    with kg.open(built) as g:
        board = g.ask("leaderboard", dataset="cifar-10", metric="Accuracy")
        assert [(r["methodLabel"], r["value"]) for r in board] == [("FooNet", Decimal("96.2")),
                                                                    ("BarNet", Decimal("95.0"))]
        assert "leaderboard" in kg.questions()


def test_every_ready_question_takes_its_parameters_as_keywords(built):
    # find-entity's parameter is called `name`: it must not collide with the question's name
    with kg.open(built) as g:
        for question, about in kg.questions().items():
            params = {p["name"]: p["default"] for p in about["params"]}
            assert isinstance(g.ask(question, **params), list), question
        found = g.ask("find-entity", name="cifar-10")
        assert found and all("dataset" in r["entity"] for r in found)


def test_rows_to_a_dataframe(built):
    pd = pytest.importorskip("pandas")
    with kg.open(built) as g:
        rows = g.query(SCORES_Q)
        df = rows.to_pandas()
        assert isinstance(df, pd.DataFrame) and list(df.columns) == ["method", "value", "n"]
        assert df.loc[0, "method"] == "FooNet" and df.loc[0, "value"] == 96.2
        assert df["value"].dtype == "float64" and df["n"].dtype == "int64"
        assert rows[0]["value"] == Decimal("96.2"), "the rows keep the exact decimal"
        assert kg.frame(rows).equals(df)


def test_queries_know_kg_s_prefixes_and_values_are_floats_in_a_dataframe(built):
    pd = pytest.importorskip("pandas")
    with kg.open(built) as g:
        # no PREFIX line: mlkg:, mls: and skos: are known, as in `kg query`
        rows = g.query("SELECT ?method ?value WHERE { ?r a mlkg:Score ; mlkg:method ?m ; mls:hasValue ?value . "
                       "?m skos:prefLabel ?method } ORDER BY ?value")
        assert [(r["method"], r["value"]) for r in rows] == [("BarNet", Decimal("95.0")), ("FooNet", Decimal("96.2"))]
        df = rows.to_pandas()
        assert df["value"].dtype == "float64" and df["value"].mean() == pytest.approx(95.6)
        board = g.ask("leaderboard", dataset="CIFAR-10", metric="accuracy").to_pandas()
        assert board["value"].dtype == "float64" and list(board["value"]) == [96.2, 95.0]
        # a column that is not all numbers stays as it was
        mixed = kg.frame(kg.Rows([{"x": Decimal("1.5")}, {"x": "n/a"}], ["x"]))
        assert mixed["x"].tolist() == [Decimal("1.5"), "n/a"]
        unbound = kg.frame(kg.Rows([{"x": Decimal("1.5")}, {"x": None}], ["x"]))
        assert unbound["x"].dtype == "float64" and unbound["x"].isna().tolist() == [False, True]


def test_a_syntax_error_is_one_line_that_names_the_word(built):
    with kg.open(built) as g:
        with pytest.raises(kg.KGError) as err:
            g.query("SELEC ?m WHERE { ?m a mlkg:Method }")
        assert str(err.value) == ("SPARQL syntax error: unknown keyword 'SELEC' at 1:1; "
                                  "a query begins with SELECT, CONSTRUCT, ASK or DESCRIBE")
        with pytest.raises(kg.KGError) as err:
            g.query("SELECT ?m\nWHERE { ?m a mlkg:Method }\nORDER BY ?m LIMT 5")
        assert str(err.value) == "SPARQL syntax error: unknown keyword 'LIMT' at 3:13; did you mean LIMIT?"


def test_a_dataframe_without_pandas_says_how_to_get_it(built, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with kg.open(built) as g, pytest.raises(kg.KGError, match="pip install pandas"):
        g.query(PAPERS_Q).to_pandas()


def test_to_rdflib_and_to_networkx(built):
    with kg.open(built) as g:
        ds = g.to_rdflib()
        papers = list(ds.query(PAPERS_Q))
        assert int(papers[0][0]) == 2
        assert len(ds) > 0 and len(list(ds.graphs())) >= 3, "each paper and the entities in their graphs"
        nxg = g.to_networkx()
        labels = {d["label"]: n for n, d in nxg.nodes(data=True)}
        assert {"FooNet", "BarNet", "CIFAR-10"} <= set(labels)
        assert nxg.has_edge(labels["FooNet"], labels["CIFAR-10"], key="evaluatedOn")


def test_errors_carry_the_command_line_messages(built, tmp_path):
    with pytest.raises(kg.KGError, match=r"no store at .*; build one first with `kg build"):
        kg.open(tmp_path / "nothing-here")
    with kg.open(built) as g:
        with pytest.raises(kg.KGError, match="^SPARQL syntax error"):
            g.query("SELEKT ?x WHERE { }")
        with pytest.raises(kg.KGError, match="no ready question 'best'"):
            g.ask("best")
        with pytest.raises(kg.KGError, match="has no parameter 'task'"):
            g.ask("leaderboard", task="x")
        with pytest.raises(kg.KGError, match="read-only"):
            g.query("INSERT DATA { <urn:a> <urn:b> <urn:c> }")
    with pytest.raises(kg.KGError, match="is closed"):
        g.query(PAPERS_Q)


# -- changes ----------------------------------------------------------------------
def test_build_from_a_file_update_and_remove(tmp_path):
    src = tmp_path / "abstracts.jsonl"
    import json
    src.write_text("".join(json.dumps(a) + "\n" for a in ABSTRACTS), encoding="utf-8")
    out = tmp_path / "out"
    with kg.build([src], out) as g:
        assert (out / "graph.html").exists() and g.query(PAPERS_Q) == [{"n": 2}]
        summary = g.update([MORE])
        assert summary.added == ["api-baz"]
        assert g.query(PAPERS_Q) == [{"n": 3}]
        assert g.update([MORE]).unchanged == 1, "the same text again changes nothing"
        assert g.ask("methods-on-dataset", dataset="WMT14")[0]["methodLabel"] == "BazNet"
        removed = g.remove(["api-foo", "no-such-paper"])
        assert removed.removed == ["api-foo"] and removed.not_found == ["no-such-paper"]
        assert g.query(PAPERS_Q) == [{"n": 2}]
        assert not g.query(PREFIX + 'ASK { ?m skos:prefLabel "FooNet" }'), "its entities went with it"
    records = (out / "records.jsonl").read_text(encoding="utf-8")
    assert '"api-baz"' in records and '"api-foo"' not in records


def test_unreadable_input_warns_or_with_strict_refuses(tmp_path):
    bad = [ABSTRACTS[0], {"id": "empty", "abstract": ""}]
    with pytest.warns(UserWarning, match="kg: skipped .*empty abstract"):
        g = kg.build(bad, tmp_path / "a", view=False)
    assert len(g.summary.skipped) == 1
    g.close()
    with pytest.raises(kg.KGError, match="strict: 1 input record"):
        kg.build(bad, tmp_path / "b", view=False, strict=True)
    assert not (tmp_path / "b" / "store").exists(), "nothing written"


def test_an_output_that_cannot_be_written_is_a_kg_error(built, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with kg.open(built) as g, pytest.raises(kg.KGError, match="cannot write"):
        g.report(blocker / "report.html")
