"""Abbreviation pairs defined in the text, in both orders:
"Large Speech-Language Models (LSLMs)" and "Lion (EvoLved Sign Momentum)".

Writes doc._.abbreviations: a list of (long Span, short Span), one per
definition, in text order. Later components turn each pair into one entity
with the long form as name and the short form as alias, and read every later
use of the short form as a mention of that entity.
"""

from __future__ import annotations

import re
from typing import Callable

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.nlp.abbrev_match import (
    is_abbreviation,
    is_camel_abbreviation,
    is_loose_abbreviation,
    long_form_skipped_words,
)
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns, view_text

if not Doc.has_extension("abbreviations"):
    Doc.set_extension("abbreviations", default=None)


def abbreviation_pairs(doc: Doc) -> list[tuple[Span, Span]]:
    """doc._.abbreviations, or [] before kg_abbreviations ran."""
    return doc._.abbreviations or []


_SHORT = re.compile(r"^(?=.*[A-Z])[A-Za-z0-9][\w\-+./@^&]{0,14}$")
_MAX_INNER = 12
_STOP_TOKENS = frozenset({",", ";", ":", "(", ")", "[", "]", ".", "!", "?", '"', "“", "”"})


def _looks_short(text: str) -> bool:
    """A single token that can be an abbreviation: a capital, no more than 15 characters."""
    return bool(_SHORT.match(text)) and not text.isdigit()


def _long_before(v: list[Tok], text: str, paren: int, short: str, skipped: frozenset[str]) -> tuple[int, int] | None:
    """The shortest run of words ending just before `paren` that `short`
    abbreviates, as (start, end) token indices; failing that, the shortest
    that it abbreviates by the looser test ("sandglass attention module (SGA)"),
    in which the words `skipped` need no letter; failing that, one CamelCase
    word whose capitals it is ("StereoSet (SS)")."""
    found = _run_before(v, text, paren, short, is_abbreviation) \
        or _run_before(v, text, paren, short, lambda s, long: is_loose_abbreviation(s, long, skipped))
    if found is None and paren > v[paren].sent_start and is_camel_abbreviation(short, v[paren - 1].text):
        found = paren - 1, paren  # "StereoSet (SS)": one CamelCase word and its capitals
    return found


def _run_before(v: list[Tok], text: str, paren: int, short: str,
                test: Callable[[str, str], bool]) -> tuple[int, int] | None:
    sent_start = v[paren].sent_start
    letters = sum(c.isalpha() for c in short)
    max_words = min(letters + 5, letters * 2)
    words = 0
    k = paren - 1
    while k >= sent_start and words < max_words:
        tok = v[k]
        if tok.text in _STOP_TOKENS or tok.is_space:
            break
        words += 1
        # A leading digit may be a number word ("Two-Stage ... (2SSP)").
        if tok.text[:1].lower() == short[:1].lower() or short[:1].isdigit():
            if test(short, view_text(v, text, k, paren)):
                return k, paren
        k -= 1
    return None


@Language.factory("kg_abbreviations", default_config={"rules": []})
def make_abbreviations(nlp: Language, name: str, rules: list[str]) -> Callable[[Doc], Doc]:
    """The abbreviation finder, with the words of the user's `rules` files
    that a loose long form may hold without a letter of its short form."""
    skipped = long_form_skipped_words(rules)
    return lambda doc: find_abbreviations(doc, skipped)


def find_abbreviations(doc: Doc, skipped: frozenset[str] | None = None) -> Doc:
    skipped = long_form_skipped_words() if skipped is None else skipped
    # Spans are made only for the pairs found; the rules read text off the token view.
    pairs: list[tuple[Span, Span]] = []
    v = token_view(doc)
    text = doc_text(doc)
    n = len(v)
    for i in positions(view_columns(doc).texts, ("(",)):
        if i == 0:
            continue
        j = i + 1
        while j < n and j - i <= _MAX_INNER and v[j].text not in (")", "(") and not v[j].is_sent_start:
            j += 1
        if j >= n or v[j].text != ")":
            continue
        inner_end = i + 1
        while inner_end < j and v[inner_end].text not in (",", ";"):
            inner_end += 1
        if inner_end == i + 1:
            continue  # nothing inside
        inner = view_text(v, text, i + 1, inner_end)
        if inner_end == i + 2 and _looks_short(inner):
            long = _long_before(v, text, i, inner, skipped)
            if long is not None:
                pairs.append((doc[long[0]:long[1]], doc[i + 1:inner_end]))
                continue
        if inner_end == i + 3 and _looks_short(v[i + 1].text) and v[i - 1].text == v[i + 2].text:
            # "Pebble-Aware Fast R-CNN (PAF R-CNN)": the short form keeps the long form's last word.
            long = _long_before(v, text, i - 1, v[i + 1].text, skipped)
            if long is not None:
                pairs.append((doc[long[0]:i], doc[i + 1:inner_end]))
                continue
        # "Lion (EvoLved Sign Momentum)": a short name, then its long form in brackets.
        prev = v[i - 1]
        if inner_end - (i + 1) >= 2 and _looks_short(prev.text) and is_abbreviation(prev.text, inner):
            pairs.append((doc[i + 1:inner_end], doc[i - 1:i]))
    doc._.abbreviations = pairs
    return doc


def short_form_uses(doc: Doc) -> dict[int, tuple[Span, int]]:
    """Every use of a defined short form, its definition included: token index
    where it starts -> (its long form, number of tokens). Short forms of
    several tokens ("SAF R-CNN") are matched token by token."""
    texts = view_columns(doc).texts
    uses: dict[int, tuple[Span, int]] = {}
    for long, short in abbreviation_pairs(doc):
        n = short.end - short.start
        words = texts[short.start:short.end]
        for k in positions(texts, (words[0],), short.start):
            if texts[k:k + n] == words:
                uses.setdefault(k, (long, n))
    return uses

