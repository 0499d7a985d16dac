"""The relation linker: a learned judge of which method addresses which task,
is evaluated on which dataset and improves over which other method.

The component "kg_relation_linker" runs after the relation rules
(kg.relations.component). For each method and each task (addresses) or
dataset (evaluatedOn) the abstract or its title names, it reads the features
of kg.learned.relation_features and asks a linear model trained by
`kg train` whether the abstract relates them. Per predicate, the config says
whose relations the record gets: "rules" (the rules' alone), "learned" (the
linker's alone) or "both" (the rules', and the linker's where the rules have
none). The linker adds no number: an improvesOver it finds has no value, and
achieves and the baselines the text names in its own words stay with the rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import srsly
from spacy.language import Language
from spacy.tokens import Doc

from kg.entities.entity import fold_name
from kg.learned.linear import LinearModel
from kg.learned.relation_features import OBJECTS, PairReader, candidate_pairs, named_entities

YES = "yes"


@Language.factory("kg_relation_linker", default_config={"parts": {}, "thresholds": {}})
def make_relation_linker(nlp: Language, name: str, parts: dict[str, str],
                         thresholds: dict[str, float]) -> "RelationLinker":
    """`parts`: predicate (addresses, evaluatedOn, improvesOver) -> "rules",
    "learned" or "both"; `thresholds`: predicate -> the least probability of a
    learned relation (0.5 where not given)."""
    return RelationLinker(parts, thresholds)


class RelationLinker:
    def __init__(self, parts: dict[str, str], thresholds: dict[str, float] | None = None,
                 model: LinearModel | None = None):
        self.parts = {p: parts.get(p, "rules") for p in OBJECTS}
        self.thresholds = {p: (thresholds or {}).get(p, 0.5) for p in OBJECTS}
        self.model = model

    def __call__(self, doc: Doc) -> Doc:
        if self.model is None or all(p == "rules" for p in self.parts.values()):
            return doc
        rules_found = doc._.kg_relations or []
        learned = {p for p, part in self.parts.items() if part != "rules"}
        kept = [r for r in rules_found if not (r["p"] in learned and self.parts[r["p"]] == "learned")]
        have = {(r["p"], fold_name(r["s"]), fold_name(r.get("o") or "")) for r in kept}
        for rel, probability in self.scored(doc):
            if rel["p"] in learned and probability >= self.thresholds[rel["p"]] \
                    and (rel["p"], fold_name(rel["s"]), fold_name(rel["o"])) not in have:
                kept.append(rel)
        doc._.kg_relations = kept
        return doc

    def scored(self, doc: Doc) -> list[tuple[dict, float]]:
        """Every candidate relation of `doc` the linker decides (its predicates
        not left to the rules), with the model's probability."""
        named = named_entities(doc)
        rule_pairs = {(r["p"], fold_name(r["s"]), fold_name(r.get("o") or "")) for r in doc._.kg_relations or []}
        reader = PairReader(doc, named, rule_pairs)
        sentences = [(s.start, s.end, s.start_char, s.end_char) for s in doc.sents]
        out = []
        # a predicate left to the rules: nothing of the linker's would be kept
        for predicate, method, other in candidate_pairs(named, [p for p in OBJECTS if self.parts[p] != "rules"]):
            p = self.model.probability(reader.features(predicate, method, other), YES)
            rel = {"s": method.name, "p": predicate, "o": other.name,
                   "span": _sentence(sentences, method, other), "confidence": round(p, 3), "calibrated": True}
            out.append((rel, p))
        return out

    def to_disk(self, path: str | Path, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "model.json", self.model.to_dict() if self.model else None)

    def from_disk(self, path: str | Path, exclude: Iterable[str] = ()) -> "RelationLinker":
        data = srsly.read_json(Path(path) / "model.json")
        self.model = LinearModel.from_dict(data) if data else None
        return self


def _sentence(sentences: list[tuple[int, int, int, int]], method, other) -> list[int]:
    """The characters of the sentence a learned relation is read from: the
    first that names both, else the first that names the object, else the
    method. `sentences`: each sentence's first and end token, first and end character."""
    for group in ((method.abstract, other.abstract), (other.abstract,), (method.abstract,)):
        if any(g is None for g in group):
            continue
        for start, end, start_char, end_char in sentences:
            if all(any(start <= m.start < end for m in g.mentions) for g in group):
                return [start_char, end_char]
    # a list like the rules' spans: a record reads back from JSON equal to itself
    return [sentences[0][2], sentences[0][3]] if sentences else [0, 0]
