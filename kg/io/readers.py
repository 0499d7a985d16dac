"""Input readers: plain text, JSON Lines (incl. arXiv metadata rows), CSV and TSV.

Each reader streams its file line by line and yields Abstract values; a file
may be gzip or bzip2 compressed (`.gz`, `.bz2`), and `-` is standard input.
Fields are found under their common names or the user's `--map`
(kg.io.fields). Every record it cannot use is recorded in a ReadReport with
file, line, record id and reason; a bad record never stops the others, and
no user error raises. The decode and clean-up policy is in kg.io.text and
docs/input.md.
"""

from __future__ import annotations

import bz2
import contextlib
import csv
import gzip
import io
import json
import os
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterable, Iterator

from kg.io.fields import FieldMap, abstract_text, paper_meta, value
from kg.io.text import MAX_ABSTRACT_CHARS, clean_text, decode_line, looks_non_english
from kg.model import Abstract, PaperMeta, Skip, text_id

FORMATS = ("txt", "jsonl", "csv", "tsv")
_EXT = {".txt": "txt", ".text": "txt", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv",
        ".tsv": "tsv", ".tab": "tsv"}
# Compressed files are read through these, as a stream.
_COMPRESSED = {".gz": gzip.open, ".bz2": bz2.open}
STDIN = "-"
STDIN_NAME = "<stdin>"
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
    """The format of `path`: `override`, else its extension (under a .gz or .bz2)."""
    if override:
        if override not in FORMATS:
            raise ValueError(f"unknown input format {override!r}; choose one of {', '.join(FORMATS)}")
        return override
    inner = path.with_suffix("") if path.suffix.lower() in _COMPRESSED else path
    fmt = _EXT.get(inner.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path}: cannot tell the format from the extension {inner.suffix!r}; "
                         "pass --format txt|jsonl|csv|tsv")
    return fmt


def _open(path: Path) -> IO[bytes]:
    """The file's bytes, decompressed when its name ends in .gz or .bz2."""
    opener = _COMPRESSED.get(path.suffix.lower())
    return opener(path, "rb") if opener else path.open("rb")


def sniff_format(head: bytes) -> str:
    """The format of standard input given without --format: JSON Lines when it
    starts with `{`, CSV or TSV when its first line is a header naming an
    abstract column, else text."""
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if first.startswith(b"{"):
        return "jsonl"
    header = first.split(b"\n", 1)[0].decode("utf-8", "replace")
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        if sep in header and FieldMap().columns(c.strip().strip('"') for c in header.split(sep)).get("abstract"):
            return fmt
    return "txt"


class InputError(ValueError):
    """An input that cannot be read at all (missing, a folder, unreadable, of
    unknown format): the run stops before anything is written. A file that
    opens but holds nothing usable (empty, binary) is a skip instead, like a
    bad record; if no abstract at all is read, that is NothingRead."""


class NothingRead(InputError):
    """Not one abstract could be read from the inputs: a build stops rather
    than replace the previous graph with an empty one."""

    def __init__(self, report: "ReadReport"):
        self.report = report
        super().__init__(f"no abstract could be read from the input ({len(report.skipped)} record(s) or "
                         "file(s) skipped, listed above)")


def check_inputs(paths: Iterable[str | os.PathLike], fmt: str | None = None) -> None:
    """Raise InputError for the first input that cannot be read at all. Cheap:
    it opens each file and reads its first bytes, nothing more."""
    for p in paths:
        if str(p) == STDIN:
            continue
        path = Path(p)
        if not path.exists():
            raise InputError(f"{path}: no such file")
        if path.is_dir():
            raise InputError(f"{path}: is a folder, not a file")
        try:
            detect_format(path, fmt)
        except ValueError as err:
            raise InputError(str(err)) from None
        try:
            with _open(path) as fh:
                fh.read(_SNIFF)
        except (OSError, EOFError) as err:  # no permission, or a .gz that is not gzip
            raise InputError(f"{path}: cannot read: {getattr(err, 'strerror', None) or err}") from None


class _Prepended(io.RawIOBase):
    """`head` then the rest of `fh`: the file's start is looked at once and
    still read as part of the file, without seeking (standard input and
    compressed streams cannot seek cheaply)."""

    def __init__(self, head: bytes, fh: IO[bytes]):
        self._head, self._fh = head, fh

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._fh.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


# -- bytes -> numbered text lines ------------------------------------------------
@dataclass
class _Source:
    """One input: a file, or standard input (path None)."""

    name: str
    path: Path | None
    head: bytes | None = None  # the first bytes, when they were read to tell the format

    def open(self):
        """A context manager giving the input's bytes; standard input is left open after."""
        if self.path is None:
            return contextlib.nullcontext(sys.stdin.buffer)
        return _open(self.path)


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


def _text_lines(source: "_Source", report: ReadReport, notes: _FileNotes) -> Iterator[tuple[int, str | None]]:
    """(line number, text) for each line; text None when the line is not text."""
    src = source.name
    try:
        opened = source.open()
    except OSError as err:
        report.skip(src, 0, f"cannot open: {err.strerror or err}")
        return
    with opened as fh:
        try:
            head = source.head if source.head is not None else fh.read(_SNIFF)
        except (OSError, EOFError) as err:
            report.skip(src, 0, f"cannot read: {getattr(err, 'strerror', None) or err}")
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
        stream = io.BufferedReader(_Prepended(head, fh), 1 << 16)
        try:
            for n, raw in enumerate(_raw_lines(stream, head), start=1):
                if n == 1 and raw.startswith(_UTF8_BOM):
                    raw = raw[len(_UTF8_BOM):]
                text, legacy = decode_line(raw)
                if legacy:
                    notes.add("not UTF-8; decoded as Windows-1252", n)
                yield n, text
        except (OSError, EOFError) as err:  # a truncated or corrupt .gz/.bz2
            report.skip(src, 0, f"cannot read to the end: {getattr(err, 'strerror', None) or err}")


# -- values -> Abstract --------------------------------------------------------------
def _make(text: object, *, rid: object, title: object, meta: dict, source: str, line: int,
          report: ReadReport, notes: _FileNotes, paper: PaperMeta = PaperMeta()) -> Abstract | None:
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
    return Abstract(id=rid_str, text=text, title=title_str, meta=meta, source=source, line=line, paper=paper)


def _json_type(value: object) -> str:
    names = {dict: "object", list: "array", str: "string", int: "integer", float: "number", bool: "boolean"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


# -- formats -------------------------------------------------------------------------
def read_jsonl(source: _Source, report: ReadReport, notes: _FileNotes, fields: FieldMap) -> Iterator[Abstract]:
    src = source.name
    for n, raw in _text_lines(source, report, notes):
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
        ab = _from_row(row, fields.columns(row), src, n, report, notes)
        if ab is not None:
            yield ab


def _from_row(row: dict, cols: dict[str, str], src: str, n: int, report: ReadReport,
              notes: _FileNotes) -> Abstract | None:
    """The Abstract of one JSONL object or CSV row, with its metadata."""
    rid = value(row, cols, "id")
    if rid == "":
        rid = None
    if "abstract" not in cols:
        report.skip(src, n, "no 'abstract' field (see --map)", str(rid) if isinstance(rid, (str, int)) else "")
        return None
    text = abstract_text(value(row, cols, "abstract"))
    used = {cols[k] for k in ("id", "title", "abstract") if k in cols}
    meta = {k: v for k, v in row.items() if k not in used}
    collection = value(row, cols, "collection")
    if collection is not None:
        meta["collection"] = collection
    rid_text = str(rid) if isinstance(rid, (str, int)) and not isinstance(rid, bool) else ""
    paper, problems = paper_meta(row, cols, rid_text.strip())
    for problem in problems:
        notes.add(problem, n)
    return _make(text, rid=rid, title=value(row, cols, "title"), meta=meta, source=src, line=n,
                 report=report, notes=notes, paper=paper)


def read_csv(source: _Source, report: ReadReport, notes: _FileNotes, fields: FieldMap,
             delimiter: str = ",") -> Iterator[Abstract]:
    """CSV (or TSV, with a tab `delimiter`) with a header row; the header's
    names are matched in any case, under their common aliases (kg.io.fields)."""
    src = source.name
    bad_lines: set[int] = set()

    def lines() -> Iterator[str]:
        for n, text in _text_lines(source, report, notes):
            if text is None:
                bad_lines.add(n)
                text = ""
            yield text + "\n"

    reader = csv.DictReader(lines(), delimiter=delimiter)
    try:
        fieldnames = reader.fieldnames
    except csv.Error as err:
        report.skip(src, 1, f"malformed CSV header: {err}")
        return
    if not fieldnames:
        return  # nothing at all: _text_lines has reported why
    cols = fields.columns(fieldnames)
    if "abstract" not in cols:
        kind = "TSV" if delimiter == "\t" else "CSV"
        report.skip(src, 1, f"{kind} header has no 'abstract' column (expected id, title, abstract, "
                            "or name the column with --map abstract=NAME)")
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
        rid = row.get(cols["id"]) if "id" in cols else None
        if any(n in bad_lines for n in range(first, last + 1)):
            report.skip(src, first, "row is not text in UTF-8 or Windows-1252", rid or "")
            continue
        if None in row:
            report.skip(src, first, "more fields than the header names", rid or "")
            continue
        ab = _from_row({k: v for k, v in row.items() if v != ""} | {cols["abstract"]: row[cols["abstract"]] or ""},
                       cols, src, first, report, notes)
        if ab is not None:
            yield ab


def read_txt(source: _Source, report: ReadReport, notes: _FileNotes, fields: FieldMap) -> Iterator[Abstract]:
    """One abstract per blank-line-separated paragraph. A paragraph that is a
    single short line without a full stop is a collection heading: it is kept
    as the `collection` of the abstracts under it, not read as an abstract."""
    src = source.name
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

    for n, text in _text_lines(source, report, notes):
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


def read_tsv(source: _Source, report: ReadReport, notes: _FileNotes, fields: FieldMap) -> Iterator[Abstract]:
    return read_csv(source, report, notes, fields, delimiter="\t")


_READERS = {"jsonl": read_jsonl, "csv": read_csv, "tsv": read_tsv, "txt": read_txt}


def read_file(path: str | os.PathLike, report: ReadReport, fmt: str | None = None,
              fields: FieldMap | None = None) -> Iterator[Abstract]:
    """Abstracts of one file (`-`: standard input); problems go to `report`,
    never raise for bad records. `fields` is the user's --map."""
    fields = fields or FieldMap()
    if str(path) == STDIN:
        source = _Source(STDIN_NAME, None)
        if fmt is None:
            source.head = sys.stdin.buffer.read(_SNIFF)
            kind = sniff_format(source.head)
        else:
            kind = detect_format(Path(STDIN), fmt)
    else:
        path = Path(path)
        source = _Source(str(path), path)
        if not path.exists():
            report.skip(source.name, 0, "no such file")
            return
        if path.is_dir():
            report.skip(source.name, 0, "is a folder, not a file")
            return
        try:
            kind = detect_format(path, fmt)
        except ValueError as err:
            report.skip(source.name, 0, str(err).removeprefix(f"{path}: "))
            return
    src = source.name
    notes = _FileNotes(src)
    skipped_before, count = len(report.skipped), 0
    try:
        for ab in _READERS[kind](source, report, notes, fields):
            count += 1
            report.read += 1
            yield ab
    finally:
        notes.flush(report)
    if count == 0 and len(report.skipped) == skipped_before:
        report.skip(src, 0, "no abstracts in the file (only blank lines or headings)")


def read_inputs(paths: Iterable[str | os.PathLike], report: ReadReport, fmt: str | None = None,
                fields: FieldMap | None = None) -> Iterator[Abstract]:
    """Abstracts of all files in order. A repeated id with the same text is
    dropped with a warning (nothing is lost); with different text the later
    record is skipped and reported, since one id cannot name two papers."""
    # id -> (hash of the text, file number, line): small, so a million ids fit.
    seen: dict[str, tuple[int, int, int]] = {}
    sources: list[str] = []
    for p in paths:
        sources.append(STDIN_NAME if str(p) == STDIN else str(Path(p)))
        for ab in read_file(p, report, fmt, fields):
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
