"""Sentence boundaries for abstracts.

A sentence ends at a ".", "!" or "?" token (or a blank line) when the next
word does not start in lower case. The tokenizer keeps "e.g.", "i.e.",
"et al.", "vs.", decimals ("0.5") and versions ("v1.5") as single tokens, so
they never show up here as a full stop. "etc." ends a sentence only when a
capitalised word follows.
"""

from __future__ import annotations

import numpy
from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from kg.nlp.tokens import build_view, positions, token_columns

_TERMINAL = frozenset({".", "!", "?", "...", "…", "?!", "!?"})
_SOFT_TERMINAL = frozenset({"etc."})
_ENDERS = _TERMINAL | _SOFT_TERMINAL
_CLOSERS = frozenset({")", "]", '"', "'", "”", "’"})
_OPENERS = "(\"'[“‘"


def sentence_starts(texts: tuple[str, ...], spaces: tuple[bool, ...]) -> list[int]:
    """Indices of the tokens that open a sentence. Only the few tokens that can
    end one (a full stop, a blank line) are visited: from each, the walk skips
    spaces and closing brackets or quotes and tests the next word."""
    n = len(texts)
    starts = [0] if n else []
    # Token 0 opens the first sentence and ends none.
    enders = positions(texts, _ENDERS, 1)
    blank_lines = [i for i in positions(spaces, (True,), 1) if "\n\n" in texts[i]]
    if blank_lines:
        enders = sorted(set(enders).union(blank_lines))
    for i in enders:
        text, space = texts[i], spaces[i]
        soft = not space and text in _SOFT_TERMINAL
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


@Language.component("kg_sentences")
def split_sentences(doc: Doc) -> Doc:
    """Mark sentence starts, and build the token view (kg.nlp.tokens) from
    the same token columns."""
    columns = token_columns(doc)
    starts = sentence_starts(columns.texts, columns.is_space)
    if len(doc):
        # One array for the whole Doc: setting token.is_sent_start checks
        # the whole Doc on every token. 1 opens a sentence, -1 does not;
        # spaCy takes its arrays as uint64.
        flags = numpy.full((len(doc), 1), -1, dtype="int64")
        flags[starts, 0] = 1
        doc.from_array([SENT_START], flags.view("uint64"))
    build_view(doc, columns, starts)
    return doc
