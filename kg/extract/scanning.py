"""Finding a pattern's matches without trying it at every character.

sre tries a pattern at each position of the text in turn; a pattern that
opens with a word boundary, a lookbehind or a case-insensitive alternation
costs a few hundred instructions per character that way. When the places a
match can begin are known (a cue's head words, the digits of a number),
trying the pattern only there finds the same matches for a fraction of the
cost.
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
