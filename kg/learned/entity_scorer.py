"""The entity scorer: a learned judge of the entities the rules and the
tagger found.

The component "kg_entity_scorer" runs right after the entities are settled
(kg.entities.settle), on an abstract's Doc and on its title's. For each
entity (its mentions grouped as the record groups them) it reads the
features of kg.learned.entity_features and asks two linear models
(kg.learned.linear) trained by `kg train`:

- `types`: is it a name at all, and of which type: an entity judged "none"
  is dropped, one judged of another type is retyped, where the config lets
  learned parts decide both types; the probability of the type it keeps
  becomes its confidence in the record (Span._.judged);
- `proposed`: is a Method the paper's own proposal; with `proposed` set to
  "learned" this replaces the rules' flag, with "both" it may only add one.

The models are plain data (to_disk writes them as JSON beside the config),
so a trained scorer is read without scikit-learn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import srsly
from spacy.language import Language
from spacy.tokens import Doc

from kg.entities.entity import Entity, settled_entities, write_entities
from kg.learned.entity_features import entity_groups, group_features
from kg.learned.linear import LinearModel
from kg.nlp.tokens import doc_text
from kg.proposals.main import most_named, namings

NONE = "none"


@Language.factory("kg_entity_scorer",
                  default_config={"parts": {}, "proposed": "rules", "threshold": 0.5, "drop": 0.5})
def make_entity_scorer(nlp: Language, name: str, parts: dict[str, str], proposed: str, threshold: float,
                       drop: float) -> "EntityScorer":
    """`parts`: entity type -> "rules", "learned" or "both": the scorer judges
    the types not left to the rules. `proposed`: "rules", "learned" or "both";
    `threshold`: the least probability that makes a Method the paper's
    proposal; `drop`: the least probability of "no name" that drops an entity."""
    return EntityScorer(parts, proposed, threshold, drop)


class EntityScorer:
    def __init__(self, parts: dict[str, str], proposed: str = "rules", threshold: float = 0.5, drop: float = 0.5,
                 types: LinearModel | None = None, proposals: LinearModel | None = None):
        self.judged = frozenset(t for t, p in parts.items() if p in ("learned", "both"))
        self.proposed_mode = proposed
        self.threshold = threshold
        self.drop = drop
        self.types = types
        self.proposals = proposals

    def __call__(self, doc: Doc) -> Doc:
        if self.types is None and self.proposals is None:
            return doc
        in_title = bool(doc._.is_title)
        tagged = [(ent.start, ent.end, ent.label_) for ent in doc.ents]
        decided: dict[tuple[int, int], tuple[str | None, bool | None, float | None]] = {}
        for group in entity_groups(doc):
            features = group_features(group, doc, in_title, tagged)
            label, judged = group.label, None
            if self.types is not None and label in self.judged:
                scores = dict(zip(self.types.classes, self.types.scores(features)))
                if scores.get(NONE, 0.0) >= self.drop:
                    label = None
                else:
                    best = max((c for c in scores if c != NONE), key=scores.__getitem__)
                    if best in self.judged:
                        label = best
                    judged = round(scores[label], 3)
            proposed = None
            if self.proposals is not None and label == "Method" and self.proposed_mode != "rules":
                proposed = self.proposals.probability(proposal_features(features), "yes") >= self.threshold
            for m in group.mentions:
                decided[(m.start, m.end)] = (label, proposed, judged)
        kept = [_decided(e, *decided.get((e.start, e.end), (e.label, None, None)), self.proposed_mode)
                for e in settled_entities(doc)]
        kept = [e for e in kept if e is not None]
        write_entities(doc, kept)
        if not in_title:
            doc._.proposed_name = most_named(namings(((e.name, e.start_char, e.end_char) for e in kept
                                                      if e.proposed and e.label == "Method"),
                                                     doc_text(doc)))
        return doc

    def to_disk(self, path: str | Path, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_json(path / "models.json", {
            "types": self.types.to_dict() if self.types else None,
            "proposed": self.proposals.to_dict() if self.proposals else None})

    def from_disk(self, path: str | Path, exclude: Iterable[str] = ()) -> "EntityScorer":
        data = srsly.read_json(Path(path) / "models.json")
        self.types = LinearModel.from_dict(data["types"]) if data.get("types") else None
        self.proposals = LinearModel.from_dict(data["proposed"]) if data.get("proposed") else None
        return self


def proposal_features(features: dict[str, float]) -> dict[str, float]:
    """The features of a Method, as the proposal model reads them (the same,
    under their own names, so one set of weights is not read for two questions)."""
    return {"p:" + k: v for k, v in features.items()}


def _decided(e: Entity, label: str | None, proposed: bool | None, judged: float | None, mode: str) -> Entity | None:
    if label is None:
        return None
    if proposed is not None:
        proposed = proposed if mode == "learned" else (proposed or e.proposed)
    else:
        proposed = e.proposed
    return e._replace(label=label, proposed=proposed, judged=judged)
