"""Sentence boundaries for abstracts.

A sentence ends at a ".", "!" or "?" token (or a blank line) when the next
word does not start in lower case. The tokenizer keeps "e.g.", "i.e.",
"et al.", "vs.", decimals ("0.5") and versions ("v1.5") as single tokens, so
they never show up here as a full stop. "etc." ends a sentence only when a
capitalised word follows.
"""

from __future__ import annotations

import numpy
from spacy.language import Language
from spacy.tokens import Doc

_TERMINAL = frozenset({".", "!", "?", "...", "…", "?!", "!?"})
_SOFT_TERMINAL = frozenset({"etc."})
_CLOSERS = frozenset({")", "]", '"', "'", "”", "’"})


@Language.component("kg_sentences")
def split_sentences(doc: Doc) -> Doc:
    """Mark sentence starts in one linear pass, written with one array copy."""
    starts = numpy.full((len(doc), 1), -1, dtype="int64")
    ended = False  # the last word token closed a sentence
    soft = False  # ... with "etc.", which needs a capital after it
    for i, text in enumerate(t.text for t in doc):
        if i == 0:
            starts[0, 0] = 1
            continue
        if text.isspace():
            if "\n\n" in text:
                ended, soft = True, False
            continue
        if ended and text in _CLOSERS:
            continue
        if ended:
            first = text[0]
            if first.isupper() if soft else (first.isupper() or first.isdigit() or first in "(\"'[“‘"):
                starts[i, 0] = 1
        ended = text in _TERMINAL or text in _SOFT_TERMINAL
        soft = text in _SOFT_TERMINAL
    if len(doc):
        doc.from_array(["SENT_START"], starts.view("uint64"))
    return doc
