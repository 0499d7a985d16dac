"""A tokenizer that keeps scientific names whole.

spaCy's English rules split "BERT-base" at the hyphen, "BDD100K" before the
"K" (read as a unit) and "7.9%" before the "%". Names like these are the
entities kg looks for, so the rules are narrowed: no split at a hyphen inside
a word, no unit suffixes; a full stop after a name ("ViT.") is still split off,
and "et al." / "e.g." / "Fig." stay single tokens so that sentence splitting
does not stop at them (rule family "sentences", key "abbreviations"). The text is cleaned first (kg.nlp.cleanup), with every
character keeping its offset, so token offsets point into the original text.
"""

from __future__ import annotations

from typing import Callable, Iterable

from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, compile_prefix_regex, compile_suffix_regex, registry

from kg import rules as rule_files
from kg.nlp.cleanup import clean

# Dashes between words that do split (an em dash is punctuation, a hyphen is part of a name).
_DASH_INFIX = r"(?<=[A-Za-z0-9])(?:--|—|–)(?=[A-Za-z])"
_FINAL_STOP = r"(?<=[A-Za-z0-9\)\]%])\."


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


def science_tokenizer(nlp: Language, rules: Iterable[str] = ()) -> Tokenizer:
    """spaCy's English tokenizer with the narrowed rules described above;
    `rules`: the user's rules files (the abbreviations kept whole)."""
    defaults = nlp.Defaults
    infixes = [p for p in defaults.infixes if not _is_hyphen_rule(p)] + [_DASH_INFIX]
    suffixes = [p for p in defaults.suffixes if not _is_unit_rule(p)] + [_FINAL_STOP]
    tok = Tokenizer(
        nlp.vocab,
        rules=_exceptions(defaults.tokenizer_exceptions),
        prefix_search=compile_prefix_regex(defaults.prefixes).search,
        suffix_search=compile_suffix_regex(suffixes).search,
        infix_finditer=compile_infix_regex(infixes).finditer,
        token_match=defaults.token_match,
        url_match=defaults.url_match,
    )
    for abbr in rule_files.load("sentences", rules)["abbreviations"]:
        tok.add_special_case(abbr, [{"ORTH": abbr}])
        if abbr[0].islower():
            tok.add_special_case(abbr.capitalize(), [{"ORTH": abbr.capitalize()}])
    return tok


def cleaning_tokenizer(nlp: Language, rules: Iterable[str] = ()) -> CleaningTokenizer:
    """The cleaning science tokenizer of `nlp`; given to a Language as its
    create_tokenizer, it is the only tokenizer the Language builds."""
    return CleaningTokenizer(science_tokenizer(nlp, rules))


@registry.tokenizers("kg.tokenizer.v1")
def tokenizer_with_rules(rules: Iterable[str] = ()) -> Callable[[Language], CleaningTokenizer]:
    """A create_tokenizer for a Language: cleaning_tokenizer with the user's
    rules files. Registered, so that a spaCy config names kg's tokenizer
    ([nlp.tokenizer] @tokenizers = "kg.tokenizer.v1"), as a learned model's does."""
    rules = tuple(str(p) for p in rules)
    return lambda nlp: cleaning_tokenizer(nlp, rules)


def install(nlp: Language, rules: Iterable[str] = ()) -> None:
    """Give `nlp` the cleaning science tokenizer."""
    nlp.tokenizer = cleaning_tokenizer(nlp, rules)
