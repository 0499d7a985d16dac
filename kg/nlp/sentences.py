"""Sentence boundaries for abstracts.

A sentence ends at a ".", "!" or "?" token (or a blank line) when the next
word does not start in lower case. The tokenizer keeps "e.g.", "i.e.",
"et al.", "vs.", decimals ("0.5") and versions ("v1.5") as single tokens, so
they never show up here as a full stop. "etc." ends a sentence only when a
capitalised word follows.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

_TERMINAL = frozenset({".", "!", "?", "...", "…", "?!", "!?"})
_SOFT_TERMINAL = frozenset({"etc."})
_CLOSERS = frozenset({")", "]", '"', "'", "”", "’"})


@Language.component("kg_sentences")
def split_sentences(doc: Doc) -> Doc:
    """Set is_sent_start on every token (one linear pass)."""
    ended = False  # the last word token closed a sentence
    soft = False  # ... with "etc.", which needs a capital after it
    for i, tok in enumerate(doc):
        if i == 0:
            tok.is_sent_start = True
            continue
        start = False
        if tok.is_space:
            if "\n\n" in tok.text:
                ended, soft = True, False
            tok.is_sent_start = False
            continue
        if ended and tok.text in _CLOSERS:
            tok.is_sent_start = False
            continue
        if ended:
            first = tok.text[0]
            start = first.isupper() or first.isdigit() or first in "(\"'[“‘" if not soft else first.isupper()
        tok.is_sent_start = start
        ended = tok.text in _TERMINAL or tok.text in _SOFT_TERMINAL
        soft = tok.text in _SOFT_TERMINAL
    return doc
