"""The whole extraction pipeline: kg.nlp's Language with the relation
component after its entities."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from spacy.language import Language

import kg.extract.relations  # noqa: F401  registers the kg_relations factory
from kg.nlp import make_pipeline


def extraction_pipeline(gazetteers: Iterable[str | Path] = (), rules: Iterable[str | Path] = ()) -> Language:
    """The Language that extraction records are made with. `gazetteers` and
    `rules` are the user's extra files (see kg.nlp.make_pipeline). The
    relation component keeps every relation: its values are raw until the
    record is built (kg.extract.record), and only then can --min-confidence
    compare them."""
    rule_files = [str(p) for p in rules]
    nlp = make_pipeline(gazetteers, rule_files)
    nlp.add_pipe("kg_relations", config={"rules": rule_files})
    return nlp
