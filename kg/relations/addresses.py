"""The rules of addresses: the tasks a sentence names, given to the paper's
proposal or, in a sentence about the methods of others, to the methods whose
task it is (cues: kg/relations/address_cues.py)."""

from __future__ import annotations

from kg.relations.address_cues import AddressCues, address_cues
from kg.relations.found import FoundRelations
from kg.relations.sentence import Mention, Sentence, start_of_clause
from kg.relations.subjects import find_subject, refers_to_proposal, written_proposal


def find_addresses(s: Sentence, found: FoundRelations) -> None:
    if not s.of("Task"):
        return
    about_others = s.main is None or _about_others(s)
    c = s.address_cues or address_cues()
    for t in s.of("Task"):
        first = _first_listed_task(s, t, c).start
        if c.means.search(s.text, 0, first) or c.uses.search(s.text, 0, first) or c.absent.search(s.text, 0, first):
            # "FooNet fuses span retrieval", "applications such as web search", "without domain adaptation":
            # not what it addresses
            continue
        for example in _class_examples(s, t):
            found.add(s, {"s": example, "p": "addresses", "o": t.name}, 0.42)
        if about_others:
            # "Mamba offers a fast alternative for long-context modeling": Mamba's task, whether or not
            # the paper proposes something of its own.
            subjects = _methods_for_task(s, t, purpose_only=s.main is not None)
            for subject in subjects:
                found.add(s, {"s": subject, "p": "addresses", "o": t.name}, 0.42)
            if s.main is None:
                continue
            if subjects:
                # The paper's own method may take up a task that others are known for.
                found.add(s, {"s": s.main, "p": "addresses", "o": t.name}, 0.45)
                continue
        subject, conf = find_subject(s, t.start)
        if subject is not None and subject != s.main:
            # Background sentences name other methods; the paper's tasks are its proposal's,
            # unless another of its own proposals is named.
            if not any(m.proposed and m.name == subject for m in s.mentions):
                subject = None
        if subject is None:
            # "Results on language modeling show that FooNet ...": a proposal named after the task.
            later = [m for m in s.of("Method") if m.start >= t.end and m.proposed]
            subject, conf = (later[0].name, 0.6) if later else (s.main, 0.5)
        found.add(s, {"s": subject, "p": "addresses", "o": t.name}, conf)


def _about_others(s: Sentence) -> bool:
    """A sentence that names none of the paper's proposals and says neither
    "we" nor "our method": it is about the methods of others."""
    if any(m.proposed for m in s.of("Method")) or written_proposal(s, s.text) is not None:
        return False
    return not refers_to_proposal(s, len(s.text))


def _methods_for_task(s: Sentence, t: Mention, purpose_only: bool = False) -> list[str]:
    """The methods whose task `t` is: those that open its clause ("BERT and T5
    are strong at question answering", "Rankers such as BERT are strong at
    ..."), else the one right before "for" ("DeepSets for set representation",
    "DeepSets for sets and graphs"). With `purpose_only`, those that open the
    clause only where a purpose word leads to the task ("BERT is a model for
    QA", not "BERT made progress in QA")."""
    c = s.address_cues or address_cues()
    start = start_of_clause(s, t.start)
    before = [m for m in s.of("Method") if start <= m.start and m.end <= t.start
              and not c.rival.search(s.text, start, m.start)]
    if not before and start > 0 and c.relative.search(s.text, 0, start):
        # "SSMs are models that have emerged for sequence modeling": the clause before "that",
        # a purpose word leading to the task ("models that consist of retrieval" name a part).
        purpose_only = True
        start = start_of_clause(s, c.relative.search(s.text, 0, start).start())
        before = [m for m in s.of("Method") if start <= m.start and m.end <= t.start
                  and not c.rival.search(s.text, start, m.start)]
    if not before:
        return _finding_subject(s, t, c) if s.main is None else []
    first_task = _first_listed_task(s, t, c)
    if c.opening.fullmatch(s.text, start, before[0].start) or c.examples.fullmatch(s.text, start, before[0].start) \
            or (start == 0 and c.lead_in.fullmatch(s.text, 0, before[0].start)):
        if not purpose_only or c.purpose_before.search(s.text, start, first_task.start):
            return [m.name for m in _listed(s, before, c)]
    if c.purpose.fullmatch(s.text, before[-1].end, first_task.start):
        return [before[-1].name]
    if s.main is None:
        # A paper that proposes nothing: "We audit FooLM and BarLM on stance prediction".
        studied = [m for m in s.of("Method") if m.end <= t.start]
        for k, m in enumerate(studied):
            if c.study.search(s.text, 0, m.start):
                return [n.name for n in _listed(s, studied[k:], c)]
    return []


def _class_examples(s: Sentence, t: Mention) -> list[str]:
    """The examples of a class of methods named by task `t`: "manifold
    learning algorithms such as UMAP and IsoMap", "approaches for
    transferability estimation (LogME, kNN)"."""
    c = s.address_cues or address_cues()
    after = [m for m in s.of("Method") if m.start >= t.end]
    if not after:
        return []
    if c.class_after.fullmatch(s.text, t.end, after[0].start) or (
            c.class_before.search(s.text, 0, _first_listed_task(s, t, c).start)
            and c.class_examples.fullmatch(s.text, t.end, after[0].start)):
        return [m.name for m in _listed(s, after, c)]
    return []


def _finding_subject(s: Sentence, t: Mention, c: AddressCues) -> list[str]:
    """ "Experiments on passage ranking show that FooNet ...": the method
    opening the clause after a task named where results were found."""
    if not c.finding.match(s.text) or start_of_clause(s, t.start) != 0:
        return []
    for m in s.of("Method"):
        if m.start >= t.end:
            start = start_of_clause(s, m.start)
            if start > t.end and c.opening.fullmatch(s.text, start, m.start):
                return [n.name for n in _listed(s, [n for n in s.of("Method") if n.start >= m.start], c)]
            return []
    return []


def _listed(s: Sentence, methods: list[Mention], c: AddressCues) -> list[Mention]:
    """The first of `methods` with those listed after it ("BERT, RoBERTa and
    T5") or given as its examples ("SSMs, such as Mamba")."""
    out = [methods[0]]
    for m in methods[1:]:
        between = s.text[out[-1].end:m.start]
        if not between.strip(" ()") or c.joint.fullmatch(between):
            out.append(m)
        else:
            break
    return out


def _first_listed_task(s: Sentence, t: Mention, c: AddressCues) -> Mention:
    """The first task of the list that ends with `t`: "for parsing, tagging and chunking"."""
    tasks = [m for m in s.of("Task") if m.end <= t.start]
    first = t
    for m in reversed(tasks):
        if not c.joint.fullmatch(s.text, m.end, first.start):
            break
        first = m
    return first
