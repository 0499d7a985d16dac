"""Gazetteers: well-known names of datasets, metrics, tasks and methods,
and the spaCy component that marks them in a Doc.

The files (JSON Lines of {"name", "aliases", "type", "exactMatch", "case"})
are read and checked by kg.io.gazetteer_files, which needs no spaCy; its
names are re-exported here.

Matching: a form with a capital or a digit ("BERT", "ImageNet") matches as
written, since folding case would make words of "GLUE" or "Replica"; an
all-lower-case form ("semantic segmentation") matches in any case; so do a
multi-word form and a CamelCase name of seven letters or more ("Imagenet"). A plural "s" is accepted.
Names that extend a known one at a hyphen or a digit ("Llama-3-8B-Instruct",
"CIFAR-10-LT", "MATH500", "Split-CIFAR100") are variants of the same type.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc

from kg.entities.candidates import Candidate, candidates
from kg.entities.lexicon import Lexicon, lexicon
from kg.io.gazetteer_files import (
    FILE_TYPES,
    Entry,
    GazetteerError,
    load,
    load_builtin,
    load_file,
)
from kg.nlp.tokens import positions, view_columns
from kg.nlp.word_sets import WordSet

__all__ = ["FILE_TYPES", "Entry", "GazetteerError", "GazetteerMatcher", "load", "load_builtin", "load_file"]

# -- the component -------------------------------------------------------------
_VARIANT_SPLIT = re.compile(r"-")
_TRAILING_DIGITS = re.compile(r"^([A-Za-z][A-Za-z]+?)(\d+)$")
_MAX_VARIANTS = 100_000


def _plural(form: str) -> str | None:
    last = form[-1:]
    if not last.isalpha() or form.endswith("s"):
        return None
    # "accuracy" -> "accuracies"; "Galaxy" or "ROUGE-Y" is no English word
    if form.endswith("y") and form[-2:-1] not in "aeiou" and form.islower():
        return form[:-1] + "ies"
    return form + "s"


class GazetteerMatcher:
    """Marks every gazetteer name or alias as a candidate of the entry's type."""

    def __init__(self, nlp: Language, entries: list[Entry], lex: Lexicon):
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.lower = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.entries = entries
        self.by_form: dict[str, int] = {}  # exact form -> entry index, for variants
        words = lex.name_stop_words
        self.not_prefixes = lex.patterns.not_name_prefixes
        self.dataset_nouns = lex.patterns.dataset_nouns
        # "Transformer-based", "ReLU-activated": the lexicon's adjective halves make no variant.
        self.adjective_tails = lex.adjective_suffixes
        self._variants: dict[str, int | None] = {}  # word -> _variant(word)
        for i, e in enumerate(entries):
            key = str(i)
            exact_patterns, lower_patterns = [], []
            for form in e.forms:
                self.by_form.setdefault(form, i)
                # A task is an activity: "recommendations" or "translations" are its outputs, not the task.
                plural = _plural(form) if e.type != "Task" else None
                variants = [form] + ([plural] if plural else [])
                cased = e.case_sensitive or any(c.isupper() or c.isdigit() for c in form)
                # A long CamelCase name ("ImageNet") is no English word in any case ("MuTual" would be,
                # and so would "LargeST").
                camel = len(form) >= 7 and any(c.islower() for c in form) and any(c.isupper() for c in form[1:]) \
                    and form.lower() not in words
                for v in variants:
                    pattern = nlp.make_doc(v)  # both matchers take the Doc, each reading its own attribute
                    exact_patterns.append(pattern)
                    if not e.case_sensitive and (not cased or " " in v or camel):
                        lower_patterns.append(pattern)
            if exact_patterns:
                self.exact.add(key, exact_patterns)
            if lower_patterns:
                self.lower.add(key, lower_patterns)

    def _variant(self, text: str) -> int | None:
        """The entry a hyphenated or numbered name extends, if any."""
        parts = _VARIANT_SPLIT.split(text)
        if parts[-1].lower() in self.adjective_tails or text.lower().startswith(self.not_prefixes):
            return None  # "Transformer-based", "non-BERT"
        if len(parts) > 1:
            for k in range(len(parts) - 1, 0, -1):  # longest known prefix first
                hit = self.by_form.get("-".join(parts[:k]))
                if hit is not None and len("-".join(parts[:k])) >= 2:
                    return hit
            for k in range(1, len(parts)):  # then a known suffix: "Split-CIFAR100"
                tail = "-".join(parts[k:])
                hit = self.by_form.get(tail)
                if hit is not None and len(tail) >= 4 and any(c.isdigit() or c.isupper() for c in tail):
                    return hit
        m = _TRAILING_DIGITS.match(text)
        if m and m.group(1).isupper() and len(m.group(1)) >= 3:
            return self.by_form.get(m.group(1))
        return None

    def __call__(self, doc: Doc) -> Doc:
        found = candidates(doc)
        seen = set()
        for matcher in (self.exact, self.lower):
            for mid, start, end in matcher(doc):
                i = int(doc.vocab.strings[mid])
                if (start, end, i) in seen:
                    continue
                seen.add((start, end, i))
                e = self.entries[i]
                if e.type == "Method" and end < len(doc) and doc[end].lower_ in self.dataset_nouns:
                    # "the Alpaca dataset": a dataset named like the method; the entry says nothing of it.
                    found.append(Candidate(start, end, "Dataset", "gazetteer"))
                    continue
                found.append(Candidate(start, end, e.type, "gazetteer", canonical=e.name,
                                       exact_match=list(e.exact_match)))
        matched = {s for s, _, _ in seen}
        texts = view_columns(doc).texts
        # The few words that are variants are found first; only their tokens are visited.
        variants = {w for w in _SHAPED.among(texts) if self._variant_of(w) is not None}
        for k in positions(texts, variants):
            if k in matched:
                continue
            e = self.entries[self._variant_of(texts[k])]
            found.append(Candidate(k, k + 1, e.type, "variant", canonical=None))
        return doc

    def _variant_of(self, text: str) -> int | None:
        """_variant(text), remembered per word: the same names recur in every abstract."""
        try:
            return self._variants[text]
        except KeyError:
            pass
        if len(self._variants) >= _MAX_VARIANTS:
            self._variants.clear()  # a bound on memory for endless streams
        i = self._variants[text] = self._variant(text)
        return i


# Only words of four characters or more with a hyphen or a final digit can be variants.
_SHAPED = WordSet(lambda t: len(t) >= 4 and ("-" in t or t[-1].isdigit()))


@Language.factory("kg_gazetteer", default_config={"extra": [], "rules": []})
def make_gazetteer(nlp: Language, name: str, extra: list[str], rules: list[str]) -> GazetteerMatcher:
    """`extra`: the user's gazetteer files; `rules`: the user's rules files."""
    return GazetteerMatcher(nlp, load(extra), lexicon(rules))
