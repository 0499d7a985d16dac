"""Entity candidates: what each rule proposes, before overlaps are settled.

Rules (gazetteer, abbreviations, patterns, proposals) append Candidate values
to doc._.kg_candidates; kg.entities.settle then picks among overlapping ones and
writes the final spans to doc.spans["entities"].
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc

if not Doc.has_extension("kg_candidates"):
    Doc.set_extension("kg_candidates", default=None)

# Which rule wins an overlap, best first; a longer span of the same type from
# a weaker rule still wins when it contains the stronger one ("open-domain
# question answering" over "question answering").
PRIORITY = {"proposal": 5, "abbreviation": 4, "gazetteer": 3, "variant": 3, "cue": 2, "name": 1, "head": 1}


@dataclass
class Candidate:
    start: int  # token offsets
    end: int
    label: str
    source: str
    name: str | None = None  # record name when not the span text
    aliases: list[str] = field(default_factory=list)
    proposed: bool = False
    canonical: str | None = None  # gazetteer name
    exact_match: list[str] = field(default_factory=list)

    @property
    def rank(self) -> int:
        return PRIORITY.get(self.source, 0)


def candidates(doc: Doc) -> list[Candidate]:
    """doc._.kg_candidates, the list every rule adds its candidates to."""
    ext = doc._  # spaCy makes a new accessor on every doc._
    found = ext.kg_candidates
    if found is None:
        found = ext.kg_candidates = []
    return found
