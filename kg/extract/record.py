"""Turn an annotated spaCy Doc into an extraction record, and run the
pipeline over a stream of abstracts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator

from spacy.tokens import Doc

import kg
from kg.model import Abstract
from kg.nlp import ENTITY_TYPES, SPAN_KEY, make_pipeline

EXTRACTOR = {"name": "kg-rules", "version": kg.__version__}


def _fold(name: str) -> str:
    low = name.lower()
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low


def doc_to_record(doc: Doc, rid: str) -> dict[str, Any]:
    """The record of one abstract: entities per type, then relations, then provenance.

    One entity per thing named: mentions of the same gazetteer entry, or of the
    same name up to case and a plural "s", are merged. Its `name` is the first
    mention's (the long form for an abbreviation); `aliases` holds the short
    forms and other spellings seen; `proposed` is set when any mention is the
    paper's own proposal. Additions to the spec: `canonical` (the gazetteer's
    name when it differs), `exactMatch` (IRIs from the gazetteer) and
    `mentions` (character offsets)."""
    entities: dict[str, dict[str, dict]] = {t: {} for t in ENTITY_TYPES}
    for span in doc.spans.get(SPAN_KEY, []):
        if span.label_ not in entities:
            continue
        name = span._.kg_name or span.text
        key = span._.canonical or _fold(name)
        ent = entities[span.label_].setdefault(key, {"name": name})
        aliases = set(ent.get("aliases", [])) | set(span._.aliases or [])
        for form in (span.text, name):
            if _fold(form) != _fold(ent["name"]):
                aliases.add(form)
        if aliases:
            ent["aliases"] = sorted(aliases)
        if span._.proposed:
            ent["proposed"] = True
        if span._.canonical and span._.canonical != ent["name"]:
            ent["canonical"] = span._.canonical
        if span._.exact_match:
            ent["exactMatch"] = list(span._.exact_match)
        ent.setdefault("mentions", []).append([span.start_char, span.end_char])
    relations = [dict(r) for r in (doc._.kg_relations or [])]
    return {
        "id": rid,
        "entities": {t: list(v.values()) for t, v in entities.items()},
        "relations": relations,
        "sentences": [[s.start_char, s.end_char] for s in doc.sents],
        "extractor": dict(EXTRACTOR),
    }


class Extractor:
    """Holds one pipeline and turns abstracts into records."""

    def __init__(self, gazetteers: Iterable[str | Path] = ()):
        self.nlp = make_pipeline(gazetteers)

    def record(self, abstract: Abstract) -> dict[str, Any]:
        return doc_to_record(self.nlp(abstract.text), abstract.id)

    def records(self, abstracts: Iterable[Abstract], batch_size: int = 64) -> Iterator[tuple[Abstract, dict]]:
        """(abstract, record) pairs in input order, streamed."""
        buf: list[Abstract] = []
        for ab in abstracts:
            buf.append(ab)
            if len(buf) >= batch_size:
                yield from self._run(buf)
                buf = []
        if buf:
            yield from self._run(buf)

    def _run(self, batch: list[Abstract]) -> Iterator[tuple[Abstract, dict]]:
        for ab, doc in zip(batch, self.nlp.pipe(ab.text for ab in batch)):
            yield ab, doc_to_record(doc, ab.id)
