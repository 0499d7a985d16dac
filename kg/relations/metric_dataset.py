"""The metric a number of a sentence is stated in and the dataset it was
measured on (training data told apart from the datasets results are measured
on), with the spans of text those are read in: shared by the improvesOver
and achieves rules, and by the evaluatedOn rules for training data. The
words they match are the rule family "results" (kg/relations/results.py)."""

from __future__ import annotations

import re

from kg.relations.numbers import Quantity, number_reader, runs
from kg.relations.results import (
    named_for_training,
    respective,
    rules_of,
    score_list,
    unit_fits,
)
from kg.relations.sentence import Mention, Sentence, end_of_clause, start_of_clause


def metric_near(s: Sentence, q: Quantity, run_end: int) -> str | None:
    """The metric a number is stated in: "22.3% WER", "WER of 22.3%",
    "by 2% in accuracy", "an FID score of 2.35" (the words between are the
    results family's metric_value_* and value_metric_* keys). A metric its
    unit cannot be stated in ("320 ms" and WER) is not it."""
    text = s.text
    r = rules_of(s)
    # "NDCG@10 (0.7225)": a number alone in brackets after its metric.
    bracketed = text[q.end:q.end + 3].lstrip().startswith(")")
    for m in s.of("Metric"):
        if q.start < m.start < q.end:
            return m.name  # the unit is the metric: "141 tokens/s"
        if not unit_fits(s, q.unit, m.name):
            continue
        if m.end <= q.start and (r.metric_then_value.fullmatch(text, m.end, q.start)
                                 or (bracketed and _OPEN_BRACKET.fullmatch(text, m.end, q.start))):
            return m.name
        if m.start >= run_end and r.value_then_metric.fullmatch(text, run_end, m.start):
            return m.name
    return None


_OPEN_BRACKET = re.compile(r"\s*\(\s*")


def dataset_near(s: Sentence, q_start: int, q_end: int, next_start: int) -> str | None:
    """The dataset a number was measured on: the one paired with it in order
    ("85.1% and 78.3% on A and B"), the only one in the sentence, the only
    one between this number and the next, or the nearest before it in the
    clause. Training data does not count. A sentence that names no dataset
    has the one of the results before it (results.result_setting)."""
    datasets = tested_datasets(s)
    if not datasets:
        return None if s.of("Dataset") else s.context_dataset
    q = next((q for q in s.quantities if q.start == q_start), None)
    paired = respective(s, q, "Dataset", s.quantities) if q is not None else None
    if paired:
        return paired
    names = {d.name for d in datasets}
    if len(names) == 1:
        return datasets[0].name
    next_start = min(next_start, end_of_clause(s, q_end))
    after = {d.name for d in datasets if q_end <= d.start < next_start}
    if not after and q is not None:
        # "NDCG@10 (0.72) and MAP (0.51) on TREC DL": the dataset after a list is each number's.
        last = score_list(s, q)[-1]
        q_end, next_start = last.end, min(next_starts(s).get(last.start, next_start), end_of_clause(s, last.end))
        after = {d.name for d in datasets if q_end <= d.start < next_start}
    if after:
        return after.pop() if len(after) == 1 else None
    start = start_of_clause(s, q_start)
    before = [d for d in datasets if start <= d.start and d.end <= q_start]
    if before and rules_of(s).dataset_before.search(s.text[max(0, before[-1].start - 10):before[-1].start]):
        return before[-1].name
    return None


def tested_datasets(s: Sentence) -> list[Mention]:
    """The datasets of the sentence that results may be measured on: those
    not named as training data, or, where all are, those trained on (not
    pre-trained on): "When trained on ImageNet, it reaches an FID of 7.4"."""
    datasets = s.of("Dataset")
    tested = [d for d in datasets if not is_training_data(s, d)]
    if tested or not datasets:
        return tested
    return [d for d in datasets if not rules_of(s).pretrained_on.search(s.text[max(0, d.start - 60):d.start])]


def is_training_data(s: Sentence, d: Mention) -> bool:
    """ "trained on D", "pre-trained on D", "the training set of D"; also
    data taken from D to make other data ("samples collected from D"): no
    set results are measured on."""
    before = s.text[max(0, d.start - 60):d.start]
    r = rules_of(s)
    return bool(r.trained_on.search(before) or r.source_from.search(before)) or \
        named_for_training(s, start_of_clause(s, d.start), d)


def number_run_end(s: Sentence, q: Quantity) -> int:
    for run in runs(s.text, s.quantities, s.numbers):
        if q in run:
            return run[-1].end
    return q.end


def next_starts(s: Sentence) -> dict[int, int]:
    """Where the next number after each number begins: the window in which a
    dataset after a number is that number's. A count ("on 30 datasets from
    MTEB") is no next result and does not close the window."""
    qs = s.quantities
    results = [q for q in qs if not _counts(s, q)]
    out = {}
    for q in qs:
        nxt = next((r.start for r in results if r.start > q.start), len(s.text))
        out[q.start] = nxt
    return out


def _counts(s: Sentence, q: Quantity) -> bool:
    """A whole number with no unit right before a plural noun ("40 datasets";
    units `count_nouns`): how many, not a result."""
    return q.unit is None and q.value.isdigit() and bool((s.numbers or number_reader()).counted.match(s.text, q.end))
