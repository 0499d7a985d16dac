"""A light, read-only view of a Doc's tokens for the rule components.

spaCy builds a Token object on every `doc[i]`, walks the sentence on every
`token.sent` and checks the whole Doc on every `token.is_sent_start`; the
rules look at each token many times, so they read this view instead. It is
built once per Doc by the sentence splitter (kg.nlp.sentences), from one pass
over the tokens.
"""

from __future__ import annotations

from spacy.tokens import Doc

if not Doc.has_extension("kg_tokens"):
    Doc.set_extension("kg_tokens", default=None)


class Tok:
    """What the rules read of one token."""

    __slots__ = ("i", "text", "lower_", "idx", "is_sent_start", "sent_start", "sent_end", "is_space", "is_punct",
                 "is_alpha")

    def __init__(self, i: int, text: str, lower: str, idx: int, is_sent_start: bool, sent_start: int,
                 sent_end: int, is_space: bool, is_punct: bool, is_alpha: bool):
        self.i = i
        self.text = text
        self.lower_ = lower
        self.idx = idx
        self.is_sent_start = is_sent_start
        self.sent_start = sent_start  # token index where this token's sentence starts
        self.sent_end = sent_end  # ... and ends (exclusive)
        self.is_space = is_space
        self.is_punct = is_punct
        self.is_alpha = is_alpha


def raw_tokens(doc: Doc) -> list[tuple[str, str, int, bool, bool, bool]]:
    """(text, lower, idx, is_space, is_punct, is_alpha) of every token, in one pass."""
    return [(t.text, t.lower_, t.idx, t.is_space, t.is_punct, t.is_alpha) for t in doc]


def build_view(doc: Doc, raw: list[tuple], starts: list[int]) -> list[Tok]:
    """The view from the raw token tuples and the sentence start indices."""
    bounds = starts + [len(raw)]
    view = []
    for k in range(len(starts)):
        s, e = bounds[k], bounds[k + 1]
        for i in range(s, e):
            text, low, idx, space, punct, alpha = raw[i]
            view.append(Tok(i, text, low, idx, i == s, s, e, space, punct, alpha))
    doc._.kg_tokens = view
    return view


def token_view(doc: Doc) -> list[Tok]:
    """The view of `doc`; built here from the Doc's sentence marks when the
    sentence splitter did not build it (a Doc made some other way)."""
    view = doc._.kg_tokens
    if view is not None:
        return view
    flags = doc.to_array("SENT_START").tolist() if len(doc) else []
    starts = [i for i, flag in enumerate(flags) if flag == 1 or i == 0]
    return build_view(doc, raw_tokens(doc), starts)


def doc_text(doc: Doc) -> str:
    """The Doc's text; kept by the tokenizer, since Doc.text re-joins every token."""
    text = doc.user_data.get("kg_text")
    if text is None:
        text = doc.user_data["kg_text"] = doc.text
    return text


def span_text(doc: Doc, start: int, end: int) -> str:
    """Text of tokens start..end (exclusive), without building a Span."""
    v = token_view(doc)
    last = v[end - 1]
    return doc_text(doc)[v[start].idx:last.idx + len(last.text)]
