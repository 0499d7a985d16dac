"""One task named in full and then by its last words is one task."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from spacy.tokens import Span

from kg.entities.candidates import Candidate
from kg.entities.task_contexts import TaskContexts, names_work, task_contexts

if TYPE_CHECKING:
    from kg.entities.entity import Entity
    from kg.entities.lexicon import Lexicon
    from kg.nlp.tokens import Tok


def narrowed_task_names(entities: list[Entity], fold_name: Callable[[str], str]) -> list[Entity]:
    """A text names its task in full once ("multimodal representation
    learning") and then by its last words ("representation learning"): the
    shorter mentions take the full name, so the record holds one task. The
    same holds for metrics ("top-1 accuracy" ... "accuracy", "query latency"
    ... "latency"). When several longer names end in the same words, which
    one is meant is unknown, and the short name stays. `fold_name` gives the
    key under which names count as one (kg.entities.settle.fold_name)."""
    full: dict[tuple[str, str], Entity] = {}
    for label in _NARROWED:
        names = {fold_name(e.name): e for e in entities if e.label == label and e.name}
        for short in names:
            longer = [k for k in names if k.endswith(" " + short)]
            if len(longer) == 1:
                full[label, short] = names[longer[0]]
    if not full:
        return entities
    out = []
    for e in entities:
        long = full.get((e.label, fold_name(e.name))) if e.name and not e.aliases else None
        out.append(e._replace(name=long.name, canonical=long.canonical, exact_match=long.exact_match)
                   if long else e)
    return out


_NARROWED = ("Task", "Metric")

# How far back a means word may stand before a task: the pattern reads one word and an article after it.
_MEANS_WINDOW = 60


def means_only_tasks(entities: list[Entity], text: str, means: re.Pattern, join: re.Pattern) -> list[Entity]:
    """ "FooNet fuses span retrieval and ...", "a decoder based on frame
    prediction", "trained through image inpainting and audio denoising":
    a task the text names only as the means of a method (after a word of the
    addresses family's means_links, kg.entities.task_contexts.means_before, or
    listed after such a task: `join`) is none of the tasks the paper works
    on, and is left out. A task also named elsewhere stays."""
    only_means: dict[str, bool] = {}
    last_means_end = -1  # where the last task named as a means ends
    for e in entities:
        if e.label != "Task" or not e.name:
            continue
        after_means = means.search(text, max(0, e.start_char - _MEANS_WINDOW), e.start_char) is not None \
            or last_means_end >= 0 and join.fullmatch(text, last_means_end, e.start_char) is not None
        last_means_end = e.end_char if after_means else -1
        only_means[e.name] = only_means.get(e.name, True) and after_means
    gone = {name for name, only in only_means.items() if only}
    return [e for e in entities if not (e.label == "Task" and e.name in gone)] if gone else entities


def tasks_in_method_names(entities: list[Entity], v: list[Tok], text: str, lex: Lexicon,
                          tc: TaskContexts | None = None) -> list[Entity]:
    """ "DMCC (Dune Mapper for Crater Counting)", "a Sparse Probe Framework for
    Slope Estimation": a method named as a tool "for" a task holds the
    task's name after "for" (tc.verb_tool_links), when it ends in a word
    that names work; that task is found beside the method."""
    tc = tc or task_contexts()
    out = []
    for e in entities:
        out.append(e)
        if e.label != "Method" or e.end - e.start < 3:
            continue
        links = [k for k in range(e.start + 1, e.end - 1) if v[k].lower_ in tc.verb_tool_links]
        if len(links) != 1:
            continue
        start = links[0] + 1
        last = v[e.end - 1]
        if not names_work(last.lower_, tc, lex.task_heads) or last.lower_ in lex.name_stop_words:
            continue
        out.append(e._replace(start=start, start_char=v[start].idx, label="Task", name=text[v[start].idx:e.end_char],
                              aliases=None, proposed=False, canonical=None, exact_match=None, source="head"))
    return out


def is_task_pair(v: list[Tok], long: Span, after: int, lex: Lexicon) -> bool:
    """Does an abbreviation pair name a task: by its lower-case long form's
    last word ("preference learning (PL)": tc.pair_task_heads), or by what
    follows it: "the Incremental FOO (IFOO) task", or, for a lower-case long
    form whose last word names work, a tool ("training data attribution (TDA)
    methods")? `after` is the token after the short form's bracket."""
    tc = task_contexts()
    words = v[long.start:long.end]
    lower = all(not w.text[:1].isupper() for w in words[1:])
    if lower and len(words) > 1 and words[-1].lower_ in tc.pair_task_heads:
        return True
    if after >= len(v):
        return False
    nxt = v[after].lower_
    if nxt in lex.task_cues:
        return True
    return nxt in tc.verb_tools and names_work(words[-1].lower_, tc, lex.task_heads) and lower


def task_after_pair(v: list[Tok], long: Span, short: Span, long_text: str, short_text: str,
                    lex: Lexicon) -> Candidate | None:
    """ "mean opinion score (MOS) prediction", "chain-of-thought (CoT)
    reasoning": an abbreviation pair followed by a task word names a task,
    the long form and the task word (with the short form and the task word
    as its alias), whatever the pair itself names. Not after words that
    speak of a value changing ("Word Error Rate (WER) reduction":
    tc.pair_change_words)."""
    after = short.end + (short.end < len(v) and v[short.end].text == ")")
    if after >= len(v) or v[after].lower_ not in lex.task_heads or not v[after].text.islower():
        return None
    tc = task_contexts()
    if v[after].lower_ in tc.pair_change_words or v[after].lower_ in lex.task_cues:
        return None
    head = v[after].text
    return Candidate(long.start, after + 1, "Task", "abbreviation", name=f"{long_text} {head}",
                     aliases=[f"{short_text} {head}"])
