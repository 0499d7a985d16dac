"""Where a gold record's entities are written in its text.

Gold records name entities but do not say where they stand (docs/record.md),
so a learned tagger cannot be trained on them as they are. Each name and
alias is looked for in the text as a whole word (a hyphen joins words), as
written first and in any case where it is not written so; of two finds that overlap, the longer one
(then the earlier) is kept, so "ResNet-50" is not also read as "ResNet".
"""

from __future__ import annotations

import re
from typing import NamedTuple

from kg.learned.gold import ENTITY_TYPES


class Found(NamedTuple):
    """A gold entity's mention: characters start..end of the text."""

    start: int
    end: int
    label: str
    name: str  # the entity's name in the record (not the form found)


def _finds(form: str, text: str) -> list[tuple[int, int]]:
    """Where `form` stands in `text` as a whole word: as written, or in any case."""
    # A hyphen joins words: "TideSet" is not written in "TideSet-2" or "TideSet-based".
    pattern = r"(?<![\w])(?<!\w-)" + re.escape(form) + r"(?![\w]|-\w)"
    spans = [m.span() for m in re.finditer(pattern, text)]
    if not spans:
        spans = [m.span() for m in re.finditer(pattern, text, re.I)]
    return spans


def gold_mentions(record: dict, text: str) -> list[Found]:
    """The mentions of `record`'s entities in `text`, sorted, never overlapping."""
    finds: list[Found] = []
    for label in ENTITY_TYPES:
        for entity in record["entities"].get(label) or []:
            for form in [entity["name"], *(entity.get("aliases") or [])]:
                if form.strip():
                    finds += [Found(s, e, label, entity["name"]) for s, e in _finds(form, text)]
    kept: list[Found] = []
    taken: list[tuple[int, int]] = []
    for f in sorted(finds, key=lambda f: (-(f.end - f.start), f.start)):
        if all(f.end <= s or f.start >= e for s, e in taken):
            kept.append(f)
            taken.append((f.start, f.end))
    return sorted(kept)
