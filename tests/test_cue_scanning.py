"""kg.nlp.scanning: a cue pattern tried only where one of its heads begins
in the lower-cased text finds what a scan of the whole text finds. Here for
the proposal cues (kg.proposals.cues); tests/test_relation_cues.py does
the same for the relation cues."""

from __future__ import annotations

import random
import re

import pytest

from cue_texts import OTHER_WORDS, cue_text, head_forms, parse
from kg.proposals.cues import proposal_cues
from kg.nlp.scanning import FOLDS, cue_matches, head_starts, heads_show_matches

_CUES = proposal_cues()
_WORDS = head_forms(h for hs in _CUES.heads.values() for h in hs) + OTHER_WORDS + [
    "ſo-called", "İs", "ıs", "we’re", "paper", "work", "present", "proposed", "contribution is", "main"]
# Parsed once, not once per test.
_PARSED = {name: parse(getattr(_CUES, name)) for name in _CUES.heads}


def _lowered(text: str) -> str | None:
    lower = text.lower()
    return lower if heads_show_matches(text, lower) else None


def test_folds_hold_every_letter_that_re_i_lets_stand_for_an_ascii_one() -> None:
    # Every character that re.I matches with an ASCII letter lowers to that letter, or shows a fold.
    every = "".join(chr(c) for c in range(128, 0x110000) if not 0xD800 <= c < 0xE000)
    for ch in re.findall("(?i)[a-z]", every):
        lowered = ch.lower()
        assert (len(lowered) == 1 and lowered.isascii()) or any(f in lowered for f in FOLDS), ch


@pytest.mark.parametrize("name", sorted(_CUES.heads))
def test_each_proposal_cue_finds_what_a_scan_finds(name: str) -> None:
    pattern, parsed = getattr(_CUES, name), _PARSED[name]
    assert _CUES.heads[name], "a cue built on a cue list has heads"
    rnd = random.Random(name)
    shown = 0
    for _ in range(1500):
        text = cue_text(parsed, _WORDS, rnd)
        lower = _lowered(text)
        shown += lower is not None
        assert [m.span() for m in cue_matches(pattern, _CUES.heads[name], text, lower)] == \
            [m.span() for m in pattern.finditer(text)], text
        assert [m.span() for m in _CUES.matches(name, text, lower)] == [m.span() for m in pattern.finditer(text)]
        # Every place where a match begins is a head's (the test of _result_subjects).
        if lower is not None:
            starts = set(head_starts(lower, _CUES.heads[name]))
            assert all(i in starts for i in range(len(text)) if pattern.match(text, i)), text
    assert shown > 1000  # most texts are tried at the heads, not scanned


def test_a_text_whose_lower_case_moves_or_folds_letters_is_scanned() -> None:
    assert heads_show_matches("We propose X", "we propose x")
    for text in ("\u0130t is called X", "It is ca\u0131led X", "It is \u017fo-called X"):
        assert not heads_show_matches(text, text.lower())
    assert heads_show_matches("It is called X (\u212a)", "it is called x (k)")
