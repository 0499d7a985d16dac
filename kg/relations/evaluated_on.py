"""The rules of evaluatedOn: the datasets a sentence tests a method on,
the paper's own datasets where results name none ("our benchmark" stands
for them), and the datasets of the scores and margins found. A sentence
that names no subject for its dataset tests the paper's proposal (each of
its proposals introduced in its own right) only when it is about the
paper's work, not background or another method's result."""

from __future__ import annotations

from typing import Iterable, Sequence

from kg.relations.found import FoundRelations
from kg.relations.improves_over import Comparison
from kg.relations.metric_dataset import is_training_data
from kg.relations.results import ResultRules, rules_of
from kg.relations.sentence import Mention, Sentence
from kg.relations.subjects import find_subject, refers_to_proposal


def find_evaluations(s: Sentence, comparisons: list[Comparison], found: FoundRelations) -> None:
    c = s.cues
    datasets = s.of("Dataset") or _own_dataset_referred(s)
    if not datasets:
        _evaluations_on_own_data(s, found)
        _results_on_own_data(s, found)
        return
    evaluative = bool(c.evaluation.search(s.text, s.places) or rules_of(s).outcome.search(s.text))
    excluded = [(b.start, b.end) for comp in comparisons for b in comp.baselines]
    for d in datasets:
        if is_training_data(s, d):
            continue  # training data, not a test
        subject, conf = find_subject(s, d.start, excluded)
        other = subject is not None and s.main is not None and subject != s.main \
            and not any(m.proposed and m.name == subject for m in s.mentions)
        if other:
            # In a paper with a proposal, other methods named beside a dataset are
            # mostly background ("X has been applied to D"); the proposal is what is tested.
            subject = None
        peers = False
        if subject is None and s.main and evaluative and _tests_own_work(s, other):
            subject, conf = s.main, 0.5
            peers = len(s.peer_proposals) > 1 and s.main in s.peer_proposals
        if subject is None:
            subject, conf = _subject_after(s, d.end, excluded)
        if subject is None or (d.proposed and subject == s.main and not _tested_on_own(s, d, evaluative)):
            continue
        if not evaluative:
            conf *= 0.7
        names = _listed_with(s, subject, d.start)
        if peers:  # "Experiments on D show ...", in a paper of several proposals: each is tested
            names = list(dict.fromkeys(names + list(s.peer_proposals)))
        for name in names:
            found.add(s, {"s": name, "p": "evaluatedOn", "o": d.name}, conf)


def _own_dataset_referred(s: Sentence) -> list[Mention]:
    """ "We evaluate 12 rankers on our benchmark": words that stand for the
    dataset of the paper's own named last before the sentence (results
    own_dataset_references), as a mention of it where they stand."""
    if not s.own_datasets:
        return []
    m = rules_of(s).own_dataset_reference.search(s.text)
    if m is None:
        return []
    return [Mention(m.start(), m.end(), "Dataset", s.own_datasets[-1], True, -1, -1)]


def _tests_own_work(s: Sentence, other_subject: bool) -> bool:
    """Whether a sentence that speaks of evaluation but names no subject for
    its dataset tests the paper's proposal there: it names the proposal, or
    "we", "our method"; or it comes after the proposal was first named and
    its dataset's clause is about no other method. Not the background before
    the proposal ("Deep models reach strong results on ImageNet"), nor
    another method's result ("BarNet reaches 71% on D")."""
    if any(m.proposed for m in s.mentions) or refers_to_proposal(s, len(s.text)):
        return True
    return s.last_proposal is not None and not other_subject


def _tested_on_own(s: Sentence, d: Mention, evaluative: bool) -> bool:
    """Whether the sentence tests the proposal on `d`, a dataset of the
    paper's own: it speaks of evaluation, and does not make the dataset
    ("we release FooBench", "we build a benchmark called FooBench")."""
    return evaluative and not s.cues.release_verb.search(s.text, 0, d.start)


def _evaluations_on_own_data(s: Sentence, found: FoundRelations) -> None:
    """ "We build FooBench, a benchmark for ... Experiments show that our
    method ...": a sentence that reports results with the proposal as their
    subject and names no dataset reports them on the datasets the paper made
    before it."""
    if s.main is None or not s.own_datasets:
        return
    c = s.cues
    report = c.report_verb.search(s.text)
    if report is None or not c.evaluation.search(s.text[:report.start()], s.places):
        return
    subject, _ = find_subject(s, len(s.text))
    if subject != s.main:
        return
    for name in s.own_datasets:
        found.add(s, {"s": s.main, "p": "evaluatedOn", "o": name}, 0.5)


def _results_on_own_data(s: Sentence, found: FoundRelations) -> None:
    """ "We introduce FooBench ... We also propose FooNet, a ranker that
    stays competitive in every setting": a result said of a proposal of the paper
    (the subject of the sentence's first word of evaluation) in a sentence
    that names no dataset is on the dataset the paper made last before it.
    Another method's result there is left alone: mostly a finding about
    earlier work ("existing models show no gain")."""
    if not s.own_datasets:
        return
    for cue in s.cues.evaluation.finditer(s.text, s.places):
        subject, _ = find_subject(s, cue.start())
        if subject is None:
            continue
        if subject == s.main or any(m.proposed and m.name == subject for m in s.mentions):
            found.add(s, {"s": subject, "p": "evaluatedOn", "o": s.own_datasets[-1]}, 0.5)
        return


def evaluations_of_results(found: FoundRelations) -> None:
    """A score or a margin on a dataset says the method was evaluated on it."""
    for rel in found.items():
        if rel["p"] in ("achieves", "improvesOver") and rel.get("dataset") and rel.get("value"):
            key = (rel["s"], "evaluatedOn", rel["dataset"], None, None, None)
            if key not in found.by_key:
                evaluation = {"s": rel["s"], "p": "evaluatedOn", "o": rel["dataset"], "span": rel.get("span"),
                              "confidence": rel["confidence"]}
                # a score of the title has no sentence (kg.relations.title_scores)
                found.by_key[key] = {k: v for k, v in evaluation.items() if v is not None}


def _subject_after(s: Sentence, pos: int, excluded: list[tuple[int, int]]) -> tuple[str | None, float]:
    """ "On ImageNet, ResNet-50 reaches ...": a proposed method named after
    the dataset; in a paper that proposes nothing by name, also a method
    evaluated there ("On FooBench, we conduct an evaluation of 45 rerankers")."""
    for m in s.of("Method"):
        if m.start >= pos and all(m.end <= a or m.start >= b for a, b in excluded):
            if m.proposed:
                return m.name, 0.7
            if s.main is None and s.cues.evaluated_object.search(s.text, pos, m.start):
                return m.name, 0.6
    return None, 0.0


def _listed_with(s: Sentence, subject: str, pos: int) -> list[str]:
    """ "We compare A, B and C on D": the subject and the methods listed with
    it (its mention nearest `pos`), those that could be the subject
    themselves: any, in a paper that proposes nothing by name, else the
    paper's own."""
    methods = s.of("Method")
    at = [k for k, m in enumerate(methods) if m.name == subject]
    if not at:
        return [subject]
    k = min(at, key=lambda k: abs(methods[k].start - pos))
    lo = hi = k
    join = s.cues.subject_list_join  # ", ", " and ", " & "
    while lo > 0 and join.fullmatch(s.text, methods[lo - 1].end, methods[lo].start):
        lo -= 1
    while hi + 1 < len(methods) and join.fullmatch(s.text, methods[hi].end, methods[hi + 1].start):
        hi += 1
    listed = [m.name for m in methods[lo:hi + 1] if s.main is None or m.proposed or m.name == subject]
    return list(dict.fromkeys(listed))


def peer_proposals(ents: Sequence[Mention], text: str, sentences: Iterable[tuple[int, int, int, int]],
                   rules: ResultRules) -> list[tuple[int, str]]:
    """The proposals the paper introduces each in its own right, with where:
    the first proposed method of a sentence, after a verb of results
    peer_proposal_verbs in that sentence ("Next, we propose FooDistill").
    `ents` are the document's mentions, `sentences` (first token, end
    token, start char, end char) as the relation component walks them."""
    proposed = [m for m in ents if m.label == "Method" and m.proposed]
    out: list[tuple[int, str]] = []
    if len(proposed) < 2:
        return out
    k = 0
    for _, _, start, end in sentences:
        while k < len(proposed) and proposed[k].start < start:
            k += 1
        if k < len(proposed) and proposed[k].start < end \
                and rules.peer_proposal_verb.search(text, start, proposed[k].start):
            out.append((proposed[k].start, proposed[k].name))
    return out
