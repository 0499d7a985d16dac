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

from kg import rules

# A word start: the first character of a word, or any capital ("EvoLved", "ResNet", "BPO").
_WORD_START = re.compile(r"(?:^|(?<=[\s\-/_(]))[^\W_]|[A-Z]")
_CORE = re.compile(r"^[^\W\d_]+(?:[-.][^\W\d_]+)*")


@rules.compiled
def long_form_skipped_words(extra: tuple[str, ...]) -> frozenset[str]:
    """The words a loose long form may hold without a letter of its short
    form (rule family "entity_patterns", "long_form_skipped_words")."""
    return frozenset(rules.load("entity_patterns", extra)["long_form_skipped_words"])


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
def is_abbreviation(short: str, long: str) -> bool:
    """True when the letters of `short` (up to its first digit, without a
    plural "s") can be found in order in `long` with the first one opening a
    word of `long`'s first word and every capital of `short` opening a word
    (or being a capital) of `long`; and `long` has at least two words. A
    leading digit may be spelled out ("2SSP" <- "Two-Stage framework for
    Structured Pruning")."""
    short, long = short.strip(), long.strip()
    lead = re.match(r"\d+", short)
    if lead:
        n = lead.end()
        # "2SSP" <- "Two-Stage framework for Structured Pebbling": a digit spelled out, then the letters.
        word = _NUMBER_WORDS.get(short[:n])
        if word and long[:len(word)].lower() == word and long[len(word):len(word) + 1] in ("-", " "):
            return is_abbreviation(short[n:], long[len(word) + 1:].lstrip())
        # "3DDFA" <- "3D Dense Face Alignment": the same leading number, then the letters.
        return long[:n] == short[:n] and not long[n:n + 1].isdigit() and is_abbreviation(short[n:], long[n:])
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

    @lru_cache(maxsize=None)
    def place(i: int, pos: int) -> bool:
        # Can core[i:] be placed at positions >= pos?
        if i == len(core):
            return True
        ch = core[i]
        must_start = ch.isupper()
        q = low.find(ch.lower(), pos)
        while q >= 0:
            if (not must_start or q in starts) and place(i + 1, q + 1):
                return True
            q = low.find(ch.lower(), q + 1)
        return False

    return any(q in starts and low[q] == core[0].lower() and place(1, q + 1)
               for q in range(first_word_end))


def is_camel_abbreviation(short: str, word: str) -> bool:
    """ "StereoSet (SS)", "TriviaQA (TQA)": one word written in CamelCase
    whose capitals, all of them and in order, are the short form (a plural
    "s" aside). A capital the short form leaves out fails: "RoBERTa" does not
    spell out "BERT"."""
    core = _core(short)
    capitals = "".join(c for c in word if c.isupper())
    return len(core) >= 2 and core.isupper() and word[:1].isupper() and word != short \
        and any(c.islower() for c in word) and capitals == core


_WORDS = re.compile(r"^[^\W_]+(?:(?:\s+|[-/])[^\W_]+)*$")


@lru_cache(maxsize=4096)
def is_loose_abbreviation(short: str, long: str, skipped: frozenset[str] | None = None) -> bool:
    """A looser test for a definition in brackets ("sandglass attention module
    (SGA)", "hedged instance embedding (HIB)"): the letters of `short` in
    order in `long`, the first opening its first word, any other inside a word;
    every word of `long` but one holds one of them, leaving out the words
    `skipped` (lower case: "of", "the"; None: the rule family
    "entity_patterns"'s "long_form_skipped_words")."""
    if skipped is None:
        skipped = long_form_skipped_words()
    core = _core(short)
    # A lower-case first letter with capitals after it ("h-MDS") is a short form too.
    if len(core) < 2 or " " in short or not any(c.isupper() for c in core) or len(short) >= len(long):
        return False
    if not _WORDS.match(long):
        return False  # "modalities -- vision": a dash or a bracket parts two phrases
    if long.split()[0].lower() in STOP_WORDS:
        return False  # "as an autoregressive (AR)": a function word opens no long form
    words = [w for w in re.split(r"[\s\-/]+", long.lower()) if w and w not in skipped]
    if len(words) < 2 or len(words) > len(core) + 1 or not words[0].startswith(core[0].lower()):
        return False
    letters = core.lower()

    @lru_cache(maxsize=None)
    def place(i: int, w: int, pos: int, empty: int) -> bool:
        # Can letters[i:] be placed from word w, position pos, with `empty` words left bare so far?
        if i == len(letters):
            return empty + (len(words) - w - (1 if pos > 0 else 0)) <= 1
        if w >= len(words):
            return False
        word = words[w]
        q = word.find(letters[i], pos)
        while q >= 0:
            if place(i + 1, w, q + 1, empty):
                return True
            q = word.find(letters[i], q + 1)
        # go on to the next word; this one is bare when nothing was placed in it
        return place(i, w + 1, 0, empty + (pos == 0))

    return place(1, 0, 1, 0)
