"""Assemble the kg spaCy Language from the project's own components.

Contract with everything downstream (kg.extract.record):
- doc.spans[SPAN_KEY]: the entity spans, label_ one of ENTITY_TYPES;
- Span._.kg_name: the name the record uses; Span._.aliases; Span._.proposed;
- doc._.kg_relations: relation dicts as in the extraction record, each with
  "span" (start, end of the sentence it came from) and "confidence".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

import spacy
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span
from spacy.util import filter_spans

from kg.nlp import gazetteer

ENTITY_TYPES = ("Method", "Dataset", "Task", "Metric")
SPAN_KEY = "entities"

for _name, _default in (("kg_name", None), ("aliases", None), ("proposed", False)):
    if not Span.has_extension(_name):
        Span.set_extension(_name, default=_default)
if not Doc.has_extension("kg_relations"):
    Doc.set_extension("kg_relations", default=None)


@Language.factory("kg_gazetteer", default_config={"extra": []})
def make_gazetteer(nlp: Language, name: str, extra: list[str]) -> "GazetteerMatcher":
    return GazetteerMatcher(nlp, gazetteer.load(extra))


class GazetteerMatcher:
    """Marks every gazetteer name or alias, case-insensitively for long names."""

    def __init__(self, nlp: Language, entries: list[gazetteer.Entry]):
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.lower = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.canon: dict[str, str] = {}
        for i, e in enumerate(entries):
            key = f"{e.type}|{i}"
            self.canon[key] = e.name
            for form in [e.name, *e.aliases]:
                # Short all-caps names ("GLUE", "MAP") collide with words when case is folded.
                matcher = self.exact if (form.isupper() and len(form) <= 5) else self.lower
                matcher.add(key, [nlp.make_doc(form)])

    def __call__(self, doc: Doc) -> Doc:
        found = []
        for matcher in (self.exact, self.lower):
            for mid, start, end in matcher(doc):
                key = doc.vocab.strings[mid]
                etype = key.split("|", 1)[0]
                span = Span(doc, start, end, label=etype)
                span._.kg_name = self.canon[key]
                found.append(span)
        old = list(doc.spans.get(SPAN_KEY, []))
        doc.spans[SPAN_KEY] = filter_spans(old + found)
        return doc


_PROPOSE = re.compile(
    r"\b(?:we|this paper|this work)\s+(?:propose|introduce|present|develop)s?\s+(?:a |an |the )?"
    r"(?:[\w-]+ ){0,6}?(?:called |named |dubbed |termed )?(?P<name>[A-Z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)",
)


@Language.component("kg_proposals")
def find_proposals(doc: Doc) -> Doc:
    """The paper's own named proposal: "we propose X", "called X"."""
    spans = list(doc.spans.get(SPAN_KEY, []))
    for m in _PROPOSE.finditer(doc.text):
        name = m.group("name")
        if name.lower() in {"a", "an", "the", "we", "our", "this"} or not any(c.isupper() for c in name[1:] + name[:1]):
            continue
        span = doc.char_span(m.start("name"), m.end("name"), label="Method", alignment_mode="expand")
        if span is None:
            continue
        span._.kg_name = span.text
        span._.proposed = True
        spans.append(span)
    doc.spans[SPAN_KEY] = filter_spans(spans)
    # Later mentions of a proposed name carry the flag too.
    names = {s._.kg_name for s in doc.spans[SPAN_KEY] if s._.proposed}
    for s in doc.spans[SPAN_KEY]:
        if s._.kg_name in names:
            s._.proposed = True
    return doc


def make_pipeline(gazetteers: Iterable[str | Path] = ()) -> Language:
    """The kg Language: tokenizer, sentences, gazetteer, proposals, relations."""
    import kg.extract.relations  # noqa: F401  registers the kg_relations factory

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_gazetteer", config={"extra": [str(p) for p in gazetteers]})
    nlp.add_pipe("kg_proposals")
    nlp.add_pipe("kg_relations")
    return nlp
