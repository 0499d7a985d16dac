"""The readers on their own: formats, line numbers, decoding, clean-up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.io.readers import ReadReport, read_file, read_inputs
from kg.io.text import MAX_ABSTRACT_CHARS, clean_text, decode_line, looks_non_english

GOOD = "We propose GridNet for image classification. GridNet is evaluated on CIFAR-10 and beats ResNet-50."
OTHER = "We introduce a sparse attention model for machine translation and report BLEU on WMT14."


def jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def read(path: Path, fmt: str | None = None) -> tuple[list, ReadReport]:
    report = ReadReport()
    return list(read_inputs([path], report, fmt)), report


def test_jsonl_reads_ids_titles_and_meta(tmp_path):
    abstracts, report = read(jsonl(tmp_path / "a.jsonl", [
        {"id": "p1", "title": "  Grid\n  networks ", "abstract": GOOD, "year": 2020},
        {"id": 7, "abstract": OTHER},
    ]))
    assert [(a.id, a.line) for a in abstracts] == [("p1", 1), ("7", 2)]
    assert abstracts[0].title == "Grid networks"
    assert abstracts[0].meta == {"year": 2020}
    assert report.read == 2 and not report.skipped and not report.warnings


def test_missing_id_gets_a_stable_text_id(tmp_path):
    (a,), _ = read(jsonl(tmp_path / "a.jsonl", [{"abstract": GOOD}]))
    (b,), _ = read(jsonl(tmp_path / "b.jsonl", [{"abstract": "  " + GOOD.replace(" ", "\n", 1)}]))
    assert a.id == b.id and len(a.id) == 16


def test_crlf_and_utf8_bom_are_read_as_plain_lines(tmp_path):
    path = tmp_path / "a.jsonl"
    rows = [json.dumps({"id": "p1", "abstract": GOOD}), json.dumps({"id": "p2", "abstract": OTHER})]
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(rows).encode() + b"\r\n")
    abstracts, report = read(path)
    assert [a.id for a in abstracts] == ["p1", "p2"]
    assert abstracts[1].text == OTHER and not report.skipped


def test_lone_cr_line_ends(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes("\r".join([json.dumps({"id": "p1", "abstract": GOOD}), json.dumps({"id": "p2", "abstract": OTHER})]).encode())
    abstracts, _ = read(path)
    assert [(a.id, a.line) for a in abstracts] == [("p1", 1), ("p2", 2)]


def test_utf16_with_bom_is_decoded(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(json.dumps({"id": "p1", "abstract": GOOD + " Café."}, ensure_ascii=False).encode("utf-16"))
    abstracts, report = read(path)
    assert [a.id for a in abstracts] == ["p1"] and abstracts[0].text.endswith("Café.")
    assert any("UTF-16" in w for w in report.warnings)


def test_windows_1252_line_decoded_with_warning(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(json.dumps({"id": "p1", "abstract": GOOD}).encode() + b"\n"
                     + '{"id": "p2", "abstract": "Na\u00efve Bayes na\u00efvely for r\u00e9sum\u00e9 ranking."}'.encode("cp1252") + b"\n")
    abstracts, report = read(path)
    assert [a.id for a in abstracts] == ["p1", "p2"]
    assert abstracts[1].text.startswith("Naïve Bayes")
    assert report.warnings == [f"{path}: not UTF-8; decoded as Windows-1252 (line 2)"]


def test_undecodable_line_is_skipped_alone(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"id": "p1", "abstract": "bad \x81\x8d bytes here"}\n' + json.dumps({"id": "p2", "abstract": GOOD}).encode())
    abstracts, report = read(path)
    assert [a.id for a in abstracts] == ["p2"]
    assert [(s.line, s.reason) for s in report.skipped] == [(1, "line is not text in UTF-8 or Windows-1252")]


@pytest.mark.parametrize("data, reason", [
    (b"", "empty file"),
    (b"\n \n\t\n", "empty file"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file (NUL bytes), not text"),
    (bytes(range(1, 9)) * 40, "binary file (control bytes), not text"),
])
def test_files_that_are_not_text(tmp_path, data, reason):
    path = tmp_path / "a.jsonl"
    path.write_bytes(data)
    abstracts, report = read(path)
    assert abstracts == []
    assert [(s.source, s.line, s.reason) for s in report.skipped] == [(str(path), 0, reason)]


def test_missing_file_and_folder(tmp_path):
    report = ReadReport()
    assert list(read_inputs([tmp_path / "nope.jsonl", tmp_path], report)) == []
    assert [s.reason for s in report.skipped] == ["no such file", "is a folder, not a file"]


def test_unreadable_extension_needs_format(tmp_path):
    path = tmp_path / "a.dat"
    path.write_text(GOOD, encoding="utf-8")
    abstracts, report = read(path)
    assert abstracts == [] and "pass --format" in report.skipped[0].reason
    abstracts, report = read(path, "txt")
    assert [a.text for a in abstracts] == [GOOD]


def test_control_characters_replaced_one_for_one(tmp_path):
    raw = "We propose\x00 GridNet\x07 for\x1b image\u0085 classification on CIFAR-10.\r\nDone \ud800."
    (a,), report = read(jsonl(tmp_path / "a.jsonl", [{"id": "p1", "abstract": raw}]))
    assert len(a.text) == len(raw)
    assert a.text.index("GridNet") == raw.index("GridNet")
    assert all(c in "\n\t" or ord(c) >= 32 for c in a.text) and "\ufffd" in a.text
    a.text.encode("utf-8")  # no lone surrogate survives
    assert report.warnings == [f"{tmp_path / 'a.jsonl'}: control characters replaced by spaces (line 1)"]


def test_raw_control_character_inside_a_json_string_is_accepted(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"id": "p1", "abstract": "We propose\tGridNet\x0b for image classification."}\n')
    (a,), report = read(path)
    assert a.text == "We propose\tGridNet  for image classification."
    assert "control characters" in report.warnings[0]


def test_long_abstract_limit(tmp_path):
    ok = ("Word " * (MAX_ABSTRACT_CHARS // 5))[: MAX_ABSTRACT_CHARS]
    abstracts, report = read(jsonl(tmp_path / "a.jsonl", [{"id": "ok", "abstract": ok},
                                                           {"id": "big", "abstract": ok + "x"}]))
    assert [a.id for a in abstracts] == ["ok"]
    assert report.skipped[0].record_id == "big" and "over the limit" in report.skipped[0].reason


def test_non_english_is_kept_with_a_warning(tmp_path):
    de = ("Wir stellen ein neues Verfahren zur semantischen Segmentierung medizinischer Bilder vor, "
          "das die Genauigkeit auf mehreren öffentlichen Datensätzen deutlich verbessert.")
    abstracts, report = read(jsonl(tmp_path / "a.jsonl", [{"id": "de", "abstract": de}, {"id": "en", "abstract": GOOD}]))
    assert [a.id for a in abstracts] == ["de", "en"]
    assert len(report.warnings) == 1 and "(line 1)" in report.warnings[0] and "English" in report.warnings[0]


def test_language_heuristic():
    assert not looks_non_english(GOOD + " " + OTHER)
    assert looks_non_english("我们提出了一种用于医学图像语义分割的新方法，在多个公开数据集上显著提高了准确率，并且速度更快。" * 2)
    assert not looks_non_english("BERT GPT")  # too short to judge


def test_language_heuristic_on_texts_with_a_few_non_ascii_characters():
    # Letters outside Latin script are counted only when there is one: a dash
    # or an accent says nothing; a text mostly in Cyrillic or Greek letters does.
    english = ("We propose FooNet – a model for café scenes – and show that it improves the accuracy of "
               "the baseline on the BarSet benchmark by a wide margin, with α set to 0.5 in all of the runs.")
    assert not looks_non_english(english)
    assert looks_non_english("Мы предлагаем новый метод для сегментации изображений и проверяем его " * 3)
    assert looks_non_english("αβγ δεζ ηθι κλμ νξο πρσ τυφ χψω " * 6)


def test_warnings_are_grouped_per_file(tmp_path):
    rows = [{"id": f"p{i}", "abstract": f"Case {i}: we propose\x01 GridNet for image classification."} for i in range(8)]
    _, report = read(jsonl(tmp_path / "a.jsonl", rows))
    assert report.warnings == [f"{tmp_path / 'a.jsonl'}: control characters replaced by spaces "
                               "(lines 1, 2, 3, 4, 5 and 3 more)"]


def test_csv_multiline_field_and_line_numbers(tmp_path):
    path = tmp_path / "a.csv"
    path.write_bytes(b'\xef\xbb\xbfid,title,abstract,year\r\n'
                     b'p1,Grid,"We propose GridNet.\r\nIt is evaluated on CIFAR-10.",2021\r\n'
                     b'p2,,"",2022\r\n'
                     b'p3,Sparse,"' + OTHER.encode() + b'",2023\r\n'
                     b'p4,Extra,"' + OTHER.encode() + b' More.",2023,surplus\r\n')
    abstracts, report = read(path)
    assert [(a.id, a.line, a.meta) for a in abstracts] == [("p1", 2, {"year": "2021"}), ("p3", 5, {"year": "2023"})]
    assert abstracts[0].text == "We propose GridNet.\nIt is evaluated on CIFAR-10."
    assert [(s.line, s.record_id, s.reason) for s in report.skipped] == [
        (4, "p2", "empty abstract"), (6, "p4", "more fields than the header names")]


def test_csv_without_abstract_column(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("id,summary\np1,hello\n", encoding="utf-8")
    abstracts, report = read(path)
    assert abstracts == [] and "no 'abstract' column" in report.skipped[0].reason


def test_csv_field_over_default_csv_limit(tmp_path):
    big = ("Grid " * 40_000).strip()  # 200k characters: over the csv module's default
    path = tmp_path / "a.csv"
    path.write_text(f"id,abstract\nbig,{big}\nok,{GOOD}\n", encoding="utf-8")
    abstracts, report = read(path)
    assert [a.id for a in abstracts] == ["ok"]
    assert report.skipped[0].record_id == "big" and "over the limit" in report.skipped[0].reason


def test_txt_paragraphs_headings_and_lines(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text(f"Vision papers\n\n{GOOD[:40]}\n{GOOD[40:]}\n\n\n{OTHER}\n", encoding="utf-8")
    abstracts, report = read(path)
    assert [(a.line, a.meta) for a in abstracts] == [(3, {"collection": "Vision papers"}), (7, {"collection": "Vision papers"})]
    assert abstracts[0].text == GOOD[:40].strip() + " " + GOOD[40:].strip()


def test_txt_undecodable_paragraph_skipped(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(GOOD.encode() + b"\n\nBad \x81 bytes in this one.\nSecond line.\n\n" + OTHER.encode())
    abstracts, report = read(path)
    assert [a.text for a in abstracts] == [GOOD, OTHER]
    assert [(s.line, s.reason) for s in report.skipped] == [(3, "paragraph is not text in UTF-8 or Windows-1252")]


def test_headings_only_file_reports_no_abstracts(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("Heading one\n\nHeading two\n", encoding="utf-8")
    abstracts, report = read(path)
    assert abstracts == [] and report.skipped[0].reason.startswith("no abstracts")


def test_duplicates_across_files(tmp_path):
    a = jsonl(tmp_path / "a.jsonl", [{"id": "p1", "abstract": GOOD}])
    b = jsonl(tmp_path / "b.jsonl", [{"id": "p1", "abstract": GOOD}, {"id": "p1", "abstract": OTHER}, {"id": "p2", "abstract": OTHER}])
    report = ReadReport()
    abstracts = list(read_inputs([a, b], report))
    assert [(a.id, a.text) for a in abstracts] == [("p1", GOOD), ("p2", OTHER)]
    assert report.read == 2
    assert report.warnings == [f"{b}:1 (id p1): duplicate of {a}:1 with the same text; dropped"]
    assert [(s.line, s.record_id) for s in report.skipped] == [(2, "p1")]
    assert "different text" in report.skipped[0].reason


def test_read_file_streams(tmp_path):
    """A reader yields before it has seen the whole file (big corpora)."""
    path = jsonl(tmp_path / "a.jsonl", [{"id": "p1", "abstract": GOOD}, "{broken"])
    report = ReadReport()
    stream = read_file(path, report)
    first = next(stream)
    assert first.id == "p1" and report.skipped == []
    assert list(stream) == [] and len(report.skipped) == 1


def test_clean_text_and_decode_line_units():
    assert clean_text("a\x00b\x7fc\u0085d\ufffee") == ("a b c d e", 4)
    assert clean_text("tab\tand\nnewline") == ("tab\tand\nnewline", 0)
    assert decode_line("é".encode()) == ("é", False)
    assert decode_line(b"caf\xe9") == ("café", True)
    assert decode_line(b"\x81") == (None, False)


def test_abstract_of_only_control_characters_is_empty(tmp_path):
    # found by test_properties: blank only after the clean-up
    abstracts, report = read(jsonl(tmp_path / "a.jsonl", [{"id": "c", "abstract": "\x1b\x00\x7f"},
                                                          {"id": "ok", "abstract": GOOD}]))
    assert [a.id for a in abstracts] == ["ok"]
    assert [(s.record_id, s.reason) for s in report.skipped] == [("c", "empty abstract (only control characters)")]
