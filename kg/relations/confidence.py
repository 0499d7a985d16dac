"""How sure kg is of each relation: the relation rules' own values, calibrated.

The relation rules (kg/relations/improves_over.py, achieves.py,
evaluated_on.py, addresses.py) give each relation a raw value that stands for
the way it was found: how its subject was found (a proposal named in the
clause, "we", another method, the paper's proposal by default),
whether the sentence speaks of evaluation, whether a comparison has a number.
Those values order the ways by hand, and the order is not the one the
training abstracts show: there an evaluatedOn of the paper's proposal by
default is right more often than one whose subject is "we".

So the record carries, in place of the raw value, the share of right
relations among those of the same predicate whose raw value lies in the same
tenth (0.5 up to 0.6, 0.6 up to 0.7, ...) and whose subject the abstract
names as often (once, or more than once: a proposal named once is often no
proposal, and its relations are right a third of the time), as measured on
the training abstracts: the keys "relation_bands" and
"relation_bands_repeated" of the rule family "confidence"
(kg/resources/rules/confidence.json). The raw value is only a key there; a
change to the relation rules needs the values measured again
(`benchmarks/reliability.py --calibrate --write`).
"""

from __future__ import annotations

from typing import Any

from kg import rules
from kg.entities.entity import fold_name

BANDS = tuple(f"{k / 10:.1f}" for k in range(10))  # "0.0" .. "0.9": the tenth a raw value lies in
KEYS = ("relation_bands", "relation_bands_repeated")


def band(raw: float) -> str:
    """The tenth of 0..1 that a raw value lies in; 1.0 goes with 0.9."""
    return BANDS[min(max(int(raw * 10 + 1e-9), 0), 9)]


def repeated_names(entities: dict[str, list[dict[str, Any]]]) -> set[str]:
    """The names (and aliases), folded, of the record's entities that the abstract names more than once."""
    return {fold_name(n) for ents in entities.values() for e in ents if len(e.get("mentions") or []) > 1
            for n in [e["name"], *(e.get("aliases") or [])]}


class RelationConfidence:
    """The calibrated confidence of a relation from its predicate, its raw
    value and whether its subject is named more than once."""

    def __init__(self, single: dict[str, dict[str, float]], repeated: dict[str, dict[str, float]]):
        self.single = single
        self.repeated = repeated

    def __call__(self, predicate: str, raw: float, subject_repeated: bool) -> float:
        """The value for a `predicate` relation the rules gave `raw`; a
        predicate the table does not name takes the "other" entry's."""
        table = self.repeated if subject_repeated else self.single
        return table.get(predicate, table["other"])[band(raw)]

    def calibrate(self, relations: list[dict[str, Any]], entities: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """`relations` (with raw values) of a record whose entities are
        `entities`, each "confidence" calibrated in place (the key keeps its
        place); returned."""
        repeated = repeated_names(entities)
        for rel in relations:
            if rel.pop("calibrated", False):
                continue  # a learned relation's value is already a probability (kg.learned.relation_linker)
            rel["confidence"] = self(rel["p"], rel["confidence"], fold_name(rel["s"]) in repeated)
        return relations


@rules.compiled
def relation_confidence(extra: tuple[str, ...]) -> RelationConfidence:
    """The values of the "confidence" rule family, with the user's rules files `extra`."""
    raw = rules.load("confidence", extra)
    return RelationConfidence(*(_checked(raw, key) for key in KEYS))


def _checked(raw: dict[str, Any], key: str) -> dict[str, dict[str, float]]:
    table = raw[key]
    if "other" not in table:
        raise rules.RulesError(f"confidence.{key} needs an \"other\" entry, for predicates it does not name")
    for predicate, per_band in table.items():
        if not isinstance(per_band, dict) or set(per_band) != set(BANDS):
            raise rules.RulesError(f"confidence.{key}.{predicate} must be an object with a value for each "
                                   f"band of raw values: {', '.join(BANDS)}")
        for name, value in per_band.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise rules.RulesError(f"confidence.{key}.{predicate}.{name} must be a number from 0 to 1, "
                                       f"not {value!r}")
    return table
