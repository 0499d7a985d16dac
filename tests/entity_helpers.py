"""What the entity-rule tests read of a pipeline's Doc."""

from __future__ import annotations


def entities(nlp, text: str) -> set[tuple[str, str]]:
    """The settled entities of `text` as (text as written, type) pairs."""
    doc = nlp(text)
    return {(s.text, s.label_) for s in doc.spans["entities"]}
