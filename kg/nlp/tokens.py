"""A light, read-only view of a Doc's tokens for the rule components.

spaCy builds a Token object on every `doc[i]`, walks the sentence on every
`token.sent` and checks the whole Doc on every `token.is_sent_start`; the
rules look at each token many times, so they read this view instead. It is
built once per Doc by the sentence splitter (kg.nlp.sentences), from one
array copy of the tokens' word ids and offsets.

Speed: a word's text, lower case and flags belong to the word, not to the
token, so they are looked up once per distinct word (like spaCy's tokenizer
cache) and shared by all its tokens; a Tok is a tuple with named fields,
built without a Python-level __init__.
"""

from __future__ import annotations

from functools import partial
from itertools import compress
from operator import itemgetter
from typing import Iterable, NamedTuple

from spacy.attrs import IDX, ORTH
from spacy.tokens import Doc
from spacy.vocab import Vocab

def _kept_view(doc: Doc) -> list[Tok] | None:
    return doc.user_data.get("kg_view")


# The view is kept in doc.user_data and shown as doc._.kg_tokens; the rules
# read it from user_data, since every `doc._` builds an accessor object.
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


# (text, lower, is_space, is_punct, is_alpha) of a word id. The ids are
# hashes of the text and the flags come from the language's rules, so one
# table per language serves every Vocab of it; it is emptied when it grows
# past _MAX_WORDS, as a bound on memory for endless streams.
_WORDS: dict[str, dict[int, tuple[str, str, bool, bool, bool]]] = {}
_MAX_WORDS = 1_000_000


def _word_table(vocab: Vocab) -> dict[int, tuple[str, str, bool, bool, bool]]:
    table = _WORDS.setdefault(vocab.lang, {})
    if len(table) > _MAX_WORDS:
        table.clear()
    return table


Columns = tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], tuple[bool, ...], tuple[bool, ...],
                tuple[bool, ...]]


def _rows(table: dict, orths: list[int]) -> tuple:
    """table[orth] for each orth, looked up in one C loop (itemgetter returns
    the bare value, not a 1-tuple, for a single key)."""
    return itemgetter(*orths)(table) if len(orths) > 1 else (table[orths[0]],)


def token_columns(doc: Doc) -> Columns:
    """(texts, lowers, idxs, is_space, is_punct, is_alpha): one tuple per field, one item per token."""
    if not len(doc):
        return ((), (), (), (), (), ())
    table = _word_table(doc.vocab)
    array = doc.to_array([ORTH, IDX])
    orths = array[:, 0].tolist()
    try:
        texts, lowers, spaces, puncts, alphas = zip(*_rows(table, orths))
    except KeyError:  # new words: rare once the table has the field's vocabulary
        for orth in set(orths).difference(table):
            lex = doc.vocab[orth]
            table[orth] = (lex.orth_, lex.lower_, lex.is_space, lex.is_punct, lex.is_alpha)
        texts, lowers, spaces, puncts, alphas = zip(*_rows(table, orths))
    return texts, lowers, tuple(array[:, 1].tolist()), spaces, puncts, alphas


def build_view(doc: Doc, columns: Columns, starts: list[int]) -> list[Tok]:
    """The view from the token columns and the sentence start indices."""
    texts, lowers, idxs, spaces, puncts, alphas = columns
    n = len(texts)
    # Per-token sentence columns, made by list repetition (in C) sentence by
    # sentence; then one zip over all columns makes the Toks, with no Python
    # code run per token.
    first = [False] * n
    sent_start: list[int] = []
    sent_end: list[int] = []
    for s, e in zip(starts, starts[1:] + [n]):
        first[s] = True
        sent_start += [s] * (e - s)
        sent_end += [e] * (e - s)
    make = partial(tuple.__new__, Tok)
    view = list(map(make, zip(range(n), texts, lowers, idxs, first, sent_start, sent_end, spaces, puncts, alphas)))
    doc.user_data["kg_view"] = view
    # The columns too: a rule that looks for a few words scans a column in C
    # (tuple.index) instead of visiting every Tok in Python.
    doc.user_data["kg_columns"] = columns
    doc.user_data["kg_sentence_starts"] = starts
    return view


def token_view(doc: Doc) -> list[Tok]:
    """The view of `doc`; built here from the Doc's sentence marks when the
    sentence splitter did not build it (a Doc made some other way)."""
    view = doc.user_data.get("kg_view")
    if view is not None:
        return view
    flags = doc.to_array("SENT_START").tolist() if len(doc) else []
    starts = [i for i, flag in enumerate(flags) if flag == 1 or i == 0]
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


# Up to this many distinct words, positions() scans the column once per word.
_FEW_WORDS = 4


def positions(words: tuple[str, ...], wanted: Iterable[str], start: int = 0) -> list[int]:
    """Indices (from `start`, ascending) of the items of `words` that equal one
    of `wanted`. A rule that looks for a few words (a head word of the lexicon,
    a comma) finds them with tuple.index, which scans in C, rather than by a
    Python loop over every token; for many words one loop is cheaper."""
    wanted = wanted if isinstance(wanted, (set, frozenset)) else set(wanted)
    if len(wanted) > _FEW_WORDS:
        # A long list (a lexicon's head words) is first cut to the words this text has, in C.
        wanted = wanted.intersection(words)
    if len(wanted) > _FEW_WORDS:
        # Many words: one scan of the column, still with no Python code run per word.
        return list(compress(range(start, len(words)), map(wanted.__contains__, words[start:])))
    out: list[int] = []
    for word in wanted:
        i = start - 1
        try:
            while True:
                i = words.index(word, i + 1)
                out.append(i)
        except ValueError:
            pass
    out.sort()
    return out


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
    """span_text for a caller that holds the view and the text: no `doc._` lookup."""
    last = v[end - 1]
    return text[v[start].idx:last.idx + len(last.text)]
