"""`kg query`: free SPARQL, ready questions with parameters, and clear errors."""

from __future__ import annotations

import csv
import io
import json

from kg.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_ready_question_and_its_parameters(capsys):
    code, out, _ = run(capsys, "query", "--list")
    assert code == 0
    for name in ("leaderboard", "methods-on-dataset", "find-entity", "fact-sources"):
        assert f"{name}:" in out
    assert "--param dataset=" in out and "--param metric=" in out


def test_ask_with_params_as_csv(capsys, demo_build):
    code, out, _ = run(capsys, "query", "--store", str(demo_build), "--ask", "leaderboard",
                       "--param", "dataset=librispeech", "--param", "metric=wer", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["methodLabel"] == "LumaASR" and rows[0]["value"] == "2.3"


def test_ask_uses_the_example_values_by_default(capsys, demo_build):
    code, out, _ = run(capsys, "query", "--store", str(demo_build), "--ask", "find-entity", "--format", "json")
    assert code == 0
    assert json.loads(out)[0]["label"] == "CIFAR-10"


def test_free_query_and_file(capsys, demo_build, tmp_path):
    q = 'PREFIX skos: <http://www.w3.org/2004/02/skos/core#> ASK { ?e skos:prefLabel "ImageNet" }'
    assert run(capsys, "query", "--store", str(demo_build), q)[1] == "true\n"
    f = tmp_path / "q.rq"
    f.write_text(q, encoding="utf-8")
    assert run(capsys, "query", "--store", str(demo_build), "-f", str(f))[1] == "true\n"


def test_errors_are_one_line_and_exit_2(capsys, demo_build, tmp_path):
    cases = [
        (["--ask", "no-such"], "no ready question 'no-such'"),
        (["--ask", "leaderboard", "--param", "datset=x"], "no parameter 'datset'"),
        (["--ask", "leaderboard", "--param", "dataset"], "NAME=VALUE"),
        (["SELECT * WHERE { ?s ?p }"], "SPARQL syntax error"),
        (["SELECT * WHERE { SERVICE <http://example.org/> { ?s ?p ?o } }"], "SERVICE"),
        (["DELETE WHERE { ?s ?p ?o }"], "read-only"),
        (["-f", str(tmp_path / "missing.rq")], "cannot read"),
        (["--param", "a=b", "ASK {}"], "--param goes with --ask"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, "query", "--store", str(demo_build), *argv)
        assert code == 2 and out == "", argv
        assert err.startswith("kg: error:") and message in err and "Traceback" not in err, (argv, err)
    code, _, err = run(capsys, "query", "--store", str(tmp_path), "ASK {}")
    assert code == 2 and "kg build" in err


def test_a_from_clause_sets_the_dataset(capsys, demo_build):
    """kg's default graph is the union of all graphs, unless the query names its own."""
    one = "https://w3id.org/mlkg/graph/paper/demo-01"
    code, out, _ = run(capsys, "query", "--store", str(demo_build), "--format", "csv",
                       f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{one}> {{ ?s ?p ?o }} }}")
    in_graph = int(out.split()[1])
    for extra in ([], ["--timeout", "30"]):
        code, out, _ = run(capsys, "query", "--store", str(demo_build), "--format", "csv", *extra,
                           f"SELECT (COUNT(*) AS ?n) FROM <{one}> WHERE {{ ?s ?p ?o }}")
        assert code == 0 and int(out.split()[1]) == in_graph
    code, out, _ = run(capsys, "query", "--store", str(demo_build), "--format", "csv",
                       'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(?o != "FROM") }')
    assert int(out.split()[1]) > in_graph, "a FROM inside a string is no clause"
