"""Turn an annotated spaCy Doc into an extraction record, and run the
pipeline over a stream of abstracts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from kg.entities.confidence import EntityConfidence, entity_confidence, keep_confident
from kg.entities.entity import ENTITY_TYPES, fold_name, settled_entities
from kg.learned.entity_features import OTHER_TEXT
from kg.learned.calibration import Calibration
from kg.learned.model import default_model, read_meta
from kg.model import Abstract, ExtractOptions
from kg.nlp.tokens import doc_text, sentence_starts_of, view_columns
from kg.pipeline import extraction_pipeline
from kg.proposals.titles import title_rules
from kg.relations.confidence import RelationConfidence, relation_confidence
from kg.version import __version__

EXTRACTOR = {"name": "kg-rules", "version": __version__}


def _sentence_offsets(doc: Doc) -> list[list[int]]:
    """[start, end] characters of each sentence: from its first token's
    offset to its last token's end, as doc.sents gives them, read from the
    sentence starts and token columns the splitter kept (kg.nlp.tokens)
    instead of a Span per sentence."""
    starts = sentence_starts_of(doc)
    columns = view_columns(doc)
    ends = starts[1:] + [len(columns.texts)]
    return [[columns.idxs[start], columns.idxs[end - 1] + len(columns.texts[end - 1])]
            for start, end in zip(starts, ends)]


def _merged_entities(doc: Doc, confidence: EntityConfidence | None = None,
                     title_types: Iterable[str] = ENTITY_TYPES) -> dict[str, list[dict]]:
    """The record's entities per type (see doc_to_record)."""
    confidence = confidence or entity_confidence()
    entities: dict[str, dict[str, dict]] = {t: {} for t in ENTITY_TYPES}
    text = doc_text(doc)
    rules_of: dict[tuple[str, str], set[str]] = {}  # the rules that found each entity's mentions
    judged: dict[tuple[str, str], float] = {}  # a learned judge's probability, where one judged it
    for e in settled_entities(doc):
        if e.label not in entities:
            continue
        written = text[e.start_char:e.end_char]
        name = e.name or written
        key = fold_name(e.canonical or name)
        ent = entities[e.label].setdefault(key, {"name": name})
        rules_of.setdefault((e.label, key), set()).add(e.source)
        if e.judged is not None:
            judged[(e.label, key)] = max(e.judged, judged.get((e.label, key), 0.0))
        aliases = set(ent.get("aliases", [])) | set(e.aliases or [])
        for form in (written, name):
            if fold_name(form) != fold_name(ent["name"]):
                aliases.add(form)
        if aliases:
            ent["aliases"] = sorted(aliases)
        if e.proposed:
            ent["proposed"] = True
        if e.canonical and e.canonical != ent["name"]:
            ent["canonical"] = e.canonical
        if e.exact_match:
            ent["exactMatch"] = list(e.exact_match)
        ent.setdefault("mentions", []).append([e.start_char, e.end_char])
    for (label, key), sources in rules_of.items():
        ent = entities[label][key]
        ent["confidence"] = judged.get((label, key)) or confidence(sources, label, len(ent["mentions"]))
    title_name = doc._.title_name
    if title_name is not None and not title_name.in_abstract:
        # The title's name where the abstract never writes it: the paper's, with no mention in the text.
        entities[title_name.label][fold_name(title_name.text)] = {
            "name": title_name.text, "proposed": True, "mentions": [],
            "confidence": confidence(["title"], title_name.label, 0)}
    if doc._.title_doc is not None:
        _add_title_entities(entities, doc._.title_doc, confidence, frozenset(title_types))
    return {t: list(v.values()) for t, v in entities.items()}


def _add_title_entities(entities: dict[str, dict[str, dict]], title: Doc, confidence: EntityConfidence,
                        types: frozenset[str]) -> None:
    """The entities the title names join the abstract's: a name both write
    gets its places in the title (`title_mentions`), a name of one of
    `types` only the title writes is added with no mention in the abstract."""
    text = doc_text(title)
    # a short form the abstract pairs with its long form names that entity in the title too
    known = {fold_name(alias): (label, key) for label, by_key in entities.items()
             for key, ent in by_key.items() for alias in ent.get("aliases", ())}
    known.update({key: (label, key) for label, by_key in entities.items() for key in by_key})
    for e in settled_entities(title):
        if e.label not in entities:
            continue
        name = e.name or text[e.start_char:e.end_char]
        own = fold_name(e.canonical or name)
        label, key = known.get(own, (e.label, own))
        ent = entities[label].get(key)
        if ent is None and label not in types:
            continue
        if ent is None:
            ent = entities[label][key] = {"name": name, "mentions": [],
                                          "confidence": e.judged or confidence([e.source], label, 0)}
            if e.aliases:
                ent["aliases"] = sorted(e.aliases)
            if e.canonical and e.canonical != name:
                ent["canonical"] = e.canonical
            known[key] = (label, key)
        if e.proposed:
            ent["proposed"] = True
        ent.setdefault("title_mentions", []).append([e.start_char, e.end_char])


def doc_to_record(doc: Doc, rid: str, confidence: EntityConfidence | None = None,
                  min_confidence: float = 0.0,
                  relation_values: RelationConfidence | None = None,
                  title_types: Iterable[str] = ENTITY_TYPES,
                  extractor: dict[str, str] | None = None,
                  calibration: Calibration | None = None) -> dict[str, Any]:
    """The record of one abstract: entities per type, then relations, then provenance.

    One entity per thing named: mentions of the same gazetteer entry, or of the
    same name up to case and a plural "s", are merged. Its `name` is the first
    mention's (the long form for an abbreviation); `aliases` holds the short
    forms and other spellings seen; `proposed` is set when any mention is the
    paper's own proposal. Additions to the spec: `canonical` (the gazetteer's
    name when it differs), `exactMatch` (IRIs from the gazetteer) and
    `mentions` (character offsets) and `confidence` (kg.entities.confidence,
    with `confidence` the values to use: the packaged ones by default).
    A relation's `confidence` is the relation rules' raw value calibrated
    (kg.relations.confidence, with `relation_values` the values to
    use: the packaged ones by default).
    Entities the title names (doc._.title_doc) join them where they are of
    `title_types` or the abstract names them too (`title_mentions`: their
    places in the title).
    With a model's `calibration`, the values of the kinds it holds (a model
    kg train made: the relations') are then replaced by the share of such
    facts right on the model's validation part (kg.learned.calibration).
    Facts below `min_confidence` are left out (keep_confident)."""
    relation_values = relation_values or relation_confidence()
    entities = _merged_entities(doc, confidence, title_types)
    relations = relation_values.calibrate([dict(r) for r in (doc._.kg_relations or [])], entities)
    record = {
        "id": rid,
        "entities": entities,
        "relations": relations,
        "sentences": _sentence_offsets(doc),
        "extractor": dict(extractor or EXTRACTOR),
    }
    if calibration is not None:
        calibration.apply(record)
    return keep_confident(record, min_confidence)


def abstract_doc(nlp: Language, abstract: Abstract, title: Doc | None = None) -> Doc:
    """The abstract's Doc before the components run: its tokens, its title
    as doc._.title for the components that read it (kg.proposals.titles),
    and the title's own Doc once its entities are found (`title`)."""
    doc = nlp.make_doc(abstract.text)
    doc._.title = abstract.title or None
    doc._.title_doc = title
    doc.user_data[OTHER_TEXT] = (abstract.title or "").lower()
    return doc


def title_doc(nlp: Language, abstract: Abstract) -> Doc | None:
    """The abstract's title as a Doc for the entity components to run on (a
    title is text: it names methods, datasets and tasks too), or None."""
    if not (abstract.title and abstract.title.strip()):
        return None
    doc = nlp.make_doc(abstract.title)
    doc._.is_title = True
    doc.user_data[OTHER_TEXT] = abstract.text.lower()
    return doc


def after_entities(nlp: Language) -> list[str]:
    """The components that read a whole abstract, not a title."""
    names = nlp.pipe_names
    return names[names.index("kg_relations"):]


class Extractor:
    """Holds one pipeline and turns abstracts into records. `gazetteers` and
    `rules` are the user's extra gazetteer and rules files; facts below
    `min_confidence` are left out of the records."""

    def __init__(self, gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = (),
                 min_confidence: float = 0.0, model: str | Path | None = None, use_model: bool = True):
        self.model = (Path(model) if model else default_model()) if use_model else None
        self.nlp = extraction_pipeline(gazetteers, rules, self.model)
        self.confidence = entity_confidence(rules)
        self.relation_values = relation_confidence(rules)
        self.min_confidence = min_confidence
        self.calibration = None
        if self.model is None:
            self.title_types = title_rules(rules).entity_types
            self.extractor = dict(EXTRACTOR)
        else:
            meta = read_meta(self.model)
            self.title_types = frozenset(meta["title_types"])
            if meta.get("confidence"):
                self.calibration = Calibration.from_dict(meta["confidence"])
            self.extractor = {"name": "kg-learned", "version": __version__,
                              "model": meta["trained_on"]["sha256"][:12]}

    @classmethod
    def from_options(cls, options: ExtractOptions) -> "Extractor":
        return cls(options.gazetteers, options.rules, options.min_confidence, options.model, options.use_model)

    def title_docs(self, abstracts: list[Abstract]) -> list[Doc | None]:
        """Each abstract's title run through the entity components, or None."""
        titles = [title_doc(self.nlp, ab) for ab in abstracts]
        done = iter(self.nlp.pipe((t for t in titles if t is not None), disable=after_entities(self.nlp)))
        return [next(done) if t is not None else None for t in titles]

    def record(self, abstract: Abstract) -> dict[str, Any]:
        doc = self.nlp(abstract_doc(self.nlp, abstract, self.title_docs([abstract])[0]))
        record = doc_to_record(doc, abstract.id, self.confidence, self.min_confidence, self.relation_values,
                               self.title_types, self.extractor, self.calibration)
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
        titles = self.title_docs(batch)
        for ab, doc in zip(batch, self.nlp.pipe(abstract_doc(self.nlp, ab, t) for ab, t in zip(batch, titles))):
            record = doc_to_record(doc, ab.id, self.confidence, self.min_confidence, self.relation_values,
                                   self.title_types, self.extractor, self.calibration)
            _release(doc)
            yield ab, record


def _release(doc: Doc) -> None:
    """Let a Doc whose record is built be freed at once. Its abbreviation
    spans refer back to it (Doc -> doc._.abbreviations -> Span -> Doc), a cycle that
    only Python's cycle collector would break: until then every finished Doc
    stays in memory with all it holds, and each full collection walks them all."""
    doc._.abbreviations = None
    if doc._.title_doc is not None:
        doc._.title_doc._.abbreviations = None
        doc._.title_doc = None
