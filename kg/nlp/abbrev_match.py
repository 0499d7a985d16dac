"""Does a short form abbreviate a long form?  ("LSLMs" <- "Large
Speech-Language Models", "BER" <- "balanced error rate", "BDD100K" <-
"Berkeley Deep Drive", "Lion" <- "EvoLved Sign Momentum").

Used by the abbreviation component to accept a pair found in text, and by
the evaluation to count a long form and its abbreviation as one entity.
"""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.lang.en.stop_words import STOP_WORDS

# A word start: the first character of a word, or any capital ("EvoLved", "ResNet", "BPO").
_WORD_START = re.compile(r"(?:^|(?<=[\s\-/_(]))[^\W_]|[A-Z]")
_CORE = re.compile(r"^[^\W\d_]+(?:[-.][^\W\d_]+)*")


def _core(short: str) -> str:
    """The letters a short form abbreviates: "BDD100K" -> "BDD", "LSLMs" -> "LSLM"."""
    m = _CORE.match(short)
    core = re.sub(r"[-.]", "", m.group(0)) if m else ""
    if len(core) > 2 and core.endswith("s") and core[:-1].isupper():
        core = core[:-1]
    return core


_NUMBER_WORDS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
                 "9": "nine"}


@lru_cache(maxsize=4096)
def is_abbreviation(short: str, long: str, inner_letters: bool = False) -> bool:
    """True when the letters of `short` (up to its first digit, without a
    plural "s") can be found in order in `long` with the first one opening a
    word of `long`'s first word and every capital of `short` opening a word
    (or being a capital) of `long`; and `long` has at least two words.

    With `inner_letters`, as in the Schwartz-Hearst matching of scispaCy, a
    capital may also stand inside a word of an all lower-case long form
    ("HIB" <- "hedged instance embedding", "h-MDS" <- "hyperbolic
    generalization of multidimensional scaling"), if the last letter lies in
    its last word (not "a model of the data" for "MOD") and the first word is
    no function word ("an autoregressive" is not "AR").

    A leading digit may be spelled out ("2SSP" <- "Two-Stage framework for
    Structured Pruning")."""
    short, long = short.strip(), long.strip()
    lead = re.match(r"\d+", short)
    if lead:
        n = lead.end()
        # "2SSP" <- "Two-Stage framework for Structured Pruning": a digit spelled out, then the letters.
        word = _NUMBER_WORDS.get(short[:n])
        if word and long[:len(word)].lower() == word and long[len(word):len(word) + 1] in ("-", " "):
            return is_abbreviation(short[n:], long[len(word) + 1:].lstrip(), inner_letters)
        # "3DDFA" <- "3D Dense Face Alignment": the same leading number, then the letters.
        return long[:n] == short[:n] and not long[n:n + 1].isdigit() \
            and is_abbreviation(short[n:], long[n:], inner_letters)
    core = _core(short)
    if len(core) < 2 or len(short) >= len(long) or " " in short:
        return False
    if sum(c.isupper() for c in core) < 1:
        return False
    if len(re.split(r"[\s\-/]+", long)) < 2:
        return False  # one word is no long form ("RoBERTa" does not spell out "BERT")
    starts = frozenset(m.start() for m in _WORD_START.finditer(long))
    first_word_end = len(long.split()[0])
    low = long.lower()
    # A function word opens no such long form ("as an autoregressive (AR)").
    inner = inner_letters and long == low and low.split()[0] not in STOP_WORDS
    last_word_start = len(long) - len(re.split(r"[\s\-/]+", long)[-1])

    @lru_cache(maxsize=None)
    def place(i: int, pos: int) -> bool:
        # Can core[i:] be placed at positions >= pos?
        if i == len(core):
            return True
        ch = core[i]
        must_start = ch.isupper() and not inner
        q = low.find(ch.lower(), pos)
        while q >= 0:
            if (not must_start or q in starts) and (not inner or i < len(core) - 1 or q >= last_word_start) \
                    and place(i + 1, q + 1):
                return True
            q = low.find(ch.lower(), q + 1)
        return False

    return any(q in starts and low[q] == core[0].lower() and place(1, q + 1)
               for q in range(first_word_end))
