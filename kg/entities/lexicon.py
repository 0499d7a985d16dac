"""The entity word lists (rule family "lexicon", kg/resources/rules/lexicon.json)
and the shapes of names and numbers (rule family "entity_patterns")."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from kg import rules


@dataclass(frozen=True, eq=False)
class EntityPatterns:
    """The rule family "entity_patterns": regular expressions made from its
    pieces (see docs/rules.md) and its word lists."""

    number: re.Pattern  # a whole word
    quantity: re.Pattern  # a whole word, case-insensitive
    unit: re.Pattern  # a whole word
    version_number: re.Pattern  # a whole word
    not_in_names: re.Pattern  # anywhere in a word
    language_pair_split: re.Pattern  # literal separators, tried in order
    dataset_name_ending: re.Pattern  # at the end of a word
    metric_name_shape: re.Pattern  # a whole word
    hardware_name: re.Pattern  # a whole word
    year: re.Pattern  # a whole word
    model_size: re.Pattern  # a whole word
    roman_numerals: frozenset[str]
    list_separators: frozenset[str]
    allowed_participles: frozenset[str]
    allowed_gerunds: frozenset[str]
    title_joiners: frozenset[str]
    long_form_title_joiners: frozenset[str]
    proper_name_method_heads: frozenset[str]
    heads_after_a_name: frozenset[str]
    method_word_endings: tuple[str, ...]
    phrase_continuers: frozenset[str]
    task_words_after_methods: frozenset[str]
    metric_skip_heads: frozenset[str]
    score_heads: frozenset[str]
    generic_owners: frozenset[str]
    generic_methods: frozenset[str]
    dataset_list_cues: frozenset[str]
    count_words: frozenset[str]
    list_openers: tuple[tuple[str, ...], ...]  # word sequences, longest first
    naming_words: frozenset[str]
    dataset_nouns: frozenset[str]
    evaluated_on_words: frozenset[str]
    not_evaluation_before_on: frozenset[str]
    after_evaluated_name: frozenset[str]
    indefinite_articles: frozenset[str]
    hyphen_metric_heads: frozenset[str]
    metric_words_after_pairs: frozenset[str]
    metric_judging_words: frozenset[str]
    time_point_words: frozenset[str]
    metric_described_nouns: frozenset[str]
    setting_prepositions: frozenset[str]
    setting_words: frozenset[str]
    long_form_skipped_words: frozenset[str]
    not_name_prefixes: tuple[str, ...]
    event_words: frozenset[str]
    event_parts: frozenset[str]
    model_variant_words: frozenset[str]


def _any_of(pieces: list[str]) -> str:
    return rules.any_of(f"(?:{p})" for p in pieces)


def _entity_patterns(raw: dict) -> EntityPatterns:
    try:
        compiled = dict(
            number=re.compile(f"^(?:{_any_of(raw['number'])})$"),
            quantity=re.compile(f"^(?:{_any_of(raw['quantity'])})$", re.I),
            unit=re.compile(f"^(?:{_any_of(raw['unit'])})$"),
            version_number=re.compile(f"^(?:{_any_of(raw['version_number'])})$"),
            not_in_names=re.compile(_any_of(raw["not_in_names"])),
            language_pair_split=re.compile("|".join(map(re.escape, raw["language_pair_separators"]))),
            dataset_name_ending=re.compile(f"(?:{_any_of(raw['dataset_name_endings'])})$"),
            metric_name_shape=re.compile(f"^(?:{_any_of(raw['metric_name_shapes'])})$"),
            hardware_name=re.compile(f"^(?:{_any_of(raw['hardware_names'])})$"),
            year=re.compile(f"^(?:{_any_of(raw['year'])})$"),
            model_size=re.compile(f"^(?:{_any_of(raw['model_sizes'])})$"),
        )
    except re.error as err:
        raise rules.RulesError(f"entity_patterns: a piece is not a regular expression ({err})") from None
    openers = tuple(sorted({tuple(o.split()) for o in raw["list_openers"]}, key=len, reverse=True))
    words = {f.name: frozenset(raw[f.name]) for f in fields(EntityPatterns)
             if f.name not in compiled and f.name not in ("list_openers", "not_name_prefixes", "method_word_endings")}
    return EntityPatterns(**compiled, **words, list_openers=openers,
                          not_name_prefixes=tuple(raw["not_name_prefixes"]),
                          method_word_endings=tuple(raw["method_word_endings"]))


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
    method_modifiers: frozenset[str]
    listed_method_heads: frozenset[str]
    method_list_cues: frozenset[str]
    adjective_suffixes: frozenset[str]
    task_context_before: frozenset[str]
    languages: frozenset[str]
    patterns: EntityPatterns  # the family "entity_patterns", read with the same rules files


@rules.compiled
def lexicon(extra: tuple[str, ...]) -> Lexicon:
    """The lexicon, with the changes of the user's rules files `extra`."""
    raw = rules.load("lexicon", extra)
    words = {f.name: frozenset(raw[f.name]) for f in fields(Lexicon) if f.name != "patterns"}
    return Lexicon(**words, patterns=_entity_patterns(rules.load("entity_patterns", extra)))
