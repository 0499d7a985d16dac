"""The rows the learned judges are fitted on: for each gold abstract, what the
rules and a tagger that never saw it find, read as features and labelled by
the gold record (kg.learned.matching)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from spacy.language import Language
from spacy.tokens import Doc

from kg.entities.entity import fold_name
from kg.learned.entity_features import OTHER_TEXT, entity_groups, group_features
from kg.learned.entity_scorer import NONE, proposal_features
from kg.learned.matching import gold_entity, names_of, same_name
from kg.learned.relation_features import OBJECTS, PairReader, named_entities
from kg.model import Abstract

TYPES = ("Method", "Dataset", "Task", "Metric")


@dataclass
class Rows:
    """Features and labels for the three judges."""

    types: list[tuple[dict, str]] = field(default_factory=list)
    proposed: list[tuple[dict, str]] = field(default_factory=list)
    relations: list[tuple[dict, str]] = field(default_factory=list)

    def extend(self, other: "Rows") -> None:
        self.types += other.types
        self.proposed += other.proposed
        self.relations += other.relations


def docs_of(nlp: Language, abstract: Abstract, after_entities: list[str]) -> Doc:
    """The abstract's Doc through `nlp`, its title's Doc (entity components
    only) as doc._.title_doc."""
    title = None
    if abstract.title and abstract.title.strip():
        title = nlp.make_doc(abstract.title)
        title._.is_title = True
        title.user_data[OTHER_TEXT] = abstract.text.lower()
        title = nlp(title, disable=after_entities)
    doc = nlp.make_doc(abstract.text)
    doc._.title = abstract.title or None
    doc._.title_doc = title
    doc.user_data[OTHER_TEXT] = (abstract.title or "").lower()
    return nlp(doc)


def rows_of(doc: Doc, record: dict) -> Rows:
    """The labelled rows of one abstract's Doc (with its title's) and its gold record."""
    rows = Rows()
    for part, in_title in ((doc, False), (doc._.title_doc, True)):
        if part is None:
            continue
        tagged = [(ent.start, ent.end, ent.label_) for ent in part.ents]
        for group in entity_groups(part):
            features = group_features(group, part, in_title, tagged)
            forms = [group.name] + [a for m in group.mentions for a in (m.aliases or [])]
            found = gold_entity(forms, record, [group.label] + [t for t in TYPES if t != group.label])
            rows.types.append((features, found[0] if found else NONE))
            if group.label == "Method" and found is not None and found[0] == "Method":
                rows.proposed.append((proposal_features(features), "yes" if found[1].get("proposed") else "no"))
    named = named_entities(doc)
    rule_pairs = {(r["p"], fold_name(r["s"]), fold_name(r.get("o") or "")) for r in doc._.kg_relations or []}
    reader = PairReader(doc, named, rule_pairs)
    gold = [r for r in record["relations"] if r.get("p") in OBJECTS]
    for predicate, label in OBJECTS.items():
        for method in (n for n in named.values() if n.label == "Method"):
            for other in (n for n in named.values() if n.label == label and n is not method):
                m_forms = _forms(method, record)
                o_forms = _forms(other, record)
                yes = any(r["p"] == predicate and any(same_name(r["s"], f) for f in m_forms)
                          and any(same_name(r["o"], f) for f in o_forms) for r in gold)
                rows.relations.append((reader.features(predicate, method, other), "yes" if yes else "no"))
    return rows


def _forms(named, record: dict) -> list[str]:
    """The names under which a found entity may stand in the gold relations:
    its own, and those of the gold entity it is."""
    forms = [named.name]
    for group in (named.abstract, named.title):
        if group is not None:
            forms += [a for m in group.mentions for a in (m.aliases or [])]
    found = gold_entity(forms, record, TYPES)
    if found is not None:
        forms += names_of(found[1])
    return forms


def collect(nlp: Language, pairs: Iterable[tuple[Abstract, dict]], after_entities: list[str]) -> Rows:
    rows = Rows()
    for abstract, record in pairs:
        rows.extend(rows_of(docs_of(nlp, abstract, after_entities), record))
    return rows
