"""Patterns that find names no gazetteer holds.

- a noun phrase that ends in a task word ("motor imagery classification"),
  a metric word ("decoding accuracy") or a method word ("triplet loss",
  "graph neural networks"), its modifiers being content words of the same
  sentence (no determiners, verbs, generic adjectives: see lexicon.json);
- a Title Case phrase that ends in a method word ("Nearest Mean Classifier");
- "the X dataset", "on X, Y and Z benchmarks", "datasets such as X": Dataset
  (kg.entities.dataset_patterns);
- a CamelCase, acronym or alphanumeric name ("FairOPT", "TimeDRL", "R2D2"),
  as a Method unless a dataset word follows it.
- a phrase listed beside a known method, or after "techniques such as":
  Method (kg.entities.method_patterns).
Every rule adds candidates (kg.entities.candidates); overlaps are settled later.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from spacy.language import Language
from spacy.tokens import Doc

from kg.entities.candidates import Candidate, candidates
from kg.entities.dataset_patterns import (
    coordinated_types,
    dataset_cue_candidates,
    evaluated_on,
    event_names,
    joined_list_items,
    listed_datasets,
    named_parts,
    names_after_cues,
)
from kg.entities.lexicon import Lexicon, lexicon
from kg.entities.method_patterns import (
    listed_methods,
    methods_after_cues,
    names_of_tasks,
    versioned_methods,
)
from kg.entities.name_shapes import is_name_like, name_like_text
from kg.entities.task_contexts import TaskContexts, ends_with, names_work, task_contexts
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns, view_text
from kg.nlp.word_sets import WordSet

__all__ = ["is_name_like", "find_pattern_entities", "make_entity_patterns"]

_MAX_MODIFIERS = 4


def _word_ok(tok: Tok, lex: Lexicon, head_lower: bool) -> bool:
    """Can `tok` be a modifier inside a task, metric or method name?"""
    ok = _modifier_word(tok.text, tok.is_space, tok.is_punct, head_lower, lex)
    return tok.is_sent_start if ok is None else ok


# Whether a word can be a modifier belongs to the word (judged once, like
# name_like_text), but for a capitalised word's place: a sentence's first word.
@lru_cache(maxsize=65536)
def _modifier_word(text: str, is_space: bool, is_punct: bool, head_lower: bool, lex: Lexicon) -> bool | None:
    """_word_ok for the word `text`; None: only as the first word of a sentence."""
    low = text.lower()
    if is_space or is_punct or low in lex.name_stop_words or low in lex.eval_verbs:
        return False
    if lex.patterns.number.match(text) or lex.patterns.quantity.match(text):
        return False
    if not any(c.isalpha() for c in text) or lex.patterns.not_in_names.search(text):
        return False  # "each judge's accuracy": an owner, not part of the name
    if low.endswith("ly") and "-" not in low:
        return False
    if low.endswith("ing") and "-" not in low and low not in lex.patterns.allowed_gerunds \
            and low not in lex.task_heads:
        return False
    if low.endswith("ed") and "-" not in low and low not in lex.patterns.allowed_participles:
        return False
    if head_lower and any(c.isupper() for c in text):
        # A capitalised word inside a lower-case name: only a generic acronym
        # ("3D", "EEG", "AI-generated") or the sentence's first word.
        if text in lex.not_names:
            return True
        if "-" in text and text.split("-", 1)[1].islower():
            return True
        return None
    return True


def _modifiers(doc: Doc, v: list[Tok], head: int, lex: Lexicon, head_lower: bool, limit: int = _MAX_MODIFIERS) -> int:
    """Start index of the run of modifier words ending just before `head`."""
    sent_start = v[head].sent_start
    j = head
    while j - 1 >= sent_start and head - (j - 1) <= limit and _word_ok(v[j - 1], lex, head_lower):
        j -= 1
    return j


def _task_candidates(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts, heads: list[int],
                     found: list[Candidate]) -> list[Candidate]:
    out: list[Candidate] = []
    bare: list[Candidate] = []
    lowers = view_columns(doc)[1]
    for i in heads:
        tok = v[i]
        low = tok.lower_
        if tok.text[:1].isupper() and not tok.is_sent_start:
            continue  # a Title Case name ("Neural Architecture Search") is a method's, not a task's
        start = _task_start(doc, v, tok.i, lex, tc)
        if not _task_context(doc, v, start, tok.i, lex, tc):
            continue
        nxt = v[tok.i + 1] if tok.i + 1 < len(v) else None
        if start == tok.i:
            if low in lex.task_heads_need_modifier:
                continue
            cand = Candidate(tok.i, tok.i + 1, "Task", "head")
            k = _context_word(v, start, tc)
            # "the X task", "for retrieval", "improves re-ranking": a task word alone where tasks are named.
            if nxt is not None and nxt.lower_ in lex.task_cues or k >= 0 and ends_with(lowers, k + 1, tc.bare_context):
                out.append(cand)
            else:
                bare.append(cand)
            continue
        # "learning" after a method word names a method family, not a task.
        text = view_text(v, doc_text(doc), start, tok.i + 1).lower()
        if text in lex.generic_terms:
            continue
        out.append(Candidate(start, tok.i + 1, "Task", "head"))
    # A bare task word counts beside another task in a list, one of these
    # rules' or a known one: "image classification, detection and segmentation".
    known = [c for c in found if c.label == "Task"]
    changed = True
    while changed and bare:
        changed = False
        ends = {c.end for c in out + known}
        starts = {c.start for c in out + known}
        for c in list(bare):
            left = c.start - 1
            while left >= 0 and v[left].text in lex.patterns.list_separators:
                left -= 1
            right = c.end
            while right < len(v) and v[right].text in lex.patterns.list_separators:
                right += 1
            if (left + 1 < c.start and left + 1 in ends) or (right > c.end and right in starts):
                out.append(c)
                bare.remove(c)
                changed = True
    return out


def _task_start(doc: Doc, v: list[Tok], head: int, lex: Lexicon, tc: TaskContexts) -> int:
    """Where a task name ending at `head` begins: its modifiers, less the
    adjectives that describe the work rather than name the task ("intensive")."""
    start = _modifiers(doc, v, head, lex, True)
    while start < head and v[start].lower_ in tc.adjectives_before:
        start += 1
    return start


def _task_context(doc: Doc, v: list[Tok], start: int, head: int, lex: Lexicon, tc: TaskContexts) -> bool:
    """Is a task phrase at doc[start:head+1] where tasks are named: after
    "for", "on", "address", a comma in a list... (with up to two adjectives
    between: "for efficient X"), at the start of a sentence, or before
    "task", "problem" or an abbreviation in brackets?"""
    k = _context_word(v, start, tc)
    if k < v[start].sent_start:
        return True
    if v[k].lower_ in lex.task_context_before or ends_with(view_columns(doc)[1], k + 1, tc.bare_context):
        return True
    nxt = v[head + 1] if head + 1 < len(v) else None
    return nxt is not None and (nxt.lower_ in lex.task_cues or nxt.text == "(" or nxt.lower_ in tc.tool_nouns)


def _context_word(v: list[Tok], start: int, tc: TaskContexts) -> int:
    """The word before a phrase at `start` that says what it is, past up to
    two adjectives that are not part of its name ("for efficient X"); before
    the sentence's start when there is none."""
    k = start - 1
    first = v[start].sent_start
    while k >= first and start - 1 - k < 2 and v[k].lower_ in tc.adjectives_before:
        k -= 1
    return k


def _narrowed_tasks(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts, found: list[Candidate]) -> list[Candidate]:
    """ "for graph representation learning": a known task narrowed by the words
    before it is the task the text names; the known name alone would miss it.
    A known task written as its acronym needs no context word ("a multispeaker
    ASR architecture", "our streaming multilingual ASR"): the lower-case
    words before an acronym read as a name's only where they narrow it."""
    out = []
    for c in found:
        if c.label != "Task" or c.source != "gazetteer" or not (v[c.start].text.islower() or _is_acronym(v, c)):
            continue
        start = _task_start(doc, v, c.start, lex, tc)
        if start < c.start and (_is_acronym(v, c) or _task_context(doc, v, start, c.end - 1, lex, tc)):
            out.append(Candidate(start, c.end, "Task", "head"))
    return out


def _is_acronym(v: list[Tok], c: Candidate) -> bool:
    """A known task written as its acronym ("ASR", "NMT"): narrowed by lower-case
    words before it ("multispeaker ASR") it names the task the text works on."""
    text = v[c.start].text
    return c.end - c.start == 1 and len(text) > 1 and text.isupper() and text.isalpha()


def _cued_tasks(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts) -> list[Candidate]:
    """ "the problem of X", "tasks such as X, Y and Z", "three tasks: X, Y
    and Z": the phrases right after a cue of tc.cues_before, whatever their
    last word; an item said with a verb ("charting the depth of reef
    channels") as _verb_phrase_end reads it. One item no rule reads is
    passed over when a comma ends it and the list goes on."""
    lowers = view_columns(doc)[1]
    out = []
    for k in positions(lowers, _last_words(tc.cues_before)):
        if not ends_with(lowers, k + 1, tc.cues_before):
            continue
        j = k + 1
        sent_end = v[k].sent_end
        passed_over = False
        while j < len(v) and j < sent_end:
            end = _phrase_end(v, lex, tc, j)
            if end == j and _is_gerund(v[j].text) and lowers[j] not in lex.name_stop_words:
                end = _verb_phrase_end(v, lex, tc, lowers, j)
            if end == j:
                comma = _next_comma(v, j, min(sent_end, j + _MAX_PASSED_OVER))
                if passed_over or comma < 0:
                    break
                passed_over = True
                end = comma
            else:
                out.append(Candidate(j, end, "Task", "head"))
            nxt = end  # a list goes on after ",", "and", ", and"
            while nxt < sent_end and v[nxt].lower_ in lex.patterns.list_separators:
                nxt += 1
            if nxt == end:
                break
            j = nxt
    return out


_MAX_PASSED_OVER = 8  # tokens of a list item no rule reads


def _next_comma(v: list[Tok], start: int, end: int) -> int:
    """The first comma in tokens start..end, -1 for none."""
    for i in range(start, end):
        if v[i].text == ",":
            return i
    return -1


def _phrase_end(v: list[Tok], lex: Lexicon, tc: TaskContexts, start: int, head_lower: bool = False) -> int:
    """The end of a name of up to five content words from `start` ("link
    prediction", "NLI", "sorting long sequences"), when what follows closes
    it (a mark, "and", "with", "task"...); else `start`."""
    j = start
    sent_end = v[start].sent_end
    # Words in -ing count here ("dune mapping", "sorting long lists"): after a cue, they name the work.
    while j < sent_end and j - start < 5 and (_word_ok(v[j], lex, head_lower) or _is_gerund(v[j].text)
                                             and v[j].lower_ not in lex.name_stop_words):
        if j > start and v[j].lower_ in lex.task_cues:
            break  # "crater detection and slope computing benchmarks": the cue closes the name
        j += 1
    if j == start or j == start + 1 and _is_gerund(v[start].text) and j < sent_end and v[j].lower_ in ("and", "or"):
        return start  # nothing, or a verb with its object to come ("identifying and erasing X")
    if j >= sent_end or v[j].is_punct or v[j].lower_ in tc.phrase_ends or v[j].lower_ in lex.task_cues:
        return j
    return start


def _tasks_before_cues(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts) -> list[Candidate]:
    """ "on knowledge-probing tasks", "the overoptimization problem", "other
    stochastic optimization methods": the content words before a cue of
    tc.cues_after, or before a plural of tc.tools_after after a word of
    tc.kinds_before, when their last word names work."""
    lowers = view_columns(doc)[1]
    out = []
    for k in positions(lowers, tc.cues_after | tc.tools_after):
        if k == 0 or v[k].is_sent_start:
            continue
        if lowers[k] in tc.tools_after and lowers[k] not in tc.cues_after:
            # "existing token pruning techniques": the methods of a kind, named by their task.
            start = _task_start(doc, v, k - 1, lex, tc)
            if start == 0 or lowers[start - 1] not in tc.kinds_before:
                continue
        head = k - 1
        if not names_work(lowers[head], tc, lex.task_heads) or lowers[head] in lex.name_stop_words \
                or not v[head].text.islower() or lex.patterns.number.match(v[head].text):
            continue
        out.append(Candidate(_task_start(doc, v, head, lex, tc), k, "Task", "head"))
    return out


def _elided_heads(doc: Doc, v: list[Tok], found: list[Candidate]) -> None:
    """ "few-shot and zero-shot learning": a hyphenated modifier before "and"
    or "or" shares the task word of the task after it, and names the task
    "few-shot learning"; the modifier alone is no task."""
    texts, lowers = view_columns(doc)[:2]
    text = doc_text(doc)
    extra = []
    for c in found:
        k = c.start - 1
        if c.label != "Task" or c.end - c.start < 2 or "-" not in texts[c.start] or k < 1 \
                or lowers[k] not in ("and", "or") or k - 1 < v[c.start].sent_start:
            continue
        m = k - 1
        if "-" in texts[m] and texts[m].islower() and texts[m].split("-", 1)[1] == texts[c.start].split("-", 1)[1]:
            extra.append(Candidate(m, k, "Task", "head", name=texts[m] + " " + view_text(v, text, c.start + 1, c.end)))
    if extra:
        spans = {(c.start, c.end) for c in extra}
        found[:] = [c for c in found if c.label != "Task" or (c.start, c.end) not in spans] + extra


def _drop_fields(doc: Doc, v: list[Tok], found: list[Candidate], tc: TaskContexts) -> None:
    """ "advances in natural language processing": a field of research named
    as background is not a task the paper works on."""
    text = doc_text(doc)
    found[:] = [c for c in found if c.label != "Task" or c.source != "head"
                or view_text(v, text, c.start, c.end).lower() not in tc.fields]


def _drop_lone_steps(v: list[Tok], found: list[Candidate], tc: TaskContexts) -> None:
    """ "various decoding methods", "the fine-tuning stage": one word of a step
    in building or running a model (tc.not_tasks_alone) names no task, whatever
    context rule read it; with a modifier it may ("speculative decoding")."""
    found[:] = [c for c in found if c.label != "Task" or c.source != "head" or c.end - c.start != 1
                or v[c.start].lower_ not in tc.not_tasks_alone]


def _listed_tasks(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts, found: list[Candidate]) -> list[Candidate]:
    """ "multi-hop reasoning, fine-grained citation and conflict robustness":
    a phrase listed beside a task is a task too, when its last word names work."""
    lowers = view_columns(doc)[1]
    known = sorted({(c.start, c.end) for c in found if c.label == "Task"})
    taken = {i for c in found for i in range(c.start, c.end)}
    out: list[Candidate] = []
    seen: set[tuple[int, int]] = set()
    todo = list(known)
    while todo:
        start, end = todo.pop()
        # to the right: ", Y", "and Y", ", and Y"
        j = end
        while j < len(v) and j < v[start].sent_end and lowers[j] in lex.patterns.list_separators:
            j += 1
        if j > end and j < v[start].sent_end and j not in taken:
            e = _phrase_end(v, lex, tc, j, head_lower=True)
            if e > j and (j, e) not in seen and _listed_ok(v, lowers, j, e, lex, tc):
                seen.add((j, e))
                out.append(Candidate(j, e, "Task", "head"))
                todo.append((j, e))
        # to the left: "X, task" / "X and task"
        k = start - 1
        while k >= v[start].sent_start and lowers[k] in lex.patterns.list_separators:
            k -= 1
        if k < start - 1 and k >= v[start].sent_start and k not in taken:
            b = k
            while b - 1 >= v[start].sent_start and k - b < 4 and _word_ok(v[b - 1], lex, True):
                b -= 1
            if (_word_ok(v[k], lex, True) or _is_gerund(v[k].text)) and (b, k + 1) not in seen \
                    and _listed_ok(v, lowers, b, k + 1, lex, tc):
                seen.add((b, k + 1))
                out.append(Candidate(b, k + 1, "Task", "head"))
                todo.append((b, k + 1))
    return out


def _listed_ok(v: list[Tok], lowers: tuple[str, ...], start: int, end: int, lex: Lexicon, tc: TaskContexts) -> bool:
    """Can tokens start..end, listed beside a task, be a task: a lower-case
    phrase whose last word names work, not a verb ("suggesting that")?"""
    last = lowers[end - 1]
    if last in lex.name_stop_words or not v[end - 1].text.islower():
        return False
    if end - start == 1 and _is_gerund(v[start].text) and end < len(v) and lowers[end] in ("that", "the", "a", "an"):
        return False  # ", suggesting that ...": a verb
    return names_work(last, tc, lex.task_heads)


def _drop_modifiers(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts, found: list[Candidate]) -> None:
    """ "synthetic reasoning data", "attribute labeling quality": a task
    phrase of the rules followed by another noun only describes that noun.
    Kept before a task word ("tasks") or a tool ("system"), and before a verb in -ing."""
    keep = []
    for c in found:
        if c.label == "Task" and c.source == "head" and c.end < v[c.start].sent_end:
            nxt = v[c.end]
            if nxt.text.islower() and _word_ok(nxt, lex, True) and nxt.lower_ not in lex.task_cues \
                    and nxt.lower_ not in tc.tool_nouns and nxt.lower_ not in tc.tools_after \
                    and not _is_gerund(nxt.text):
                continue
        keep.append(c)
    found[:] = keep


def _drop_parts(v: list[Tok], found: list[Candidate], tc: TaskContexts) -> None:
    """ "a language modeling objective", "the classification loss", "a ranking
    head": a task phrase, known or not, before a noun of a model's part
    (tc.part_nouns) names that part's job in training, no task of the paper."""
    found[:] = [c for c in found if c.label != "Task" or c.end >= len(v) or v[c.end].lower_ not in tc.part_nouns]


def _drop_recast(doc: Doc, v: list[Tok], found: list[Candidate], tc: TaskContexts) -> None:
    """ "casts dune routing as a classification problem", "framed as a ranking
    task": the kind of problem a paper recasts its own as
    (after a word sequence of tc.recast_before, before a word of
    tc.cues_after) is its method's form, no task of the paper; such task
    phrases, known or not, are dropped."""
    lowers = view_columns(doc)[1]
    found[:] = [c for c in found if c.label != "Task" or c.end >= len(v) or lowers[c.end] not in tc.cues_after
                or not ends_with(lowers, c.start, tc.recast_before)]


@lru_cache(maxsize=16)
def _last_words(phrases: frozenset[tuple[str, ...]]) -> frozenset[str]:
    return frozenset(p[-1] for p in phrases)


def _gerund_candidates(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts) -> list[Candidate]:
    """ "a method for learning invariant representations", "accurate in
    predicting the stance of parties": a task said with a verb in -ing after
    a tool and "for" (tc.verb_tools) or an ability and "in"/"at"
    (tc.verb_abilities), with the verb's object: up to four content words
    after an optional "the", and up to three more after "of" (or, after a
    noun in -ing such as "learning", after "from" or "with")."""
    out = []
    texts, lowers = view_columns(doc)[:2]
    for k in positions(lowers, tc.verb_tool_links | tc.verb_ability_links):
        if k == 0 or not (lowers[k] in tc.verb_tool_links and _tool_before(v, k, tc.verb_tools)
                          or lowers[k] in tc.verb_ability_links and lowers[k - 1] in tc.verb_abilities):
            continue
        g = k + 1
        if g < len(v) and lowers[g].endswith("ly") and texts[g].isalpha():
            g += 1  # "for automatically generating ..."
        # A noun of tc.verb_nouns is such a verb though hyphenated ("for pre-training text encoders").
        if g >= len(v) or not (_is_gerund(texts[g]) or lowers[g] in tc.verb_nouns and texts[g].islower()):
            continue
        low = lowers[g]
        if low in lex.name_stop_words or low in lex.eval_verbs:
            continue
        if (low in lex.task_heads or low in lex.patterns.allowed_gerunds) and low not in tc.verb_nouns:
            continue  # a noun in -ing ("reasoning"), found by the head rules
        j = _verb_phrase_end(v, lex, tc, lowers, g)
        if j > g:
            out.append(Candidate(g, j, "Task", "head"))
    return out


def _tool_before(v: list[Tok], link: int, tools: frozenset[str]) -> bool:
    """Whether a word of `tools` stands right before the link word at `link`,
    or before the name the text gives it in brackets: "an algorithm (FOO) for"."""
    k = link - 1
    if v[k].text == ")" and k >= 3 and v[k - 2].text == "(" and v[k - 2].sent_start == v[link].sent_start:
        k -= 3
    return v[k].lower_ in tools


def _verb_phrase_end(v: list[Tok], lex: Lexicon, tc: TaskContexts, lowers: tuple[str, ...], g: int) -> int:
    """The end of a task said with the verb in -ing at `g` and its object:
    up to four content words after an optional "the", and up to three more
    after "of" (or, after a noun in -ing such as "learning", after "from" or
    "with"), when a mark, the sentence's end or a word of tc.verb_object_ends
    follows; else `g`."""
    ends = tc.verb_object_ends
    low = lowers[g]
    end = v[g].sent_end
    j = g + 1
    if j < end and lowers[j] in ("the", "a", "an"):
        j += 1
    j = _object_end(v, lex, j, end, 4, ends, tc.object_adjectives)
    if j == g + 1 and low in tc.verb_nouns and j + 1 < end and lowers[j] in tc.verb_object_links and lowers[j] != "of":
        # "learning from user clicks": a noun in -ing takes what it learns from with no object before it.
        m = _object_end(v, lex, j + 1, end, 3, ends, tc.object_adjectives)
        if m > j + 1 and lowers[m - 1] not in tc.object_adjectives and (m >= end or v[m].is_punct or lowers[m] in ends):
            return m
    if j == g + 1 or lowers[j - 1] in ("the", "a", "an") or lowers[j - 1] in tc.object_adjectives:
        return g
    if j + 1 < end and lowers[j] in tc.verb_object_links and (low in tc.verb_nouns or lowers[j] == "of"):
        m = _object_end(v, lex, j + 1, end, 3, ends, tc.object_adjectives)
        if m > j + 1 and lowers[m - 1] in tc.object_adjectives:
            m = j + 1
        if m > j + 1 and (m >= end or v[m].is_punct or lowers[m] in ends):
            return m
        if lowers[j + 1] in ("a", "an", "the"):
            return j  # "charting the melt rates of a glacier": what it is measured on is no part of the task
    if j >= end or v[j].is_punct or lowers[j] in ends:
        return j
    return g


def _tool_purposes(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts) -> list[Candidate]:
    """ "a criterion for filter pruning", "approaches for visual search": after
    a tool (tc.verb_tools) and "for", up to four content words whose last one
    names work are a task, when the phrase ends there."""
    out = []
    lowers = view_columns(doc)[1]
    ends = tc.verb_object_ends
    for k in positions(lowers, tc.verb_tool_links):
        if k == 0 or not _tool_before(v, k, tc.verb_tools):
            continue
        start = _context_word_end(v, k + 1, tc)
        end = v[k].sent_end
        j = _object_end(v, lex, start, end, 4, ends)
        if start < j < end and lowers[j] in tc.purpose_heads:
            j += 1  # "a method for reef model training": the word ends the name, though it is none inside one
        if j == start or not (j >= end or v[j].is_punct or lowers[j] in ends or lowers[j] in lex.task_cues):
            continue
        if names_work(lowers[j - 1], tc, lex.task_heads) and lowers[j - 1] not in lex.name_stop_words:
            out.append(Candidate(start, j, "Task", "head"))
    return out


def _apposed_tool_tasks(doc: Doc, v: list[Tok], lex: Lexicon, tc: TaskContexts) -> list[Candidate]:
    """ "FooNet, a novel reranking approach", "BarNet (BN), a learned video
    coding framework": a name set off by a comma and described by a tool
    noun (tc.apposition_tools) after an article; the content words before
    the noun, past words of praise, are the task the tool is for when the
    last one names work. One word that names no task there (tc.apposition_not_tasks:
    "a new training strategy") gives none."""
    out = []
    lowers = view_columns(doc)[1]
    for k in positions(lowers, tc.apposition_articles):
        if k < 2 or v[k - 1].text != "," or not _apposed_name_before(v, k - 1, lex):
            continue
        start = k + 1
        while start < len(v) and lowers[start] in tc.apposition_skipped:
            start += 1
        end = start
        while end < len(v) and end - start < 5 and lowers[end] not in tc.apposition_tools and _word_ok(v[end], lex, True):
            end += 1
        if end == start or end >= len(v) or lowers[end] not in tc.apposition_tools or v[end].sent_start != v[k].sent_start:
            continue
        head = end - 1
        if not names_work(lowers[head], tc, lex.task_heads) or lowers[head] in lex.name_stop_words \
                or not v[head].text.islower() or (end - start == 1 and lowers[head] in tc.apposition_not_tasks):
            continue
        out.append(Candidate(start, end, "Task", "head"))
    return out


def _apposed_name_before(v: list[Tok], comma: int, lex: Lexicon) -> bool:
    """Whether a name shaped as one ends right before the comma at `comma`:
    "ListT5,", or one with its abbreviation in brackets ("... (AdaDim),")."""
    k = comma - 1
    if v[k].text == ")" and k >= 2 and v[k - 2].text == "(":
        k -= 2
        return is_name_like(v[k + 1], lex)
    return is_name_like(v[k], lex)


def _context_word_end(v: list[Tok], start: int, tc: TaskContexts) -> int:
    """Past up to two words of tc.adjectives_before from `start` ("for efficient ...")."""
    j = start
    while j < len(v) and j - start < 2 and v[j].lower_ in tc.adjectives_before:
        j += 1
    return j


def _object_end(v: list[Tok], lex: Lexicon, start: int, end: int, limit: int, ends: frozenset[str],
                adjectives: frozenset[str] = frozenset()) -> int:
    """The end of up to `limit` content words from `start` (before `end`), none of them in `ends`;
    words of `adjectives` count as content words though names leave them out ("large language models")."""
    j = start
    skipped = 0
    while j < end and j - start - skipped < limit:
        if j > start and j + 2 < end and v[j].text == "(" and v[j + 2].text == ")" and v[j + 1].text in lex.not_names \
                and j + 3 < end and (_word_ok(v[j + 3], lex, True) or v[j + 3].lower_ in adjectives) \
                and v[j + 3].lower_ not in ends:
            # "segmenting brain (MRI) scans": a generic acronym of a word inside the object
            j += 3
            skipped += 3
            continue
        if not (_word_ok(v[j], lex, True) or v[j].lower_ in adjectives) or v[j].lower_ in ends:
            break
        j += 1
    return j


def _is_gerund(text: str) -> bool:
    """A lower-case word in -ing, letters only ("estimating")."""
    return text.endswith("ing") and text.isalpha() and text.islower()


def _metric_candidates(doc: Doc, v: list[Tok], lex: Lexicon, heads: list[int],
                       found: list[Candidate]) -> list[Candidate]:
    out = []
    # "FID score": the score of a known metric is that metric.
    known_ends = {c.end for c in found if c.label == "Metric" and c.source in ("gazetteer", "variant")}
    for i in heads:
        tok = v[i]
        low = tok.lower_
        if low in lex.patterns.metric_skip_heads or not tok.text.islower():
            continue
        if low in lex.patterns.score_heads:
            # "VBench score", "CLIP score": a named measure, not "confidence score".
            prev = v[tok.i - 1] if tok.i > 0 else None
            if prev is not None and tok.i not in known_ends and (is_name_like(prev, lex) or (
                    prev.text.isupper() and len(prev.text) >= 2 and prev.text not in lex.not_names)):
                out.append(Candidate(tok.i - 1, tok.i + 1, "Metric", "head"))
            continue
        start = _modifiers(doc, v, tok.i, lex, True, limit=2)
        # "lowest error rate", "provable accuracy": words that judge the value are no part of the name;
        # "the average chord accuracy": nor is a generic owner, nor what comes before it.
        for k in range(start, tok.i):
            if v[k].lower_ in lex.patterns.generic_owners:
                start = k + 1
        while start < tok.i and v[start].lower_.rsplit("-", 1)[-1] in lex.patterns.metric_judging_words:
            start += 1  # "token-level perplexity" too
        if start == tok.i and low in lex.metric_heads_need_modifier:
            continue
        text = view_text(v, doc_text(doc), start, tok.i + 1).lower()
        if text in lex.generic_terms:
            continue
        if _ends_in_generic_term(v, start, tok.i + 1, lex):
            continue  # "cosine learning rates": a setting, not a measure
        out.append(Candidate(start, tok.i + 1, "Metric", "head"))
    return out


def _ends_in_generic_term(v: list[Tok], start: int, end: int, lex: Lexicon) -> bool:
    """Do the last two or more words of tokens start..end, singular, make a generic term?"""
    words = [v[k].lower_ for k in range(start, end)]
    words[-1] = words[-1][:-1] if words[-1].endswith("s") and not words[-1].endswith("ss") else words[-1]
    return any(" ".join(words[k:]) in lex.generic_terms for k in range(len(words) - 1))


def _drop_points_in_time(v: list[Tok], found: list[Candidate], lex: Lexicon) -> None:
    """ "at inference time", "during training time": when something happens,
    not a measure of it; "at varying compression ratios", "under different
    sparsity rates": the settings a method runs at, not a measure of it. Such
    metric candidates are removed."""
    before = lex.patterns.time_point_words
    shapes = lex.patterns

    def setting(c: Candidate) -> bool:
        return c.start > 1 and v[c.start - 1].lower_ in shapes.setting_words \
            and v[c.start - 2].lower_ in shapes.setting_prepositions

    found[:] = [c for c in found if not (c.label == "Metric" and c.start > 0
                                         and (v[c.start - 1].lower_ in before or setting(c)))]


def _metrics_before_nouns(v: list[Tok], found: list[Candidate], lex: Lexicon) -> None:
    """ "an echo error rate predictor", "the accuracy-latency Pareto front": a
    metric before a noun of lex.patterns.metric_described_nouns only describes
    that noun, and is removed; before a task word ("a chord recall task")
    it names the task."""
    keep = []
    for c in found:
        nxt = v[c.end].lower_ if c.label == "Metric" and c.end < v[c.start].sent_end else None
        if nxt in lex.patterns.metric_described_nouns:
            continue
        if nxt in lex.task_cues:
            c = Candidate(c.start, c.end, "Task", "head")
        keep.append(c)
    found[:] = keep


def _is_title(tok: Tok, lex: Lexicon) -> bool:
    t = tok.text
    return (t[:1].isupper() and any(c.isalpha() for c in t) and t not in lex.not_names
            and t.lower() not in lex.name_stop_words) or t.lower() in lex.patterns.title_joiners


def _name_goes_on(v: list[Tok], end: int) -> bool:
    """Does a capitalised word follow token end-1 ("Golden Gate Bridge")? The
    name is longer than the head word tells, and no part of it is taken for
    the whole. (A capitalised word before the run is left alone: "Tangent
    Kernel" of "Neural Tangent Kernel" still names the method by half.)"""
    if end >= v[end - 1].sent_end:
        return False
    t = v[end]
    return not t.is_sent_start and t.text[:1].isupper() and t.is_alpha


def _method_candidates(doc: Doc, v: list[Tok], lex: Lexicon, heads: list[int],
                       found: list[Candidate]) -> list[Candidate]:
    out = []
    # one-word names the gazetteer knows, by position: "the BERT models" is BERT, canonical and all
    known = {c.start: c.canonical for c in found if c.canonical and c.end - c.start == 1 and c.label == "Method"}
    for i in heads:
        tok = v[i]
        low = tok.lower_
        # Title Case: "Nearest Mean Classifier", "Unified Factorized Framework".
        if tok.text[:1].isupper() and not tok.is_sent_start:
            j = tok.i
            sent_start = tok.sent_start
            while j - 1 >= sent_start and tok.i - (j - 1) <= 5 and _is_title(v[j - 1], lex):
                j -= 1
            while j < tok.i and v[j].lower_ in lex.patterns.title_joiners:
                j += 1
            if tok.i - j >= 1 and v[j].text not in lex.not_names and not _name_goes_on(v, tok.i + 1):
                out.append(Candidate(j, tok.i + 1, "Method", "head"))
            continue
        if not tok.text.islower():
            continue
        # "Kuramoto model", "Ising model": a proper name and a method word.
        prev = v[tok.i - 1] if tok.i > tok.sent_start else None
        if prev is not None and not prev.is_sent_start and prev.text[:1].isupper() and prev.text.isalpha() \
                and prev.text not in lex.not_names and prev.lower_ not in lex.name_stop_words \
                and low in lex.patterns.proper_name_method_heads:
            # "Eagle models", "the FooNet model": the model is named by its name alone.
            if low in lex.patterns.heads_after_a_name:
                out.append(Candidate(tok.i - 1, tok.i + 1, "Method", "head", name=prev.text,
                                     canonical=known.get(tok.i - 1)))
            else:
                out.append(Candidate(tok.i - 1, tok.i + 1, "Method", "head"))
            continue
        if low not in lex.method_heads_lowercase:
            continue
        start = _modifiers(doc, v, tok.i, lex, True, limit=3)
        if start == tok.i:
            continue
        mods = [v[k].lower_ for k in range(start, tok.i)]
        if any(m in lex.task_heads or m in lex.metric_heads for m in mods):
            continue
        text = view_text(v, doc_text(doc), start, tok.i + 1).lower()
        if text in lex.generic_terms:
            continue
        out.append(Candidate(start, tok.i + 1, "Method", "head"))
    return out


@lru_cache(maxsize=16)
def _name_like_words(lex: Lexicon) -> WordSet:
    """The name-like words of `lex` (name_like_text), judged once per word."""
    return WordSet(lambda text: name_like_text(text, lex))


def _name_candidates(doc: Doc, v: list[Tok], lex: Lexicon) -> list[Candidate]:
    out = []
    texts = view_columns(doc).texts
    for i in positions(texts, _name_like_words(lex).among(texts)):
        tok = v[i]
        nxt = v[tok.i + 1] if tok.i + 1 < len(v) else None
        label = "Method"
        if lex.patterns.dataset_name_ending.search(tok.text) \
                or (nxt is not None and nxt.lower_ in lex.dataset_cues_after):
            label = "Dataset"
        elif lex.patterns.metric_name_shape.match(tok.text):
            label = "Metric"  # "Robustness@10", "Hits@k"
        out.append(Candidate(_versioned_start(v, tok.i, lex), tok.i + 1, label, "name"))
    return out


def _drop_name_parts(v: list[Tok], found: list[Candidate], lex: Lexicon) -> None:
    """ "an AWS Lambda cluster", "the perturbed Block MDP", "HMMT Feb 2024":
    a name-shaped word right beside a plain capitalised word is part of a
    longer proper name the rules cannot delimit, not a method of its own;
    nor is a special token in brackets ("[MASK]")."""
    def plain_capital(k: int) -> bool:
        if not 0 <= k < len(v) or v[k].is_sent_start:
            return False
        t = v[k].text
        return t[:1].isupper() and t[1:].islower() and t.isalpha() and t not in lex.not_names \
            and t.lower() not in lex.name_stop_words
    found[:] = [c for c in found if c.source != "name" or c.end - c.start != 1
                or not (plain_capital(c.start - 1) and v[c.start - 1].sent_start == v[c.start].sent_start
                        or plain_capital(c.end) and v[c.end].sent_start == v[c.start].sent_start
                        or _special_token(v, c.start))]


def _special_token(v: list[Tok], i: int) -> bool:
    """ "the [MASK] symbol", "the last <EOS> token": a word in square or
    angle brackets is a model's special token, no method."""
    return 0 < i < len(v) - 1 and (v[i - 1].text, v[i + 1].text) in (("[", "]"), ("<", ">"))


def _versioned_start(v: list[Tok], i: int, lex: Lexicon) -> int:
    """Where a name that ends in token `i` begins: at the capitalised word
    before a version ("Swin V2", "Kite V3"), which names what the version is
    of; else at `i`."""
    text = v[i].text
    if i == 0 or text[:1] not in "Vv" or not lex.patterns.version_number.match(text.lower()) \
            or v[i].is_sent_start:
        return i
    prev = v[i - 1]
    word = prev.text.replace("-", "")
    if not prev.text[:1].isupper() or not word.isalpha() or prev.lower_ in lex.name_stop_words \
            or prev.text in lex.not_names:
        return i
    return i - 1



class _RuleStarts(NamedTuple):
    """Where the rules start: token indices (ascending) of their head or cue words."""

    task: list[int]
    metric: list[int]
    method: list[int]
    dataset_cue: list[int]
    dataset_list: list[int]


@lru_cache(maxsize=16)
def _start_words(lex: Lexicon) -> frozenset[str]:
    return lex.task_heads | lex.metric_heads | lex.method_heads | lex.dataset_cues_after \
        | lex.patterns.dataset_list_cues


def _rule_starts(lowers: tuple[str, ...], lex: Lexicon) -> _RuleStarts:
    """The start words of all rules are found together, in one scan of the
    words that runs in C; each rule's own are then picked from those few."""
    hits = positions(lowers, _start_words(lex))

    def among(words: frozenset[str]) -> list[int]:
        return [i for i in hits if lowers[i] in words]

    return _RuleStarts(among(lex.task_heads), among(lex.metric_heads), among(lex.method_heads),
                       among(lex.dataset_cues_after),
                       among(lex.dataset_cues_after | lex.patterns.dataset_list_cues))


@Language.factory("kg_entity_patterns", default_config={"rules": []})
def make_entity_patterns(nlp: Language, name: str, rules: list[str]):
    """The pattern rules, with the lexicon changed by the user's `rules` files."""
    lex = lexicon(rules)
    tc = task_contexts(rules)
    return lambda doc: find_pattern_entities(doc, lex, tc)


def find_pattern_entities(doc: Doc, lex: Lexicon, tc: TaskContexts | None = None) -> Doc:
    tc = tc or task_contexts()
    v = token_view(doc)
    at = _rule_starts(view_columns(doc).lowers, lex)
    found = candidates(doc)
    found += _task_candidates(doc, v, lex, tc, at.task, found)
    found += _narrowed_tasks(doc, v, lex, tc, found)
    found += _cued_tasks(doc, v, lex, tc)
    found += _tasks_before_cues(doc, v, lex, tc)
    found += _listed_tasks(doc, v, lex, tc, found)
    _elided_heads(doc, v, found)
    _drop_fields(doc, v, found, tc)
    _drop_modifiers(doc, v, lex, tc, found)
    _drop_parts(v, found, tc)
    _drop_recast(doc, v, found, tc)
    found += _gerund_candidates(doc, v, lex, tc)
    found += _tool_purposes(doc, v, lex, tc)
    found += _apposed_tool_tasks(doc, v, lex, tc)
    _drop_lone_steps(v, found, tc)
    found += _metric_candidates(doc, v, lex, at.metric, found)
    _drop_points_in_time(v, found, lex)
    _metrics_before_nouns(v, found, lex)
    found += _method_candidates(doc, v, lex, at.method, found)
    found += dataset_cue_candidates(v, lex, at.dataset_cue)
    found += names_after_cues(v, lex, at.dataset_list)
    found += event_names(v, lex, positions(view_columns(doc).lowers, lex.patterns.event_words))
    found += named_parts(v, lex, found)
    found += _name_candidates(doc, v, lex)
    _drop_name_parts(v, found, lex)
    found += evaluated_on(v, lex, found)
    coordinated_types(v, found, lex)
    names_of_tasks(v, found, lex)
    found += versioned_methods(v, found, lex)
    found += listed_methods(v, found, lex)
    found += methods_after_cues(v, found, lex, positions(view_columns(doc)[1], lex.method_list_cues))
    found += listed_datasets(v, found, lex)
    found += joined_list_items(v, found, lex)
    return doc
