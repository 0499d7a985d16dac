"""Texts to test cue scanning with (kg.nlp.scanning): the cue patterns are
tried only where one of their head words begins, and that must find exactly
what a scan of the whole text finds. The texts are partly written by the
patterns themselves (from our parse of them, tests/regex_parse.py), so that
every alternative of every cue gets its turn; the words around are the cues'
heads in several casings and endings, words the patterns expect or refuse,
and the letters that re.I lets stand for ASCII ones."""

from __future__ import annotations

import functools
import itertools
import random
import re
from typing import Iterable

import regex_parse
from regex_parse import AnyChar, Branch, CharSet, Group, Literal, Repeat, Seq


def head_forms(heads: Iterable[str]) -> list[str]:
    """Every head with common endings and casings."""
    forms = set()
    for head in heads:
        for form in (head, head + "s", head + "es", head + "e", head + "ed", head + "ing", head + "ment",
                     head + "ments", head[:-1]):
            forms.update((form, form.upper(), form.title()))
    return sorted(forms)


# The words the patterns expect around their heads, and some they refuse.
OTHER_WORDS = sorted({
    "than", "over", "upon", "of", "for", "on", "by", "the", "The", "our", "it", "It", "its", "we", "to", "with",
    "in", "comparison", "compared", "relative", "versus", "vs.", "margin", "up to", "more than", "about", "a",
    "an", "average", "absolute", "relative", "accuracy", "final", "test", "BERT", "BM25", "2.1", "%", "points",
    "3x", "+1.2", "\u22121.5", "12", "is", "is a", "that", "which", "make", "using", "of it", "baseline", "prior",
    "best", "dense", "proposed", "new", "par", "-", ",", ".", ";", ":", "(", ")", "~", "\n", "e.g.,", "such as",
    "state-of-the-art", "over 3", "than 10", "\u017f", "\u212a", "\u0130", "\u0131", "\u00e9", "\u00d7",
    # method and definite nouns ("our method", "the optimizer")
    "method", "methods", "approach", "model", "framework", "system", "network", "optimizer", "detector",
    "sampler", "classifier", "objective", "loss", "benchmark", "metric", "pipeline", "technique"})
GLUE = [" ", " ", " ", " ", "", "-", "  ", "\t"]

# Characters to fill a set or a wildcard with; mostly spaces, so that the words around stay words.
_POOL = " " * 30 + "\tabcdefghijklmnopqrstuvwxyzABCDEFXYZ0123456789_.,;:-+%~()@\u2212\u00d7\u017f\u212a\u00e9"


def parse(pattern: re.Pattern) -> Seq:
    """Our parse of the pattern (tests/regex_parse.py), to write texts from."""
    return regex_parse.parse(pattern.pattern, pattern.flags)


_IN_CATEGORY = {"d": str.isdigit, "s": str.isspace, "w": lambda ch: ch.isalnum() or ch == "_"}


def _in_set(ch: str, charset: CharSet) -> bool:
    found = any(lo <= ch <= hi for lo, hi in charset.ranges) or \
        any(_IN_CATEGORY[c.lower()](ch) == c.islower() for c in charset.categories)
    return found != charset.negated


@functools.cache
def _set_members(charset: CharSet) -> list[str]:
    """The characters of _POOL in the set (cached: one test writes thousands of texts)."""
    return [c for c in _POOL if _in_set(c, charset)] or ["x"]


def _written(parsed: Seq, rnd: random.Random) -> str:
    """A string that the parsed pattern would often match (assertions and
    word boundaries are not heeded: the scan decides)."""
    out = []
    for node in parsed:
        if isinstance(node, Literal):
            out.append(node.char)
        elif isinstance(node, AnyChar):
            out.append(rnd.choice(_POOL))
        elif isinstance(node, CharSet):
            out.append(rnd.choice(_set_members(node)))
        elif isinstance(node, Branch):
            out.append(_written(rnd.choice(node.alternatives), rnd))
        elif isinstance(node, Group):
            out.append(_written(node.items, rnd))
        elif isinstance(node, Repeat):
            most = node.low + 3 if node.high is None else min(node.high, node.low + 3)
            out.extend(_written(node.item, rnd) for _ in range(rnd.randint(node.low, most)))
    return "".join(out)


def cue_text(parsed, words: list[str], rnd: random.Random) -> str:
    """Words, and strings written by the parsed pattern in any case, glued."""
    out = []
    for _ in range(rnd.randint(0, 16)):
        if rnd.random() < 0.4:
            out.append(rnd.choice(words))
        else:
            out.append("".join(c.upper() if rnd.random() < 0.1 else c for c in _written(parsed, rnd)))
        out.append(rnd.choice(GLUE))
    return "".join(out)


# -- plain examples of a regex piece, for tests that build a sentence from each cue entry --
def _choices(parsed: Seq) -> list[str]:
    """Strings the parsed regex matches: each branch and each optional part
    taken both ways, repeats as few times as they may (at least once for +).
    Assertions and word boundaries add nothing."""
    out = [""]
    for node in parsed:
        if isinstance(node, Literal):
            opts = [node.char]
        elif isinstance(node, AnyChar):
            opts = ["a"]
        elif isinstance(node, CharSet):
            opts = [_member(node)]
        elif isinstance(node, Branch):
            opts = [s for alternative in node.alternatives for s in _choices(alternative)]
        elif isinstance(node, Group):
            opts = _choices(node.items)
        elif isinstance(node, Repeat):
            inner = _choices(node.item)
            opts = [s * max(node.low, 1) for s in inner] if node.low else [""] + (inner if node.high == 1 else [])
        else:  # Anchor, Assertion
            continue
        out = [a + b for a, b in itertools.product(out, opts)]
    return list(dict.fromkeys(out))


def _member(charset: CharSet) -> str:
    """A character of a set: a space where it may be one."""
    if _in_set(" ", charset):
        return " "
    if charset.categories or charset.negated:
        return next((c for c in "a1" + _POOL if _in_set(c, charset)), "a")
    return charset.ranges[0][0]


def examples(piece: str, flags: int = re.I) -> list[str]:
    """Strings the regex `piece` matches whole, one for each of its alternatives;
    the first leaves every optional part out and takes each first branch."""
    found = [s for s in _choices(regex_parse.parse(piece, flags)) if re.fullmatch(piece, s, flags)]
    assert found, f"no example written for {piece!r}"
    return found


def example(piece: str, flags: int = re.I) -> str:
    """The first of `examples`: the shortest plain text of the piece's first branches."""
    return examples(piece, flags)[0]
