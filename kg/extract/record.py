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


def doc_to_record(doc: Doc, rid: str) -> dict[str, Any]:
    """The record of one abstract: entities per type (one per name, aliases
    merged, proposed if any mention is), then relations, then provenance."""
    entities: dict[str, dict[str, dict]] = {t: {} for t in ENTITY_TYPES}
    for span in doc.spans.get(SPAN_KEY, []):
        if span.label_ not in entities:
            continue
        name = span._.kg_name or span.text
        ent = entities[span.label_].setdefault(name, {"name": name})
        aliases = set(span._.aliases or [])
        if span.text != name:
            aliases.add(span.text)
        if aliases:
            ent["aliases"] = sorted(set(ent.get("aliases", [])) | aliases)
        if span._.proposed:
            ent["proposed"] = True
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
