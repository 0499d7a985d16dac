"""A light, read-only view of a Doc's tokens for the rule components.

spaCy builds a Token object on every `doc[i]` and walks the sentence on every
`token.sent`; the rules look at each token many times, so they read these
plain lists instead, built once per Doc after sentence splitting.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc

if not Doc.has_extension("kg_tokens"):
    Doc.set_extension("kg_tokens", default=None)


@dataclass(frozen=True, slots=True)
class Tok:
    i: int
    text: str
    lower_: str
    idx: int
    is_sent_start: bool
    sent_start: int  # token index where this token's sentence starts
    sent_end: int  # ... and ends (exclusive)
    is_space: bool
    is_punct: bool
    is_alpha: bool


def token_view(doc: Doc) -> list[Tok]:
    """The view of `doc`, built on first use and kept on doc._.kg_tokens."""
    view = doc._.kg_tokens
    if view is not None:
        return view
    # Token.is_sent_start checks the whole Doc on every call; the array is one pass.
    sent_flags = doc.to_array("SENT_START").tolist() if len(doc) else []
    raw = [(t.text, t.lower_, t.idx, t.is_space, t.is_punct, t.is_alpha) for t in doc]
    starts = [i for i, flag in enumerate(sent_flags) if flag == 1 or i == 0]
    bounds = starts + [len(raw)]
    view = []
    for k in range(len(starts)):
        s, e = bounds[k], bounds[k + 1]
        for i in range(s, e):
            text, low, idx, space, punct, alpha = raw[i]
            view.append(Tok(i, text, low, idx, i == s, s, e, space, punct, alpha))
    doc._.kg_tokens = view
    return view
