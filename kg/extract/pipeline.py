"""The whole extraction pipeline: kg.nlp's Language with the relation
component after its entities."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from spacy.language import Language

import kg.extract.relations  # noqa: F401  registers the kg_relations factory
from kg.nlp import make_pipeline


def extraction_pipeline(gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = (),
                        min_confidence: float = 0.0) -> Language:
    """The Language that extraction records are made with. `gazetteers` and
    `rules` are the user's extra files (see kg.nlp.make_pipeline); relations
    below `min_confidence` are left out."""
    rule_files = [str(p) for p in rules]
    nlp = make_pipeline(gazetteers, rule_files)
    nlp.add_pipe("kg_relations", config={"rules": rule_files, "min_confidence": min_confidence})
    return nlp
