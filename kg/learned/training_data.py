"""The rows the learned judges are fitted on: for each gold abstract, what the
rules and a tagger that never saw it find, read as features and labelled by
the gold record (kg.learned.matching)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from spacy.tokens import Doc

from kg.entities.entity import fold_name
from kg.learned.entity_features import entity_groups, group_features
from kg.learned.entity_scorer import NONE, proposal_features
from kg.learned.matching import gold_entity, names_of, same_name
from kg.learned.relation_features import OBJECTS, PairReader, candidate_pairs, named_entities

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
    for predicate, method, other in candidate_pairs(named):
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


def collect(docs: Iterable[Doc], records: Iterable[dict]) -> Rows:
    """The rows of each abstract's Doc (its title's Doc as doc._.title_doc) and its gold record."""
    rows = Rows()
    for doc, record in zip(docs, records):
        rows.extend(rows_of(doc, record))
    return rows
