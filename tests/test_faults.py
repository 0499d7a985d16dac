"""Each input fault through the command line: the message names file and line
(or id) and the reason, the other records survive, the exit code says whether
anything was skipped, and --strict turns a skip into a failure that writes
nothing. No fault gives a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.cli import main

ROOT = Path(__file__).resolve().parents[1]

GOOD = "We propose GridNet for image classification. GridNet is evaluated on CIFAR-10 and beats ResNet-50."
OTHER = "We introduce a sparse attention model for machine translation and report BLEU on WMT14."


def line(rid: str, text: str, **extra) -> bytes:
    return json.dumps({"id": rid, "abstract": text, **extra}).encode() + b"\n"


def run_extract(tmp_path: Path, capsys, *inputs: Path, strict: bool = False) -> tuple[int, str, list[dict] | None]:
    """Exit code, stderr and the records written (None when no file was written)."""
    out = tmp_path / "records.jsonl"
    argv = ["extract", *map(str, inputs), "-o", str(out)] + (["--strict"] if strict else [])
    rc = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    records = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()] if out.exists() else None
    return rc, err, records


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def ids(records: list[dict] | None) -> list[str]:
    return [r["id"] for r in records or []]


# Faults that skip something: (file name, bytes, expected message after "file:")
SKIPPING = {
    "malformed JSON": ("a.jsonl", line("p1", GOOD) + b'{"id": "p2", "abstract": "unterminated\n',
                       ":2: malformed JSON: Unterminated string"),
    "no abstract": ("a.jsonl", line("p1", GOOD) + b'{"id": "p2", "title": "Only a title"}\n', ":2 (id p2): no 'abstract' field"),
    "empty abstract": ("a.jsonl", line("p1", GOOD) + line("p2", "  \n "), ":2 (id p2): empty abstract"),
    "abstract of wrong type": ("a.jsonl", line("p1", GOOD) + b'{"id": "p2", "abstract": ["a", "list"]}\n',
                               ":2 (id p2): field 'abstract' must be a string, got array"),
    "id of wrong type": ("a.jsonl", line("p1", GOOD) + b'{"id": {"x": 1}, "abstract": "Some text here."}\n',
                         ":2: field 'id' must be a string or integer, got object"),
    "not a JSON object": ("a.jsonl", line("p1", GOOD) + b'["p2", "text"]\n', ":2: expected a JSON object, got array"),
    "duplicate id, different text": ("a.jsonl", line("p1", GOOD) + line("p1", OTHER),
                                     ":2 (id p1): duplicate id with different text"),
    "enormous abstract (1 MB)": ("a.jsonl", line("p1", GOOD) + line("p2", ("Grid " * 209716)[:1048576]),
                                 ":2 (id p2): abstract has 1048576 characters, over the limit of 100000"),
    "undecodable bytes": ("a.jsonl", line("p1", GOOD) + b'{"id": "p2", "abstract": "\x81\x8d\x8f"}\n',
                          ":2: line is not text in UTF-8 or Windows-1252"),
}


@pytest.mark.parametrize("fault", list(SKIPPING))
def test_skipping_fault(tmp_path, capsys, fault):
    name, data, message = SKIPPING[fault]
    path = write(tmp_path / name, data)
    rc, err, records = run_extract(tmp_path, capsys, path)
    assert rc == 1
    assert f"kg: skipped {path}{message}" in err
    assert ids(records) == ["p1"]
    assert "1 records written, 1 skipped" in err


@pytest.mark.parametrize("fault", list(SKIPPING))
def test_strict_turns_a_skip_into_failure_and_writes_nothing(tmp_path, capsys, fault):
    name, data, message = SKIPPING[fault]
    path = write(tmp_path / name, data)
    rc, err, records = run_extract(tmp_path, capsys, path, strict=True)
    assert rc == 3
    assert f"kg: skipped {path}{message}" in err and "--strict" in err
    assert records is None


# Whole files that cannot be read: the other input files still are.
BAD_FILES = {
    "missing file": (None, "no such file"),
    "empty file": (b"", "empty file"),
    "binary file": (bytes(range(256)) * 8, "binary file (NUL bytes), not text"),
}


@pytest.mark.parametrize("fault", list(BAD_FILES))
def test_bad_file_does_not_stop_the_others(tmp_path, capsys, fault):
    data, reason = BAD_FILES[fault]
    bad = tmp_path / "bad.jsonl"
    if data is not None:
        bad.write_bytes(data)
    good = write(tmp_path / "good.jsonl", line("p1", GOOD) + line("p2", OTHER))
    rc, err, records = run_extract(tmp_path, capsys, bad, good)
    assert rc == 1
    assert f"kg: skipped {bad}: {reason}" in err
    assert ids(records) == ["p1", "p2"]
    rc, err, records = run_extract(tmp_path, capsys, good, bad, strict=True)
    assert rc == 3


# Faults that are repaired: every record survives, with a warning where the input was changed.
REPAIRED = {
    "byte-order mark": (b"\xef\xbb\xbf" + line("p1", GOOD) + line("p2", OTHER), None),
    "CRLF line ends": (line("p1", GOOD).replace(b"\n", b"\r\n") + line("p2", OTHER).replace(b"\n", b"\r\n"), None),
    "Windows-1252 text": (line("p1", GOOD) + '{"id": "p2", "abstract": "Na\u00efve Bayes beats r\u00e9sum\u00e9 parsers."}\n'.encode("cp1252"),
                          ": not UTF-8; decoded as Windows-1252 (line 2)"),
    "control characters": (line("p1", GOOD) + line("p2", "We\x00 introduce\x1b GridNet\x07 for\x08 ranking.\x7f"),
                           ": control characters replaced by spaces (line 2)"),
    "duplicate id, same text": (line("p1", GOOD) + line("p2", OTHER) + line("p1", GOOD),
                                ":3 (id p1): duplicate of "),
    "non-English text": (line("p1", GOOD) + line("p2", "Nous présentons une nouvelle méthode de segmentation sémantique "
                                                       "des images médicales qui améliore nettement la précision."),
                         ": text does not look like English"),
}


@pytest.mark.parametrize("fault", list(REPAIRED))
def test_repaired_fault_keeps_every_record(tmp_path, capsys, fault):
    data, warning = REPAIRED[fault]
    path = write(tmp_path / "a.jsonl", data)
    rc, err, records = run_extract(tmp_path, capsys, path, strict=True)
    assert rc == 0
    assert ids(records) == ["p1", "p2"]
    if warning:
        assert f"kg: warning: {path}{warning}" in err
    else:
        assert "warning" not in err
    assert "2 records written, 0 skipped" in err


def test_control_characters_keep_offsets_on_the_text(tmp_path, capsys):
    text = "We\x00 introduce\x1b GridNet\x07 for image classification on CIFAR-10.\x7f"
    path = write(tmp_path / "a.jsonl", line("p1", text))
    rc, err, records = run_extract(tmp_path, capsys, path)
    (rec,) = records
    for ents in rec["entities"].values():
        for ent in ents:
            for start, end in ent["mentions"]:
                assert 0 <= start < end <= len(text)
                assert "\x00" not in text[start:end] and text[start:end].strip() == text[start:end]
    names = {e["name"] for ents in rec["entities"].values() for e in ents}
    assert "CIFAR-10" in names


def test_user_errors_that_are_not_input_records(tmp_path, capsys):
    good = write(tmp_path / "a.jsonl", line("p1", GOOD))
    assert main(["extract", str(good), "--gazetteer", str(tmp_path / "none.jsonl")]) == 2
    assert "kg: error: gazetteer:" in capsys.readouterr().err
    blocker = write(tmp_path / "file", b"x")
    assert main(["build", str(good), "-o", str(blocker / "out"), "--no-view"]) == 2
    assert "kg: error: cannot write" in capsys.readouterr().err


def test_dirty_corpus_build_in_a_subprocess(tmp_path):
    """Every fault at once through `kg build`: exit 1, no traceback, a summary
    naming each skip, and exactly the usable papers in the store. A missing
    input stops the build first (exit 2, nothing written)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write(corpus / "mixed.jsonl", b"\xef\xbb\xbf" + line("m1", GOOD).replace(b"\n", b"\r\n") + b"{oops\n"
          + line("m2", "") + line("m1", OTHER) + line("m3", "Text with a \x00 NUL.") + line("m4", OTHER))
    write(corpus / "binary.jsonl", bytes(range(256)))
    write(corpus / "empty.csv", b"")
    write(corpus / "ok.csv", f"id,title,abstract\r\nc1,T,\"{OTHER}\"\r\n".encode())
    out = tmp_path / "out"
    missing = subprocess.run([sys.executable, "-m", "kg", "build", *sorted(map(str, corpus.iterdir())),
                              str(corpus / "missing.txt"), "-o", str(out), "--no-view"],
                             capture_output=True, text=True, cwd=ROOT, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert missing.returncode == 2 and "missing.txt: no such file; nothing written" in missing.stderr
    assert "Traceback" not in missing.stderr and not (out / "records.jsonl").exists()
    proc = subprocess.run([sys.executable, "-m", "kg", "build", *sorted(map(str, corpus.iterdir())),
                           "-o", str(out), "--no-view"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.returncode == 1, proc.stderr
    summary = proc.stdout
    assert "abstracts read: 4" in summary and "skipped: 5" in summary
    for expected in ("mixed.jsonl:2: malformed JSON", "mixed.jsonl:3 (id m2): empty abstract",
                     "mixed.jsonl:4 (id m1): duplicate id with different text", "binary.jsonl: binary file",
                     "empty.csv: empty file",
                     "mixed.jsonl: control characters replaced by spaces (line 5)"):
        assert expected in summary
    papers = subprocess.run([sys.executable, "-m", "kg", "query", "--store", str(out), "--format", "csv",
                             "SELECT ?id WHERE { ?p <http://purl.org/dc/terms/identifier> ?id } ORDER BY ?id"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert papers.stdout.split() == ["id", "c1", "m1", "m3", "m4"]
