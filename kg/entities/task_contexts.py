"""Where a text names a task (rule family "task_contexts",
kg/resources/rules/task_contexts.json): the word lists of the task rules
in kg.entities.patterns that read a task from its place in the sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Iterable

from kg import rules


# eq=False: made once per set of rules files and used as a cache key, so hashed by identity.
@dataclass(frozen=True, eq=False)
class TaskContexts:
    cues_before: frozenset[tuple[str, ...]]  # word sequences, lower case
    cues_after: frozenset[str]
    tools_after: frozenset[str]
    kinds_before: frozenset[str]
    action_suffixes: frozenset[str]
    not_work: frozenset[str]
    fields: frozenset[str]
    adjectives_before: frozenset[str]
    bare_context: frozenset[tuple[str, ...]]  # word sequences, lower case
    verb_tools: frozenset[str]
    verb_abilities: frozenset[str]
    verb_nouns: frozenset[str]
    verb_object_links: frozenset[str]
    verb_object_ends: frozenset[str]
    pair_task_heads: frozenset[str]
    purpose_heads: frozenset[str]
    pair_change_words: frozenset[str]
    tool_nouns: frozenset[str]
    verb_tool_links: frozenset[str]
    verb_ability_links: frozenset[str]
    phrase_ends: frozenset[str]
    apposition_articles: frozenset[str]
    apposition_skipped: frozenset[str]
    apposition_tools: frozenset[str]
    apposition_not_tasks: frozenset[str]
    object_adjectives: frozenset[str]
    not_tasks_alone: frozenset[str]
    part_nouns: frozenset[str]
    recast_before: frozenset[tuple[str, ...]]  # word sequences, lower case


def _phrases(words: list[str]) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(w.lower().split()) for w in words if w.strip())


@rules.compiled
def task_contexts(extra: tuple[str, ...]) -> TaskContexts:
    """The task context rules, with the changes of the user's rules files `extra`."""
    raw = rules.load("task_contexts", extra)
    values = {}
    for f in fields(TaskContexts):
        words = raw[f.name]
        values[f.name] = _phrases(words) if "tuple" in str(f.type) else frozenset(w.lower() for w in words)
    return TaskContexts(**values)


def ends_with(lowers: list[str] | tuple[str, ...], end: int, phrases: frozenset[tuple[str, ...]]) -> int:
    """The length of the longest of `phrases` that ends just before token
    `end` (lowers are the tokens' lower-case texts), 0 for none."""
    if end <= 0:
        return 0
    for p in _by_last_word(phrases).get(lowers[end - 1], ()):
        n = len(p)
        if end - n >= 0 and tuple(lowers[end - n:end]) == p:
            return n
    return 0


@lru_cache(maxsize=64)
def _by_last_word(phrases: frozenset[tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    """`phrases` by their last word, longest first: a phrase can end at a
    token only if its last word is that token's."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for p in sorted(phrases, key=len, reverse=True):
        index.setdefault(p[-1], []).append(p)
    return index


def names_work(word: str, tc: TaskContexts, heads: frozenset[str]) -> bool:
    """Is `word` (lower case) a noun of doing something, as task names end
    in: a task head of the lexicon ("retrieval"), or a word in -tion, -ing,
    -ment, -ity... ("quantization", "steering", "alignment", "similarity")?"""
    if word in heads:
        return True
    if word in tc.not_work:
        return False
    last = word.rsplit("-", 1)[-1]
    return len(last) > 4 and any(last.endswith(s) for s in tc.action_suffixes)


def cue_words(entries: list[str]) -> str:
    """A regular expression of any of `entries` (lower-case words; a space
    stands for any space), the longest first; no entries match nothing."""
    return rules.any_of((re.escape(e.lower()).replace(r"\ ", r"\s+") for e in entries if e.strip()),
                        longest_first=True)


def means_before(extra: Iterable[str] = ()) -> re.Pattern:
    """The end of the text before a task named as a means of a method
    ("FooNet fuses span retrieval", "a decoder based on frame prediction",
    "trained through joint span retrieval"): the words of the addresses
    family's `means_links`, then an optional article and one word. Searched
    with an end position, as `means_before().search(text, start, end)`."""
    return _means_patterns(extra)[0]


def list_join(extra: Iterable[str] = ()) -> re.Pattern:
    """The text between two items of a list, to be matched in full: ", ",
    " and ", ", or ", with a note in brackets after the first item
    ("pixel prediction (teacher) and ..."): the addresses family's coordinators."""
    return _means_patterns(extra)[1]


@rules.compiled
def _means_patterns(extra: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    data = rules.load("addresses", extra)
    means = re.compile(rf"(?<=\S\s){cue_words(data['means_links'])}\s+(?:(?:the|a|an)\s+)?(?:[\w-]+\s+)?$", re.I)
    coordinators = cue_words(data["coordinators"])
    join = re.compile(rf"\s*(?:\([^()]*\)\s*)?(?:,\s*(?:{coordinators}\s+)?|{coordinators}\s+)", re.I)
    return means, join
