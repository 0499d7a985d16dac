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

import weakref
from bisect import bisect_left
from collections.abc import Iterator, MutableMapping
from functools import lru_cache, partial
from operator import attrgetter
from typing import Any, Iterable, NamedTuple

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from kg.nlp.abbreviations import abbreviation_pairs, short_form_uses
from kg.nlp.candidates import PRIORITY, Candidate, candidates
from kg.nlp.lexicon import Lexicon, lexicon
from kg.nlp.tokens import Tok, doc_text, token_view, view_columns, view_text

SPAN_KEY = "entities"

for _name, _default in (("kg_name", None), ("aliases", None), ("proposed", False), ("canonical", None),
                        ("exact_match", None), ("source", None)):
    if not Span.has_extension(_name):
        Span.set_extension(_name, default=_default)


# -- the entity extensions, read and written in bulk -----------------------------
# Every `span._` builds an accessor object, and each attribute read or write on
# it goes through Python-level checks; the record and the relations read these
# extensions for every entity of every abstract. spaCy keeps the value of an
# extension that has a default (no getter, setter or method) in doc.user_data
# under ("._.", name, span.start_char, span.end_char) (see
# spacy.tokens.underscore.Underscore._get_key), so these helpers read and write
# that store directly: `span._.kg_name` and the rest see the same values.
class SpanExtensions:
    """Read or write the Span._ extensions `names` of the spans of one Doc,
    in bulk: read(span) is [span._.<name> for name in names], write(span,
    values) sets them in that order."""

    def __init__(self, doc: Doc, names: tuple[str, ...]):
        self.store = doc.user_data
        self.names = names
        self.defaults = tuple(Span.get_extension(name)[0] for name in names)
        # Direct access is valid only for plain extensions with an immutable
        # default (spaCy copies a mutable one into user_data on first read).
        self.direct = all(_kept_in_user_data(name) for name in names)

    def read(self, span: Span) -> list[Any]:
        if not self.direct:
            ext = span._
            return [getattr(ext, name) for name in self.names]
        get = self.store.get
        a, b = span.start_char, span.end_char
        return [get(("._.", name, a, b), default) for name, default in zip(self.names, self.defaults)]

    def write(self, span: Span, values: Iterable[Any], overwrite: bool = True) -> None:
        """Set the values; with overwrite=False, not those already set (a
        value kept elsewhere than in user_data, by a setter, is always set)."""
        if not self.direct:
            ext = span._
            for name, value in zip(self.names, values):
                if overwrite or ("._.", name, span.start_char, span.end_char) not in self.store:
                    setattr(ext, name, value)
            return
        store = self.store
        a, b = span.start_char, span.end_char
        for name, value in zip(self.names, values):
            if overwrite:
                store[("._.", name, a, b)] = value
            else:
                store.setdefault(("._.", name, a, b), value)


def _kept_in_user_data(name: str, owner: type = Span) -> bool:
    default, method, getter, setter = owner.get_extension(name)
    return method is None and getter is None and setter is None and not isinstance(default, (dict, list, set))


def set_doc_extension(doc: Doc, name: str, value: Any) -> None:
    """doc._.<name> = value, written straight to doc.user_data when the
    extension is kept there (see SpanExtensions): `doc._` costs as much as
    settling a few entities."""
    if _kept_in_user_data(name, Doc):
        doc.user_data[("._.", name, None, None)] = value
    else:
        setattr(doc._, name, value)


def doc_extension(doc: Doc, name: str) -> Any:
    """doc._.<name>, read straight from doc.user_data when it is kept there."""
    if _kept_in_user_data(name, Doc):
        return doc.user_data.get(("._.", name, None, None), Doc.get_extension(name)[0])
    return getattr(doc._, name)


class Entity(NamedTuple):
    """A settled entity as plain values: a span of doc.spans["entities"] with
    the extensions kg_entities wrote on it. The record and the relations read
    these instead of building Span objects and reading their extensions again."""

    start: int  # token offsets
    end: int
    start_char: int
    end_char: int
    label: str
    name: str | None  # Span._.kg_name
    aliases: list[str] | None
    proposed: bool
    canonical: str | None
    exact_match: list[str] | None
    source: str | None


# Entity(*values) without the NamedTuple's Python-level __new__ (a third of
# the cost of making one): `values` must hold every field, in order.
_entity = partial(tuple.__new__, Entity)


def settled_entities(doc: Doc) -> list[Entity]:
    """The entities of doc.spans["entities"], in order. kg_entities keeps them
    in doc.user_data and builds the span group only when doc.spans is first
    used (see _PendingSpanGroups); when that group was replaced or changed
    since (spans set by hand, as the gold-entity tests do), they are read
    from the spans."""
    kept = doc.user_data.get("kg_entities")
    if kept is not None:
        pending = doc.spans.data
        if isinstance(pending, _PendingSpanGroups) and pending.entities is kept[1]:
            return kept[1]  # doc.spans untouched since kg_entities: no group to read
    group = doc.spans.get(SPAN_KEY)
    kept = doc.user_data.get("kg_entities")  # building the group updated it
    if kept is not None and kept[0] is group and len(kept[1]) == len(group):
        return kept[1]
    if group is None:
        return []
    extensions = SpanExtensions(doc, _WRITTEN)
    return [Entity(span.start, span.end, span.start_char, span.end_char, span.label_, *extensions.read(span))
            for span in group]


def _span_group(doc: Doc, entities: list[Entity], overwrite: bool) -> SpanGroup:
    """The entity spans, with their extension values written in bulk (see
    SpanExtensions.write for `overwrite`)."""
    spans = []
    extensions = SpanExtensions(doc, _WRITTEN)
    for e in entities:
        span = Span(doc, e.start, e.end, label=e.label)
        extensions.write(span, (e.name, e.aliases, e.proposed, e.canonical, e.exact_match, e.source), overwrite)
        spans.append(span)
    return SpanGroup(doc, name=SPAN_KEY, spans=spans)


class _PendingSpanGroups(MutableMapping):
    """The dict behind doc.spans (SpanGroups is a UserDict, this its `data`)
    while the entity group is not built yet.

    The pipeline's own readers (the relations, the record) take the settled
    entities as plain values from settled_entities; a Span and six extension
    values per entity would cost about a quarter of settling. So kg_entities
    puts this stand-in in place of doc.spans.data, and the first use of
    doc.spans in any way (a read, a test for a key, a change, a copy, a
    serialisation) builds the group, puts the plain dict back and goes on
    from it: doc.spans[SPAN_KEY] and the spans' extensions read as if the
    group had been written at once. A value set by hand in between (as
    `span._.kg_name = ...` on a span at an entity's offsets) is kept, as it
    would have overwritten the one settled; _keep_settled builds the group
    at once when values set before settling are there to be overwritten."""

    def __init__(self, doc: Doc, groups: dict, entities: list[Entity]):
        self._doc = weakref.ref(doc)  # the Doc owns this: no cycle back to it
        self._groups = groups
        self.entities: list[Entity] | None = entities  # None once built

    def _built(self) -> dict:
        if self.entities is not None:
            entities, self.entities = self.entities, None
            doc = self._doc()
            group = _span_group(doc, entities, overwrite=False)
            self._groups[SPAN_KEY] = group
            doc.user_data["kg_entities"] = (group, entities)
            if doc.spans.data is self:
                doc.spans.data = self._groups
        return self._groups

    def __getitem__(self, key: str) -> SpanGroup:
        return self._built()[key]

    def __setitem__(self, key: str, value: SpanGroup) -> None:
        self._built()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    def __repr__(self) -> str:
        return repr(self._built())


def _keep_settled(doc: Doc, entities: list[Entity]) -> None:
    """Store the settled entities; doc.spans[SPAN_KEY] is built from them on
    first use, or now when entity extension values are already set (the
    Doc was settled before, or a rule wrote them): settling overwrites those."""
    groups = doc.spans.data
    if isinstance(groups, _PendingSpanGroups):  # settled before and never used since: nothing was written
        groups = doc.spans.data = groups._groups
    if _has_entity_values(doc.user_data):
        group = _span_group(doc, entities, overwrite=True)
        groups[SPAN_KEY] = group
        doc.user_data["kg_entities"] = (group, entities)
        return
    doc.user_data["kg_entities"] = (None, entities)
    doc.spans.data = _PendingSpanGroups(doc, groups, entities)


def _has_entity_values(store: dict) -> bool:
    """Does `store` (a doc.user_data) hold a value of an entity extension of some span?"""
    if tuple not in set(map(type, store)):  # (the extensions' keys are tuples; kg keeps its own under strings)
        return False
    return any(type(key) is tuple and len(key) == 4 and key[0] == "._." and key[1] in _WRITTEN and key[3] is not None
               for key in store)


@lru_cache(maxsize=65536)  # the same names recur in every abstract
def fold_name(name: str) -> str:
    """The key under which mentions count as one name: lower case, without a
    plural "s". The record merges its entities by the same key."""
    low = name.lower()
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low


def _is_title(v: list[Tok], start: int, end: int, lex: Lexicon) -> bool:
    """Is every word of tokens start..end capitalised (or a joiner such as "of")?"""
    joiners = lex.patterns.long_form_title_joiners
    return all(tok.text[:1].isupper() or tok.lower_ in joiners for tok in v[start:end])


def _head_type(v: list[Tok], long: Span, short: Span, lex: Lexicon) -> str | None:
    last = v[long.end - 1].lower_
    title = _is_title(v, long.start, long.end, lex)
    if last in lex.dataset_cues_after:
        return "Dataset"
    # "pseudo-log-likelihood (PLL)"; "Kullback Leibler (KL) divergence", "Answer Correctness (AC) metric".
    after = short.end + (short.end < len(v) and v[short.end].text == ")")
    if last.rsplit("-", 1)[-1] in lex.patterns.hyphen_metric_heads \
            or (after < len(v) and v[after].lower_ in lex.patterns.metric_words_after_pairs):
        return "Metric"
    if last in lex.metric_heads and last not in lex.method_heads:
        return "Metric"
    if last in lex.task_heads and (last not in lex.method_heads or not title):
        return "Task"
    if last in lex.method_heads:
        return "Method"
    if title:
        return "Method"
    return None


def word_positions(texts: tuple[str, ...], idxs: tuple[int, ...], text: str, words: set[str],
                   start: int = 0) -> list[int]:
    """kg.nlp.tokens.positions(texts, words, start) for a Doc's token texts
    and offsets and its text: the tokens from `start` on that are one of
    `words`. A short form is a rare string in the text, so str.find
    finds its few places at once where tuple.index would compare it with
    every token."""
    if start >= len(texts):
        return []
    found = []
    for word in words:
        if not word:
            continue  # no token is empty
        at = text.find(word, idxs[start])
        while at >= 0:
            i = bisect_left(idxs, at, start)
            if i < len(idxs) and idxs[i] == at and texts[i] == word:
                found.append(i)
            at = text.find(word, at + 1)
    found.sort()
    return found


def _pair_candidates(v: list[Tok], texts: tuple[str, ...], idxs: tuple[int, ...], text: str,
                     pairs: list[tuple[Span, Span]], cands: list[Candidate], lex: Lexicon,
                     uses: dict[int, tuple[Span, int]]) -> tuple[list[Candidate], set[str]]:
    out: list[Candidate] = []
    dropped: set[str] = set()
    by_end: dict[int, list[Candidate]] = {}
    if pairs:
        for c in cands:
            by_end.setdefault(c.end, []).append(c)
    for long, short in pairs:
        long_text = view_text(v, text, long.start, long.end)  # Span.text would visit every Token
        short_text = view_text(v, text, short.start, short.end)
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
        for i in word_positions(texts, idxs, text, forms, short.end):  # every later use of the short form
            out.append(Candidate(i, i + 1, label, "abbreviation", name=name))
    return out, dropped


# Candidates of these rules lend no strength to a longer span around them.
_NOT_LENDING = ("proposal", "abbreviation")


def _select(cands: list[Candidate], n_tokens: int) -> list[Candidate]:
    """Non-overlapping candidates, strongest first (see module docstring);
    they lie within the first `n_tokens` tokens."""
    lenders: list[tuple[int, int, str, int]] | None = None  # made for the first span of several tokens
    # (-strength, -length, start, end, index) of each candidate: sorting these
    # tuples orders the candidates as a stable sort by the first three would.
    order = []
    for k, c in enumerate(cands):
        start, end = c.start, c.end
        strength = PRIORITY.get(c.source, 0)
        if end - start > 1:  # as strong as the strongest shorter span of its type inside it
            if lenders is None:
                lenders, lender_starts = _lenders(cands)
            for o_start, o_end, label, rank in lenders[bisect_left(lender_starts, start):
                                                       bisect_left(lender_starts, end)]:
                if rank > strength and label == c.label and o_end <= end and o_end - o_start < end - start:
                    strength = rank
        order.append((-strength, start - end, start, end, k))
    order.sort()
    taken = bytearray(n_tokens)
    chosen = []
    for _, _, start, end, k in order:
        if end - start == 1:
            if taken[start]:
                continue
            taken[start] = 1
        else:
            if 1 in taken[start:end]:
                continue
            taken[start:end] = b"\x01" * (end - start)
        chosen.append(cands[k])
    chosen.sort(key=_start)
    return chosen


def _lenders(cands: list[Candidate]) -> tuple[list[tuple[int, int, str, int]], list[int]]:
    """(start, end, label, rank) of the candidates that lend a longer span
    their strength, by start; and their starts."""
    lenders = [(o.start, o.end, o.label, PRIORITY.get(o.source, 0)) for o in cands if o.source not in _NOT_LENDING]
    lenders.sort()
    return lenders, [o[0] for o in lenders]


_start = attrgetter("start")


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


# The extensions settle_entities writes on each entity span, in this order.
_WRITTEN = ("kg_name", "aliases", "proposed", "canonical", "exact_match", "source")


@Language.factory("kg_entities", default_config={"rules": []})
def make_entities(nlp: Language, name: str, rules: list[str]):
    """Settling, with the lexicon changed by the user's `rules` files."""
    lex = lexicon(rules)
    return lambda doc: settle_entities(doc, lex)


def settle_entities(doc: Doc, lex: Lexicon) -> Doc:
    pairs = abbreviation_pairs(doc)
    v = token_view(doc)
    text = doc_text(doc)
    cands = candidates(doc)
    # Uses of short forms of several tokens ("SAF R-CNN"); one-token forms are found by word.
    uses = short_form_uses(doc) if any(sh.end - sh.start > 1 for _, sh in pairs) else {}
    columns = view_columns(doc)
    pair_cands, dropped = _pair_candidates(v, columns[0], columns[2], text, pairs, cands, lex, uses)
    # The chosen mentions: (candidate, start character, text as written, name, folded name).
    mentions: list[tuple[Candidate, int, str, str, str]] = []
    first_name: dict[str, str] = {}
    label_of: dict[str, tuple[int, str]] = {}
    proposed: set[str] = set()
    aliases: dict[str, set[str]] = {}
    texts, idxs = columns[0], columns[2]
    for c in _select(cands + pair_cands, len(texts)):
        start_char = idxs[c.start]
        written = text[start_char:idxs[c.end - 1] + len(texts[c.end - 1])]  # view_text, inlined
        if c.source not in _KEPT_SOURCES and not _keep(written, c, lex, dropped):
            continue
        # Mentions of one gazetteer entry share the first mention's name ("CIFAR10", "CIFAR-10").
        if c.canonical and c.name is None:
            c.name = first_name.setdefault(c.canonical, written)
        name = c.name or written
        key = fold_name(name)
        mentions.append((c, start_char, written, name, key))
        # One type per name (from its strongest mention); proposed if any mention is.
        rank = PRIORITY.get(c.source, 0)
        if key not in label_of or rank > label_of[key][0]:
            label_of[key] = (rank, c.label)
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
    namings: dict[str, int] = {}  # proposed Method -> times named (a definition "Long (L)" once)
    last_end: dict[str, int] = {}
    for c, start_char, written, name, key in mentions:
        label = label_of[key][1]
        is_proposed = key in proposed
        al = aliases.get(key)
        settled.append(_entity((c.start, c.end, start_char, start_char + len(written), label, name,
                                sorted(al) if al else None, is_proposed, c.canonical, c.exact_match or None,
                                c.source)))
        if is_proposed and label == "Method":
            if name not in last_end or text[last_end[name]:start_char].strip() not in ("", "("):
                namings[name] = namings.get(name, 0) + 1
            last_end[name] = start_char + len(written)
    _keep_settled(doc, settled)
    # The main proposal, as the relation rules choose it: the one named most often, the first on a tie.
    set_doc_extension(doc, "proposed_name", max(namings, key=namings.__getitem__) if namings else None)
    return doc
