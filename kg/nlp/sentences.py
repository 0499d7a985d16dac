"""Sentence boundaries for abstracts.

A sentence ends at a ".", "!" or "?" token (or a blank line) when the next
word does not start in lower case. The tokenizer keeps "e.g.", "i.e.",
"et al.", "vs.", decimals ("0.5") and versions ("v1.5") as single tokens, so
they never show up here as a full stop. "etc." ends a sentence only when a
capitalised word follows (rule family "sentences", key "soft_terminals").
"""

from __future__ import annotations

from typing import Callable

import numpy
from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from kg import rules as rule_files
from kg.nlp.tokens import build_view, positions, token_columns

_TERMINAL = frozenset({".", "!", "?", "...", "…", "?!", "!?"})
_CLOSERS = frozenset({")", "]", '"', "'", "”", "’"})
_OPENERS = "(\"'[“‘"


@rule_files.compiled
def soft_terminals(extra: tuple[str, ...]) -> frozenset[str]:
    """The tokens that end a sentence only before a capitalised word ("etc."),
    with the user's rules files `extra`."""
    return frozenset(rule_files.load("sentences", extra)["soft_terminals"])


def sentence_starts(texts: tuple[str, ...], spaces: tuple[bool, ...],
                    soft_enders: frozenset[str] | None = None) -> list[int]:
    """Indices of the tokens that open a sentence. Only the few tokens that can
    end one (a full stop, a blank line) are visited: from each, the walk skips
    spaces and closing brackets or quotes and tests the next word.
    `soft_enders`: the soft terminals (None: the packaged ones)."""
    soft_enders = soft_terminals() if soft_enders is None else soft_enders
    n = len(texts)
    starts = [0] if n else []
    # Token 0 opens the first sentence and ends none.
    enders = positions(texts, _TERMINAL | soft_enders, 1)
    blank_lines = [i for i in positions(spaces, (True,), 1) if "\n\n" in texts[i]]
    if blank_lines:
        enders = sorted(set(enders).union(blank_lines))
    for i in enders:
        text, space = texts[i], spaces[i]
        soft = not space and text in soft_enders
        j = i + 1
        while j < n:
            text, space = texts[j], spaces[j]
            if space:
                if "\n\n" in text:
                    soft = False
            elif text not in _CLOSERS:
                break
            j += 1
        if j >= n or j <= starts[-1]:
            continue
        first = text[0]
        if first.isupper() if soft else (first.isupper() or first.isdigit() or first in _OPENERS):
            starts.append(j)
    return starts


@Language.factory("kg_sentences", default_config={"rules": []})
def make_sentences(nlp: Language, name: str, rules: list[str]) -> Callable[[Doc], Doc]:
    """The sentence splitter, with the soft terminals of the user's `rules` files."""
    soft = soft_terminals(rules)
    return lambda doc: split_sentences(doc, soft)


def split_sentences(doc: Doc, soft_enders: frozenset[str] | None = None) -> Doc:
    """Mark sentence starts, and build the token view (kg.nlp.tokens) from
    the same token columns."""
    columns = token_columns(doc)
    starts = sentence_starts(columns.texts, columns.is_space, soft_enders)
    if len(doc):
        # One array for the whole Doc: setting token.is_sent_start checks
        # the whole Doc on every token. 1 opens a sentence, -1 does not;
        # spaCy takes its arrays as uint64.
        flags = numpy.full((len(doc), 1), -1, dtype="int64")
        flags[starts, 0] = 1
        doc.from_array([SENT_START], flags.view("uint64"))
    build_view(doc, columns, starts)
    return doc
