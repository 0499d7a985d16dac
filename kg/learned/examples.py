"""Gold records as spaCy training examples for the tagger: each abstract and
each title a Doc made by kg's own tokenizer, its gold entities as doc.ents
(kg.learned.mentions finds where they stand)."""

from __future__ import annotations

from typing import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import filter_spans

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
