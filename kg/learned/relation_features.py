"""What the relation linker knows of a method and a task (addresses), a
method and a dataset (evaluatedOn) or two methods (improvesOver) that one
abstract names: whether the
paper proposes the method, where each is named (title, first sentence, how
often), the sentences that name both and the words between them there, and
whether the rules already relate them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from spacy.tokens import Doc

from kg.entities.entity import fold_name
from kg.learned.entity_features import Group, entity_groups
from kg.nlp.tokens import sentence_starts_of, token_view

# The predicate for each kind of object.
OBJECTS = {"addresses": "Task", "evaluatedOn": "Dataset", "improvesOver": "Method"}


@dataclass
class Named:
    """One entity of an abstract with its title: its groups in each Doc."""

    label: str
    key: str
    name: str
    proposed: bool = False
    abstract: Group | None = None
    title: Group | None = None
    sources: set[str] = field(default_factory=set)


def named_entities(doc: Doc) -> dict[tuple[str, str], Named]:
    """The entities of an abstract's Doc and of its title's (doc._.title_doc),
    under the keys the record groups them by, named as the record names
    them (the abstract's name first)."""
    named: dict[tuple[str, str], Named] = {}
    parts = [(doc, "abstract")] + ([(doc._.title_doc, "title")] if doc._.title_doc is not None else [])
    for part, where in parts:
        for group in entity_groups(part):
            same = next((n for (lab, k), n in named.items() if k == group.key), None)
            n = same or named.setdefault((group.label, group.key), Named(group.label, group.key, group.name))
            setattr(n, where, group)
            n.proposed = n.proposed or any(m.proposed for m in group.mentions)
            n.sources |= {str(m.source) for m in group.mentions}
    return named


def candidate_pairs(named: dict[tuple[str, str], Named],
                    predicates: Iterable[str] = OBJECTS) -> Iterator[tuple[str, Named, Named]]:
    """The (predicate, method, object) pairs the linker judges: each method
    the abstract or its title names with each other entity of the
    predicate's object type."""
    for predicate in predicates:
        for method in (n for n in named.values() if n.label == "Method"):
            for other in (n for n in named.values() if n.label == OBJECTS[predicate] and n is not method):
                yield predicate, method, other


def _bucket(n: int, top: int) -> str:
    return str(n) if n < top else f"{top}+"


class PairReader:
    """Reads the features of pairs of one abstract's entities."""

    def __init__(self, doc: Doc, named: dict[tuple[str, str], Named], rule_pairs: set[tuple[str, str, str]]):
        self.doc = doc
        self.v = token_view(doc)
        starts = sentence_starts_of(doc)
        self.sentence_of = {}
        for k, start in enumerate(starts):
            end = starts[k + 1] if k + 1 < len(starts) else len(self.v)
            for i in range(start, end):
                self.sentence_of[i] = k
        self.named = named
        self.rule_pairs = rule_pairs
        self.main = fold_name(doc._.proposed_name) if doc._.proposed_name else None
        self.counts = {label: sum(1 for n in named.values() if n.label == label)
                       for label in ("Method", "Dataset", "Task", "Metric")}
        self.proposed = sum(1 for n in named.values() if n.label == "Method" and n.proposed)

    def features(self, predicate: str, method: Named, other: Named) -> dict[str, float]:
        p = predicate + "|"
        f: dict[str, float] = {p + "bias": 1.0,
                               p + "methods=" + _bucket(self.counts["Method"], 5): 1.0,
                               p + "objects=" + _bucket(self.counts[other.label], 5): 1.0,
                               p + "proposals=" + _bucket(self.proposed, 3): 1.0}
        if method.proposed:
            f[p + "m_proposed"] = 1.0
        if other.proposed:
            f[p + "o_proposed"] = 1.0
        if self.main is not None and method.key == self.main:
            f[p + "m_main"] = 1.0
        for who, n in (("m", method), ("o", other)):
            if n.title is not None:
                f[p + who + "_in_title"] = 1.0
            if n.abstract is None:
                f[p + who + "_title_only"] = 1.0
            else:
                f[p + who + "_mentions=" + _bucket(len(n.abstract.mentions), 4)] = 1.0
                first = self.sentence_of.get(n.abstract.mentions[0].start, 0)
                f[p + who + "_first_sentence=" + _bucket(first, 3)] = 1.0
            for source in n.sources:
                f[p + who + "_source=" + source] = 1.0
        if (predicate, method.key, other.key) in self.rule_pairs:
            f[p + "rules"] = 1.0
        if method.proposed and self.counts[other.label] == 1:
            f[p + "proposal_and_only_object"] = 1.0
        self._together(p, method, other, f)
        return f

    def _together(self, p: str, method: Named, other: Named, f: dict[str, float]) -> None:
        """The sentences that name both, and the words between them in the closest."""
        if method.abstract is None or other.abstract is None:
            return
        best = None
        shared = set()
        for a in method.abstract.mentions:
            for b in other.abstract.mentions:
                if self.sentence_of.get(a.start) != self.sentence_of.get(b.start):
                    continue
                shared.add(self.sentence_of.get(a.start))
                gap = b.start - a.end if a.start < b.start else a.start - b.end
                if best is None or gap < best[0]:
                    best = (gap, a, b)
        f[p + "together=" + _bucket(len(shared), 3)] = 1.0
        if best is None:
            return
        gap, a, b = best
        f[p + "gap=" + _bucket(max(gap, 0) // 3, 4)] = 1.0
        f[p + ("method_first" if a.start < b.start else "object_first")] = 1.0
        lo, hi = (a.end, b.start) if a.start < b.start else (b.end, a.start)
        for k in range(lo, min(hi, lo + 10)):
            word = self.v[k].lower_
            if not self.v[k].is_space:
                f[p + "between=" + word] = 1.0
        first = min(a.start, b.start)
        for k in range(max(0, first - 3), first):
            if not self.v[k].is_space:
                f[p + "before=" + self.v[k].lower_] = 1.0
