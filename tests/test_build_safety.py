"""Nothing a user does by mistake costs them their graph (issue 18): a build
whose input is missing or gives no abstract leaves the previous build
byte-identical; the export format follows the file name; queries know kg's
prefixes and syntax errors are one readable line; the summary and the view
say what they count."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import rdflib

from kg.cli import main

CORPUS = [
    {"id": "s-ember", "title": "EmberNet",
     "abstract": "We propose EmberNet, a shallow convolutional network for image classification. "
                 "We evaluate EmberNet on CIFAR-10, where it outperforms ResNet-50 by 0.8% accuracy."},
    {"id": "s-lark", "title": "LarkRank",
     "abstract": "We introduce LarkRank, a dense retriever for passage retrieval. "
                 "Experiments on MS MARCO show that LarkRank improves over BM25."},
]


def snapshot(out: Path) -> dict[str, str]:
    """Every file of a build folder with the hash of its bytes (the lock file aside)."""
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".kg-lock"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("safety")
    corpus = work / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in CORPUS), encoding="utf-8")
    out = work / "out"
    assert main(["build", str(corpus), "-o", str(out), "-q"]) == 0
    return out


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


# -- a build never destroys what it cannot replace --------------------------------

def test_a_typo_in_the_input_path_leaves_the_build_byte_identical(built, capsys):
    before = snapshot(built)
    assert "graph.ttl" in before and "records.jsonl" in before and "graph.html" in before
    typo = built.parent / "corpus-typo.jsonl"
    for extra in ([], ["--update"]):
        code, _, err = run(capsys, "build", str(typo), "-o", str(built), "-q", *extra)
        assert code == 2, extra
        assert err.count("\n") == 1 and "corpus-typo.jsonl: no such file" in err and "left as it was" in err
        assert snapshot(built) == before


def test_one_missing_input_among_good_ones_stops_the_build(built, capsys):
    before = snapshot(built)
    good = built.parent / "corpus.jsonl"
    code, _, err = run(capsys, "build", str(good), str(built.parent / "nope.csv"), "-o", str(built), "-q")
    assert code == 2 and "nope.csv: no such file" in err
    assert snapshot(built) == before


@pytest.mark.parametrize("name,data", [
    ("fields.jsonl", b'{"id": "x1", "body": "An abstract under a name kg does not know."}\n'),
    ("binary.jsonl", bytes(range(256)) * 4),
    ("empty.jsonl", b""),
    ("headings.txt", b"Just a heading\n"),
])
def test_an_input_without_any_abstract_leaves_the_build_byte_identical(built, capsys, name, data):
    before = snapshot(built)
    bad = built.parent / name
    bad.write_bytes(data)
    for extra in ([], ["--update"]):
        code, out, err = run(capsys, "build", str(bad), "-o", str(built), "-q", *extra)
        assert code == 2, (name, extra)
        assert "no abstract could be read" in err and f"{bad}" in err + out, err
        assert snapshot(built) == before


def test_a_folder_or_unknown_extension_is_refused_before_anything_is_written(built, capsys):
    before = snapshot(built)
    odd = built.parent / "corpus.docx"
    odd.write_text("x", encoding="utf-8")
    for bad, reason in ((built.parent, "is a folder"), (odd, "cannot tell the format")):
        code, _, err = run(capsys, "build", str(bad), "-o", str(built), "-q")
        assert code == 2 and reason in err
    assert snapshot(built) == before


def test_some_skipped_records_still_build_with_exit_1_and_the_skips_listed(tmp_path, capsys):
    corpus = tmp_path / "mixed.jsonl"
    corpus.write_text(json.dumps(CORPUS[0]) + "\n{broken\n" + json.dumps({"id": "e", "abstract": ""}) + "\n",
                      encoding="utf-8")
    code, out, _ = run(capsys, "build", str(corpus), "-o", str(tmp_path / "out"), "-q", "--no-view")
    assert code == 1
    assert "abstracts read: 1" in out and "skipped: 2" in out
    assert "mixed.jsonl:2: malformed JSON" in out and "mixed.jsonl:3 (id e): empty abstract" in out


# -- exports follow the file name ---------------------------------------------------

def test_export_format_follows_the_extension(built, tmp_path, capsys):
    target = tmp_path / "graph.nq"
    code, _, err = run(capsys, "export", "--store", str(built), "-o", str(target))
    assert code == 0 and "N-Quads" in err
    ds = rdflib.Dataset()
    ds.parse(target, format="nquads")
    graphs = {str(g.identifier) for g in ds.graphs() if len(g)}
    assert "https://w3id.org/mlkg/graph/paper/s-ember" in graphs
    code, _, _ = run(capsys, "export", "--store", str(built), "-o", str(tmp_path / "graph.nt"))
    assert code == 0 and len(rdflib.Graph().parse(tmp_path / "graph.nt", format="nt")) > 20


def test_a_format_that_disagrees_with_the_extension_is_an_error(built, tmp_path, capsys):
    code, _, err = run(capsys, "export", "--store", str(built), "--format", "ttl", "-o", str(tmp_path / "graph.nq"))
    assert code == 2 and "disagrees with the extension .nq" in err and "Turtle" in err and "N-Quads" in err
    assert not (tmp_path / "graph.nq").exists()
    code, _, err = run(capsys, "export", "--store", str(built), "-o", str(tmp_path / "graph.rdfx"))
    assert code == 2 and "pass --format" in err
    # an extension kg does not know, with --format: the user said what they want
    assert run(capsys, "export", "--store", str(built), "--format", "nt", "-o", str(tmp_path / "g.txt"))[0] == 0
    # to stdout, --format decides and Turtle is the default
    code, out, _ = run(capsys, "export", "--store", str(built))
    assert code == 0 and "@prefix" in out


# -- queries know kg's prefixes --------------------------------------------------------

def test_a_query_from_the_docs_runs_without_prefix_lines(built, capsys):
    code, out, err = run(capsys, "query", "--store", str(built), "--format", "csv",
                         "SELECT DISTINCT ?d WHERE { ?d a mls:Dataset ; skos:prefLabel ?l } ORDER BY ?d")
    assert code == 0, err
    assert "https://w3id.org/mlkg/id/dataset/cifar-10" in out
    code, out, _ = run(capsys, "query", "--store", str(built), "--format", "csv", "--timeout", "30",
                       "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a fabio:ResearchPaper ; dcterms:title ?t }")
    assert code == 0 and out.split() == ["n", "2"]


def test_a_query_s_own_prefix_wins(built, capsys):
    code, out, _ = run(capsys, "query", "--store", str(built), "--format", "csv",
                       "PREFIX mls: <http://example.org/not-mls#> SELECT (COUNT(*) AS ?n) WHERE { ?d a mls:Dataset }")
    assert code == 0 and out.split() == ["n", "0"]


def test_a_syntax_error_is_one_readable_line(built, capsys):
    code, _, err = run(capsys, "query", "--store", str(built), "SELECT ?s WHERE {\n  ?s a foo:Thing }")
    assert code == 2 and err.count("\n") == 1
    assert "unknown prefix 'foo:' at 2:8;" in err and "PREFIX foo:" in err
    code, _, err = run(capsys, "query", "--store", str(built), "SELECT ?s WHERE { ?s ?p ?o } LIMIT x")
    assert code == 2 and err.count("\n") == 1
    assert "unknown word 'x' at 1:36;" in err
    assert "\\u{" not in err and "..=" not in err  # no character ranges from the grammar


def test_the_server_path_knows_the_prefixes_too(built):
    import pyoxigraph as ox

    from kg.sparql.syntax import syntax_error
    from kg.sparql.workers import QueryJob, execute
    from kg.store import store_path

    assert syntax_error("SELECT ?d WHERE { ?d a mls:Dataset }") is None
    assert "unknown prefix 'nope:'" in syntax_error("ASK { ?d a nope:Dataset }")
    store = ox.Store.read_only(str(store_path(built)))
    answer = execute(store, QueryJob(text="SELECT ?d WHERE { ?d a mls:Dataset }",
                                     accepted=["application/sparql-results+json"]))
    assert answer.status == 200 and answer.rows >= 1
    answer = execute(store, QueryJob(text="SELECT ?d WHERE { ?d a", accepted=["*/*"]))
    assert answer.status == 400 and b"unexpected end of the query at 1:" in answer.body and b"\\u{" not in answer.body


def test_the_prefixes_are_the_namespaces_kg_writes():
    from kg.graph import vocab
    from kg.sparql.prefixes import PREFIXES

    # rdflib's own namespaces are not built from the map: they must agree with it.
    namespaces = {"mlkg": vocab.MLKG, "id": vocab.ID, "kgg": vocab.GRAPH, "mls": vocab.MLS, "fabio": vocab.FABIO,
                  "prov": vocab.PROV, "skos": vocab.SKOS, "dcterms": vocab.DCTERMS, "rdf": vocab.RDF,
                  "rdfs": vocab.RDFS, "xsd": vocab.XSD, "owl": vocab.OWL, "prism": vocab.PRISM, "bibo": vocab.BIBO,
                  "foaf": vocab.FOAF, "schema": vocab.SDO}
    assert {k: str(ns) for k, ns in namespaces.items()} == PREFIXES
    assert vocab.PREFIXES is PREFIXES


# -- what the counts count -------------------------------------------------------------

def test_summary_and_view_say_what_they_count(tmp_path, capsys):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in CORPUS), encoding="utf-8")
    out = tmp_path / "out"
    code, summary, _ = run(capsys, "build", str(corpus), "-o", str(out), "-q")
    assert code == 0
    assert "entity mentions (once per paper that names the entity): " in summary
    assert "distinct entities in the graph (as in the view): Dataset 2" in summary
    assert "relations read (once per paper that states them): " in summary
    assert "distinct relations in the graph (as in the view): " in summary
    page = (out / "graph.html").read_text(encoding="utf-8")
    assert "Counts: distinct entities and relation edges drawn here" in page


def test_every_query_of_docs_model_runs_without_its_prefix_lines(demo_build):
    import re

    from kg.sparql.prefixes import query_prefixes
    from kg.store import KGStore

    doc = (Path(__file__).resolve().parents[1] / "docs" / "model.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sparql\n(.*?)```", doc, re.DOTALL)
    queries = [q for block in blocks for q in re.split(r"\n\s*\n", block) if "SELECT" in q or "ASK" in q]
    assert len(queries) >= 3
    store = KGStore.at(demo_build, read_only=True)
    try:
        for query in queries:
            bare = "\n".join(line for line in query.splitlines() if not line.lstrip().upper().startswith("PREFIX"))
            rows = list(store.query(bare, prefixes=query_prefixes()))
            assert rows, bare  # the demo corpus has results, dates and authors for each
    finally:
        store.close()


def test_the_summary_counts_the_relations_the_view_draws(demo_build):
    from collections import Counter

    from kg.builder import distinct_counts
    from kg.store import KGStore, store_path
    from kg.view.graphdata import read_summary

    store = KGStore(store_path(demo_build), read_only=True)
    drawn = Counter(d["rel"] for *_, d in read_summary(store).graph.edges(data=True))
    # measuredBy (a method and the metric of its result) included, as in the view's legend
    assert distinct_counts(store)[1] == drawn and drawn["measuredBy"] > 0
