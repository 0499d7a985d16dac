"""Settle the entity candidates into the final doc.spans["entities"].

1. Each abbreviation pair becomes one entity: the long form is the name, the
   short form an alias, and every later use of the short form a mention. Its
   type comes from a rule that matched the long or short form, else from the
   long form's last word (lexicon heads), else Method for a Title Case name.
   Pairs whose long form is generic ("large language models (LLMs)") are
   dropped, short form and all.
2. Overlaps: the stronger rule wins (candidates.PRIORITY), a longer span of
   the same type counting as strong as the strongest span inside it.
3. Generic words and non-names are dropped; every mention of a name carries
   the same type, and the proposed flag when any mention has it.
"""

from __future__ import annotations

import re

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.entities.candidates import Candidate, candidates
from kg.entities.entity import Entity, fold_name, write_entities
from kg.entities.lexicon import Lexicon, lexicon
from kg.entities.task_contexts import (
    TaskContexts,
    list_join,
    means_before,
    task_contexts,
)
from kg.entities.task_mentions import (
    is_task_pair,
    means_only_tasks,
    narrowed_task_names,
    task_after_pair,
    tasks_in_method_names,
)
from kg.nlp.abbreviations import abbreviation_pairs, short_form_uses
from kg.nlp.tokens import Tok, doc_text, positions, token_view, view_columns, view_text
from kg.proposals.main import most_named, namings


def _is_title(v: list[Tok], start: int, end: int, lex: Lexicon) -> bool:
    """Is every word of tokens start..end capitalised (or a joiner such as "of")?"""
    joiners = lex.patterns.long_form_title_joiners
    return all(tok.text[:1].isupper() or tok.lower_ in joiners for tok in v[start:end])


def _head_type(v: list[Tok], long: Span, short: Span, lex: Lexicon) -> str | None:
    last = v[long.end - 1].lower_
    title = _is_title(v, long.start, long.end, lex)
    # "Foo Faces (FF) Database": the word after the short form says what the pair names
    # (not after a task: "Fine-Grained Classification (FGC) datasets" are the task's).
    after = short.end + (short.end < len(v) and v[short.end].text == ")")
    if last in lex.dataset_cues_after or (after < len(v) and v[after].lower_ in lex.patterns.dataset_nouns
                                          and last not in lex.task_heads):
        return "Dataset"
    # "pseudo-log-likelihood (PLL)"; "Kullback Leibler (KL) divergence", "Answer Correctness (AC) metric".
    if last.rsplit("-", 1)[-1] in lex.patterns.hyphen_metric_heads \
            or (after < len(v) and v[after].lower_ in lex.patterns.metric_words_after_pairs):
        return "Metric"
    if last in lex.metric_heads and last not in lex.method_heads:
        return "Metric"
    if is_task_pair(v, long, after, lex):
        return "Task"
    if last in lex.task_heads and (last not in lex.method_heads or not title):
        return "Task"
    if last in lex.method_heads:
        return "Method"
    if title:
        return "Method"
    return None


def _pair_candidates(v: list[Tok], texts: tuple[str, ...], text: str, pairs: list[tuple[Span, Span]],
                     cands: list[Candidate], lex: Lexicon,
                     uses: dict[int, tuple[Span, int]]) -> tuple[list[Candidate], set[str]]:
    out: list[Candidate] = []
    dropped: set[str] = set()
    by_end: dict[int, list[Candidate]] = {}
    for c in cands:
        by_end.setdefault(c.end, []).append(c)
    for long, short in pairs:
        long_text = view_text(v, text, long.start, long.end)
        short_text = view_text(v, text, short.start, short.end)
        task = task_after_pair(v, long, short, long_text, short_text, lex)
        if task is not None:
            out.append(task)
        if long_text.lower() in lex.generic_terms or short_text in lex.not_names:
            dropped.add(short_text)
            continue
        title = _is_title(v, long.start, long.end, lex)
        inside = [c for c in by_end.get(long.end, ()) if c.start >= long.start
                  and (c.start == long.start or (c.source in ("gazetteer", "variant") and not title))]
        on_short = [c for c in by_end.get(short.end, ()) if c.start == short.start]
        ranked = sorted(inside + on_short, key=lambda c: (-(c.source == "proposal"), -c.rank, -(c.end - c.start)))
        ranked = [c for c in ranked if c.source not in ("name",) or c in on_short]
        label = ranked[0].label if ranked and ranked[0].source != "name" else _head_type(v, long, short, lex)
        if label is None:
            label = "Method" if ranked else None
        if label is None:
            continue
        proposed = any(c.proposed for c in inside + on_short)
        name = long_text
        out.append(Candidate(long.start, long.end, label, "abbreviation", name=name, aliases=[short_text],
                             proposed=proposed))
        out.append(Candidate(short.start, short.end, label, "abbreviation", name=name, proposed=proposed))
        if short.end - short.start > 1:  # "SAF R-CNN": its later uses, token by token
            for k, (lg, n) in uses.items():
                if k >= short.end and lg.start == long.start:
                    out.append(Candidate(k, k + n, label, "abbreviation", name=name))
            continue
        forms = {short_text, short_text + "s", short_text[:-1] if short_text.endswith("s") else short_text}
        for i in positions(texts, forms, short.end):  # every later use of the short form
            out.append(Candidate(i, i + 1, label, "abbreviation", name=name))
    return out, dropped


# Candidates of these rules lend no strength to a longer span around them.
_NOT_LENDING = ("proposal", "abbreviation")


def _strength(c: Candidate, by_start: dict[int, list[Candidate]]) -> int:
    """How strongly `c` holds its tokens in an overlap: its rule's rank, or
    that of a shorter candidate of the same type inside it, if higher."""
    best = c.rank
    for start in range(c.start, c.end):
        for o in by_start.get(start, ()):
            if o.end <= c.end and o.end - o.start < c.end - c.start and o.source not in _NOT_LENDING \
                    and (o.label == c.label or _modifier_of_task(c, o.label, o.end)):
                best = max(best, o.rank)
    return best


def _modifier_of_task(c: Candidate, label: str, o_end: int) -> bool:
    """A method or metric name before a task word is that task's modifier:
    "latency estimation", "chain-of-thought reasoning" are tasks."""
    return c.label == "Task" and c.source == "head" and label in ("Method", "Metric") and o_end < c.end


def _select(cands: list[Candidate]) -> list[Candidate]:
    """Non-overlapping candidates, strongest first, then longest, then
    leftmost (see module docstring); in text order."""
    by_start: dict[int, list[Candidate]] = {}
    for c in cands:
        by_start.setdefault(c.start, []).append(c)
    ranked = sorted(cands, key=lambda c: (-_strength(c, by_start), -(c.end - c.start), c.start))
    taken: set[int] = set()
    chosen = []
    for c in ranked:
        tokens = range(c.start, c.end)
        if not taken.isdisjoint(tokens):
            continue
        taken.update(tokens)
        chosen.append(c)
    return sorted(chosen, key=lambda c: c.start)


# The paper's own names and abbreviations are kept whatever their words.
_KEPT_SOURCES = ("proposal", "abbreviation")


def _keep(text: str, c: Candidate, lex: Lexicon, dropped: set[str]) -> bool:
    """Is candidate `c`, whose text is `text`, a name worth keeping?"""
    if c.source in _KEPT_SOURCES:
        return True
    if text in dropped or text in lex.not_names:
        return False
    low = text.lower()
    if low in lex.generic_terms:
        return False
    if c.label == "Method" and low.rstrip("s") in lex.patterns.generic_methods:
        return False
    return True


@Language.factory("kg_entities", default_config={"rules": []})
def make_entities(nlp: Language, name: str, rules: list[str]):
    """Settling, with the lexicon changed by the user's `rules` files."""
    lex = lexicon(rules)
    means, join, tc = means_before(rules), list_join(rules), task_contexts(rules)
    return lambda doc: settle_entities(doc, lex, means, join, tc)


def settle_entities(doc: Doc, lex: Lexicon, means: re.Pattern | None = None, join: re.Pattern | None = None,
                    tc: TaskContexts | None = None) -> Doc:
    pairs = abbreviation_pairs(doc)
    v = token_view(doc)
    text = doc_text(doc)
    cands = candidates(doc)
    texts = view_columns(doc).texts
    pair_cands, dropped = _pair_candidates(v, texts, text, pairs, cands, lex, short_form_uses(doc))
    mentions: list[tuple[Candidate, str]] = []  # the chosen candidates, each with its name
    first_name: dict[str, str] = {}
    label_of: dict[str, tuple[int, str]] = {}
    proposed: set[str] = set()
    aliases: dict[str, set[str]] = {}
    for c in _select(cands + pair_cands):
        written = view_text(v, text, c.start, c.end)
        if not _keep(written, c, lex, dropped):
            continue
        # Mentions of one gazetteer entry share the first mention's name ("CIFAR10", "CIFAR-10").
        if c.canonical and c.name is None:
            c.name = first_name.setdefault(c.canonical, written)
        name = c.name or written
        key = fold_name(name)
        mentions.append((c, name))
        # One type per name (from its strongest mention); proposed if any mention is.
        if key not in label_of or c.rank > label_of[key][0]:
            label_of[key] = (c.rank, c.label)
        if c.proposed:
            proposed.add(key)
        if c.aliases:
            aliases.setdefault(key, set()).update(c.aliases)
    for long, short in pairs:
        short_text = view_text(v, text, short.start, short.end)
        if short_text not in dropped:
            aliases.setdefault(fold_name(view_text(v, text, long.start, long.end)), set()).add(short_text)
    for key, al in aliases.items():
        if key in proposed:
            proposed.update(fold_name(a) for a in al)

    settled = []
    for c, name in mentions:
        key = fold_name(name)
        label = label_of[key][1]
        is_proposed = key in proposed
        al = aliases.get(key)
        last = v[c.end - 1]
        settled.append(Entity(start=c.start, end=c.end, start_char=v[c.start].idx, end_char=last.idx + len(last.text),
                              label=label, name=name, aliases=sorted(al) if al else None, proposed=is_proposed,
                              canonical=c.canonical, exact_match=c.exact_match or None, source=c.source))
    settled = narrowed_task_names(settled, fold_name)
    settled = means_only_tasks(settled, text, means or means_before(), join or list_join())
    settled = tasks_in_method_names(settled, v, text, lex, tc)
    write_entities(doc, settled)
    doc._.proposed_name = most_named(namings(((e.name, e.start_char, e.end_char) for e in settled
                                               if e.proposed and e.label == "Method"), text))
    return doc
