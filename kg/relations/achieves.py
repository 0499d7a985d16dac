"""The rules of achieves: the scores a sentence reports, each with the
method that reached it, its metric and its dataset; margins over a baseline
are left to improvesOver."""

from __future__ import annotations

import re

from kg.relations.found import FoundRelations
from kg.relations.improves_over import Comparison, owns_gain
from kg.relations.metric_dataset import (
    dataset_near,
    metric_near,
    next_starts,
    number_run_end,
)
from kg.relations.number_roles import MARGINS, Role, number_role
from kg.relations.numbers import Quantity
from kg.relations.results import (
    averaged,
    cost_figure,
    efficiency,
    for_method,
    measured_against,
    plain_score,
    previous_in_list,
    respective_metric,
    respective_subject,
    rules_of,
)
from kg.relations.sentence import Sentence, run_of, start_of_clause
from kg.relations.subjects import find_subject


def find_achievements(s: Sentence, comparisons: list[Comparison], found: FoundRelations) -> None:
    if not s.of("Metric") and not rules_of(s).plain_score_cue.search(s.text):
        return  # a score is in a metric (metric_near) or "a score of" (plain_score): without one, no number need be read
    c = s.cues
    nexts = next_starts(s)
    for q in s.quantities:
        role = number_role(s, q)
        if role.role in (Role.DROP, Role.SETTING) or (role.role is Role.OTHER and role.owner is None):
            continue  # a drop, a loss, a setting, or the score of someone unnamed: no score of anyone's
        gain = role.role in MARGINS
        if gain and owns_gain(s, comparisons, q):
            continue  # said by how much it beats a baseline: an improvesOver value
        run_end = number_run_end(s, q)
        metric = respective_metric(s, q) or metric_near(s, q, run_end)
        before = previous_in_list(s, q) if metric is None else None
        while before is not None and metric is None:  # "85.3% accuracy on A and 62.1% on B"
            metric = metric_near(s, before, number_run_end(s, before))
            before = previous_in_list(s, before)
        if metric is None:
            metric = _metric_of_run(s, q)  # "accuracies of 80.1% and 82.3%": the run's first number's metric
        if metric is None and role.role is Role.OTHER:
            # "BarNet's 70% and BazNet's 50% accuracy"; "an accuracy (83.2%) close to BarNet (83.3%)"
            metric = _possessive_list_metric(s, q) or _compared_metric(s, q)
        if metric is None and not s.of("Metric"):
            metric = plain_score(s, q)  # "a best-yet score of 71.84 on FooBench"
        if metric is None and q.from_value is not None:
            # "improves F1 on X from 86% to 87%": the last metric before "from", no number between.
            before = [m for m in s.of("Metric") if m.end <= q.start
                      and not any(m.end <= o.start < q.start for o in s.quantities)]
            metric = before[-1].name if before else None
        if metric is None:
            continue
        achieved = c.achieve_verb.search(s.text[:q.start], s.places)
        if q.unit is None and not re.search(r"\d\.\d|^0", q.value) and not achieved:
            continue  # a bare whole number ("3 layers") is rarely a score
        if role.role is Role.OTHER:
            _credit(s, q, role.owner, metric, nexts, found)  # "compared to 80.1% for BarNet": BarNet's
            continue
        excluded = [(b.start, b.end) for comp in comparisons for b in comp.baselines]
        subject, conf = find_subject(s, q.start, excluded)
        if subject is None:
            subject, conf = _sole_method(s, q.start, excluded)
        if subject is not None:
            subject = respective_subject(s, q, subject)  # "A and B reach 80.1% and 82.3%, respectively"
        named = for_method(s, run_end)
        if named is not None:
            subject, conf = named.name, 0.8  # "141 tokens/s for FooNet-8B and 117 tokens/s for FooNet-70B"
        if subject is None:
            continue
        if gain and (not efficiency(s, q, metric, run_end) or measured_against(s, start_of_clause(s, q.start), q)):
            continue  # a margin over something unnamed is no score reached; a speedup is, unless over a yardstick
        dataset = dataset_near(s, q.start, q.end, nexts.get(q.start, len(s.text)))
        if averaged(s, run_end) or (not s.of("Dataset") and cost_figure(s, metric, run_end)):
            dataset = None  # an average over several datasets; a speed measured on hardware
        rel = {"s": subject, "p": "achieves", "metric": metric, "value": q.value, "unit": q.unit, "dataset": dataset}
        found.add(s, rel, conf * (0.9 if achieved else 0.75))


def _credit(s: Sentence, q: Quantity, owner: str, metric: str, nexts: dict[int, int], found: FoundRelations) -> None:
    """Another method's score, named in the sentence ("BarNet's 50% accuracy"),
    as that method's achieves."""
    dataset = dataset_near(s, q.start, q.end, nexts.get(q.start, len(s.text)))
    rel = {"s": owner, "p": "achieves", "metric": metric, "value": q.value, "unit": q.unit, "dataset": dataset}
    found.add(s, rel, 0.6)


_POSSESSIVE_NEXT = re.compile(r"\s*(?:,\s*)?(?:and\s+)?")


def _possessive_list_metric(s: Sentence, q: Quantity) -> str | None:
    """ "compared to BarNet's 70% and BazNet's 50% accuracy": each method's
    number of a list of possessives takes the metric named after the last."""
    later = [o for o in s.quantities if o.start > q.start and o.unit == q.unit]
    for o in later:
        owner = number_role(s, o).owner
        named = next((m for m in s.of("Method") if m.name == owner and q.end <= m.start < o.start), None)
        if named is None or not _POSSESSIVE_NEXT.fullmatch(s.text, q.end, named.start):
            return None
        metric = metric_near(s, o, number_run_end(s, o))
        if metric is not None:
            return metric
        q = o
    return None


def _compared_metric(s: Sentence, q: Quantity) -> str | None:
    """The metric of the score before another method's number in the same
    unit, the two being compared: "an accuracy (83.2%) on par with BarNet (83.3%)"."""
    before = [o for o in s.quantities if o.end <= q.start and o.unit == q.unit and number_role(s, o).role is Role.SCORE]
    return metric_near(s, before[-1], number_run_end(s, before[-1])) if before else None


def _sole_method(s: Sentence, pos: int, excluded: list[tuple[int, int]]) -> tuple[str | None, float]:
    """In a paper that proposes nothing, the one method named in the clause
    of a number (or dataset) at `pos` is what the result is of: "we reach
    78.4% accuracy on ImageNet with a pruned FooNet-L3" (the authors
    apply it). It must be written as a name, after a word of results
    `applied_links` ("with a pruned FooNet-L3", "on BarNet-50"), and no
    comparison may stand between it and the number: "outperforming the
    BarNet baseline", "a log loss of 1.47", "on a Quill2 phone" name what is
    compared, measured or run on."""
    if s.main is not None:
        return None, 0.0
    clause = start_of_clause(s, pos)
    names = {m.name for m in s.of("Method") if all(m.end <= a or m.start >= b for a, b in excluded)
             and start_of_clause(s, m.start) == clause}
    if len(names) != 1:
        return None, 0.0
    m = next(m for m in s.of("Method") if m.name in names and start_of_clause(s, m.start) == clause)
    written = s.text[m.start:m.end]
    if written.islower() or not rules_of(s).applied_link.search(s.text, max(0, m.start - 40), m.start):
        return None, 0.0
    between = s.text[min(m.end, pos):max(m.start, pos)]
    if s.cues.improve_verb.search(between, s.places, min(m.end, pos)) or s.cues.compared_to.search(between, s.places, min(m.end, pos)):
        return None, 0.0
    return m.name, 0.55


def _metric_of_run(s: Sentence, q: Quantity) -> str | None:
    """ "top-1 accuracies of 80.1% and 82.3% on A and B": a number later in a
    run of numbers (numbers.runs) takes the metric named before the run's
    first number, in the same unit."""
    run = run_of(s, q)
    first = run[0]
    if first is q or first.unit != q.unit:
        return None
    return metric_near(s, first, first.end)
