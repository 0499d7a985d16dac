"""Input readers: plain text, JSON Lines (incl. arXiv metadata rows) and CSV.

Each reader streams its file line by line and yields Abstract values. Every
record it cannot use is recorded in a ReadReport with file, line, record id
and reason; a bad record never stops the others, and no user error raises.
The decode and clean-up policy is in kg.io.text and docs/input.md.
"""

from __future__ import annotations

import csv
import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator

from kg.io.text import MAX_ABSTRACT_CHARS, clean_text, decode_line, looks_non_english
from kg.model import Abstract, Skip, text_id

FORMATS = ("txt", "jsonl", "csv")
_EXT = {".txt": "txt", ".text": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}
_TEXT_KEYS = ("abstract", "text")
_SNIFF = 8192
MAX_ID_CHARS = 256  # ids become IRIs and file names in reports; longer ones are not ids
_UTF8_BOM = b"\xef\xbb\xbf"
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
              (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
# Bytes that never occur in text files (tab, newlines, form feed and escape aside).
_BINARY_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
# A CSV abstract may be long; the csv module's default field limit is 128 KiB.
csv.field_size_limit(64 * 1024 * 1024)


@dataclass
class ReadReport:
    """What the readers did: how many abstracts, which records were skipped, warnings."""

    read: int = 0
    skipped: list[Skip] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def skip(self, source: str, line: int, reason: str, record_id: str = "") -> None:
        self.skipped.append(Skip(source, line, reason, record_id))

    def lines(self) -> list[str]:
        """The report for people: one line per skip and warning, then the counts."""
        out = [f"skipped {s}" for s in self.skipped]
        out += [f"warning: {w}" for w in self.warnings]
        out.append(f"{self.read} abstracts read, {len(self.skipped)} skipped, {len(self.warnings)} warnings")
        return out


class _FileNotes:
    """Per-file warnings gathered by kind, so a file with a thousand Latin-1
    lines gives one warning naming the first lines, not a thousand."""

    SHOWN = 5

    def __init__(self, source: str):
        self.source = source
        self.lines: dict[str, list[int]] = defaultdict(list)

    def add(self, kind: str, line: int) -> None:
        self.lines[kind].append(line)

    def flush(self, report: ReadReport) -> None:
        for kind, lines in self.lines.items():
            shown = ", ".join(str(n) for n in lines[: self.SHOWN])
            more = f" and {len(lines) - self.SHOWN} more" if len(lines) > self.SHOWN else ""
            where = "line" if len(lines) == 1 else "lines"
            report.warnings.append(f"{self.source}: {kind} ({where} {shown}{more})")


def detect_format(path: Path, override: str | None = None) -> str:
    if override:
        if override not in FORMATS:
            raise ValueError(f"unknown input format {override!r}; choose one of {', '.join(FORMATS)}")
        return override
    fmt = _EXT.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path}: cannot tell the format from the extension {path.suffix!r}; pass --format txt|jsonl|csv")
    return fmt


# -- bytes -> numbered text lines ------------------------------------------------
def _sniff(head: bytes) -> str | None:
    """Why the file is not a text file we read, or None when it is."""
    if not head.strip() and len(head) < _SNIFF:
        return "empty file"
    if any(head.startswith(bom) for bom, _ in _WIDE_BOMS):
        return None
    if b"\x00" in head:
        return "binary file (NUL bytes), not text"
    odd = sum(head.count(bytes([b])) for b in _BINARY_BYTES)
    if odd > len(head) * 0.1:
        return "binary file (control bytes), not text"
    return None


def _raw_lines(fh: IO[bytes], head: bytes) -> Iterator[bytes]:
    """Lines without their ends: LF, CRLF, or a lone CR in files written that way."""
    if b"\r" in head and b"\n" not in head:
        yield from fh.read().replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        return
    for raw in fh:
        yield raw.rstrip(b"\n").rstrip(b"\r")


def _text_lines(path: Path, report: ReadReport, notes: _FileNotes) -> Iterator[tuple[int, str | None]]:
    """(line number, text) for each line; text None when the line is not text."""
    src = str(path)
    try:
        fh = path.open("rb")
    except OSError as err:
        report.skip(src, 0, f"cannot open: {err.strerror or err}")
        return
    with fh:
        try:
            head = fh.read(_SNIFF)
        except OSError as err:
            report.skip(src, 0, f"cannot read: {err.strerror or err}")
            return
        problem = _sniff(head)
        if problem:
            report.skip(src, 0, problem)
            return
        wide = next((enc for bom, enc in _WIDE_BOMS if head.startswith(bom)), None)
        if wide:
            try:
                text = (head + fh.read()).decode(wide)
            except UnicodeDecodeError as err:
                report.skip(src, 0, f"starts with a {wide.upper()} byte-order mark but is not valid {wide.upper()}: {err.reason}")
                return
            notes.add(f"{wide.upper()} text (byte-order mark); read as such", 1)
            for n, line in enumerate(text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
                yield n, line
            return
        fh.seek(0)
        for n, raw in enumerate(_raw_lines(fh, head), start=1):
            if n == 1 and raw.startswith(_UTF8_BOM):
                raw = raw[len(_UTF8_BOM):]
            text, legacy = decode_line(raw)
            if legacy:
                notes.add("not UTF-8; decoded as Windows-1252", n)
            yield n, text


# -- values -> Abstract --------------------------------------------------------------
def _make(text: object, *, rid: object, title: object, meta: dict, source: str, line: int,
          report: ReadReport, notes: _FileNotes) -> Abstract | None:
    rid_str = str(rid) if isinstance(rid, (str, int)) and not isinstance(rid, bool) else ""
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, (str, int))):
        report.skip(source, line, f"field 'id' must be a string or integer, got {_json_type(rid)}")
        return None
    if len(rid_str) > MAX_ID_CHARS:
        report.skip(source, line, f"field 'id' has {len(rid_str)} characters, over the limit of {MAX_ID_CHARS}")
        return None
    if not isinstance(text, str):
        report.skip(source, line, f"field 'abstract' must be a string, got {_json_type(text)}", rid_str)
        return None
    if not text.strip():
        report.skip(source, line, "empty abstract", rid_str)
        return None
    if len(text) > MAX_ABSTRACT_CHARS:
        report.skip(source, line, f"abstract has {len(text)} characters, over the limit of {MAX_ABSTRACT_CHARS} "
                                  "(a whole paper or a broken export?)", rid_str)
        return None
    text, replaced = clean_text(text)
    if not text.strip():
        report.skip(source, line, "empty abstract (only control characters)", rid_str)
        return None
    if replaced:
        notes.add("control characters replaced by spaces", line)
    if title is not None and not isinstance(title, str):
        notes.add("field 'title' is not a string; title left out", line)
        title = None
    if looks_non_english(text):
        notes.add("text does not look like English; the rules are for English, so expect few entities", line)
    rid_str = " ".join(clean_text(rid_str)[0].split()) or text_id(text)
    title_str = " ".join(clean_text(title or "")[0].split())
    return Abstract(id=rid_str, text=text, title=title_str, meta=meta, source=source, line=line)


def _json_type(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", int: "integer", float: "number", bool: "boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


# -- formats -------------------------------------------------------------------------
def read_jsonl(path: Path, report: ReadReport, notes: _FileNotes) -> Iterator[Abstract]:
    src = str(path)
    for n, raw in _text_lines(path, report, notes):
        if raw is None:
            report.skip(src, n, "line is not text in UTF-8 or Windows-1252")
            continue
        if not raw.strip():
            continue
        try:
            # strict=False: raw control characters inside strings are cleaned later, not fatal.
            row = json.loads(raw, strict=False)
        except json.JSONDecodeError as err:
            report.skip(src, n, f"malformed JSON: {err.msg} at column {err.colno}")
            continue
        except (ValueError, RecursionError) as err:
            # e.g. an integer of more digits than Python converts, or nesting too deep
            report.skip(src, n, f"malformed JSON: {str(err) or type(err).__name__}")
            continue
        if not isinstance(row, dict):
            report.skip(src, n, f"expected a JSON object, got {_json_type(row)}")
            continue
        key = next((k for k in _TEXT_KEYS if k in row), None)
        rid = row.get("id")
        if key is None:
            report.skip(src, n, "no 'abstract' field", str(rid) if isinstance(rid, (str, int)) else "")
            continue
        meta = {k: v for k, v in row.items() if k not in ("id", "title", key)}
        ab = _make(row[key], rid=rid, title=row.get("title"), meta=meta, source=src, line=n,
                   report=report, notes=notes)
        if ab is not None:
            yield ab


def read_csv(path: Path, report: ReadReport, notes: _FileNotes) -> Iterator[Abstract]:
    src = str(path)
    bad_lines: set[int] = set()

    def lines() -> Iterator[str]:
        for n, text in _text_lines(path, report, notes):
            if text is None:
                bad_lines.add(n)
                text = ""
            yield text + "\n"

    reader = csv.DictReader(lines())
    try:
        fieldnames = reader.fieldnames
    except csv.Error as err:
        report.skip(src, 1, f"malformed CSV header: {err}")
        return
    if not fieldnames:
        return  # nothing at all: _text_lines has reported why
    if "abstract" not in fieldnames:
        report.skip(src, 1, "CSV header has no 'abstract' column (expected id,title,abstract)")
        return
    last = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            report.skip(src, reader.line_num, f"malformed CSV: {err}")
            last = reader.line_num
            continue
        first, last = last + 1, reader.line_num
        rid = row.get("id") or None
        if any(n in bad_lines for n in range(first, last + 1)):
            report.skip(src, first, "row is not text in UTF-8 or Windows-1252", rid or "")
            continue
        if None in row:
            report.skip(src, first, "more fields than the header names", rid or "")
            continue
        meta = {k: v for k, v in row.items() if k not in ("id", "title", "abstract")}
        ab = _make(row.get("abstract") or "", rid=rid, title=row.get("title"), meta=meta,
                   source=src, line=first, report=report, notes=notes)
        if ab is not None:
            yield ab


def read_txt(path: Path, report: ReadReport, notes: _FileNotes) -> Iterator[Abstract]:
    """One abstract per blank-line-separated paragraph. A paragraph that is a
    single short line without a full stop is a collection heading: it is kept
    as the `collection` of the abstracts under it, not read as an abstract."""
    src = str(path)
    collection = ""
    para: list[str] = []
    start, bad = 0, False

    def flush() -> Iterator[Abstract]:
        nonlocal collection
        body = [l.strip() for l in para]
        if bad:
            report.skip(src, start, "paragraph is not text in UTF-8 or Windows-1252")
            return
        if len(body) == 1 and len(body[0]) <= 120 and not body[0].endswith((".", "?", "!")):
            collection = body[0]
            return
        meta = {"collection": collection} if collection else {}
        ab = _make(" ".join(body), rid=None, title=None, meta=meta, source=src, line=start,
                   report=report, notes=notes)
        if ab is not None:
            yield ab

    for n, text in _text_lines(path, report, notes):
        if text is not None and not text.strip():
            if para or bad:
                yield from flush()
            para, bad = [], False
            continue
        if not para and not bad:
            start = n
        if text is None:
            bad = True
        else:
            para.append(text)
    if para or bad:
        yield from flush()


_READERS = {"jsonl": read_jsonl, "csv": read_csv, "txt": read_txt}


def read_file(path: str | os.PathLike, report: ReadReport, fmt: str | None = None) -> Iterator[Abstract]:
    """Abstracts of one file; problems go to `report`, never raise for bad records."""
    path = Path(path)
    src = str(path)
    if not path.exists():
        report.skip(src, 0, "no such file")
        return
    if path.is_dir():
        report.skip(src, 0, "is a folder, not a file")
        return
    try:
        kind = detect_format(path, fmt)
    except ValueError as err:
        report.skip(src, 0, str(err).removeprefix(f"{path}: "))
        return
    notes = _FileNotes(src)
    skipped_before, count = len(report.skipped), 0
    try:
        for ab in _READERS[kind](path, report, notes):
            count += 1
            report.read += 1
            yield ab
    finally:
        notes.flush(report)
    if count == 0 and len(report.skipped) == skipped_before:
        report.skip(src, 0, "no abstracts in the file (only blank lines or headings)")


def read_inputs(paths: Iterable[str | os.PathLike], report: ReadReport, fmt: str | None = None) -> Iterator[Abstract]:
    """Abstracts of all files in order. A repeated id with the same text is
    dropped with a warning (nothing is lost); with different text the later
    record is skipped and reported, since one id cannot name two papers."""
    # id -> (hash of the text, file number, line): small, so a million ids fit.
    seen: dict[str, tuple[int, int, int]] = {}
    sources: list[str] = []
    for p in paths:
        sources.append(str(Path(p)))
        for ab in read_file(p, report, fmt):
            key = hash(ab.text)
            first = seen.get(ab.id)
            if first is not None:
                report.read -= 1
                where, first_at = f"{ab.source}:{ab.line}", f"{sources[first[1]]}:{first[2]}"
                if first[0] == key:
                    report.warnings.append(f"{where} (id {ab.id}): duplicate of {first_at} with the same text; dropped")
                else:
                    report.skip(ab.source, ab.line, f"duplicate id with different text (first at {first_at}); "
                                                    "kept the first", ab.id)
                continue
            seen[ab.id] = (key, len(sources) - 1, ab.line)
            yield ab
