"""Each input format read into Abstract values, on files we write here."""

from __future__ import annotations

import json

from kg.io import ReadReport, read_inputs
from kg.model import text_id

ABSTRACT_A = ("We propose GlimmerNet, a compact convolutional network for image classification. "
              "On CIFAR-10 it reaches 95.1% accuracy.")
ABSTRACT_B = "We study retrieval with BM25 on MS MARCO and report Recall@100."


def test_jsonl_keeps_id_title_and_metadata(tmp_path):
    path = tmp_path / "in.jsonl"
    rows = [{"id": "p1", "title": "Glimmer", "abstract": ABSTRACT_A, "year": 2024},
            {"id": "p2", "title": "", "abstract": ABSTRACT_B}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    report = ReadReport()
    got = list(read_inputs([path], report))
    assert [a.id for a in got] == ["p1", "p2"]
    assert got[0].title == "Glimmer" and got[0].meta == {"year": 2024}
    assert got[0].line == 1 and got[1].line == 2
    assert report.read == 2 and not report.skipped


def test_arxiv_metadata_rows_read_as_they_are(tmp_path):
    row = {"id": "2401.00001", "submitter": "A. Person", "authors": "A. Person, B. Person",
           "title": "A Title\n  over two lines", "abstract": "  " + ABSTRACT_A + "\n",
           "categories": "cs.LG cs.CV", "update_date": "2024-01-02"}
    path = tmp_path / "arxiv.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (ab,) = read_inputs([path], ReadReport())
    assert ab.id == "2401.00001"
    assert ab.meta["categories"] == "cs.LG cs.CV" and ab.meta["update_date"] == "2024-01-02"
    assert ab.meta["authors"] == "A. Person, B. Person"


def test_csv_with_header(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text('id,title,abstract\nc1,First,"' + ABSTRACT_A + '"\nc2,Second,"' + ABSTRACT_B + '"\n',
                    encoding="utf-8")
    got = list(read_inputs([path], ReadReport()))
    assert [(a.id, a.title) for a in got] == [("c1", "First"), ("c2", "Second")]
    assert got[0].text == ABSTRACT_A


def test_txt_paragraphs_headings_and_hash_ids(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text(f"Image Classification\n\n{ABSTRACT_A}\n\n{ABSTRACT_B[:30]}\n{ABSTRACT_B[30:]}\n",
                    encoding="utf-8")
    got = list(read_inputs([path], ReadReport()))
    assert len(got) == 2, "the heading line is not an abstract"
    assert got[0].meta == {"collection": "Image Classification"}
    assert got[0].id == text_id(ABSTRACT_A) and len(got[0].id) == 16
    # Lines of one paragraph are joined with a space, which does not change the id's normalised text.
    assert got[1].text.replace(" ", "") == ABSTRACT_B.replace(" ", "")


def test_text_id_ignores_whitespace_differences():
    assert text_id("a  b\n c") == text_id("a b c")
    assert text_id("a b c") != text_id("a b d")


def test_format_override(tmp_path):
    path = tmp_path / "abstracts.data"
    path.write_text(json.dumps({"id": "x", "abstract": ABSTRACT_A}) + "\n", encoding="utf-8")
    report = ReadReport()
    assert list(read_inputs([path], report)) == []
    assert "extension" in report.skipped[0].reason
    assert [a.id for a in read_inputs([path], ReadReport(), fmt="jsonl")] == ["x"]
