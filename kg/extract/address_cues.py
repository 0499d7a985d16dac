"""The cues of the addresses relation (rule family "addresses",
kg/resources/rules/addresses.json), compiled into regular expressions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from kg import rules


@dataclass(frozen=True)
class AddressCues:
    opening: re.Pattern  # the text before a method that opens its clause: only clause_openers
    purpose: re.Pattern  # the text between a method and its task: "for", "(DS) for the"


def address_cues(extra: Iterable[str] = ()) -> AddressCues:
    """The addresses cues, with the changes of the user's rules files `extra`."""
    return _address_cues(tuple(str(p) for p in extra))


def _words(entries: list[str]) -> str:
    pieces = sorted((re.escape(e.lower()).replace(r"\ ", r"\s+") for e in entries if e.strip()), key=len, reverse=True)
    return "(?:" + "|".join(pieces) + ")"


@lru_cache(maxsize=16)
def _address_cues(extra: tuple[str, ...]) -> AddressCues:
    data = rules.load("addresses", extra)
    return AddressCues(
        opening=re.compile(rf"[\s,]*(?:{_words(data['clause_openers'])}\b[\s,]*)*", re.I),
        # An abbreviation in brackets may stand between the method and the link word.
        purpose=re.compile(rf"\s*(?:\([^()]*\)\s*)?{_words(data['purpose_links'])}\s+(?:(?:the|a|an)\s+)?", re.I),
    )
