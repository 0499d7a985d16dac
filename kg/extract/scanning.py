"""Finding a pattern's matches by trying it only where a match can begin
(a cue's head words), instead of at every character of the text.
"""

from __future__ import annotations

import re
from typing import Iterable


def matches_at(pattern: re.Pattern, text: str, starts: Iterable[int]) -> list[re.Match]:
    """What pattern.finditer(text) finds, given every place a match can begin
    (ascending; more are harmless): the pattern is tried only there. As in
    finditer, a match cannot begin inside the one before it. pattern.match
    at a position still sees the text before it (for \\b and lookbehinds), as
    the scan does. The pattern must not match the empty string."""
    out = []
    end = 0
    match = pattern.match
    for i in starts:
        if i >= end:
            m = match(text, i)
            if m:
                out.append(m)
                end = m.end()
    return out


def occurrences(text: str, word: str) -> list[int]:
    """Where `word` begins in `text`, each place, in order."""
    if word not in text:
        return []  # the usual answer: one scan, and no more
    out = []
    i = text.find(word)
    while i >= 0:
        out.append(i)
        i = text.find(word, i + 1)
    return out
