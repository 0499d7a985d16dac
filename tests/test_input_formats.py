"""Inputs as people have them (issue 18): TSV, standard input, gzip and bzip2
files; CSV/TSV headers in any case under common aliases or the user's --map;
paper metadata (date, year, authors, venue, DOI, arXiv id, categories, URL)
from arXiv-metadata, Semantic Scholar and OpenAlex rows, into the graph with
standard terms; a per-year ready question. Every abstract here is ours."""

from __future__ import annotations

import bz2
import gzip
import io
import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.io import ReadReport, read_file
from kg.io.fields import FieldMap, FieldMapError
from kg.model import PaperMeta

TEXTS = [
    "We propose FernNet, a lightweight convolutional model for image classification. "
    "We evaluate FernNet on CIFAR-10 and ImageNet, where it improves top-1 accuracy over ResNet-50 by 1.1 points.",
    "We present MossRank, a sparse retriever for passage retrieval. Experiments on MS MARCO show that "
    "MossRank outperforms BM25 by 3.2 MRR@10.",
    "This work introduces ThistleASR, a streaming recogniser for speech recognition. On LibriSpeech, "
    "ThistleASR reaches 2.9% WER on test-clean.",
    "We propose BirchViT, a vision transformer for image classification trained on ImageNet. "
    "BirchViT is evaluated on ImageNet and CIFAR-100.",
]

# arXiv metadata snapshot rows, as the Kaggle file has them (authors as one string,
# authors_parsed, categories space-separated, versions with RFC 2822 dates, update_date).
ARXIV_ROWS = [
    {"id": "2203.01234", "submitter": "Ana Quill", "authors": "Ana Quill, Bo Harrow and C. Delling",
     "title": "FernNet: light\n  convolutions", "comments": "9 pages", "journal-ref": "Proc. Imaginary Conf. 2022",
     "doi": "10.5555/fern.2022", "report-no": None, "categories": "cs.CV cs.LG", "license": None,
     "abstract": "  " + TEXTS[0] + "\n", "versions": [{"version": "v1", "created": "Tue, 1 Mar 2022 10:00:00 GMT"},
                                               {"version": "v2", "created": "Fri, 3 Jun 2022 09:00:00 GMT"}],
     "update_date": "2022-06-03", "authors_parsed": [["Quill", "Ana", ""], ["Harrow", "Bo", ""], ["Delling", "C.", ""]]},
    {"id": "2311.04321", "submitter": "Dev Moss", "authors": "Dev Moss and Eve Lark", "title": "MossRank",
     "journal-ref": None, "doi": None, "categories": "cs.IR", "abstract": TEXTS[1],
     "versions": [{"version": "v1", "created": "Wed, 8 Nov 2023 12:00:00 GMT"}], "update_date": "2023-11-09",
     "authors_parsed": [["Moss", "Dev", ""], ["Lark", "Eve", ""]]},
    {"id": "2405.00007", "submitter": "Fay Birch", "authors": "Fay Birch", "title": "BirchViT", "categories": "cs.CV",
     "abstract": TEXTS[3], "versions": [{"version": "v1", "created": "Thu, 2 May 2024 08:00:00 GMT"}],
     "update_date": "2024-05-03", "authors_parsed": [["Birch", "Fay", ""]]},
]


def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8")


def read(path, fmt=None, fields=None):
    report = ReadReport()
    return list(read_file(path, report, fmt, fields)), report


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def csv_rows(capsys, store: Path, query: str) -> list[list[str]]:
    code, out, err = run(capsys, "query", "--store", str(store), "--format", "csv", query)
    assert code == 0, err
    return [line.split(",") for line in out.strip().splitlines()[1:]]


# -- arXiv metadata, gzipped --------------------------------------------------------------

@pytest.fixture(scope="module")
def arxiv_build(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("arxiv")
    path = work / "arxiv-metadata.jsonl.gz"
    path.write_bytes(gzip.compress(jsonl(ARXIV_ROWS)))
    out = work / "out"
    assert main(["build", str(path), "-o", str(out), "-q", "--no-view"]) == 0
    return out


def test_arxiv_rows_give_their_metadata(tmp_path):
    path = tmp_path / "a.jsonl.gz"
    path.write_bytes(gzip.compress(jsonl(ARXIV_ROWS)))
    (first, second, _), report = read(path)
    assert report.read == 3 and not report.skipped
    assert first.id == "2203.01234" and first.title == "FernNet: light convolutions"
    assert first.paper == PaperMeta(date="2022-03-01", year=2022, authors=("Ana Quill", "Bo Harrow", "C. Delling"),
                                    venue="Proc. Imaginary Conf. 2022", doi="10.5555/fern.2022",
                                    arxiv="2203.01234", categories=("cs.CV", "cs.LG"))
    assert second.paper.date == "2023-11-08" and second.paper.authors == ("Dev Moss", "Eve Lark")
    assert "journal-ref" in first.meta and "abstract" not in first.meta


def test_gzipped_arxiv_build_has_dates_and_authors_for_sparql(arxiv_build, capsys):
    rows = csv_rows(capsys, arxiv_build, """
        SELECT ?id ?date ?year ?first WHERE {
          ?p dcterms:identifier ?id ; dcterms:issued ?date ; fabio:hasPublicationYear ?year ;
             bibo:authorList/rdf:_1/foaf:name ?first .
        } ORDER BY ?id""")
    assert rows == [["2203.01234", "2022-03-01", "2022", "Ana Quill"], ["2311.04321", "2023-11-08", "2023", "Dev Moss"],
                    ["2405.00007", "2024-05-02", "2024", "Fay Birch"]]
    rows = csv_rows(capsys, arxiv_build, """
        SELECT DISTINCT ?name WHERE { ?p mlkg:arxivId "2203.01234" ; dcterms:creator/foaf:name ?name } ORDER BY ?name""")
    assert rows == [["Ana Quill"], ["Bo Harrow"], ["C. Delling"]]
    rows = csv_rows(capsys, arxiv_build, """
        SELECT ?doi ?venue (GROUP_CONCAT(?c; separator=" ") AS ?cats) WHERE {
          ?p prism:doi ?doi ; prism:publicationName ?venue ; dcterms:subject ?c } GROUP BY ?doi ?venue""")
    assert len(rows) == 1 and rows[0][:2] == ["10.5555/fern.2022", "Proc. Imaginary Conf. 2022"]
    assert sorted(rows[0][2].split()) == ["cs.CV", "cs.LG"]


def test_per_year_ready_question_on_a_dated_corpus(arxiv_build, capsys):
    code, out, err = run(capsys, "query", "--store", str(arxiv_build), "--format", "csv",
                         "--ask", "usage-per-year", "--param", "entity=imagenet")
    assert code == 0, err
    assert out.split() == ["year,papers,evaluatedOrAddressed", "2022,1,1", "2024,1,1"]


def test_the_demo_corpus_has_dates_so_the_per_year_question_shows_something(demo_build, capsys):
    code, out, _ = run(capsys, "query", "--store", str(demo_build), "--format", "csv", "--ask", "usage-per-year")
    rows = out.split()[1:]
    assert code == 0 and len(rows) >= 2 and all(r[:2] == "20" for r in rows)


# -- CSV and TSV with other column names -----------------------------------------------------

def test_csv_with_other_column_names_builds_with_map(tmp_path, capsys):
    path = tmp_path / "papers.csv"
    path.write_text("Paper_ID,Title,Summary,Publication Year,Authors,Venue,URL\n"
                    f"p-fern,FernNet,\"{TEXTS[0]}\",2021,Ana Quill; Bo Harrow,Imaginary Workshop,https://example.org/fern\n"
                    f"p-birch,BirchViT,\"{TEXTS[3]}\",2023,Fay Birch,,\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run(capsys, "build", str(path), "-o", str(out), "-q", "--no-view")
    assert code == 2 and "no 'abstract' column" in err and "--map" in err
    code, _, err = run(capsys, "build", str(path), "-o", str(out), "-q", "--no-view",
                       "--map", "abstract=summary,id=paper_id")
    assert code == 0, err
    rows = csv_rows(capsys, out, """
        SELECT ?id ?year (GROUP_CONCAT(?name; separator="|") AS ?authors) WHERE {
          ?p dcterms:identifier ?id ; fabio:hasPublicationYear ?year ; dcterms:creator/foaf:name ?name
        } GROUP BY ?id ?year ORDER BY ?id""")
    assert rows[0][:2] == ["p-birch", "2023"] and rows[0][2] == "Fay Birch"
    assert rows[1][:2] == ["p-fern", "2021"] and sorted(rows[1][2].split("|")) == ["Ana Quill", "Bo Harrow"]
    assert csv_rows(capsys, out, "SELECT ?u ?v WHERE { ?p schema:url ?u ; prism:publicationName ?v }") == [
        ["https://example.org/fern", "Imaginary Workshop"]]


def test_csv_headers_match_in_any_case_and_by_alias(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text(f"ID,TITLE,Abstract,publication_date,DOI\nc1,Fern,\"{TEXTS[0]}\",2020-07-15,https://doi.org/10.1/x\n",
                    encoding="utf-8")
    (ab,), report = read(path)
    assert not report.skipped
    assert (ab.id, ab.title) == ("c1", "Fern")
    assert ab.paper.date == "2020-07-15" and ab.paper.year == 2020 and ab.paper.doi == "10.1/x"


def test_tsv_file_and_bz2_compression(tmp_path):
    body = f"id\ttitle\tabstract\tyear\nt1\tMoss\t{TEXTS[1]}\t2019\nt2\tThistle\t{TEXTS[2]}\t2020\n"
    plain = tmp_path / "a.tsv"
    plain.write_text(body, encoding="utf-8")
    packed = tmp_path / "b.tsv.bz2"
    packed.write_bytes(bz2.compress(body.encode("utf-8")))
    for path in (plain, packed):
        abstracts, report = read(path)
        assert not report.skipped, report.lines()
        assert [(a.id, a.paper.year) for a in abstracts] == [("t1", 2019), ("t2", 2020)]
        assert abstracts[1].text == TEXTS[2]


def test_a_truncated_gzip_file_is_reported_not_a_crash(tmp_path):
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(gzip.compress(jsonl(ARXIV_ROWS))[:-30])
    abstracts, report = read(path)
    assert abstracts == [] and "cannot read: Compressed file ended" in report.skipped[0].reason
    many = [{"id": f"m{i}", "abstract": f"Abstract number {i} of a long file, about image classification."}
            for i in range(2000)]
    path.write_bytes(gzip.compress(jsonl(many))[:-30])
    abstracts, report = read(path)
    assert 0 < len(abstracts) < 2000  # the rows before the cut are kept
    assert "cannot read to the end" in report.skipped[-1].reason


def test_standard_input_is_read_and_its_format_told(tmp_path, capsys, monkeypatch):
    rows = jsonl([{"id": "s1", "abstract": TEXTS[0], "year": 2018}])
    for data, expect in ((rows, "jsonl"), (f"id,abstract\ns1,\"{TEXTS[0]}\"\n".encode(), "csv"),
                         (f"id\tabstract\ns1\t{TEXTS[0]}\n".encode(), "tsv"), (TEXTS[0].encode() + b"\n", "txt")):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
        abstracts, report = read("-")
        assert [a.text for a in abstracts] == [TEXTS[0]], (expect, report.lines())
        assert abstracts[0].source == "<stdin>"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(rows)))
    out = tmp_path / "out"
    code, summary, err = run(capsys, "build", "-", "-o", str(out), "-q", "--no-view")
    assert code == 0, err
    assert "abstracts read: 1" in summary
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(rows)))
    code, _, err = run(capsys, "build", "-", "-o", str(out), "-q", "--no-view", "--strict")
    assert code == 2 and "standard input" in err


# -- Semantic Scholar and OpenAlex rows ------------------------------------------------------------

def test_semantic_scholar_rows(tmp_path):
    row = {"paperId": "abc123", "title": "ThistleASR", "abstract": TEXTS[2], "year": 2021, "venue": "Interspeech",
           "publicationDate": "2021-08-30", "url": "https://www.semanticscholar.org/paper/abc123",
           "authors": [{"authorId": "1", "name": "Gil Thistle"}, {"authorId": "2", "name": "Hana Reed"}],
           "externalIds": {"DOI": "10.7777/thistle", "ArXiv": "2108.09999", "CorpusId": 42},
           "fieldsOfStudy": ["Computer Science"]}
    path = tmp_path / "s2.jsonl"
    path.write_bytes(jsonl([row]))
    (ab,), report = read(path)
    assert not report.skipped and ab.id == "abc123"
    assert ab.paper == PaperMeta(date="2021-08-30", year=2021, authors=("Gil Thistle", "Hana Reed"), venue="Interspeech",
                                 doi="10.7777/thistle", arxiv="2108.09999", categories=("Computer Science",),
                                 url="https://www.semanticscholar.org/paper/abc123")


def test_openalex_rows_with_an_inverted_abstract(tmp_path):
    words = TEXTS[1].split(" ")
    index: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        index.setdefault(w, []).append(i)
    row = {"id": "https://openalex.org/W123", "doi": "https://doi.org/10.8888/moss", "display_name": "MossRank",
           "publication_year": 2022, "publication_date": "2022-02-11",
           "authorships": [{"author_position": "first", "author": {"id": "A1", "display_name": "Dev Moss"}},
                           {"author_position": "last", "author": {"id": "A2", "display_name": "Eve Lark"}}],
           "primary_location": {"source": {"display_name": "Journal of Invented Retrieval"},
                                "landing_page_url": "https://example.org/moss"},
           "abstract_inverted_index": index}
    path = tmp_path / "oa.jsonl"
    path.write_bytes(jsonl([row]))
    (ab,), report = read(path)
    assert not report.skipped
    assert ab.text == TEXTS[1] and ab.title == "MossRank" and ab.id == "https://openalex.org/W123"
    assert ab.paper == PaperMeta(date="2022-02-11", year=2022, authors=("Dev Moss", "Eve Lark"),
                                 venue="Journal of Invented Retrieval", doi="10.8888/moss",
                                 url="https://example.org/moss")


def test_values_that_are_not_understood_are_left_out_with_a_warning(tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_bytes(jsonl([{"id": "o1", "abstract": TEXTS[0], "date": "sometime soon", "doi": "not-a-doi",
                             "year": "twenty", "url": "ftp://x", "authors": 7}]))
    (ab,), report = read(path)
    assert ab.paper == PaperMeta()
    assert any("date not understood" in w for w in report.warnings)


def test_map_option_errors_are_clear():
    assert FieldMap.parse(["abstract=summary, id=paper_id", "year=yr"]).mapped == {
        "abstract": "summary", "id": "paper_id", "year": "yr"}
    with pytest.raises(FieldMapError, match="unknown field 'abstrct'"):
        FieldMap.parse(["abstrct=summary"])
    with pytest.raises(FieldMapError, match="FIELD=NAME"):
        FieldMap.parse(["abstract"])


def test_map_reaches_into_nested_objects(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_bytes(jsonl([{"paper": {"key": "n1"}, "body": {"text": TEXTS[0]}, "when": "2017-05-06"}]))
    (ab,), report = read(path, fields=FieldMap.parse(["id=paper.key,abstract=body.text,date=when"]))
    assert (ab.id, ab.text, ab.paper.year) == ("n1", TEXTS[0], 2017)


def test_cli_map_error_is_exit_2(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_bytes(jsonl([{"id": "a", "abstract": TEXTS[0]}]))
    code, _, err = run(capsys, "build", str(path), "-o", str(tmp_path / "out"), "--map", "summary")
    assert code == 2 and "FIELD=NAME" in err


def test_update_replaces_a_paper_whose_metadata_changed(tmp_path, capsys):
    path = tmp_path / "a.jsonl"
    path.write_bytes(jsonl([{"id": "u1", "abstract": TEXTS[0]}]))
    out = tmp_path / "out"
    assert run(capsys, "build", str(path), "-o", str(out), "-q", "--no-view")[0] == 0
    path.write_bytes(jsonl([{"id": "u1", "abstract": TEXTS[0], "year": 2016}]))
    code, summary, _ = run(capsys, "build", str(path), "-o", str(out), "--update", "--no-view")
    assert code == 0 and "replaced: 1" in summary
    code, summary, _ = run(capsys, "build", str(path), "-o", str(out), "--update", "--no-view")
    assert code == 0 and "unchanged: 1" in summary
    assert csv_rows(capsys, out, "SELECT ?y WHERE { ?p fabio:hasPublicationYear ?y }") == [["2016"]]
