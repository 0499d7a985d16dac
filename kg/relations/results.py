"""Whose result a number is, and in which metric and on which dataset: the
rules that attach a number of a sentence to the mentions around it (rule
family "results", kg/resources/rules/results.json). Used by the achieves
rules (kg/relations/achieves.py) and by the metric and dataset finder
(kg/relations/metric_dataset.py), which the improvesOver values share.

- A number after "the previous best", "compared to", "than" is another
  method's score ("surpassing the previous best IS of 47.3").
- Lists pair in order: "IS and FID of 232.5 and 8.1", "2.3 and 1.1 points
  on A and B, respectively".
- A result whose sentence names no dataset was measured on the dataset that
  the last sentence naming one (and reporting results) named, when it named
  only one ("Experiments on Foo-1000 ... It reaches a WER of 13.1%.").
- A multiplier in speed, memory or cost is a figure reached ("a 3x
  speedup"), unless a yardstick is named with it ("comparable to X").
- An average over several datasets has none of them; training data is no
  dataset of a result or of an evaluation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from kg import rules
from kg.relations.cues import list_join
from kg.relations.numbers import Quantity
from kg.relations.role_rules import RoleRules, role_rules
from kg.relations.sentence import Mention, Sentence, open_bracket, run_of
from kg.rules import any_of


@dataclass(frozen=True)
class ResultRules:
    """The compiled rule family "results"."""

    baseline_score: re.Pattern  # ends where the number begins: "... the previous best IS of "
    efficiency: re.Pattern
    respectively: re.Pattern
    yardstick: re.Pattern
    averaged: re.Pattern  # matched right after a number's metric words
    training: re.Pattern
    plain_score: re.Pattern  # ends where the number begins
    plain_score_cue: re.Pattern  # plain_score's words anywhere: a sentence with no metric may hold a score
    testing: re.Pattern
    result_opener: re.Pattern
    qualifier: re.Pattern  # the whole of a baseline_score match that only qualifies the number: "than "
    change_before: re.Pattern  # ends where the number begins: "reduces memory by "
    method_link: re.Pattern  # matched right after a number's metric words: " for "
    training_data: re.Pattern  # ends where the dataset begins: "of the ", "from "
    trained_on: re.Pattern  # ends where the dataset begins: "trained on ", "pre-trained on the "
    pretrained_on: re.Pattern  # the same for pre-training only
    source_from: re.Pattern  # ends where the dataset begins: "collected from ", "sourced from the "
    own_dataset_reference: re.Pattern  # "our benchmark", "the proposed dataset"
    share_of: re.Pattern  # matched right after a number: " of the original performance"
    peer_proposal_verb: re.Pattern  # "we propose " before the first proposal of a sentence
    outcome: re.Pattern  # "better", "performs": with relation_cues evaluation, a sentence of evaluation
    score_context: re.Pattern  # ends where the number begins: "achieves ", "an accuracy of about "
    other_score: re.Pattern  # right after a comparison's cue: " 3.17 for ", " only 86.9% of the "
    dataset_after: re.Pattern  # right after a baseline: " on seven of the eight ", " on the "
    possessive_score: re.Pattern  # fullmatch between a baseline and its own number: "'s gain of only "
    dataset_before: re.Pattern  # ends where a dataset begins: "on ", "in the "
    next_in_list: re.Pattern  # fullmatch between two scores each with its dataset: "% on A and "
    name_list_join: re.Pattern  # fullmatch between two names of a list: ", ", " and the " (entity_patterns' separators)
    metric_then_value: re.Pattern  # fullmatch between a metric and its number: " score of about "
    value_then_metric: re.Pattern  # fullmatch between a number and its metric: " points higher in "
    unit_metrics: dict  # unit -> pattern a metric's name must hold to be stated in it
    applied_link: re.Pattern  # ends where a method begins: "with a pruned ", "on "
    baseline_score_cue: re.Pattern  # a cue of baseline_score anywhere: "compared to the QuillFormer model (83.3%)"
    roles: RoleRules  # the rule family "number_roles", read with the same files
    pieces: dict  # key -> its regular-expression pieces, for tests and docs


@rules.compiled
def result_rules(extra: tuple[str, ...]) -> ResultRules:
    """The result rules, with the changes of the user's rules files `extra`."""
    data = rules.load("results", extra)
    # "by up to 3x": the relation rules' words between a margin's cue and its number.
    qualifiers = rf"(?:{any_of(rules.load('relation_cues', extra)['number_qualifiers'], longest_first=True)}\s+)*"
    approximate = rf"(?:{any_of(data['approximate_words'], longest_first=True)}\s+)?"  # "a score of about 69.3"
    return ResultRules(
        # The cue, then at most a few words (a metric's name, "of", "at") and no other number.
        baseline_score=re.compile(
            rf"\b{any_of(data['baseline_score_before'], longest_first=True)}(?:\s+|\s*[:=(]\s*)"
            rf"(?:(?!{any_of(data['baseline_score_breaks'], longest_first=True)}\s)[^\s\d.,;:()]+\s+){{0,4}}?"
            rf"(?:{any_of(data['possessive_score_links'], longest_first=True)}\s+|=\s*|:\s*|\(\s*)?{approximate}~?$", re.I),
        efficiency=re.compile(rf"\b{any_of(data['efficiency'], longest_first=True)}", re.I),
        respectively=re.compile(rf"\b{any_of(data['respectively'], longest_first=True)}\b", re.I),
        yardstick=re.compile(rf"\b{any_of(data['yardsticks'], longest_first=True)}\b", re.I),
        plain_score=re.compile(rf"\b{any_of(data['plain_scores'], longest_first=True)}\s+{approximate}~?$", re.I),
        plain_score_cue=re.compile(rf"\b{any_of(data['plain_scores'], longest_first=True)}\s", re.I),
        training=re.compile(rf"\b{any_of(data['training_words'], longest_first=True)}", re.I),
        testing=re.compile(rf"\b{any_of(data['test_words'], longest_first=True)}", re.I),
        averaged=re.compile(rf"\s*(?:[^\s\d,;:()]+\s+){{0,3}}?{any_of(data['averaged_over'], longest_first=True)}\b", re.I),
        result_opener=re.compile(rf"\b{any_of(data['result_openers'], longest_first=True)}", re.I),
        qualifier=re.compile(rf"{any_of(data['qualifier_cues'], longest_first=True)}\s*~?", re.I),
        change_before=re.compile(rf"\b{any_of(data['change_before'], longest_first=True)}\s+{qualifiers}~?$", re.I),
        method_link=re.compile(rf"\s*(?:[^\s\d,;:()]+\s+){{0,2}}?{any_of(data['method_links'], longest_first=True)}\s+(?:the\s+)?", re.I),
        training_data=re.compile(
            rf"\b{any_of(data['training_data_links'], longest_first=True)}\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){{0,3}}?$", re.I),
        trained_on=re.compile(rf"\b{any_of(data['trained_on_words'], longest_first=True)}\s+(?:[\w-]+\s+){{0,3}}?on\s+(?:the\s+)?$", re.I),
        pretrained_on=re.compile(rf"\b{any_of(data['pretrained_on_words'], longest_first=True)}\s+(?:[\w-]+\s+){{0,3}}?on\s+(?:the\s+)?$",
                                 re.I),
        own_dataset_reference=re.compile(rf"\b{any_of(data['own_dataset_references'], longest_first=True)}\b", re.I),
        share_of=re.compile(rf"\s*{any_of(data['share_of'], longest_first=True)}\b", re.I),
        source_from=re.compile(rf"\b{any_of(data['source_words'], longest_first=True)}\s+(?:[\w-]+\s+){{0,2}}?from\s+(?:the\s+|previous\s+|earlier\s+)*$", re.I),
        peer_proposal_verb=re.compile(rf"\b{any_of(data['peer_proposal_verbs'], longest_first=True)}", re.I),
        outcome=re.compile(rf"\b{any_of(data['outcome_words'], longest_first=True)}", re.I),
        score_context=re.compile(
            rf"\b{any_of(data['score_words'], longest_first=True)}\s+(?:{any_of(data['score_qualifiers'], longest_first=True)}\s+)?~?$", re.I),
        # "compared with 3.17 for DDPM", "versus 86.9% of BERT": the other method's score.
        other_score=re.compile(
            # The number may carry its metric, written as metrics are ("42.8 AP for BarNet", "7.1 mIoU by").
            rf"\s*(?:{any_of(data['other_score_qualifiers'], longest_first=True)}\s+)?(?P<num>\d+(?:\.\d+)?)\s?%?"
            rf"(?:\s+(?-i:[^\s\d,;:()]*[A-Z@][^\s,;:()]*))?\s+"
            rf"{any_of(data['other_score_links'], longest_first=True)}\s+(?:the\s+|a\s+|an\s+)?", re.I),
        possessive_score=re.compile(
            rf"(?:'|\u2019)s\s+(?:[\w-]+\s+){{0,3}}?{any_of(data['possessive_score_links'], longest_first=True)}\s+"
            rf"(?:{any_of(data['other_score_qualifiers'], longest_first=True)}\s+)?", re.I),
        dataset_after=re.compile(rf"\s*(?:[\w-]+\s+){{0,6}}?{any_of(data['comparison_dataset_links'], longest_first=True)}\s+(?:the\s+)?", re.I),
        dataset_before=re.compile(rf"\b{any_of(data['dataset_before_links'], longest_first=True)}\s+(?:the\s+)?$", re.I),
        name_list_join=re.compile(rf"{list_join(rules.load('entity_patterns', extra)['list_separators'])}(?:the\s+)?", re.I),
        # "85.3% on A and 62.1% on B": the words before each number's dataset are dataset_before's.
        next_in_list=re.compile(rf"\s*(?:(?!\d)[^\s,;:()]+\s+){{0,3}}?{any_of(data['dataset_before_links'], longest_first=True)}\s+(?:the\s+)?"
                                r"[^,;:()]{1,40}?(?:,\s*(?:and\s+)?|\s+and\s+)(?:(?:an?|the)\s+)?", re.I),
        # "WER of 22.3%", "an FID score of 2.35", "NDCG@10 (nDCG) of 0.72".
        metric_then_value=re.compile(
            rf"\s*(?:\(\w+\)\s*)?{any_of(data['metric_value_nouns'], longest_first=True)}?\s*{any_of(data['metric_value_links'], longest_first=True)}?"
            rf"\s*{any_of(data['metric_value_qualifiers'], longest_first=True)}?\s*(?:the\s+)?", re.I),
        # "22.3% WER", "2 points higher in accuracy", "a reduction of 3% in terms of WER".
        value_then_metric=re.compile(
            rf"\s*(?:{any_of(data['value_metric_words'], longest_first=True)}\s+){{0,3}}(?:{any_of(data['value_metric_links'], longest_first=True)}\s+)?"
            rf"(?:{any_of(data['value_metric_skipped'], longest_first=True)}\s+)?", re.I),
        applied_link=re.compile(rf"\b{any_of(data['applied_links'], longest_first=True)}\s+(?:[^\s\d,;:()]+\s+){{0,2}}?$", re.I),
        baseline_score_cue=re.compile(rf"\b{any_of(data['baseline_score_before'], longest_first=True)}(?!\w)", re.I),
        roles=role_rules(extra),
        unit_metrics={unit: re.compile(rf"\b{any_of(words, longest_first=True)}(?!\w)", re.I) for unit, words in data['unit_metrics'].items()},
        pieces={k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in data.items()},
    )


def rules_of(s: Sentence) -> ResultRules:
    return s.result_rules or result_rules()


def unit_fits(s: Sentence, unit: str | None, metric: str) -> bool:
    """Whether a number in `unit` may be stated in `metric`: "320 ms" is a
    latency or a time, no WER (results unit_metrics); a unit the rules do not
    name ("%", "x", none) fits any metric."""
    pattern = rules_of(s).unit_metrics.get(unit) if unit else None
    return pattern is None or bool(pattern.search(metric))


# -- another method's score ---------------------------------------------------------
def baseline_score(s: Sentence, q: Quantity, clause_start: int) -> bool:
    """ "surpassing the previous best IS of 47.3 and FID of 21.6",
    "compared to 80.1%": a score of the baseline, not of the subject. The
    words that say so come right before the number, or before the first
    number of the list it is in. A change "from A to B" is the subject's own,
    and "more than 90%" is a qualifier."""
    if q.from_value is not None:
        return False
    first = _listed(s, q)[0]
    before = s.text[max(clause_start, _previous_end(s, first), first.start - 90):first.start]
    r = rules_of(s)
    m = r.baseline_score.search(before)
    return bool(m) and not r.qualifier.fullmatch(m.group(0))  # "more than 90%"


# Between two numbers of one list: "and", a comma, and maybe the next one's metric ("and FID of").
_LIST_LINK = re.compile(
    # "52.5 and 18.6", "IS of 52.5 and FID of 18.6": the next number's metric before it
    r"\s*(?:,\s*(?:and\s+)?|and\s+|or\s+)(?:(?:(?:an?|the)\s+)?[^\s\d.,;:()]+(?:\s+[^\s\d.,;:()]+){0,3}?"
    r"\s*(?:\([^()]{1,12}\)\s*)?(?:of|at|=|:)\s+)?"
    # "27.1% in Insertion and 31.4% in Deletion": each number's metric after it
    r"|\s*in\s+(?:the\s+)?[^\s\d.,;:()]+(?:\s+[^\s\d.,;:()]+){0,3}?\s*(?:,\s*(?:and\s+)?|and\s+)", re.I)


def _listed(s: Sentence, q: Quantity) -> list[Quantity]:
    """The numbers listed with `q` up to it: "47.3 and 21.6", "IS of 47.3 and FID of 21.6"."""
    qs = s.quantities
    k = qs.index(q)
    chain = [q]
    while k > 0 and _LIST_LINK.fullmatch(_unbracketed(s.text[qs[k - 1].end:qs[k].start])):
        k -= 1
        chain.insert(0, qs[k])
    return chain


def score_list(s: Sentence, q: Quantity) -> list[Quantity]:
    """The whole list `q` is in: "NDCG@10 (0.72) and MAP (0.51) on TREC"."""
    qs = s.quantities
    chain = _listed(s, q)
    k = qs.index(q)
    while k + 1 < len(qs) and _LIST_LINK.fullmatch(_unbracketed(s.text[qs[k].end:qs[k + 1].start])):
        k += 1
        chain.append(qs[k])
    return chain


def _unbracketed(between: str) -> str:
    """The words between two numbers each in brackets after its metric, as
    if written with "of": ") and MAP (" -> " and MAP of "."""
    if re.match(r"\s*\)", between) and re.search(r"\(\s*$", between):
        return re.sub(r"\(\s*$", " of ", re.sub(r"^\s*\)", " ", between))
    return between


def _previous_end(s: Sentence, q: Quantity) -> int:
    ends = [o.end for o in s.quantities if o.end <= q.start]
    return max(ends) if ends else 0


# -- lists paired in order ----------------------------------------------------------
def mention_lists(s: Sentence, label: str) -> list[list[Mention]]:
    """Runs of two or more mentions of `label` joined by commas, "and", "&",
    "/": "GSM8K and HumanEval", "IS, FID and KID"."""
    out: list[list[Mention]] = []
    for m in s.of(label):
        if out and m.name == out[-1][-1].name and re.fullmatch(r"\s*\(\s*", s.text[out[-1][-1].end:m.start]):
            # "Inception Score (IS)": one name written twice; the list goes on after the bracket.
            close = s.text.find(")", m.end)
            out[-1][-1] = out[-1][-1]._replace(end=close + 1 if close >= 0 else m.end)
        elif out and rules_of(s).name_list_join.fullmatch(s.text[out[-1][-1].end:m.start]):
            out[-1].append(m)
        else:
            out.append([m])
    return [group for group in out if len(group) > 1]


def respective_metric(s: Sentence, q: Quantity) -> str | None:
    """ "IS and FID of 232.5 and 8.1", "IS and FID from 52.5 and 18.7 to
    166.5 and 7.4": a list of metrics right before a list of as many numbers."""
    run = run_of(s, q)
    if len(run) < 2:
        return None
    for group in mention_lists(s, "Metric"):
        between = s.text[group[-1].end:run[0].start]
        if len(group) == len(run) and len(between) <= 70 and not any(
                group[-1].end <= o.start < run[0].start and o.from_value is None for o in s.quantities) \
                and not any(group[-1].end <= m.start < run[0].start for m in s.of("Metric")):
            name = group[run.index(q)].name
            return name if unit_fits(s, q.unit, name) else None
    return None


def previous_in_list(s: Sentence, q: Quantity) -> Quantity | None:
    """ "85.3% accuracy on CIFAR-10 and 62.1% on CIFAR-100": the number
    listed before `q` with its own dataset, in the same unit; `q` is a
    score in the same metric."""
    qs = s.quantities
    k = qs.index(q) if q in qs else 0
    if k == 0 or qs[k - 1].unit != q.unit:
        return None
    return qs[k - 1] if rules_of(s).next_in_list.fullmatch(s.text[qs[k - 1].end:q.start]) else None


def respective(s: Sentence, q: Quantity, label: str, candidates: Sequence[Quantity]) -> str | None:
    """The mention of `label` that `q` is paired with: the k-th number of a
    list goes with the k-th name of a list of as many names ("85.1% and
    78.3% on A and B"). The numbers are `q`'s run; where the sentence says
    "respectively", also the `candidates` (the sentence's results) of `q`'s
    unit, in order ("a 1.83x speedup (7.2% gain) and a 1.61x speedup ... on
    A and B, respectively")."""
    groups = mention_lists(s, label)
    if not groups:
        return None
    for numbers in _number_lists(s, q, candidates):
        fitting = [g for g in groups if len(g) == len(numbers)]
        if not fitting:
            continue
        # The list nearest the numbers: before them or after them.
        group = min(fitting, key=lambda g: min(abs(g[-1].end - numbers[0].start), abs(g[0].start - numbers[-1].end)))
        return group[numbers.index(q)].name
    return None


def _number_lists(s: Sentence, q: Quantity, candidates: Sequence[Quantity]) -> list[list[Quantity]]:
    """The lists of numbers `q` is in that may pair with a list of names:
    its run ("85.1% and 78.3%"), and where the sentence says
    "respectively", the `candidates` of its unit."""
    run = run_of(s, q)
    lists = [run] if len(run) > 1 else []
    if rules_of(s).respectively.search(s.text):
        same = [c for c in candidates if c.unit == q.unit and (open_bracket(s, c.start) is None) == (open_bracket(s, q.start) is None)]
        if q in same and len(same) > 1:
            lists.append(same)
    return lists


def respective_subject(s: Sentence, q: Quantity, subject: str) -> str:
    """ "FooNet-S and FooNet-L reach 80.1% and 82.3%, respectively": where
    the subject found is one of a list of methods before the numbers, as
    long as the list of numbers `q` is in, the k-th number is the k-th
    method's."""
    for numbers in _number_lists(s, q, s.quantities):
        for group in mention_lists(s, "Method"):
            if len(group) == len(numbers) and group[-1].end <= numbers[0].start \
                    and any(m.name == subject for m in group):
                return group[numbers.index(q)].name
    return subject


# -- efficiency -----------------------------------------------------------------------
def efficiency(s: Sentence, q: Quantity, metric: str, run_end: int) -> bool:
    """A multiplier in speed, memory or cost ("a 2.1x FLOPs reduction", "3x
    speedup", "2x faster"): a result the method reaches. The metric says
    so, or the two words right after the number: further on they may speak
    of something else ("a 2x gain in accuracy with less memory"). A
    percentage ("a 36% reduction in memory") and a margin after "by" are
    changes from what the method started from, no figure of its own."""
    if q.unit in ("%", "points") or rules_of(s).change_before.search(s.text, max(0, q.start - 40), q.start):
        # "a 36% reduction in memory", "reduces memory by 4x": a change from the method without it
        return False
    pattern = rules_of(s).efficiency
    after = _NEXT_WORDS.match(s.text, run_end)
    return bool(pattern.search(metric) or (after and pattern.search(after.group())))


_NEXT_WORDS = re.compile(r"\s*[^\s,;:()]+(?:\s+[^\s,;:()]+)?")


def measured_against(s: Sentence, clause_start: int, q: Quantity) -> bool:
    """ "comparable performance to BarNet, with more than 8x speedup": the
    clause names a yardstick, and the multiplier is relative to it."""
    return bool(rules_of(s).yardstick.search(s.text, clause_start, q.start))


def for_method(s: Sentence, run_end: int) -> Mention | None:
    """ "141 tokens/s for FooNet-8B": a method named right after a number
    and its metric, with "for"; the number is its result, whether or not
    the paper calls the method its own ("our method reaches 141 tokens/s
    for the 8B judge": the judge is what ran). A score after a cue of
    another method's score ("compared with 3.17 for BarNet") is ruled out
    before this is asked."""
    m = rules_of(s).method_link.match(s.text, run_end)
    if not m:
        return None
    return next((x for x in s.of("Method") if x.start == m.end()), None)


def plain_score(s: Sentence, q: Quantity) -> str | None:
    """ "a best-yet score of 71.84 on FooBench": with no metric named, the
    benchmark's own score, in the metric "score"."""
    return "score" if rules_of(s).plain_score.search(s.text, max(0, q.start - 60), q.start) else None


def share_of(s: Sentence, q: Quantity) -> bool:
    """ "keeps up to 75% of the original accuracy after pruning": a
    percentage of another figure, no score of its own."""
    return q.unit == "%" and bool(rules_of(s).share_of.match(s.text, q.end))


def averaged(s: Sentence, run_end: int) -> bool:
    """ "an average accuracy of 52.3% across five benchmarks (A, B)": a
    number over several datasets is no score on any one of them."""
    return bool(rules_of(s).averaged.match(s.text, run_end))


def cost_figure(s: Sentence, metric: str, run_end: int) -> bool:
    """A figure of speed, memory or cost ("1.9x throughput"): it depends on
    the hardware more than on a dataset named sentences before."""
    pattern = rules_of(s).efficiency
    after = _NEXT_WORDS.match(s.text, run_end)
    return bool(pattern.search(metric) or (after and pattern.search(after.group())))


def named_for_training(s: Sentence, clause_start: int, d: Mention) -> bool:
    """ "the training triples of the MSMARCO collection", "to train FooNet,
    we curate a set from MS MARCO": a word of training before the dataset
    in its clause (or within 100 characters), with no word of testing
    after it."""
    window = s.text[max(clause_start, d.start - 100):d.start]
    r = rules_of(s)
    trained = list(r.training.finditer(window))
    # "train DiTs for ImageNet generation": what a model is trained for is what it is tested on.
    return bool(trained) and not r.testing.search(window, trained[-1].end()) and bool(r.training_data.search(window))


# -- the dataset of an earlier sentence -------------------------------------------------
def result_setting(s: Sentence, datasets: Sequence[Mention], previous: str | None) -> str | None:
    """The dataset a later result without one of its own was measured on,
    after sentence `s` (`datasets`: its datasets that are not training
    data): its one dataset when it reports results, none when it names
    several or another dataset without reporting results on it (the
    setting is no longer plain: "... using CIFAR-10" after results on
    MNIST), else what held before."""
    names = {d.name for d in datasets}
    if not names:
        return previous
    if len(names) > 1:
        return None
    if rules_of(s).result_opener.search(s.text):
        return datasets[0].name
    return previous if previous == datasets[0].name else None
