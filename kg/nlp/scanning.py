"""Finding a cue pattern's matches by trying it only where a match can begin
(where one of the cue's head words begins), instead of at every character of
the text. A pattern compiled with re.I is tried at every position of a scan;
the heads are found with str.find in the lower-cased text, a scan in C.

Used by the proposal cues (kg.proposals.cues) and the relation cues
(kg.relations.cues).
"""

from __future__ import annotations

import re
from typing import Iterable

# What str.lower() leaves of the letters that re.I lets stand for an ASCII one
# (\u0131 and \u0130 for i, \u017f for s; \u0130 lowers to i and \u0307): a
# lower-cased text with one of these may match a cue without showing any of
# its heads. (\u212a, the Kelvin sign, lowers to k.) tests/test_cue_scanning.py
# checks the list against every character.
FOLDS = "\u0131\u017f\u0307"

# A head: letters, spaces and a few marks, plain or escaped, each not made optional or repeated by what follows.
_LITERAL = re.compile(r"(?:(?:[A-Za-z ,'-]|\\[.,'-])(?![?*{]))*")
# "(?:our|the) ...": a group of plain alternatives that opens a piece.
_OPENING_GROUP = re.compile(r"\(\?:([A-Za-z ,'|-]+)\)(?![?*{])")


def heads(pieces: Iterable[str]) -> tuple[str, ...]:
    """The lower-case text that each regex piece opens with, up to its first
    operator: "outperform" of "outperform\\w*", "speed" of "speed-?ups?",
    "result" of "results? in" (a character made optional is left out), "e.g."
    of "e\\.g\\.,?"; "our " and "the " of "(?:our|the) contribution". Every
    match of the pieces begins with one of them. A head that another head
    begins is dropped: its places are found with the shorter one. () when a
    piece opens with no literal text, or is itself an alternation ("a|b"):
    then the pattern must be scanned."""
    found = set()
    for piece in pieces:
        group = _OPENING_GROUP.match(piece)
        if group:
            rest = _LITERAL.match(piece, group.end()).group()
            openings = [alternative + rest for alternative in group.group(1).split("|")]
        else:
            openings = [_LITERAL.match(piece).group()]
        if _bar_outside_groups(piece) or not all(openings):
            return ()
        found.update(re.sub(r"\\(.)", r"\1", opening).lower() for opening in openings)
    return tuple(sorted(h for h in found if not any(h != o and h.startswith(o) for o in found)))


def _bar_outside_groups(piece: str) -> bool:
    """Whether the regex piece is itself an alternation ("a|b"): then its
    first alternative's head would not cover the others."""
    depth = 0
    for ch in piece:
        depth += (ch == "(") - (ch == ")")
        if ch == "|" and depth == 0:
            return True
    return False


def heads_show_matches(text: str, lower: str) -> bool:
    """Whether `lower`, text.lower(), shows where every match of a cue
    pattern (re.I) begins: each character lowered to one at the same offset,
    and none of the letters that re.I lets stand for an ASCII one without
    lowering to it (FOLDS)."""
    return len(lower) == len(text) and not any(ch in lower for ch in FOLDS)


def head_starts(lower: str, cue_heads: Iterable[str]) -> list[int]:
    """Where one of `cue_heads` begins in `lower`, ascending (no head begins another: no duplicates)."""
    found: list[int] = []
    for head in cue_heads:
        if head in lower:  # most heads are absent: the test is all they cost
            found += occurrences(lower, head)
    found.sort()
    return found


def cue_matches(pattern: re.Pattern, cue_heads: tuple[str, ...], text: str, lower: str | None) -> list[re.Match]:
    """pattern.finditer(text), as a list, for a pattern (re.I) whose every
    match begins with one of `cue_heads` (see heads): tried only where one
    begins in `lower`, when that is text.lower() and shows them
    (heads_show_matches; None when it does not). With no heads, or no
    `lower`, the text is scanned."""
    if lower is None or not cue_heads:
        return list(pattern.finditer(text))
    return matches_at(pattern, text, head_starts(lower, cue_heads))


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
