"""Per-word judgements remembered across texts.

Whether a word is name-like, or shaped like a variant of a known name,
belongs to the word, not to the token: each distinct word is judged once and
remembered, and the words of a text that pass are then found with set
operations, which run in C.
"""

from __future__ import annotations

from typing import Callable, Iterable


class WordSet:
    """The words that pass `test`, judged once per distinct word. The memory
    is bounded: past `limit` judged words it starts afresh, for endless streams."""

    def __init__(self, test: Callable[[str], bool], limit: int = 1_000_000):
        self.test = test
        self.limit = limit
        self.judged: set[str] = set()
        self.passed: set[str] = set()

    def among(self, texts: Iterable[str]) -> set[str]:
        """The words among `texts` that pass the test."""
        if len(self.judged) > self.limit:
            self.judged.clear()
            self.passed.clear()
        words = set(texts)
        new = words.difference(self.judged)
        if new:
            self.judged.update(new)
            self.passed.update(w for w in new if self.test(w))
        return words.intersection(self.passed)
