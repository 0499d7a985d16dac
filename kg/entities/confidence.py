"""How sure kg is of each entity, and leaving out what is not sure enough.

An entity's confidence is the share of the entities its rule finds that are
right, as measured on the team's training abstracts: the rule family
"confidence" (kg/resources/rules/confidence.json) holds one value per rule
(Candidate.source: gazetteer, abbreviation, proposal, ...) and entity type,
and another for a name the abstract writes more than once, which is right
more often. An entity takes the best value among its mentions' rules.
`benchmarks/reliability.py --calibrate` measures the values again.

`--min-confidence C` leaves out the entities below C, the relations below C,
and the relations that name a left-out entity as subject, object or metric;
a left-out dataset is taken off the relation that names it.
"""

from __future__ import annotations

from typing import Any, Iterable

from kg import rules
from kg.entities.entity import fold_name

# A relation's fields that name an entity it cannot stand without (a
# dataset only qualifies a result: it is taken off, the relation kept).
_ARGUMENTS = ("s", "o", "metric")


class EntityConfidence:
    """The confidence of an entity from its mentions' rules, with the
    changes of the user's rules files."""

    def __init__(self, single: dict[str, dict[str, float]], repeated: dict[str, dict[str, float]]):
        self.single = single
        self.repeated = repeated

    def __call__(self, sources: Iterable[str | None], label: str, mentions: int) -> float:
        """The best value among `sources` (the rules of the entity's
        mentions) for an entity of type `label` named `mentions` times."""
        table = self.repeated if mentions > 1 else self.single
        other = table["other"]
        return max((table.get(s, other).get(label, other.get(label, 0.0)) for s in sources), default=0.0)


@rules.compiled
def entity_confidence(extra: tuple[str, ...]) -> EntityConfidence:
    """The values of the "confidence" rule family, with the user's rules files `extra`."""
    raw = rules.load("confidence", extra)
    return EntityConfidence(_checked(raw, "entity_rules"), _checked(raw, "entity_rules_repeated"))


def _checked(raw: dict[str, Any], key: str) -> dict[str, dict[str, float]]:
    table = raw[key]
    if "other" not in table:
        raise rules.RulesError(f"confidence.{key} needs an \"other\" entry, for rules it does not name")
    for rule, per_type in table.items():
        if not isinstance(per_type, dict):
            raise rules.RulesError(f"confidence.{key}.{rule} must be an object of entity type -> value")
        for label, value in per_type.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise rules.RulesError(f"confidence.{key}.{rule}.{label} must be a number from 0 to 1, "
                                       f"not {value!r}")
    return table


def keep_confident(record: dict[str, Any], min_confidence: float) -> dict[str, Any]:
    """`record` without the facts below `min_confidence` (see the module
    docstring). The record is changed in place and returned."""
    if min_confidence <= 0:
        return record
    kept: set[str] = set()
    dropped: set[str] = set()
    for etype, ents in record["entities"].items():
        keep = []
        for ent in ents:
            confident = ent.get("confidence", 1.0) >= min_confidence
            (kept if confident else dropped).update(fold_name(n) for n in [ent["name"], *(ent.get("aliases") or [])])
            if confident:
                keep.append(ent)
        record["entities"][etype] = keep
    gone = dropped - kept  # a name both kept and left out (two types) stays usable
    relations = []
    for rel in record["relations"]:
        if rel.get("confidence", 1.0) < min_confidence:
            continue
        if any(isinstance(rel.get(k), str) and fold_name(rel[k]) in gone for k in _ARGUMENTS):
            continue
        if isinstance(rel.get("dataset"), str) and fold_name(rel["dataset"]) in gone:
            rel = {k: v for k, v in rel.items() if k != "dataset"}
        relations.append(rel)
    record["relations"] = relations
    return record
