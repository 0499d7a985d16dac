"""The learned tagger's names as entity candidates.

A trained tagger ("kg_tagger", part of a model made by `kg train`) gives each
token a BILUO tag. The component "kg_learned_candidates", right after it,
reads the names the tags mark into doc.ents and hands them to the rules'
settling (kg.entities.settle) as candidates of the source "learned", for the
types the model's config gives the tagger; for the types it gives the
tagger alone, it takes the rules' candidates away. Settling lets a rule's
candidate win any overlap, so a learned name fills only what no rule marks.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.entities.candidates import Candidate, candidates
from kg.learned.examples import tagged_spans
from kg.nlp.tokens import view_columns

PARTS = ("rules", "learned", "both")


@Language.factory("kg_learned_candidates", default_config={"parts": {}})
def make_learned_candidates(nlp: Language, name: str, parts: dict[str, str]) -> "LearnedCandidates":
    """`parts`: entity type -> "rules", "learned" or "both" (a type not named: "rules")."""
    return LearnedCandidates(parts)


class LearnedCandidates:
    def __init__(self, parts: dict[str, str]):
        unknown = {p for p in parts.values() if p not in PARTS}
        if unknown:
            raise ValueError(f"kg_learned_candidates: parts must be one of {', '.join(PARTS)}, not {unknown}")
        self.learned = frozenset(t for t, p in parts.items() if p in ("learned", "both"))
        self.alone = frozenset(t for t, p in parts.items() if p == "learned")

    def __call__(self, doc: Doc) -> Doc:
        strings = doc.vocab.strings
        tagged = tagged_spans([strings[h] for h in doc.to_array("TAG")])  # no Token objects made
        doc.ents = [Span(doc, start, end, label=label) for start, end, label in tagged]
        found = candidates(doc)
        if self.alone:
            found[:] = [c for c in found if c.label not in self.alone]
        columns = view_columns(doc)
        for start, end, label in tagged:
            if label in self.learned and not all(columns.is_space[i] or columns.is_punct[i] for i in range(start, end)):
                found.append(Candidate(start, end, label, "learned"))
        return doc
