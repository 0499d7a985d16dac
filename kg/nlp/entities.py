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

from functools import lru_cache
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.nlp.abbreviations import short_form_uses
from kg.nlp.candidates import PRIORITY, Candidate, candidates
from kg.nlp.lexicon import Lexicon, lexicon
from kg.nlp.tokens import span_text, token_view

SPAN_KEY = "entities"

for _name, _default in (("kg_name", None), ("aliases", None), ("proposed", False), ("canonical", None),
                        ("exact_match", None), ("source", None)):
    if not Span.has_extension(_name):
        Span.set_extension(_name, default=_default)


@lru_cache(maxsize=65536)  # the same names recur in every abstract
def _fold(name: str) -> str:
    low = name.lower()
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low


def _is_title(span: Span) -> bool:
    return all(t.text[:1].isupper() or t.lower_ in ("of", "for", "and", "with", "-") for t in span)


def _head_type(long: Span, lex: Lexicon) -> str | None:
    last = long[-1].lower_
    title = _is_title(long)
    if last in lex.dataset_cues_after:
        return "Dataset"
    if last in lex.metric_heads and last not in lex.method_heads:
        return "Metric"
    if last in lex.task_heads and (last not in lex.method_heads or not title):
        return "Task"
    if last in lex.method_heads:
        return "Method"
    if title:
        return "Method"
    return None


def _pair_candidates(doc: Doc, cands: list[Candidate], lex: Lexicon) -> tuple[list[Candidate], set[str]]:
    out: list[Candidate] = []
    dropped: set[str] = set()
    by_span: dict[tuple[int, int], list[Candidate]] = {}
    for c in cands:
        by_span.setdefault((c.start, c.end), []).append(c)
    uses = short_form_uses(doc) if any(len(sh) > 1 for _, sh in doc._.abbreviations or []) else {}
    for long, short in doc._.abbreviations or []:
        if long.text.lower() in lex.generic_terms or short.text in lex.not_names:
            dropped.add(short.text)
            continue
        title = _is_title(long)
        inside = [c for c in cands if c.end == long.end and c.start >= long.start
                  and (c.start == long.start or (c.source in ("gazetteer", "variant") and not title))]
        on_short = by_span.get((short.start, short.end), [])
        ranked = sorted(inside + on_short, key=lambda c: (-(c.source == "proposal"), -c.rank, -(c.end - c.start)))
        ranked = [c for c in ranked if c.source not in ("name",) or c in on_short]
        label = ranked[0].label if ranked and ranked[0].source != "name" else _head_type(long, lex)
        if label is None:
            label = "Method" if ranked else None
        if label is None:
            continue
        proposed = any(c.proposed for c in inside + on_short)
        name = long.text
        out.append(Candidate(long.start, long.end, label, "abbreviation", name=name, aliases=[short.text],
                             proposed=proposed))
        out.append(Candidate(short.start, short.end, label, "abbreviation", name=name, proposed=proposed))
        if len(short) > 1:  # "SAF R-CNN": its later uses, token by token
            for k, (lg, n) in uses.items():
                if k >= short.end and lg.start == long.start:
                    out.append(Candidate(k, k + n, label, "abbreviation", name=name))
            continue
        forms = {short.text, short.text + "s", short.text[:-1] if short.text.endswith("s") else short.text}
        for tok in token_view(doc)[short.end:]:
            if tok.text in forms:
                out.append(Candidate(tok.i, tok.i + 1, label, "abbreviation", name=name))
    return out, dropped


def _select(cands: list[Candidate]) -> list[Candidate]:
    """Non-overlapping candidates, strongest first (see module docstring)."""
    by_start: dict[int, list[Candidate]] = {}
    for c in cands:
        by_start.setdefault(c.start, []).append(c)

    def strength(c: Candidate) -> int:
        best = c.rank
        if c.end - c.start > 1:
            for start in range(c.start, c.end):
                for o in by_start.get(start, ()):
                    if o is not c and o.label == c.label and o.end <= c.end \
                            and (o.end - o.start) < (c.end - c.start) and o.source not in ("proposal", "abbreviation"):
                        best = max(best, o.rank)
        return best

    scored = sorted(cands, key=lambda c: (-strength(c), -(c.end - c.start), c.start))
    taken = bytearray(max((c.end for c in cands), default=0))
    chosen = []
    for c in scored:
        if any(taken[c.start:c.end]):
            continue
        taken[c.start:c.end] = b"\x01" * (c.end - c.start)
        chosen.append(c)
    return sorted(chosen, key=lambda c: c.start)


def _keep(doc: Doc, c: Candidate, lex: Lexicon, dropped: set[str]) -> bool:
    text = span_text(doc, c.start, c.end)
    if c.source in ("proposal", "abbreviation"):
        return True
    if text in dropped or text in lex.not_names or text.lower() in lex.generic_terms:
        return False
    if c.label == "Method" and text.lower().rstrip("s") in {g.rstrip("s") for g in ("models", "networks")}:
        return False
    return True


@Language.component("kg_entities")
def settle_entities(doc: Doc) -> Doc:
    lex = lexicon()
    cands = list(candidates(doc))
    pair_cands, dropped = _pair_candidates(doc, cands, lex)
    chosen = [c for c in _select(cands + pair_cands) if _keep(doc, c, lex, dropped)]

    # Mentions of one gazetteer entry share the first mention's name ("CIFAR10", "CIFAR-10").
    first_name: dict[str, str] = {}
    for c in chosen:
        if c.canonical and c.name is None:
            c.name = first_name.setdefault(c.canonical, span_text(doc, c.start, c.end))

    # One type per name (from its strongest mention); proposed if any mention is.
    label_of: dict[str, tuple[int, str]] = {}
    proposed: set[str] = set()
    aliases: dict[str, set[str]] = {}
    for c in chosen:
        name = c.name or span_text(doc, c.start, c.end)
        key = _fold(name)
        if key not in label_of or PRIORITY.get(c.source, 0) > label_of[key][0]:
            label_of[key] = (PRIORITY.get(c.source, 0), c.label)
        if c.proposed:
            proposed.add(key)
        for a in c.aliases:
            aliases.setdefault(key, set()).add(a)
    for long, short in doc._.abbreviations or []:
        if short.text not in dropped:
            aliases.setdefault(_fold(long.text), set()).add(short.text)
    for key, al in aliases.items():
        if key in proposed:
            proposed.update(_fold(a) for a in al)

    spans = []
    proposed_name = None
    for c in chosen:
        name = c.name or span_text(doc, c.start, c.end)
        key = _fold(name)
        span = Span(doc, c.start, c.end, label=label_of[key][1])
        ext = span._  # each `span._` builds a new accessor: write them all through one
        ext.kg_name = name
        ext.aliases = sorted(aliases.get(key, ())) or None
        ext.proposed = key in proposed
        ext.canonical = c.canonical
        ext.exact_match = c.exact_match or None
        ext.source = c.source
        if proposed_name is None and key in proposed and span.label_ == "Method":
            proposed_name = name
        spans.append(span)
    doc.spans[SPAN_KEY] = spans
    doc._.proposed_name = proposed_name
    return doc
