"""Texts to test cue scanning with (kg.nlp.scanning): the cue patterns are
tried only where one of their head words begins, and that must find exactly
what a scan of the whole text finds. The texts are partly written by the
patterns themselves (from re's parse of them), so that every alternative of
every cue gets its turn; the words around are the cues' heads in several
casings and endings, words the patterns expect or refuse, and the letters
that re.I lets stand for ASCII ones."""

from __future__ import annotations

import itertools
import random
import re
from typing import Iterable


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
_SET_MEMBERS: dict[int, list[str]] = {}  # id of a parsed set -> the characters of _POOL in it


def parse(pattern: re.Pattern):
    """re's parse of the pattern; keep it while texts are written from it (_SET_MEMBERS holds ids of its parts)."""
    return re._parser.parse(pattern.pattern, pattern.flags)


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


def _written(parsed, rnd: random.Random) -> str:
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
def _choices(parsed) -> list[str]:
    """Strings the parsed regex matches: each branch and each optional part
    taken both ways, repeats as few times as they may (at least once for +).
    Assertions and word boundaries add nothing."""
    out = [""]
    for op, av in parsed:
        name = str(op)
        if name == "LITERAL":
            opts = [chr(av)]
        elif name in ("NOT_LITERAL", "ANY"):
            opts = ["a"]
        elif name == "IN":
            opts = [_member(av)]
        elif name == "BRANCH":
            opts = [s for branch in av[1] for s in _choices(branch)]
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            opts = _choices(av[-1])
        elif name.endswith("REPEAT"):
            low, high, item = av
            inner = _choices(item)
            opts = [s * max(low, 1) for s in inner] if low else [""] + (inner if high == 1 else [])
        else:  # AT (\b, $), ASSERT, ASSERT_NOT
            continue
        out = [a + b for a, b in itertools.product(out, opts)]
    return list(dict.fromkeys(out))


def _member(items) -> str:
    """A character of a parsed character set: a space where it may be one."""
    for op, av in items:
        name = str(op)
        if name == "CATEGORY":
            kind = str(av)
            return " " if "SPACE" in kind else "1" if "DIGIT" in kind else "a"
        if name == "LITERAL" and chr(av) == " ":
            return " "
    op, av = items[0]
    return chr(av) if str(op) == "LITERAL" else chr(av[0])


def examples(piece: str, flags: int = re.I) -> list[str]:
    """Strings the regex `piece` matches whole, one for each of its alternatives;
    the first leaves every optional part out and takes each first branch."""
    found = [s for s in _choices(re._parser.parse(piece, flags)) if re.fullmatch(piece, s, flags)]
    assert found, f"no example written for {piece!r}"
    return found


def example(piece: str, flags: int = re.I) -> str:
    """The first of `examples`: the shortest plain text of the piece's first branches."""
    return examples(piece, flags)[0]
