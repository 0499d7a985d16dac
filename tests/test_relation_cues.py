"""The cue patterns of the relation rules are tried only where one of their
head words begins (relation_cues.Cue). That must find exactly what a scan of
the whole text with the pattern finds: the same matches, in the same order,
in whole sentences and in the pieces of them the rules read (texts from
cue_texts)."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cue_texts import OTHER_WORDS, cue_text, head_forms, parse
from kg.relations.cues import Cue, Places, cues
from kg.nlp.scanning import heads, matches_at

_CUES = {f.name: getattr(cues(), f.name) for f in dataclasses.fields(cues())
         if isinstance(getattr(cues(), f.name), Cue)}


_WORDS = head_forms(h for cue in _CUES.values() for h in cue.heads) + OTHER_WORDS
# Parsed once, not once per test.
_PARSED = {name: parse(cue.pattern) for name, cue in _CUES.items()}


def _spans(matches) -> list[tuple[int, int]]:
    return [m.span() for m in matches]


@pytest.mark.parametrize("name", sorted(_CUES))
def test_each_cue_finds_what_a_scan_finds(name: str) -> None:
    cue, parsed = _CUES[name], _PARSED[name]
    rnd = random.Random(name)
    for _ in range(1500):
        text = cue_text(parsed, _WORDS, rnd)
        places = Places(text, text.lower())
        assert _spans(cue.finditer(text, places)) == _spans(cue.pattern.finditer(text)), text
        found, scanned = cue.search(text, places), cue.pattern.search(text)
        assert (found and found.span()) == (scanned and scanned.span()), text
        # A piece of the sentence (a clause, the words before a number): its places come from the whole.
        start = rnd.randint(0, len(text))
        end = rnd.randint(start, len(text))
        piece = text[start:end]
        assert _spans(cue.finditer(piece, places, start)) == _spans(cue.pattern.finditer(piece)), (text, start, end)
        found, scanned = cue.search(piece, places, start), cue.pattern.search(piece)
        assert (found and found.span()) == (scanned and scanned.span()), (text, start, end)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab -.", max_size=40))
def test_matches_at_candidates_is_finditer(text: str) -> None:
    # Candidates inside an earlier match ("aaa": 0, 1, 2) are passed over, as finditer does.
    for pattern in (re.compile(r"a+b?"), re.compile(r"\ba[ab]*"), re.compile(r"a(?<=b.)b*|a -")):
        candidates = [i for i, ch in enumerate(text) if ch == "a"]
        assert _spans(matches_at(pattern, text, candidates)) == _spans(pattern.finditer(text))
        assert _spans(matches_at(pattern, text, range(len(text)))) == _spans(pattern.finditer(text))


def test_heads_are_the_literal_openings_of_the_pieces() -> None:
    assert heads(["outperform\\w*", "speed-?ups?", "results? in", "e\\.g\\.,?", "on par", "result\\b"]) == \
        ("e.g.", "on par", "outperform", "result", "speed")
    assert heads(["(?:our|the) (?:main )?contribution", "we call(?: it)?", "i\\.e\\."]) == ("i.e.", "our ", "the ", "we call")
    assert heads(["\\d+ points", "a|b"]) == ()


@pytest.mark.parametrize("breaks", [None, ["while", ";", "-", "]", "\n", "and so", ", but"], []])
def test_the_clause_break_lookahead_finds_what_the_plain_alternation_finds(breaks) -> None:
    from kg import rules
    from kg.relations.cues import _clause_break
    from kg.rules import any_of

    breaks = rules.load("relation_cues", ())["clause_breaks"] if breaks is None else breaks
    fast = _clause_break(breaks)
    plain = re.compile(any_of([re.escape(b) if not b[0].isalnum() else rf"\b{re.escape(b)}\b" for b in breaks],
                              longest_first=True), re.I)
    parsed = parse(plain)
    rnd = random.Random(str(breaks))
    for _ in range(1500):
        text = cue_text(parsed, _WORDS, rnd)
        assert _spans(fast.finditer(text)) == _spans(plain.finditer(text)), text


def test_an_emptied_list_matches_nothing() -> None:
    # A rules file that replaces a list with [] turns its rule off; an empty alternation would match everywhere.
    from kg.entities.task_contexts import cue_words
    from kg.rules import any_of

    for pattern in (any_of([]), any_of([], longest_first=True), cue_words([]), cue_words(["", " "])):
        assert re.search(pattern, "FooNet beats BarNet on TideSet.") is None


def test_an_alternation_tries_pieces_in_the_order_asked() -> None:
    from kg.rules import any_of

    assert re.match(any_of(["beat", "beats"]), "beats").group() == "beat"
    assert re.match(any_of(["beat", "beats"], longest_first=True), "beats").group() == "beats"
    assert any_of(["ab", "cd", "e"], longest_first=True) == "(?:ab|cd|e)"  # one length keeps its order
