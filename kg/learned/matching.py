"""Which gold entity a found one is, when names are compared as a person would:
case, accents and punctuation folded, a plural "s" dropped, and one name
standing for the other when it is part of it and covers at least half of it
("ResNet" and "ResNet-50"; not "Net" and "ResNet-50"). The labels the
learned scorers train on are made with it."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


@lru_cache(maxsize=1 << 16)
def folded(name: str) -> str:
    s = _NOT_ALNUM.sub("", unicodedata.normalize("NFKC", name).lower())
    return s[:-1] if len(s) > 3 and s.endswith("s") else s


def same_name(a: str, b: str) -> bool:
    a, b = folded(a), folded(b)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and short in long_ and 2 * len(short) >= len(long_)


def names_of(entity: dict) -> list[str]:
    return [entity["name"], *(entity.get("aliases") or [])]


def any_same(forms: Iterable[str], others: Iterable[str]) -> bool:
    others = list(others)
    return any(same_name(a, b) for a in forms for b in others)


def gold_entity(forms: Iterable[str], record: dict, types: Iterable[str]) -> tuple[str, dict] | None:
    """The first gold entity of `record` (of one of `types`, in that order)
    that one of `forms` names, with its type."""
    forms = list(forms)
    for etype in types:
        for entity in record["entities"].get(etype) or []:
            if any_same(forms, names_of(entity)):
                return etype, entity
    return None
