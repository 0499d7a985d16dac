"""The small typed values passed between stages."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

_WS = re.compile(r"\s+")


def text_id(text: str) -> str:
    """The id of an abstract that has none: first 16 hex digits of the SHA-256
    of its whitespace-normalised text, so the same text always gets the same id."""
    norm = _WS.sub(" ", text).strip()
    return hashlib.sha256(norm.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class PaperMeta:
    """A paper's bibliographic data, as the input gives it (kg.io.fields reads
    it from the common field names; docs/input.md lists them). Empty values
    mean the input did not say."""

    date: str = ""                     # ISO date: YYYY-MM-DD or YYYY-MM
    year: int | None = None
    authors: tuple[str, ...] = ()      # in the order the input lists them
    venue: str = ""
    doi: str = ""                      # bare, e.g. 10.1000/xyz (no https://doi.org/)
    arxiv: str = ""                    # bare, e.g. 2101.00001 (no arXiv: prefix)
    categories: tuple[str, ...] = ()
    url: str = ""


@dataclass
class Abstract:
    """One abstract as read from an input file."""

    id: str
    text: str
    title: str = ""
    meta: dict[str, Any] = field(default_factory=dict)  # the input's other fields, as they were
    source: str = ""  # file the abstract came from
    line: int = 0  # 1-based line (or record number) in that file
    paper: PaperMeta = field(default_factory=PaperMeta)


@dataclass(frozen=True)
class ExtractOptions:
    """What an extraction pipeline is built with, the same in every worker:
    the user's extra gazetteer and rules files, the least confidence a fact
    needs to go into a record, and the learned model: `model` a folder made
    by `kg train` (None: the one shipped with kg, if any); `use_model` False
    runs the rules alone."""

    gazetteers: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    min_confidence: float = 0.0
    model: str | None = None
    use_model: bool = True


@dataclass
class Skip:
    """An input record that was not processed, and why."""

    source: str
    line: int
    reason: str
    record_id: str = ""

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        rid = f" (id {self.record_id})" if self.record_id else ""
        return f"{where}{rid}: {self.reason}"
