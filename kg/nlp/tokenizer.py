"""A tokenizer that keeps scientific names whole.

spaCy's English rules split "BERT-base" at the hyphen, "BDD100K" before the
"K" (read as a unit) and "7.9%" before the "%". Names like these are the
entities kg looks for, so the rules are narrowed: no split at a hyphen inside
a word, no unit suffixes; a full stop after a name ("ViT.") is still split off,
and "et al." / "e.g." / "Fig." stay single tokens so that sentence splitting
does not stop at them. The text is cleaned first (kg.nlp.cleanup), with every
character keeping its offset, so token offsets point into the original text.
"""

from __future__ import annotations

import re
import string
from typing import Iterator

from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex

from kg.nlp.cleanup import clean

# Abbreviations ending in a full stop that never end a sentence here.
ABBREVIATIONS = ("al.", "e.g.", "i.e.", "vs.", "cf.", "etc.", "Fig.", "Figs.", "Eq.", "Eqs.", "Sec.", "Tab.",
                 "approx.", "resp.", "w.r.t.", "i.i.d.", "Ref.", "Refs.", "No.", "Dr.", "Prof.", "St.", "Inc.",
                 "viz.", "ca.", "a.k.a.", "aka.", "incl.", "esp.", "Vol.", "pp.")

# Dashes between words that do split (an em dash is punctuation, a hyphen is part of a name).
_DASH_INFIX = r"(?<=[A-Za-z0-9])(?:--|—|–)(?=[A-Za-z])"
_FINAL_STOP = r"(?<=[A-Za-z0-9\)\]%])\."


class _Suffixes:
    """The suffix rules, searched as spaCy's tokenizer does on every new word
    and on what is left of it after each split, with a shortcut.

    The regex joins ~80 rules, each anchored at the end, and is tried at every
    position of the word: a tenth of the cost of tokenizing new text. Yet
    every rule ends in a punctuation mark or a symbol, but for "'s" ("'S",
    "’s", "’S"), so a word ending in an ASCII letter or digit (an "s" not
    after an apostrophe included) has no suffix, and is not searched. (spaCy's
    unit rule, "10km", would end in a letter: the science tokenizer drops it.)"""

    def __init__(self, rules: list[str]):
        self.regex = compile_suffix_regex(rules)
        self.pattern = self.regex.pattern  # spaCy saves a tokenizer's rules as search.__self__.pattern

    def search(self, word: str) -> re.Match | None:
        last = word[-1:]
        if last in _PLAIN_END and not (last in "sS" and word[-2:-1] in _APOSTROPHES):
            return None
        return self.regex.search(word)


class _Infixes:
    """The infix rules, found as spaCy's tokenizer does in every new word
    that has no prefix or suffix left, with a shortcut: each rule takes a
    character that is not ASCII or is one of _INFIX_ASCII ("...", "—", an
    icon, "a.B", "a,b", "a/b", "a--b"), so a word without any of them has
    no infix and is not searched."""

    def __init__(self, rules: list[str]):
        self.regex = compile_infix_regex(rules)
        self.pattern = self.regex.pattern

    def finditer(self, word: str) -> Iterator[re.Match]:
        if word.isascii() and _INFIX_ASCII.isdisjoint(word):
            return iter(())
        return self.regex.finditer(word)


_PLAIN_END = frozenset(string.ascii_letters + string.digits)
_APOSTROPHES = ("'", "’")
_INFIX_ASCII = frozenset(".,:<>=/-")


def _is_hyphen_rule(pattern: str) -> bool:
    return "(?:-|–|—|--|---|——|~)" in pattern or pattern.startswith("(?<=[0-9])[+\\-")


def _is_unit_rule(pattern: str) -> bool:
    return "km|km²" in pattern


class CleaningTokenizer:
    """Cleans markup to spaces (offsets unchanged), then tokenizes."""

    def __init__(self, inner: Tokenizer):
        self.inner = inner

    def __call__(self, text: str) -> Doc:
        cleaned = clean(text)
        doc = self.inner(cleaned)
        doc.user_data["kg_text"] = cleaned  # Doc.text would re-join every token
        return doc

    def plain_words(self, text: str) -> list[str] | None:
        """The token texts of `text`, told without tokenizing it, when it is
        plain words: ASCII letters and digits between single spaces, none of
        them a special case ("cannot", "10am"). No rule of the science
        tokenizer splits such a word: every prefix, suffix and infix rule
        needs a character that is not a letter or digit (spaCy's English unit
        suffix, which splits "10km", is one of the rules it drops), and no
        markup is cleaned out of it. None for any other text."""
        words = text.split(" ")
        rules = self.inner.rules
        if all(w.isascii() and w.isalnum() and w not in rules for w in words):
            return words
        return None

    def pipe(self, texts, batch_size: int = 1000):
        for text in texts:
            yield self(text)

    # Serialisation is the inner tokenizer's; the clean-up step has no state.
    def to_bytes(self, **kwargs):
        return self.inner.to_bytes(**kwargs)

    def from_bytes(self, data, **kwargs):
        self.inner.from_bytes(data, **kwargs)
        return self

    def to_disk(self, path, **kwargs):
        self.inner.to_disk(path, **kwargs)

    def from_disk(self, path, **kwargs):
        self.inner.from_disk(path, **kwargs)
        return self


def _exceptions(rules: dict) -> dict:
    """spaCy's special cases without its emoticons: in an abstract "):" after
    "(LISA" closes a bracket, and kept whole it would hide the bracket."""
    return {k: v for k, v in rules.items() if k.isspace() or any(c.isalnum() for c in k) or k in ("'", "''", "’", "’’", "—")}


def science_tokenizer(nlp: Language) -> Tokenizer:
    """spaCy's English tokenizer with the narrowed rules described above."""
    defaults = nlp.Defaults
    infixes = [p for p in defaults.infixes if not _is_hyphen_rule(p)] + [_DASH_INFIX]
    suffixes = [p for p in defaults.suffixes if not _is_unit_rule(p)] + [_FINAL_STOP]
    tok = Tokenizer(
        nlp.vocab,
        rules=_exceptions(defaults.tokenizer_exceptions),
        prefix_search=compile_prefix_regex(defaults.prefixes).search,
        suffix_search=_Suffixes(suffixes).search,
        infix_finditer=_Infixes(infixes).finditer,
        token_match=defaults.token_match,
        url_match=defaults.url_match,
    )
    for abbr in ABBREVIATIONS:
        tok.add_special_case(abbr, [{"ORTH": abbr}])
        if abbr[0].islower():
            tok.add_special_case(abbr.capitalize(), [{"ORTH": abbr.capitalize()}])
    return tok


def cleaning_tokenizer(nlp: Language) -> CleaningTokenizer:
    """The cleaning science tokenizer of `nlp`; as a Language's
    create_tokenizer, the only tokenizer the Language builds (with install()
    afterwards, spaCy's default one is built first for nothing: ~1,300
    special cases and three affix regexes, a fifth of start-up)."""
    return CleaningTokenizer(science_tokenizer(nlp))


def install(nlp: Language) -> None:
    """Give `nlp` the cleaning science tokenizer."""
    nlp.tokenizer = cleaning_tokenizer(nlp)
