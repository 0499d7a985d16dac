"""A learned model: a folder that `kg train` writes and kg's pipeline loads.

The folder is a spaCy pipeline in spaCy's own format (config.cfg, meta.json
and one folder per component), so `spacy.load` reads it and its config says
how each part runs. Its components join kg's rule pipeline at their places:

  kg_tagger              before kg_entities: the tagger (kg.learned.tagger_training)
  kg_learned_candidates  after kg_tagger: its names as candidates (kg.learned.tagger)
  kg_entity_scorer       after kg_entities (kg.learned.entity_scorer)
  kg_relation_linker     after kg_relations (kg.learned.relation_linker)

kg_model.json beside them says what the model was trained on (the gold
files and a hash of their bytes), the types a title's names may have, and
the figures on the validation part that chose each part's config.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Iterable

import spacy
import srsly
from spacy.language import Language

from kg.errors import UserError

# Importing the component modules registers their factories.
from kg.learned import entity_scorer, relation_linker, tagger  # noqa: F401
from kg.nlp import tokenizer  # noqa: F401  (registers kg.tokenizer.v1, which a model's config names)

META = "kg_model.json"
PLACES = (("kg_tagger", {"before": "kg_entities"}), ("kg_learned_candidates", {"after": "kg_tagger"}),
          ("kg_entity_scorer", {"after": "kg_entities"}), ("kg_relation_linker", {"after": "kg_relations"}))


class ModelError(UserError, ValueError):
    """A model folder that cannot be used; the message names the folder."""


def default_model() -> Path | None:
    """The model shipped in the package, if this installation has one."""
    path = Path(str(resources.files("kg.data") / "model"))
    return path if (path / META).is_file() else None


def read_meta(path: str | Path) -> dict:
    path = Path(path)
    if not (path / META).is_file():
        raise ModelError(f"{path}: not a kg model folder (no {META}; `kg train` makes one)")
    return srsly.read_json(path / META)


def load_learned(path: str | Path) -> Language:
    """The spaCy pipeline of a model folder."""
    read_meta(path)
    try:
        return spacy.load(path)
    except (OSError, ValueError) as err:
        raise ModelError(f"{path}: cannot load the model ({err})") from None


def add_learned(nlp: Language, learned: Language) -> Language:
    """`nlp` (kg's rule pipeline) with the components of `learned` at their places."""
    for name, place in PLACES:
        if name in learned.pipe_names and (place.get("before") or place.get("after")) in nlp.pipe_names:
            nlp.add_pipe(name, source=learned, **place)
    return nlp


def gold_hash(paths: Iterable[str | Path]) -> str:
    """The SHA-256 of the gold files' bytes, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()
