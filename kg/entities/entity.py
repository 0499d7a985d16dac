"""The entities of a Doc as everything downstream reads them.

- doc.spans[SPAN_KEY]: the entity spans, label_ one of ENTITY_TYPES, sorted
  by position, never overlapping;
- Span._.kg_name: the name the record uses (the long form for an
  abbreviation, else the text as written); Span._.aliases: list of short
  forms or None; Span._.proposed: True when the paper introduces it;
  Span._.canonical: the gazetteer's name for it, or None;
  Span._.exact_match: IRIs from the gazetteer, or None;
  Span._.source: the rule that found it (proposal, abbreviation, gazetteer,
  variant, cue, name, head, learned); Span._.judged: the probability a
  learned judge (kg.learned.entity_scorer) gives it, or None;
- settled_entities(doc): the same entities as plain Entity values;
- doc._.is_title: the Doc is a paper's title, run through the entity
  components on its own; doc._.title_doc: on an abstract's Doc, its title's
  Doc (or None), so that later components and the record see both.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from spacy.tokens import Doc, Span, SpanGroup

ENTITY_TYPES = ("Method", "Dataset", "Task", "Metric")

for _name, _default in (("is_title", False), ("title_doc", None)):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=_default)
SPAN_KEY = "entities"

for _name, _default in (("kg_name", None), ("aliases", None), ("proposed", False), ("canonical", None),
                        ("exact_match", None), ("source", None), ("judged", None)):
    if not Span.has_extension(_name):
        Span.set_extension(_name, default=_default)


class Entity(NamedTuple):
    """A settled entity as plain values: a span of doc.spans["entities"] with
    the extensions kg_entities wrote on it. The record and the relations read
    these rather than each span's extensions."""

    start: int  # token offsets
    end: int
    start_char: int
    end_char: int
    label: str
    name: str | None  # Span._.kg_name
    aliases: list[str] | None
    proposed: bool
    canonical: str | None
    exact_match: list[str] | None
    source: str | None
    judged: float | None = None  # Span._.judged: a learned judge's probability that it is right


class SettledEntities(NamedTuple):
    """What kg_entities wrote (doc._.kg_entities): the span group it put in
    doc.spans["entities"], and the same entities as plain values."""

    spans: SpanGroup
    entities: list[Entity]


if not Doc.has_extension("kg_entities"):
    Doc.set_extension("kg_entities", default=None)


def settled_entities(doc: Doc) -> list[Entity]:
    """The entities of doc.spans["entities"] as plain values, in order. They
    are the ones kg_entities kept in doc._.kg_entities while the group it
    wrote is still there, as long; spans put there some other way (by hand,
    as the gold-entity tests do) are read from the spans."""
    group = doc.spans.get(SPAN_KEY)
    if group is None:
        return []
    settled = doc._.kg_entities
    if settled is not None and settled.spans is group and len(settled.entities) == len(group):
        return settled.entities
    return [Entity(start=span.start, end=span.end, start_char=span.start_char, end_char=span.end_char,
                   label=span.label_, name=span._.kg_name, aliases=span._.aliases, proposed=span._.proposed,
                   canonical=span._.canonical, exact_match=span._.exact_match, source=span._.source,
                   judged=span._.judged)
            for span in group]


def write_entities(doc: Doc, entities: list[Entity]) -> None:
    """Put `entities` in doc.spans["entities"] with their extensions, and in doc._.kg_entities."""
    spans = []
    for e in entities:
        span = Span(doc, e.start, e.end, label=e.label)
        ext = span._  # spaCy makes a new accessor on every span._
        ext.kg_name = e.name
        ext.aliases = e.aliases
        ext.proposed = e.proposed
        ext.canonical = e.canonical
        ext.exact_match = e.exact_match
        ext.source = e.source
        ext.judged = e.judged
        spans.append(span)
    group = SpanGroup(doc, name=SPAN_KEY, spans=spans)
    doc.spans[SPAN_KEY] = group
    doc._.kg_entities = SettledEntities(group, entities)


@lru_cache(maxsize=65536)  # the same names recur in every abstract
def fold_name(name: str) -> str:
    """The key under which mentions count as one name: lower case, without a
    plural "s". The record merges its entities by the same key."""
    low = name.lower()
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low
