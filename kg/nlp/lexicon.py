"""The word lists in kg/resources/patterns/lexicon.json, loaded once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Lexicon:
    task_heads: frozenset[str]
    task_heads_need_modifier: frozenset[str]
    task_cues: frozenset[str]
    method_heads: frozenset[str]
    method_heads_named_only: frozenset[str]
    metric_heads: frozenset[str]
    metric_heads_need_modifier: frozenset[str]
    dataset_cues_after: frozenset[str]
    dataset_cues_before: frozenset[str]
    eval_verbs: frozenset[str]
    not_names: frozenset[str]
    generic_terms: frozenset[str]
    name_stop_words: frozenset[str]
    method_heads_lowercase: frozenset[str]
    adjective_suffixes: frozenset[str]
    task_context_before: frozenset[str]
    languages: frozenset[str]


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    raw = json.loads((resources.files("kg.resources") / "patterns" / "lexicon.json").read_text(encoding="utf-8"))
    return Lexicon(**{k: frozenset(v) for k, v in raw.items() if not k.startswith("_")})
