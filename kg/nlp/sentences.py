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

from kg.nlp.tokens import build_view, raw_tokens

_TERMINAL = frozenset({".", "!", "?", "...", "…", "?!", "!?"})
_SOFT_TERMINAL = frozenset({"etc."})
_CLOSERS = frozenset({")", "]", '"', "'", "”", "’"})


@Language.component("kg_sentences")
def split_sentences(doc: Doc) -> Doc:
    """Mark sentence starts in one linear pass, written with one array copy,
    and build the token view (kg.nlp.tokens) from the same pass."""
    raw = raw_tokens(doc)
    starts = []
    ended = False  # the last word token closed a sentence
    soft = False  # ... with "etc.", which needs a capital after it
    for i, (text, _, _, space, _, _) in enumerate(raw):
        if i == 0:
            starts.append(0)
            continue
        if space:
            if "\n\n" in text:
                ended, soft = True, False
            continue
        if ended and text in _CLOSERS:
            continue
        if ended:
            first = text[0]
            if first.isupper() if soft else (first.isupper() or first.isdigit() or first in "(\"'[“‘"):
                starts.append(i)
        ended = text in _TERMINAL or text in _SOFT_TERMINAL
        soft = text in _SOFT_TERMINAL
    if raw:
        flags = numpy.full((len(raw), 1), -1, dtype="int64")
        flags[starts, 0] = 1
        doc.from_array(["SENT_START"], flags.view("uint64"))
    build_view(doc, raw, starts)
    return doc
