"""The main path as a user runs it: kg extract, kg build, kg query, kg export."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import rdflib

from kg.cli import main

CORPUS = [
    {"id": "t-glimmer", "title": "GlimmerNet",
     "abstract": "We propose GlimmerNet, a compact convolutional network for image classification. "
                 "We evaluate GlimmerNet on CIFAR-10 and ImageNet, where it outperforms ResNet-50 "
                 "by 1.2% top-1 accuracy."},
    {"id": "t-quill", "title": "QuillRank",
     "abstract": "We introduce QuillRank, a sparse retriever for passage retrieval. "
                 "Experiments on MS MARCO show that QuillRank improves over BM25."},
    {"id": "t-plain", "title": "",
     "abstract": "This note surveys optimisers. It draws no conclusions about any dataset."},
]

EVALUATED_ON = """
PREFIX mlkg: <https://w3id.org/mlkg/ontology#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT DISTINCT ?method ?dataset WHERE {
  ?m mlkg:evaluatedOn ?d . ?m skos:prefLabel ?method . ?d skos:prefLabel ?dataset .
} ORDER BY ?method ?dataset
"""


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in CORPUS), encoding="utf-8")
    return path


@pytest.fixture
def built(tmp_path, corpus):
    out = tmp_path / "out"
    assert main(["build", str(corpus), "-o", str(out)]) == 0
    return out


def test_extract_writes_one_record_per_abstract_in_order(tmp_path, corpus):
    out = tmp_path / "records.jsonl"
    assert main(["extract", str(corpus), "-o", str(out)]) == 0
    records = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in records] == [r["id"] for r in CORPUS]
    for rec in records:
        assert set(rec["entities"]) == {"Method", "Dataset", "Task", "Metric"}
        for ents in rec["entities"].values():
            for e in ents:
                assert isinstance(e["name"], str) and e["name"]
        names = {e["name"] for ents in rec["entities"].values() for e in ents}
        for rel in rec["relations"]:
            assert rel["p"] in {"evaluatedOn", "addresses", "improvesOver", "achieves"}
            assert rel["s"] in names
    glimmer = records[0]
    methods = {e["name"]: e for e in glimmer["entities"]["Method"]}
    assert methods["GlimmerNet"].get("proposed") is True
    assert not methods["ResNet-50"].get("proposed")
    assert {"s": "GlimmerNet", "p": "evaluatedOn", "o": "CIFAR-10"}.items() <= \
        next(r for r in glimmer["relations"] if r["p"] == "evaluatedOn" and r["o"] == "CIFAR-10").items()


def test_build_writes_all_outputs(built):
    for name in ("records.jsonl", "graph.ttl", "graph.html"):
        assert (built / name).stat().st_size > 0, name
    assert len((built / "records.jsonl").read_text(encoding="utf-8").splitlines()) == len(CORPUS)
    g = rdflib.Graph().parse(built / "graph.ttl", format="turtle")
    assert len(g) > 50
    assert (built / "store").is_dir()


def test_query_answers_which_methods_on_which_datasets(built, capsys):
    assert main(["query", "--store", str(built), "--format", "json", EVALUATED_ON]) == 0
    rows = json.loads(capsys.readouterr().out)
    pairs = {(r["method"], r["dataset"]) for r in rows}
    assert {("GlimmerNet", "CIFAR-10"), ("GlimmerNet", "ImageNet")} <= pairs


def test_query_csv_and_file(built, tmp_path, capsys):
    rq = tmp_path / "q.rq"
    rq.write_text(EVALUATED_ON, encoding="utf-8")
    assert main(["query", "--store", str(built), "--format", "csv", "-f", str(rq)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "method,dataset" and "GlimmerNet,CIFAR-10" in lines


def test_query_without_store_is_a_clear_error(tmp_path, capsys):
    assert main(["query", "--store", str(tmp_path / "nothing"), "SELECT * WHERE { ?s ?p ?o }"]) == 2
    assert "no store" in capsys.readouterr().err


@pytest.mark.parametrize("fmt,parse_as", [("ttl", "turtle"), ("nt", "nt"), ("nq", "nquads"), ("trig", "trig")])
def test_export_formats_parse(built, tmp_path, fmt, parse_as):
    out = tmp_path / f"g.{fmt}"
    assert main(["export", "--store", str(built), "--format", fmt, "-o", str(out)]) == 0
    if parse_as in ("nquads", "trig"):
        ds = rdflib.Dataset()
        ds.parse(out, format=parse_as)
        assert len(list(ds.graphs())) > len(CORPUS)
    else:
        assert len(rdflib.Graph().parse(out, format=parse_as)) > 50


def test_console_entry_point_help_teaches():
    out = subprocess.run([sys.executable, "-m", "kg", "--help"], capture_output=True, text=True, check=True).stdout
    for verb in ("extract", "build", "query", "export"):
        assert verb in out
