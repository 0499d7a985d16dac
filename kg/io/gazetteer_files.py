"""Gazetteer files: reading and checking them, without any NLP.

Each file is JSON Lines, one entry a line: {"name": ..., "aliases": [...],
"type": ..., "exactMatch": IRI or [IRIs], "case": "sensitive"}. Blank lines
and lines starting with "#" are skipped. The package ships one file per type
in kg/resources/gazetteers; users add their own with --gazetteer FILE (each
entry then needs "type", unless the file is named
datasets/metrics/tasks/methods.jsonl).

Both the extractor (kg.entities.gazetteer, which matches the names in text) and
the graph (kg.graph.canonical, which joins entities a gazetteer entry names)
read gazetteers through this module; the graph side must not pay for
loading spaCy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable

from kg.errors import UserError
from kg.io.user_files import user_text

FILE_TYPES = {"datasets": "Dataset", "metrics": "Metric", "tasks": "Task", "methods": "Method"}


@dataclass
class Entry:
    name: str
    type: str
    aliases: list[str] = field(default_factory=list)
    exact_match: list[str] = field(default_factory=list)
    case_sensitive: bool = False

    @property
    def forms(self) -> list[str]:
        return [self.name, *self.aliases]


class GazetteerError(UserError, ValueError):
    """A gazetteer file that cannot be read; the message names the file and line."""

    label = "gazetteer"


def parse_lines(lines: Iterable[str], source: str, default_type: str | None) -> list[Entry]:
    """The entries of a gazetteer's lines; `source` names the file in errors,
    `default_type` is the type of entries that give none."""
    out = []
    for n, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise GazetteerError(f"{source}:{n}: malformed JSON: {err.msg}") from None
        if not isinstance(row, dict) or not isinstance(row.get("name"), str) or not row["name"].strip():
            raise GazetteerError(f"{source}:{n}: each entry needs a non-empty string 'name'")
        etype = row.get("type", default_type)
        if etype not in FILE_TYPES.values():
            raise GazetteerError(f"{source}:{n}: 'type' must be one of {', '.join(FILE_TYPES.values())}")
        aliases = row.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise GazetteerError(f"{source}:{n}: 'aliases' must be a list of strings")
        em = row.get("exactMatch", [])
        em = [em] if isinstance(em, str) else list(em)
        case = row.get("case", "auto")
        if case not in ("auto", "sensitive"):
            raise GazetteerError(f"{source}:{n}: 'case' must be \"auto\" or \"sensitive\"")
        out.append(Entry(row["name"].strip(), etype, [a.strip() for a in aliases if a.strip()], em,
                         case == "sensitive"))
    return out


def load_builtin() -> list[Entry]:
    """The entries of the gazetteers shipped in kg/resources/gazetteers."""
    entries: list[Entry] = []
    root = resources.files("kg.resources") / "gazetteers"
    for stem, etype in FILE_TYPES.items():
        res = root / f"{stem}.jsonl"
        if res.is_file():
            entries += parse_lines(res.read_text(encoding="utf-8").splitlines(),
                                   f"kg/resources/gazetteers/{stem}.jsonl", etype)
    return entries


def load_file(path: str | Path) -> list[Entry]:
    """The entries of a user's gazetteer file."""
    path = Path(path)
    text = user_text(path, "gazetteer file", GazetteerError)
    stem_type = FILE_TYPES.get(path.stem)
    return parse_lines(text.splitlines(), str(path), stem_type)


def load(extra: Iterable[str | Path] = ()) -> list[Entry]:
    """The shipped entries, then those of each file in `extra`."""
    entries = load_builtin()
    for p in extra:
        entries += load_file(p)
    return entries
