"""The entity word lists (rule family "lexicon", kg/resources/rules/lexicon.json)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Iterable

from kg import rules


# eq=False: a Lexicon is made once per set of rules files and used as a cache
# key by the rules, so it is hashed by identity.
@dataclass(frozen=True, eq=False)
class Lexicon:
    task_heads: frozenset[str]
    task_heads_need_modifier: frozenset[str]
    task_cues: frozenset[str]
    method_heads: frozenset[str]
    method_heads_named_only: frozenset[str]
    metric_heads: frozenset[str]
    metric_heads_need_modifier: frozenset[str]
    dataset_cues_after: frozenset[str]
    eval_verbs: frozenset[str]
    not_names: frozenset[str]
    generic_terms: frozenset[str]
    name_stop_words: frozenset[str]
    method_heads_lowercase: frozenset[str]
    adjective_suffixes: frozenset[str]
    task_context_before: frozenset[str]
    languages: frozenset[str]


def lexicon(extra: Iterable[str] = ()) -> Lexicon:
    """The lexicon, with the changes of the user's rules files `extra`."""
    return _lexicon(tuple(str(p) for p in extra))


@lru_cache(maxsize=16)
def _lexicon(extra: tuple[str, ...]) -> Lexicon:
    raw = rules.load("lexicon", extra)
    return Lexicon(**{f.name: frozenset(raw[f.name]) for f in fields(Lexicon)})
