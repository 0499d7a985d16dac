"""The cue patterns of the relation rules are tried only where one of their
head words begins (relation_cues.Cue). That must find exactly what a scan of
the whole text with the pattern finds: the same matches, in the same order,
in whole sentences and in the pieces of them the rules read. The texts are
partly written by the patterns themselves (from re's parse of them), so that
every alternative of every cue gets its turn."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.extract.relation_cues import Cue, Places, _heads, cues
from kg.extract.scanning import matches_at

_CUES = {f.name: getattr(cues(), f.name) for f in dataclasses.fields(cues())
         if isinstance(getattr(cues(), f.name), Cue)}


def _head_forms() -> list[str]:
    """Every head of every cue with common endings and casings."""
    forms = set()
    for cue in _CUES.values():
        for head in cue.heads:
            for form in (head, head + "s", head + "es", head + "e", head + "ed", head + "ing", head + "ment",
                         head + "ments", head[:-1]):
                forms.update((form, form.upper(), form.title()))
    return sorted(forms)


# The words the patterns expect around their heads, and some they refuse.
_OTHER_WORDS = sorted({
    "than", "over", "upon", "of", "for", "on", "by", "the", "The", "our", "it", "It", "its", "we", "to", "with",
    "in", "comparison", "compared", "relative", "versus", "vs.", "margin", "up to", "more than", "about", "a",
    "an", "average", "absolute", "relative", "accuracy", "final", "test", "BERT", "BM25", "2.1", "%", "points",
    "3x", "+1.2", "\u22121.5", "12", "is", "is a", "that", "which", "make", "using", "of it", "baseline", "prior",
    "best", "dense", "proposed", "new", "par", "-", ",", ".", ";", ":", "(", ")", "~", "\n", "e.g.,", "such as",
    "state-of-the-art", "over 3", "than 10", "\u017f", "\u212a", "\u0130", "\u0131", "\u00e9", "\u00d7",
    # method and definite nouns ("our method", "the optimizer")
    "method", "methods", "approach", "model", "framework", "system", "network", "optimizer", "detector",
    "sampler", "classifier", "objective", "loss", "benchmark", "metric", "pipeline", "technique"})
_WORDS = _head_forms() + _OTHER_WORDS
_GLUE = [" ", " ", " ", " ", "", "-", "  ", "\t"]


# -- text written by the patterns themselves: every alternative gets its turn ---------
# Characters to fill a set or a wildcard with; mostly spaces, so that the words around stay words.
_POOL = " " * 30 + "\tabcdefghijklmnopqrstuvwxyzABCDEFXYZ0123456789_.,;:-+%~()@\u2212\u00d7\u017f\u212a\u00e9"
_SET_MEMBERS: dict[int, list[str]] = {}  # id of a parsed set (in _PARSED) -> the characters of _POOL in it


def _in_set(ch: str, items) -> bool:
    """Whether `ch` is in a parsed character set (re._parser's IN items)."""
    negate, found = False, False
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            found |= ord(ch) == av
        elif name == "RANGE":
            found |= av[0] <= ord(ch) <= av[1]
        elif name == "CATEGORY":
            kind = str(av)
            test = ch.isdigit() if "DIGIT" in kind else ch.isspace() if "SPACE" in kind else (ch.isalnum() or ch == "_")
            found |= test != ("NOT" in kind)
    return found != negate


def _written(parsed, rnd) -> str:
    """A string that the parsed pattern would often match (assertions and
    word boundaries are not heeded: the scan decides)."""
    out = []
    for op, av in parsed:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(av))
        elif name == "NOT_LITERAL":
            out.append(rnd.choice([c for c in _POOL if ord(c) != av]))
        elif name == "ANY":
            out.append(rnd.choice(_POOL))
        elif name == "IN":
            if id(av) not in _SET_MEMBERS:
                _SET_MEMBERS[id(av)] = [c for c in _POOL if _in_set(c, av)] or ["x"]
            out.append(rnd.choice(_SET_MEMBERS[id(av)]))
        elif name == "BRANCH":
            out.append(_written(rnd.choice(av[1]), rnd))
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            out.append(_written(av[-1], rnd))
        elif name.endswith("REPEAT"):
            low, high, item = av
            out.extend(_written(item, rnd) for _ in range(rnd.randint(low, min(high, low + 3))))
    return "".join(out)


# Parsed once, so that the ids _SET_MEMBERS keeps stay theirs.
_PARSED = {name: re._parser.parse(cue.pattern.pattern, cue.pattern.flags) for name, cue in _CUES.items()}


def _text(parsed, rnd: random.Random) -> str:
    """Words, and strings written by the parsed pattern in any case, glued."""
    out = []
    for _ in range(rnd.randint(0, 16)):
        if rnd.random() < 0.4:
            out.append(rnd.choice(_WORDS))
        else:
            out.append("".join(c.upper() if rnd.random() < 0.1 else c for c in _written(parsed, rnd)))
        out.append(rnd.choice(_GLUE))
    return "".join(out)


def _spans(matches) -> list[tuple[int, int]]:
    return [m.span() for m in matches]


@pytest.mark.parametrize("name", sorted(_CUES))
def test_each_cue_finds_what_a_scan_finds(name: str) -> None:
    cue, parsed = _CUES[name], _PARSED[name]
    rnd = random.Random(name)
    for _ in range(1500):
        text = _text(parsed, rnd)
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
    assert _heads(["outperform\\w*", "speed-?ups?", "results? in", "e\\.g\\.,?", "on par", "result\\b"]) == \
        ("e", "on par", "outperform", "result", "speed")
