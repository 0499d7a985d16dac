"""Gold records as spaCy training examples for the tagger: each abstract and
each title a Doc made by kg's own tokenizer, its gold entities as doc.ents
(kg.learned.mentions finds where they stand) and as each token's BILUO tag;
and the tags read back into names."""

from __future__ import annotations

from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example, offsets_to_biluo_tags
from spacy.util import filter_spans

from kg.entities import entity  # noqa: F401  (registers doc._.is_title)
from kg.learned.mentions import gold_mentions
from kg.model import Abstract


def _edge(token) -> bool:
    return token.is_space or token.is_punct


def gold_doc(nlp: Language, text: str, record: dict, is_title: bool = False) -> Doc:
    """`text` tokenized by `nlp`, with `record`'s entities where they stand in
    it as doc.ents (a mention is cut to whole tokens, without white space or
    punctuation at its edges; of overlapping ones the longer is kept)."""
    doc = nlp.make_doc(text)
    doc._.is_title = is_title
    spans = []
    for found in gold_mentions(record, text):
        span = doc.char_span(found.start, found.end, alignment_mode="contract")
        if span is None:
            continue
        start, end = span.start, span.end
        while start < end and _edge(doc[start]):
            start += 1
        while end > start and _edge(doc[end - 1]):
            end -= 1
        if end > start:
            spans.append(Span(doc, start, end, label=found.label))
    doc.ents = filter_spans(spans)
    offsets = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
    for token, tag in zip(doc, offsets_to_biluo_tags(doc, offsets)):
        token.tag_ = tag
    return doc


def examples(nlp: Language, pairs: Iterable[tuple[Abstract, dict]]) -> Iterator[Example]:
    """A training Example for each abstract and each title of `pairs`."""
    for abstract, record in pairs:
        for text, is_title in ((abstract.text, False), (abstract.title, True)):
            if text and text.strip():
                reference = gold_doc(nlp, text, record, is_title)
                predicted = nlp.make_doc(text)
                predicted._.is_title = is_title
                yield Example(predicted, reference)


def tagged_spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """(start, end, label) of the names a sequence of BILUO tags marks. A tagger
    may give tags that do not fit together ("I-Method" after "O", a name that
    never ends); a name then begins at any B, I or U that does not go on one
    of the same label, and ends at an L, a U, or where the next tag does not
    go on with it."""
    spans = []
    start = label = None
    for i, tag in enumerate(tags):
        move, _, kind = tag.partition("-")
        if start is not None and (move in ("B", "U", "O") or kind != label):
            spans.append((start, i, label))
            start = label = None
        if move in ("B", "I", "L", "U") and start is None:
            start, label = i, kind
        if move in ("L", "U") and start is not None:
            spans.append((start, i + 1, label))
            start = label = None
    if start is not None:
        spans.append((start, len(tags), label))
    return spans
