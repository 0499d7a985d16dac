"""A light, read-only view of a Doc's tokens for the rule components.

The rules look at each token many times, and at its sentence's bounds; a
spaCy Token is built afresh on every `doc[i]` and walks its sentence on every
`token.sent`. So the sentence splitter (kg.nlp.sentences) reads each token
once into a Tok, a tuple with named fields, and the rules read those.
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from typing import Iterable, NamedTuple, Sequence

from spacy.attrs import IDX, IS_ALPHA, IS_PUNCT, IS_SPACE, LENGTH
from spacy.tokens import Doc


def _kept_view(doc: Doc) -> list[Tok] | None:
    return doc.user_data.get("kg_view")


# The view is kept in doc.user_data (spaCy's storage for a user's data on a
# Doc) and shown as doc._.kg_tokens.
if not Doc.has_extension("kg_tokens"):
    Doc.set_extension("kg_tokens", getter=_kept_view)


class Tok(NamedTuple):
    """What the rules read of one token."""

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


class Columns(NamedTuple):
    """The tokens' fields, one tuple per field with one item per token: a
    rule that looks for a few words scans a column."""

    texts: tuple[str, ...]
    lowers: tuple[str, ...]
    idxs: tuple[int, ...]
    is_space: tuple[bool, ...]
    is_punct: tuple[bool, ...]
    is_alpha: tuple[bool, ...]


_COLUMN_ATTRS = [IDX, LENGTH, IS_SPACE, IS_PUNCT, IS_ALPHA]


def token_columns(doc: Doc) -> Columns:
    """The Columns of `doc`'s tokens. Read with one Doc.to_array, not token
    by token (a spaCy Token is built afresh on every `doc[i]`): a token's text
    is the stretch of the Doc's text at its offset, and its lower_ is that
    text's str.lower(), as spaCy makes it (spacy.lang.lex_attrs.lower)."""
    if not len(doc):
        return Columns((), (), (), (), (), ())
    values = doc.to_array(_COLUMN_ATTRS)
    idxs, lengths = values[:, :2].T.tolist()
    spaces, puncts, alphas = values[:, 2:].astype(bool).T.tolist()
    text = doc_text(doc)
    texts = tuple([text[i:i + n] for i, n in zip(idxs, lengths)])
    return Columns(texts, tuple([t.lower() for t in texts]), tuple(idxs), tuple(spaces), tuple(puncts), tuple(alphas))


def build_view(doc: Doc, columns: Columns, starts: list[int]) -> list[Tok]:
    """The view from the token columns and the sentence start indices."""
    n = len(columns.texts)
    bounds = list(zip(starts, starts[1:] + [n]))
    opens = [False] * n
    for start in starts:
        opens[start] = True
    # Each token's sentence bounds: each sentence's start and end, repeated once per token of it.
    sent_starts = chain.from_iterable(repeat(start, end - start) for start, end in bounds)
    sent_ends = chain.from_iterable(repeat(end, end - start) for start, end in bounds)
    # Tok's fields in order, column by column: one Tok per row, built without a Python loop over the tokens.
    view = list(map(Tok._make, zip(range(n), columns.texts, columns.lowers, columns.idxs, opens, sent_starts,
                                   sent_ends, columns.is_space, columns.is_punct, columns.is_alpha)))
    doc.user_data["kg_view"] = view
    doc.user_data["kg_columns"] = columns
    doc.user_data["kg_sentence_starts"] = starts
    return view


def token_view(doc: Doc) -> list[Tok]:
    """The view of `doc`; built here from the Doc's sentence marks when the
    sentence splitter did not build it (a Doc made some other way)."""
    view = doc.user_data.get("kg_view")
    if view is not None:
        return view
    starts = [t.i for t in doc if t.i == 0 or t.is_sent_start]
    return build_view(doc, token_columns(doc), starts)


def _kept_with_view(doc: Doc, key: str):
    """What build_view keeps beside the view under `key`, building the view first if need be."""
    value = doc.user_data.get(key)
    if value is None:
        token_view(doc)
        value = doc.user_data[key]
    return value


def view_columns(doc: Doc) -> Columns:
    """The token columns the view of `doc` was built from (see token_columns)."""
    return _kept_with_view(doc, "kg_columns")


def sentence_starts_of(doc: Doc) -> list[int]:
    """Token index of each sentence's first token, as the view was built with."""
    return _kept_with_view(doc, "kg_sentence_starts")


def positions(words: Sequence[str], wanted: Iterable[str], start: int = 0) -> list[int]:
    """Indices (from `start`, ascending) of the items of `words` that equal one of `wanted`."""
    if not isinstance(wanted, (set, frozenset)):
        wanted = set(wanted)
    # The test of each word runs in C (map, compress), not in a Python loop over the words.
    return list(compress(range(start, len(words)), map(wanted.__contains__, words[start:])))


def phrase_at(v: list[Tok], k: int, end: int, phrases: Iterable[tuple[str, ...]]) -> int:
    """How many tokens from `k` (before `end`) spell one of `phrases`, lower-case
    word tuples such as ("such", "as"); 0 when none does."""
    for words in phrases:
        if k + len(words) <= end and all(v[k + n].lower_ == w for n, w in enumerate(words)):
            return len(words)
    return 0


def doc_text(doc: Doc) -> str:
    """The Doc's text; kept by the tokenizer, since Doc.text re-joins every token."""
    text = doc.user_data.get("kg_text")
    if text is None:
        text = doc.user_data["kg_text"] = doc.text
    return text


def span_text(doc: Doc, start: int, end: int) -> str:
    """Text of tokens start..end (exclusive), without building a Span."""
    return view_text(token_view(doc), doc_text(doc), start, end)


def view_text(v: list[Tok], text: str, start: int, end: int) -> str:
    """span_text for a caller that holds the view and the text."""
    last = v[end - 1]
    return text[v[start].idx:last.idx + len(last.text)]


def past_gloss(v: list[Tok], k: int, step: int) -> int:
    """The token past a short bracketed gloss at k, going in direction `step`:
    "sparse autoencoders (SAEs), ...", "FooSet (radiology), ..."; else k."""
    opening, closing = ("(", ")") if step == 1 else (")", "(")
    if not 0 <= k < len(v) or v[k].text != opening:
        return k
    for m in range(k + step, k + step * 6, step):
        if not 0 <= m < len(v) or v[m].is_sent_start:
            break
        if v[m].text == closing:
            return m + step
    return k
