"""A sentence as the relation rules see it: its text, its entity mentions
(offsets within the sentence) and its numbers, built once per sentence so
that no rule rebuilds text from tokens."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple

from spacy.tokens import Doc, Span

from kg.extract.numbers import Quantity, quantities
from kg.nlp.entities import SpanExtensions
from kg.nlp.pipeline import SPAN_KEY

# Sizes and counts ("7B parameters", "12 GB") are not results.
_SIZE_UNITS = {"M", "B", "K", "GB", "MB"}


class Mention(NamedTuple):
    """An entity mention: character offsets within its sentence (within the
    document as `doc_mentions` returns them), token offsets within the document.
    A tuple, because thousands are made per document."""

    start: int
    end: int
    label: str
    name: str
    proposed: bool
    tok_start: int
    tok_end: int


@dataclass
class Sentence:
    """One sentence with its mentions and numbers; `main` is the paper's main proposal."""

    span: Span
    text: str  # the sentence's text (Span.text rebuilds it on every call)
    doc_text: str
    mentions: list[Mention]
    main: str | None  # the paper's main proposed method
    quantities: list[Quantity] = field(default_factory=list)
    by_token: dict[int, Mention] = field(default_factory=dict)
    token_starts: list[int] = field(default_factory=list)
    clause_breaks: list[int] | None = None  # filled when first asked for

    def of(self, label: str) -> list[Mention]:
        return [m for m in self.mentions if m.label == label]

    def mention_at_token(self, i: int) -> Mention | None:
        return self.by_token.get(i)


    def first_token(self, pos: int) -> int:
        """The index of the first token starting at or after character `pos`."""
        if not self.token_starts:
            self.token_starts = [tok.idx - self.span.start_char for tok in self.span]
        return self.span.start + bisect_left(self.token_starts, pos)


def doc_mentions(doc: Doc, text: str) -> list[Mention]:
    """The entity spans as plain values, in text order, offsets in the document."""
    out = []
    extensions = SpanExtensions(doc, ("kg_name", "proposed"))
    for span in doc.spans.get(SPAN_KEY, []):
        a, b = span.start_char, span.end_char
        kg_name, proposed = extensions.read(span)
        out.append(Mention(a, b, span.label_, kg_name or text[a:b], bool(proposed), span.start, span.end))
    out.sort(key=lambda m: (m.tok_start, -m.tok_end))
    return out


def sentence_view(sent: Span, doc_text: str, ents: list[Mention], main: str | None) -> Sentence:
    base = sent.start_char
    mentions = [Mention(m.start - base, m.end - base, m.label, m.name,
                        m.proposed or (m.label == "Method" and m.name == main), m.tok_start, m.tok_end)
                for m in ents]
    s = Sentence(sent, doc_text[sent.start_char:sent.end_char], doc_text, mentions, main)
    s.by_token = {m.tok_start: m for m in mentions}
    s.quantities = [q for q in quantities(s.text) if q.unit not in _SIZE_UNITS and not _inside_mention(s, q)]
    return s


def _inside_mention(s: Sentence, q: Quantity) -> bool:
    return any(m.start <= q.start and q.end <= m.end for m in s.mentions)
