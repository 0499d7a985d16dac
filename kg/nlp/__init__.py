"""The spaCy Language that kg builds: its own components, no model download."""

from kg.nlp.pipeline import make_pipeline, ENTITY_TYPES, SPAN_KEY

__all__ = ["make_pipeline", "ENTITY_TYPES", "SPAN_KEY"]
