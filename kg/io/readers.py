"""Input readers: plain text, JSON Lines (incl. arXiv metadata rows) and CSV.

Each reader yields Abstract values and records every record it skips, with
file, line and reason, in a ReadReport; a bad record never stops the others.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from kg.model import Abstract, Skip, text_id

FORMATS = ("txt", "jsonl", "csv")
_EXT = {".txt": "txt", ".text": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}
_TEXT_KEYS = ("abstract", "text")


@dataclass
class ReadReport:
    """What the readers did: how many abstracts, which records were skipped, warnings."""

    read: int = 0
    skipped: list[Skip] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def skip(self, source: str, line: int, reason: str, record_id: str = "") -> None:
        self.skipped.append(Skip(source, line, reason, record_id))


def detect_format(path: Path, override: str | None = None) -> str:
    if override:
        if override not in FORMATS:
            raise ValueError(f"unknown input format {override!r}; choose one of {', '.join(FORMATS)}")
        return override
    fmt = _EXT.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path}: cannot tell the format from the extension {path.suffix!r}; pass --format txt|jsonl|csv")
    return fmt


def _decode(path: Path, report: ReadReport) -> str | None:
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        report.skip(str(path), 0, "binary file (NUL bytes), not text")
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        report.warnings.append(f"{path}:{line}: not valid UTF-8; undecodable bytes replaced with U+FFFD")
        text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _make(text: str, *, rid: object, title: object, meta: dict, source: str, line: int, report: ReadReport) -> Abstract | None:
    if not isinstance(text, str):
        report.skip(source, line, f"field 'abstract' must be a string, got {type(text).__name__}", str(rid or ""))
        return None
    if not text.strip():
        report.skip(source, line, "empty abstract", str(rid or ""))
        return None
    if rid is not None and not isinstance(rid, (str, int)):
        report.skip(source, line, f"field 'id' must be a string, got {type(rid).__name__}")
        return None
    if title is not None and not isinstance(title, str):
        report.skip(source, line, f"field 'title' must be a string, got {type(title).__name__}", str(rid or ""))
        return None
    rid = str(rid).strip() if rid not in (None, "") else text_id(text)
    return Abstract(id=rid, text=text, title=(title or "").strip(), meta=meta, source=source, line=line)


def read_jsonl(path: Path, text: str, report: ReadReport) -> Iterator[Abstract]:
    src = str(path)
    for n, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as err:
            report.skip(src, n, f"malformed JSON: {err.msg} at column {err.colno}")
            continue
        if not isinstance(row, dict):
            report.skip(src, n, f"expected a JSON object, got {type(row).__name__}")
            continue
        key = next((k for k in _TEXT_KEYS if k in row), None)
        if key is None:
            report.skip(src, n, "no 'abstract' field", str(row.get("id", "")))
            continue
        meta = {k: v for k, v in row.items() if k not in ("id", "title", key)}
        ab = _make(row[key], rid=row.get("id"), title=row.get("title"), meta=meta, source=src, line=n, report=report)
        if ab is not None:
            yield ab


def read_csv(path: Path, text: str, report: ReadReport) -> Iterator[Abstract]:
    src = str(path)
    reader = csv.DictReader(text.splitlines(keepends=True))
    if not reader.fieldnames or "abstract" not in reader.fieldnames:
        report.skip(src, 1, "CSV header has no 'abstract' column (expected id,title,abstract)")
        return
    for row in reader:
        n = reader.line_num
        if None in row:
            report.skip(src, n, "more fields than the header names", row.get("id") or "")
            continue
        meta = {k: v for k, v in row.items() if k not in ("id", "title", "abstract")}
        ab = _make(row.get("abstract") or "", rid=row.get("id") or None, title=row.get("title"), meta=meta,
                   source=src, line=n, report=report)
        if ab is not None:
            yield ab


_PARA = re.compile(r"\n[ \t]*\n")


def read_txt(path: Path, text: str, report: ReadReport) -> Iterator[Abstract]:
    """One abstract per blank-line-separated paragraph. A paragraph that is a
    single short line without a full stop is a collection heading: it is kept
    as the `collection` of the abstracts under it, not read as an abstract."""
    src = str(path)
    collection = ""
    pos = 0
    for block in _PARA.split(text):
        start_line = text.count("\n", 0, text.find(block, pos)) + 1 if block else 0
        pos = text.find(block, pos) + len(block) if block else pos
        body = block.strip()
        if not body:
            continue
        if "\n" not in body and len(body) <= 120 and not body.rstrip().endswith((".", "?", "!")):
            collection = body
            continue
        para = " ".join(l.strip() for l in body.split("\n"))
        meta = {"collection": collection} if collection else {}
        ab = _make(para, rid=None, title=None, meta=meta, source=src, line=start_line, report=report)
        if ab is not None:
            yield ab


_READERS = {"jsonl": read_jsonl, "csv": read_csv, "txt": read_txt}


def read_file(path: str | os.PathLike, report: ReadReport, fmt: str | None = None) -> Iterator[Abstract]:
    """Abstracts of one file; problems go to `report`, never raise for bad records."""
    path = Path(path)
    if not path.exists():
        report.skip(str(path), 0, "no such file")
        return
    if path.is_dir():
        report.skip(str(path), 0, "is a folder, not a file")
        return
    try:
        kind = detect_format(path, fmt)
    except ValueError as err:
        report.skip(str(path), 0, str(err).removeprefix(f"{path}: "))
        return
    text = _decode(path, report)
    if text is None:
        return
    if not text.strip():
        report.skip(str(path), 0, "empty file")
        return
    for ab in _READERS[kind](path, text, report):
        report.read += 1
        yield ab


def read_inputs(paths: Iterable[str | os.PathLike], report: ReadReport, fmt: str | None = None) -> Iterator[Abstract]:
    """Abstracts of all files in order. A repeated id with the same text is
    dropped; with different text the later record is skipped and reported."""
    seen: dict[str, str] = {}
    for p in paths:
        for ab in read_file(p, report, fmt):
            prev = seen.get(ab.id)
            if prev is not None:
                report.read -= 1
                if prev == text_id(ab.text):
                    report.skip(ab.source, ab.line, "duplicate id with the same text; kept the first", ab.id)
                else:
                    report.skip(ab.source, ab.line, "duplicate id with different text; kept the first", ab.id)
                continue
            seen[ab.id] = text_id(ab.text)
            yield ab
