"""The cheap scans that tell the rule components where a pattern can match
must never miss a place where the pattern does match."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

_APPOSITION_PIECES = [",", ", ", ",  ", ",\n", " ", "a", "A", "an", "An", "the", "THE", "novel", "new", "Novel",
                      "simple", "first", "novelty", "training-free", "model", "-", "FooNet", "é", "x" * 30]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_APPOSITION_PIECES), max_size=30))
def test_apposition_start_is_found_wherever_the_apposition_matches(pieces: list[str]) -> None:
    from kg.nlp.proposals import _APPOSITION_NOVEL, _APPOSITION_START

    text = "".join(pieces)
    starts = {m.start() for m in _APPOSITION_START.finditer(text)}
    for idx, ch in enumerate(text):
        if ch == "," and _APPOSITION_NOVEL.match(text, idx, idx + 80):
            assert idx in starts
