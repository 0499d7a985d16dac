"""Turn an annotated spaCy Doc into an extraction record, and run the
pipeline over a stream of abstracts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator

from spacy.tokens import Doc

import kg
from kg.model import Abstract, ExtractOptions
from kg.extract.confidence import EntityConfidence, entity_confidence, keep_confident
from kg.extract.pipeline import extraction_pipeline
from kg.extract.relation_confidence import RelationConfidence, relation_confidence
from kg.nlp import ENTITY_TYPES
from kg.nlp.entities import doc_extension, fold_name, settled_entities
from kg.nlp.tokens import doc_text, sentence_starts_of, view_columns

EXTRACTOR = {"name": "kg-rules", "version": kg.__version__}


def _sentence_offsets(doc: Doc) -> list[list[int]]:
    """[start, end] characters of each sentence, read from the token
    columns (kg.nlp.tokens) instead of building a Span per sentence. A
    sentence ends where the next starts, as in the token view."""
    if not len(doc):
        return [[s.start_char, s.end_char] for s in doc.sents]
    texts, _, idxs = view_columns(doc)[:3]
    starts = sentence_starts_of(doc)
    return [[idxs[start], idxs[end - 1] + len(texts[end - 1])] for start, end in zip(starts, starts[1:] + [len(texts)])]


def _merged_entities(doc: Doc, confidence: EntityConfidence | None = None) -> dict[str, list[dict]]:
    """The record's entities per type (see doc_to_record)."""
    confidence = confidence or entity_confidence()
    entities: dict[str, dict[str, dict]] = {t: {} for t in ENTITY_TYPES}
    # (type, merge key) -> (the entity's dict, its name folded, its aliases so far, its mentions' rules)
    merged: dict[tuple[str, str], tuple[dict, str, set[str], set[str]]] = {}
    text = doc_text(doc)
    # Unpacked in Entity's field order: each field read by name is an attribute lookup.
    for _, _, start, end, label, name, also, proposed, canonical, exact_match, source in settled_entities(doc):
        if label not in entities:
            continue
        written = text[start:end]
        name = name or written
        key = fold_name(canonical or name)
        found = merged.get((label, key))
        if found is None:
            ent = entities[label][key] = {"name": name}
            found = merged[(label, key)] = (ent, fold_name(name), set(), set())
        ent, folded, aliases, sources = found
        sources.add(source)
        if also:
            aliases.update(also)
        if fold_name(written) != folded:
            aliases.add(written)
        if name is not written and fold_name(name) != folded:
            aliases.add(name)
        if aliases and "aliases" not in ent:
            ent["aliases"] = None  # its place among the keys; the sorted aliases go in below
        if proposed:
            ent["proposed"] = True
        if canonical and canonical != ent["name"]:
            ent["canonical"] = canonical
        if exact_match:
            ent["exactMatch"] = list(exact_match)
        ent.setdefault("mentions", []).append([start, end])
    for (label, _), (ent, _, aliases, sources) in merged.items():
        if aliases:
            ent["aliases"] = sorted(aliases)
        ent["confidence"] = confidence(sources, label, len(ent["mentions"]))
    return {t: list(v.values()) for t, v in entities.items()}


def doc_to_record(doc: Doc, rid: str, confidence: EntityConfidence | None = None,
                  min_confidence: float = 0.0,
                  relation_values: RelationConfidence | None = None) -> dict[str, Any]:
    """The record of one abstract: entities per type, then relations, then provenance.

    One entity per thing named: mentions of the same gazetteer entry, or of the
    same name up to case and a plural "s", are merged. Its `name` is the first
    mention's (the long form for an abbreviation); `aliases` holds the short
    forms and other spellings seen; `proposed` is set when any mention is the
    paper's own proposal. Additions to the spec: `canonical` (the gazetteer's
    name when it differs), `exactMatch` (IRIs from the gazetteer) and
    `mentions` (character offsets) and `confidence` (kg.extract.confidence,
    with `confidence` the values to use: the packaged ones by default).
    A relation's `confidence` is the relation rules' raw value calibrated
    (kg.extract.relation_confidence, with `relation_values` the values to
    use: the packaged ones by default).
    Facts below `min_confidence` are left out (keep_confident)."""
    relation_values = relation_values or relation_confidence()
    entities = _merged_entities(doc, confidence)
    relations = relation_values.calibrate([dict(r) for r in (doc_extension(doc, "kg_relations") or [])], entities)
    record = {
        "id": rid,
        "entities": entities,
        "relations": relations,
        "sentences": _sentence_offsets(doc),
        "extractor": dict(EXTRACTOR),
    }
    return keep_confident(record, min_confidence)


class Extractor:
    """Holds one pipeline and turns abstracts into records. `gazetteers` and
    `rules` are the user's extra gazetteer and rules files; facts below
    `min_confidence` are left out of the records."""

    def __init__(self, gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = (),
                 min_confidence: float = 0.0):
        self.nlp = extraction_pipeline(gazetteers, rules)
        self.confidence = entity_confidence(rules)
        self.relation_values = relation_confidence(rules)
        self.min_confidence = min_confidence

    @classmethod
    def from_options(cls, options: ExtractOptions) -> "Extractor":
        return cls(options.gazetteers, options.rules, options.min_confidence)

    def record(self, abstract: Abstract) -> dict[str, Any]:
        doc = self.nlp(abstract.text)
        record = doc_to_record(doc, abstract.id, self.confidence, self.min_confidence, self.relation_values)
        _release(doc)
        return record

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
            record = doc_to_record(doc, ab.id, self.confidence, self.min_confidence, self.relation_values)
            _release(doc)
            yield ab, record


def _release(doc: Doc) -> None:
    """Let a Doc whose record is built be freed at once. Its abbreviation
    spans refer back to it (Doc -> user_data -> Span -> Doc), a cycle that
    only Python's cycle collector would break: until then every finished Doc
    stays in memory with all it holds, and each full collection walks them all."""
    doc.user_data.pop("kg_abbreviations", None)
