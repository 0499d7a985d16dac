"""Results a leaderboard can use: achieves with its number, metric and
dataset, on sentences written for these tests (entity spans set by hand, as
in test_relations.py), and the rule family "results" entry by entry."""

from __future__ import annotations

import json

import pytest

import kg.relations.component  # noqa: F401  registers kg_relations
from kg import rules
from kg.relations.results import result_rules
from kg.relations.role_rules import role_rules
from tests.cue_texts import example, examples
from tests.test_relation_cue_lists import pipeline
from tests.test_relations import annotate, nlp, rels  # noqa: F401  nlp is a fixture

INTRO = "We present FooGAN, an image generator. "
ENTS = {"FooGAN": "Method", "Inception Score": "Metric", "IS": "Metric", "FID": "Metric", "ImageNet": "Dataset"}
NAMES = {"IS": "Inception Score"}


def scores(doc) -> set[tuple]:
    return {(r["s"], r["metric"], r["value"], r.get("dataset")) for r in rels(doc, "achieves")}


# -- another method's score ------------------------------------------------------------
def test_the_previous_best_is_the_baselines_score(nlp):
    doc = annotate(nlp, INTRO + "On ImageNet, FooGAN reaches an Inception Score (IS) of 160.2 and FID of 7.9, "
                   "surpassing the previous best IS of 47.3 and FID of 21.6.", ENTS, ("FooGAN",), NAMES)
    assert scores(doc) == {("FooGAN", "Inception Score", "160.2", "ImageNet"), ("FooGAN", "FID", "7.9", "ImageNet")}


@pytest.mark.parametrize("tail", ["compared to 80.3% for BarNet", "up from 80.3% with the baseline",
                                  "versus 80.3% accuracy of BarNet", "while the baseline's accuracy is 80.3%"])
def test_a_score_after_a_comparison_is_not_the_subjects(nlp, tail):
    doc = annotate(nlp, INTRO + f"FooGAN reaches 85.1% accuracy on ImageNet, {tail}.",
                   {**ENTS, "accuracy": "Metric", "BarNet": "Method"}, ("FooGAN",))
    assert ("FooGAN", "accuracy", "80.3", "ImageNet") not in scores(doc)
    assert ("FooGAN", "accuracy", "85.1", "ImageNet") in scores(doc)


def test_more_than_is_a_qualifier_not_a_comparison(nlp):
    doc = annotate(nlp, INTRO + "FooGAN reaches more than 90.5% accuracy on ImageNet.",
                   {**ENTS, "accuracy": "Metric"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "accuracy", "90.5", "ImageNet")}


# -- lists paired in order ----------------------------------------------------------------
def test_a_list_of_metrics_pairs_with_a_list_of_numbers(nlp):
    doc = annotate(nlp, INTRO + "On ImageNet FooGAN achieves IS and FID of 232.5 and 8.1 at 256 pixels.",
                   ENTS, ("FooGAN",), NAMES)
    assert scores(doc) == {("FooGAN", "Inception Score", "232.5", "ImageNet"), ("FooGAN", "FID", "8.1", "ImageNet")}


def test_metrics_written_with_their_abbreviations_pair_with_changes(nlp):
    doc = annotate(nlp, INTRO + "On ImageNet FooGAN moves the Inception Score (IS) and FID from 52.1 and 18.2 "
                   "to 160.2 and 7.9 respectively.", ENTS, ("FooGAN",), NAMES)
    assert scores(doc) == {("FooGAN", "Inception Score", "160.2", "ImageNet"), ("FooGAN", "FID", "7.9", "ImageNet")}


@pytest.mark.parametrize("sentence", [
    "FooNet reaches 85.1% and 78.3% accuracy on Alpha-QA and Beta-QA.",
    "On Alpha-QA and Beta-QA, FooNet reaches 85.1% and 78.3% accuracy, respectively.",
    "On the Alpha-QA and Beta-QA sets, FooNet reaches an accuracy of 85.1% (a 2.1% gain) and an accuracy of "
    "78.3% (a 3.4% gain), respectively.",
])
def test_datasets_pair_with_numbers_in_order(nlp, sentence):
    doc = annotate(nlp, "We propose FooNet, a reader. " + sentence,
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "accuracy", "85.1", "Alpha-QA"), ("FooNet", "accuracy", "78.3", "Beta-QA")}


def test_margins_pair_with_datasets_in_order(nlp):
    doc = annotate(nlp, "We propose FooNet, a reader. FooNet beats BarNet with gains of 0.4% and 0.2% in accuracy "
                   "on Alpha-QA and Beta-QA, respectively.",
                   {"FooNet": "Method", "BarNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset",
                    "Beta-QA": "Dataset"}, ("FooNet",))
    got = {(r["o"], r["value"], r.get("dataset")) for r in rels(doc, "improvesOver")}
    assert got == {("BarNet", "0.4", "Alpha-QA"), ("BarNet", "0.2", "Beta-QA")}


# -- the dataset of an earlier sentence ------------------------------------------------------
def test_a_result_without_a_dataset_takes_the_one_of_the_sentence_before(nlp):
    doc = annotate(nlp, INTRO + "Experiments on the Zeta-500 benchmark are reported. "
                   "FooGAN reaches an FID of 7.9 at low cost.", {**ENTS, "Zeta-500": "Dataset"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", "Zeta-500")}


def test_two_earlier_datasets_leave_the_result_without_one(nlp):
    doc = annotate(nlp, INTRO + "Experiments on Zeta-500 and Eta-20 are reported. FooGAN reaches an FID of 7.9.",
                   {**ENTS, "Zeta-500": "Dataset", "Eta-20": "Dataset"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", None)}


def test_another_dataset_named_after_the_results_leaves_a_later_result_without_one(nlp):
    """The setting carried from a sentence of results ends where another dataset is named."""
    ents = {**ENTS, "Zeta-500": "Dataset", "Eta-20": "Dataset"}
    doc = annotate(nlp, INTRO + "Experiments on Zeta-500 are reported. We then turn to Eta-20 images. "
                   "FooGAN reaches an FID of 7.9.", ents, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", None)}
    doc = annotate(nlp, INTRO + "Experiments on Zeta-500 are reported. We then turn to Zeta-500 images. "
                   "FooGAN reaches an FID of 7.9.", ents, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", "Zeta-500")}


def test_training_data_named_before_is_not_where_results_were_measured(nlp):
    doc = annotate(nlp, INTRO + "FooGAN is pre-trained on Zeta-500. FooGAN reaches an FID of 7.9.",
                   {**ENTS, "Zeta-500": "Dataset"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", None)}


def test_trained_on_is_the_dataset_when_no_other_is_named(nlp):
    doc = annotate(nlp, INTRO + "When trained on ImageNet, FooGAN reaches an FID of 7.9.", ENTS, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", "ImageNet")}
    doc = annotate(nlp, INTRO + "When pre-trained on ImageNet, FooGAN reaches an FID of 7.9.", ENTS, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", None)}


# -- speed, memory and cost ------------------------------------------------------------------
@pytest.mark.parametrize("sentence, metric, value", [
    ("FooNet achieves up to a 2.1x FLOPs reduction on Alpha-QA.", "FLOPs", "2.1"),
    ("FooNet gives a 3.5x speedup on Alpha-QA.", "speedup", "3.5"),
    ("FooNet reaches 141 tokens/s on Alpha-QA.", "tokens/s", "141"),
])
def test_speed_and_cost_are_results_reached(nlp, sentence, metric, value):
    doc = annotate(nlp, "We propose FooNet, a reader. " + sentence,
                   {"FooNet": "Method", metric: "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", metric, value, "Alpha-QA")}


def test_a_gain_in_a_metric_with_cheaper_words_after_is_no_score(nlp):
    doc = annotate(nlp, "We propose FooNet, a reader. FooNet gives a 2.3% gain in accuracy with far fewer parameters.",
                   {"FooNet": "Method", "accuracy": "Metric"}, ("FooNet",))
    assert scores(doc) == set()


def test_a_list_marker_is_no_margin(nlp):
    doc = annotate(nlp, "We propose FooNet, a reader. On Alpha-QA FooNet (1) outperforms BarNet with a +1.3 gain in "
                   "accuracy and (2) runs faster.",
                   {"FooNet": "Method", "BarNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert {r.get("value") for r in rels(doc, "improvesOver")} == {"1.3"}


# -- the rule family, entry by entry ------------------------------------------------------------
PIECES = result_rules().pieces


@pytest.mark.parametrize("piece", PIECES["baseline_score_before"])
def test_each_baseline_score_cue_gives_the_number_to_the_baseline(nlp, piece):
    doc = annotate(nlp, INTRO + f"FooGAN reaches an FID of 7.9 on ImageNet, {example(piece)} FID of 18.2.",
                   ENTS, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", "ImageNet")}, example(piece)


def test_without_a_baseline_cue_both_numbers_are_the_subjects(nlp):
    doc = annotate(nlp, INTRO + "FooGAN reaches an FID of 7.9 on ImageNet, and FID of 18.2.", ENTS, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", "ImageNet"), ("FooGAN", "FID", "18.2", "ImageNet")}


@pytest.mark.parametrize("piece", PIECES["efficiency"])
def test_each_efficiency_word_makes_a_multiplier_a_result(nlp, piece):
    word = example(piece)
    ents = {"FooNet": "Method", "Alpha-QA": "Dataset", "loss": "Metric"}
    doc = annotate(nlp, f"We propose FooNet, a reader. FooNet gives a 2.5x loss {word} on Alpha-QA.", ents, ("FooNet",))
    assert scores(doc) == {("FooNet", "loss", "2.5", "Alpha-QA")}, word
    doc = annotate(nlp, "We propose FooNet, a reader. FooNet gives a 2.5x loss gain on Alpha-QA.", ents, ("FooNet",))
    assert scores(doc) == set()  # a gain in a metric that is no cost, over nothing named


@pytest.mark.parametrize("piece", PIECES["respectively"])
def test_each_respectively_word_pairs_numbers_with_datasets(nlp, piece):
    doc = annotate(nlp, "We propose FooNet, a reader. On Alpha-QA and Beta-QA, FooNet reaches an accuracy of 85.1% "
                   f"(a 2.1% gain) and an accuracy of 78.3% (a 3.4% gain), {example(piece)}.",
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "accuracy", "85.1", "Alpha-QA"), ("FooNet", "accuracy", "78.3", "Beta-QA")}


def test_without_respectively_numbers_apart_are_not_paired(nlp):
    doc = annotate(nlp, "We propose FooNet, a reader. On Alpha-QA and Beta-QA, FooNet reaches an accuracy of 85.1% "
                   "(a 2.1% gain) and an accuracy of 78.3% (a 3.4% gain).",
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}, ("FooNet",))
    assert {r.get("dataset") for r in rels(doc, "achieves")} == {None}


@pytest.mark.parametrize("piece", PIECES["result_openers"])
def test_each_result_opener_carries_its_dataset_to_later_results(nlp, piece):
    doc = annotate(nlp, INTRO + f"Zeta-500 is our {example(piece)} set. FooGAN reaches an FID of 7.9.",
                   {**ENTS, "Zeta-500": "Dataset"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", "Zeta-500")}, example(piece)


def test_without_a_result_word_the_dataset_is_not_carried(nlp):
    doc = annotate(nlp, INTRO + "Zeta-500 is a set of photos. FooGAN reaches an FID of 7.9.",
                   {**ENTS, "Zeta-500": "Dataset"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "FID", "7.9", None)}


def test_numbers_listed_with_a_margin_are_margins_too(nlp):
    doc = annotate(nlp, "We propose FooNet, a reader. BarNet shows improvements of 0.4% and 0.7% in CER on "
                   "Alpha-QA and Beta-QA, respectively.",
                   {"FooNet": "Method", "BarNet": "Method", "CER": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"},
                   ("FooNet",))
    assert rels(doc, "achieves") == []


# -- whose result ------------------------------------------------------------------------------
def test_without_a_proposal_the_one_method_named_has_the_results(nlp):
    doc = annotate(nlp, "We study pruning. We reach 78.4% accuracy on ImageNet with a pruned FooNet-L3.",
                   {"FooNet-L3": "Method", "accuracy": "Metric", "ImageNet": "Dataset"})
    assert scores(doc) == {("FooNet-L3", "accuracy", "78.4", "ImageNet")}
    assert {(r["s"], r["o"]) for r in rels(doc, "evaluatedOn")} == {("FooNet-L3", "ImageNet")}


def test_without_a_proposal_two_methods_leave_the_result_unowned(nlp):
    doc = annotate(nlp, "We study pruning. We reach 78.4% accuracy on ImageNet with FooNet-L3 and BarNet.",
                   {"FooNet-L3": "Method", "BarNet": "Method", "accuracy": "Metric", "ImageNet": "Dataset"})
    assert scores(doc) == set()


@pytest.mark.parametrize("piece", PIECES["applied_links"])
def test_each_applied_link_gives_the_one_method_applied_its_result(nlp, piece):
    ents = {"FooNet-L3": "Method", "accuracy": "Metric", "ImageNet": "Dataset"}
    text = "We study pruning. We reach 78.4% accuracy on ImageNet {} a pruned FooNet-L3."
    assert scores(annotate(nlp, text.format(example(piece)), ents)) == {("FooNet-L3", "accuracy", "78.4", "ImageNet")}
    assert scores(annotate(nlp, text.format("zzz"), ents)) == set()


@pytest.mark.parametrize("text, ents", [
    # compared with, not applied
    ("We reach 78.4% accuracy on ImageNet, outperforming the BarNet baseline.", {"BarNet": "Method"}),
    # a name in lower case: what is measured, not what is applied
    ("We reach 78.4% accuracy on ImageNet with a log loss of 0.3.", {"log loss": "Method"}),
])
def test_without_a_proposal_a_method_compared_or_not_written_as_a_name_has_no_result(nlp, text, ents):
    doc = annotate(nlp, "We study pruning. " + text, {**ents, "accuracy": "Metric", "ImageNet": "Dataset"})
    assert scores(doc) == set()


def test_a_result_on_a_dataset_of_an_earlier_sentence_is_an_evaluation_on_it(nlp):
    doc = annotate(nlp, INTRO + "Experiments on the Zeta-500 benchmark are reported. FooGAN reaches an FID of 7.9.",
                   {**ENTS, "Zeta-500": "Dataset"}, ("FooGAN",))
    assert ("FooGAN", "Zeta-500") in {(r["s"], r["o"]) for r in rels(doc, "evaluatedOn")}


def test_without_a_proposal_a_method_of_another_clause_has_no_result(nlp):
    doc = annotate(nlp, "We study retrieval. Our index gives up to 90.2% recall on Alpha-QA; a reranker builds on FooNet.",
                   {"FooNet": "Method", "recall": "Metric", "Alpha-QA": "Dataset"})
    assert scores(doc) == set()


def test_scores_in_brackets_after_their_metrics_share_the_dataset_after_them(nlp):
    doc = annotate(nlp, "We propose FooNet, a ranker. FooNet reaches the best NDCG@10 (0.6814) and MAP (0.4937) on "
                   "Alpha-QA, while it trails on Beta-QA.",
                   {"FooNet": "Method", "NDCG@10": "Metric", "MAP": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"},
                   ("FooNet",))
    assert scores(doc) == {("FooNet", "NDCG@10", "0.6814", "Alpha-QA"), ("FooNet", "MAP", "0.4937", "Alpha-QA")}


def test_a_margin_in_brackets_after_a_metric_is_not_a_score_in_it(nlp):
    doc = annotate(nlp, "We propose FooNet, a decoder. On Alpha-QA FooNet gives a 1.83x speedup (7.2% improvement).",
                   {"FooNet": "Method", "speedup": "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "speedup", "1.83", "Alpha-QA")}


def test_a_proposed_method_named_after_for_owns_the_number(nlp):
    doc = annotate(nlp, "We propose FooNet-8B and FooNet-70B, two decoders. Our method reaches 141 tokens/s for "
                   "FooNet-8B and 117 tokens/s for FooNet-70B on Alpha-QA.",
                   {"FooNet-8B": "Method", "FooNet-70B": "Method", "tokens/s": "Metric", "Alpha-QA": "Dataset"},
                   ("FooNet-8B", "FooNet-70B"))
    assert scores(doc) == {("FooNet-8B", "tokens/s", "141", "Alpha-QA"), ("FooNet-70B", "tokens/s", "117", "Alpha-QA")}


def test_a_method_not_marked_as_proposed_named_after_for_owns_the_number(nlp):
    doc = annotate(nlp, "We propose FooNet, a decoder. Our method reaches 141 tokens/s for BarJudge-8B and "
                   "117 tokens/s for BarJudge-70B on two GPUs.",
                   {"FooNet": "Method", "BarJudge-8B": "Method", "BarJudge-70B": "Method", "tokens/s": "Metric"},
                   ("FooNet",))
    assert scores(doc) == {("BarJudge-8B", "tokens/s", "141", None), ("BarJudge-70B", "tokens/s", "117", None)}


def test_a_score_for_another_method_after_a_comparison_is_that_methods(nlp):
    doc = annotate(nlp, "We propose FooNet, a decoder. FooNet reaches 141 tokens/s, compared with 90 tokens/s for "
                   "BarNet.", {"FooNet": "Method", "BarNet": "Method", "tokens/s": "Metric"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "tokens/s", "141", None), ("BarNet", "tokens/s", "90", None)}


@pytest.mark.parametrize("tail", ["of the original performance", "of its full-precision accuracy",
                                  "of the teacher's score", "of the number of weights"])
def test_a_share_of_another_figure_is_no_score(nlp, tail):
    doc = annotate(nlp, INTRO + f"With pruning, FooGAN keeps an accuracy of up to 75% {tail} on ImageNet.",
                   {**ENTS, "accuracy": "Metric"}, ("FooGAN",))
    assert scores(doc) == set()
    doc = annotate(nlp, INTRO + "With pruning, FooGAN keeps an accuracy of up to 75% on ImageNet.",
                   {**ENTS, "accuracy": "Metric"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "accuracy", "75", "ImageNet")}


def test_methods_listed_before_as_many_numbers_each_own_theirs(nlp):
    doc = annotate(nlp, "We propose FooNet-S and FooNet-L, two readers. FooNet-S and FooNet-L reach 80.1% and 82.3% "
                   "accuracy on Alpha-QA, respectively.",
                   {"FooNet-S": "Method", "FooNet-L": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset"},
                   ("FooNet-S", "FooNet-L"))
    assert scores(doc) == {("FooNet-S", "accuracy", "80.1", "Alpha-QA"), ("FooNet-L", "accuracy", "82.3", "Alpha-QA")}


def test_a_later_number_of_a_run_takes_the_metric_before_the_first(nlp):
    doc = annotate(nlp, "We propose FooNet-S and FooNet-L, two readers. FooNet-S and FooNet-L reach accuracies of "
                   "80.1% and 82.3% on Alpha-QA.",
                   {"FooNet-S": "Method", "FooNet-L": "Method", "accuracies": "Metric", "Alpha-QA": "Dataset"},
                   ("FooNet-S", "FooNet-L"))
    assert scores(doc) == {("FooNet-S", "accuracies", "80.1", "Alpha-QA"),
                           ("FooNet-L", "accuracies", "82.3", "Alpha-QA")}


def test_gains_listed_each_with_its_metric_are_all_margins(nlp):
    doc = annotate(nlp, "We propose FooNet, an explainer. FooNet shows an average improvement of 27.1% in Insertion "
                   "and 31.4% in Deletion.", {"FooNet": "Method", "Insertion": "Metric", "Deletion": "Metric"}, ("FooNet",))
    assert scores(doc) == set()


def test_a_gain_word_after_the_metric_makes_a_margin(nlp):
    doc = annotate(nlp, "We propose FooNet, a recogniser. FooNet brings a 9.6% word error rate reduction across accents.",
                   {"FooNet": "Method", "word error rate": "Metric"}, ("FooNet",))
    assert scores(doc) == set()


def test_each_number_of_a_list_keeps_its_own_dataset(nlp):
    doc = annotate(nlp, "We propose FooNet, a reader. FooNet reaches 85.1% accuracy on Alpha-QA, and 78.3% accuracy on "
                   "Beta-QA.", {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"},
                   ("FooNet",))
    assert scores(doc) == {("FooNet", "accuracy", "85.1", "Alpha-QA"), ("FooNet", "accuracy", "78.3", "Beta-QA")}


@pytest.mark.parametrize("piece", PIECES["yardsticks"])
def test_each_yardstick_makes_a_multiplier_relative_to_it(nlp, piece):
    ents = {"FooNet": "Method", "BarNet": "Method", "speedup": "Metric"}
    doc = annotate(nlp, f"We propose FooNet, a decoder. FooNet is {example(piece)} BarNet in quality, with a 10x speedup.",
                   ents, ("FooNet",))
    assert scores(doc) == set(), example(piece)
    doc = annotate(nlp, "We propose FooNet, a decoder. FooNet is small, with a 10x speedup.", ents, ("FooNet",))
    assert scores(doc) == {("FooNet", "speedup", "10", None)}


@pytest.mark.parametrize("sentence", [
    "FooNet gives a 36% memory reduction on Alpha-QA.",
    "FooNet reduces the memory by 4x on Alpha-QA.",
])
def test_a_change_in_cost_is_no_figure_of_its_own(nlp, sentence):
    doc = annotate(nlp, "We propose FooNet, a reader. " + sentence,
                   {"FooNet": "Method", "memory": "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == set()


def test_an_average_over_several_datasets_is_no_score_on_one(nlp):
    doc = annotate(nlp, "We propose FooNet, a solver. FooNet reaches an average accuracy of 52.3% across five math "
                   "benchmarks (Alpha-QA and others).",
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "accuracy", "52.3", None)}


@pytest.mark.parametrize("piece", PIECES["averaged_over"])
def test_each_averaging_phrase_leaves_the_dataset_out(nlp, piece):
    doc = annotate(nlp, f"We propose FooNet, a solver. On Alpha-QA FooNet reaches 45.7% accuracy {example(piece)}.",
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "accuracy", "45.7", None)}, example(piece)


def test_a_speed_takes_no_dataset_from_an_earlier_sentence(nlp):
    doc = annotate(nlp, "We propose FooNet, a pruner. Experiments on Alpha-QA are reported. FooNet gives a 1.9x "
                   "throughput gain on one GPU.", {"FooNet": "Method", "throughput": "Metric", "Alpha-QA": "Dataset"},
                   ("FooNet",))
    assert scores(doc) == {("FooNet", "throughput", "1.9", None)}


# -- training data is no test set ------------------------------------------------------------------
def evaluations(doc) -> set[tuple]:
    return {(r["s"], r["o"]) for r in rels(doc, "evaluatedOn")}


READER = {"FooNet": "Method", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}


@pytest.mark.parametrize("piece", PIECES["training_words"])
def test_each_training_word_makes_the_dataset_after_it_training_data(nlp, piece):
    text = "We propose FooNet, a reader. In our experiments FooNet uses {}data from Alpha-QA."
    doc = annotate(nlp, text.format(example(piece) + " "), READER, ("FooNet",))
    assert evaluations(doc) == set(), example(piece)
    assert evaluations(annotate(nlp, text.format(""), READER, ("FooNet",))) == {("FooNet", "Alpha-QA")}


@pytest.mark.parametrize("piece", PIECES["test_words"])
def test_each_test_word_after_training_makes_a_test_set_again(nlp, piece):
    doc = annotate(nlp, "We propose FooNet, a reader. In our work FooNet uses training data from Beta-QA and "
                   f"{example(piece)} data from Alpha-QA.", READER, ("FooNet",))
    assert evaluations(doc) == {("FooNet", "Alpha-QA")}, example(piece)


def test_what_a_model_is_trained_for_is_what_it_is_tested_on(nlp):
    doc = annotate(nlp, "We propose FooNet, a tokenizer. We use FooNet to train generators for Alpha-QA generation "
                   "in our experiments.", READER, ("FooNet",))
    assert evaluations(doc) == {("FooNet", "Alpha-QA")}


def test_scores_listed_each_with_its_dataset_share_the_first_ones_metric(nlp):
    doc = annotate(nlp, "We propose FooNet, a backbone. FooNet reaches 85.3% accuracy on Alpha-QA and 62.1% on Beta-QA, "
                   "and 50.2% on the Gamma-7 benchmark.",
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset",
                    "Gamma-7": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "accuracy", "85.3", "Alpha-QA"), ("FooNet", "accuracy", "62.1", "Beta-QA"),
                           ("FooNet", "accuracy", "50.2", "Gamma-7")}


def test_a_score_with_its_spread_keeps_the_metric_after_it(nlp):
    doc = annotate(nlp, "We propose FooNet, a decoder. On Alpha-QA FooNet reaches 41.25 +/- 0.46% top-1 accuracy.",
                   {"FooNet": "Method", "top-1 accuracy": "Metric", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "top-1 accuracy", "41.25", "Alpha-QA")}


def test_margins_listed_each_with_its_dataset_are_no_scores(nlp):
    doc = annotate(nlp, "We propose FooNet, a backbone. FooNet raises accuracy by 2.1% on Alpha-QA and 1.5% on Beta-QA.",
                   {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == set()


def test_a_score_of_a_benchmark_with_no_metric_named(nlp):
    doc = annotate(nlp, "We propose FooNet, an embedder. FooNet gets a best-yet score of 71.84 on Alpha-QA.",
                   {"FooNet": "Method", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "score", "71.84", "Alpha-QA")}


@pytest.mark.parametrize("piece", PIECES["plain_scores"])
def test_each_plain_score_phrase_gives_the_metric_score(nlp, piece):
    doc = annotate(nlp, f"We propose FooNet, an embedder. On Alpha-QA FooNet reaches {example(piece)} 69.32.",
                   {"FooNet": "Method", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == {("FooNet", "score", "69.32", "Alpha-QA")}, example(piece)
    doc = annotate(nlp, "We propose FooNet, an embedder. On Alpha-QA FooNet reaches 69.32 points of it.",
                   {"FooNet": "Method", "Alpha-QA": "Dataset"}, ("FooNet",))
    assert scores(doc) == set()


# -- the small word lists of the results family ------------------------------------------------
@pytest.mark.parametrize("word", PIECES["approximate_words"])
def test_each_approximate_word_may_stand_before_a_plain_score(nlp, word):
    ents = {"FooNet": "Method", "Alpha-QA": "Dataset"}
    doc = annotate(nlp, f"We propose FooNet, an embedder. On Alpha-QA FooNet reaches a score of {word} 69.32.",
                   ents, ("FooNet",))
    assert scores(doc) == {("FooNet", "score", "69.32", "Alpha-QA")}
    doc = annotate(nlp, "We propose FooNet, an embedder. On Alpha-QA FooNet reaches a score of zzz 69.32.",
                   ents, ("FooNet",))
    assert scores(doc) == set()


@pytest.mark.parametrize("word", PIECES["qualifier_cues"])
def test_each_qualifier_cue_alone_before_a_number_leaves_it_the_subjects(nlp, word):
    doc = annotate(nlp, INTRO + f"FooGAN reaches more {word} 90.5% accuracy on ImageNet.",
                   {**ENTS, "accuracy": "Metric"}, ("FooGAN",))
    assert scores(doc) == {("FooGAN", "accuracy", "90.5", "ImageNet")}


_MEMORY = {"FooNet": "Method", "memory": "Metric", "Alpha-QA": "Dataset"}


@pytest.mark.parametrize("word", PIECES["change_before"])
def test_each_change_word_makes_a_multiplier_a_change(nlp, word):
    doc = annotate(nlp, f"We propose FooNet, a reader. FooNet cuts memory {word} 4x on Alpha-QA.", _MEMORY, ("FooNet",))
    assert scores(doc) == set()
    doc = annotate(nlp, "We propose FooNet, a reader. FooNet cuts memory 4x on Alpha-QA.", _MEMORY, ("FooNet",))
    assert scores(doc) == {("FooNet", "memory", "4", "Alpha-QA")}


def _qualifier_examples() -> list[str]:
    return [x for piece in rules.load("relation_cues")["number_qualifiers"] for x in examples(piece)]


@pytest.mark.parametrize("qualifier", _qualifier_examples())
def test_each_number_qualifier_may_stand_between_a_change_word_and_its_number(nlp, qualifier):
    doc = annotate(nlp, f"We propose FooNet, a reader. FooNet cuts memory by {qualifier} 4x on Alpha-QA.",
                   _MEMORY, ("FooNet",))
    assert scores(doc) == set()


@pytest.mark.parametrize("word", PIECES["method_links"])
def test_each_method_link_gives_the_number_to_the_method_after_it(nlp, word):
    ents = {"FooNet-8B": "Method", "FooNet-70B": "Method", "tokens/s": "Metric", "Alpha-QA": "Dataset"}
    text = ("We propose FooNet-8B and FooNet-70B, two decoders. Our method reaches 141 tokens/s {0} FooNet-8B and "
            "117 tokens/s {0} FooNet-70B on Alpha-QA.")
    doc = annotate(nlp, text.format(word), ents, ("FooNet-8B", "FooNet-70B"))
    assert scores(doc) == {("FooNet-8B", "tokens/s", "141", "Alpha-QA"), ("FooNet-70B", "tokens/s", "117", "Alpha-QA")}
    doc = annotate(nlp, text.format("zzz"), ents, ("FooNet-8B", "FooNet-70B"))
    assert ("FooNet-70B", "tokens/s", "117", "Alpha-QA") not in scores(doc)


@pytest.mark.parametrize("word", PIECES["training_data_links"])
def test_each_training_data_link_leads_to_training_data(nlp, word):
    text = "We propose FooNet, a reader. In our experiments FooNet uses training data {} Alpha-QA."
    assert evaluations(annotate(nlp, text.format(word), READER, ("FooNet",))) == set()
    assert evaluations(annotate(nlp, text.format("zzz"), READER, ("FooNet",))) == {("FooNet", "Alpha-QA")}


@pytest.mark.parametrize("key, entry, text, rule", [
    ("approximate_words", "circa", "a score of circa ", "plain_score"),
    ("qualifier_cues", "versus", "versus ", "qualifier"),
    ("change_before", "down", "cuts memory down ", "change_before"),
    ("method_links", "with", " with the ", "method_link"),
    ("training_data_links", "via", "via the ", "training_data"),
    ("other_score_links", "beside", " 3.1 beside the ", "other_score"),
    ("other_score_qualifiers", "merely", " merely 3.1 for ", "other_score"),
    ("comparison_dataset_links", "over", " over the ", "dataset_after"),
    ("dataset_before_links", "within", "within the ", "dataset_before"),
    ("share_of", "of\\s+the\\s+oracle", " of the oracle", "share_of"),
    ("source_words", "borrowed", "questions borrowed from the ", "source_from"),
    ("peer_proposal_verbs", "unveil\\w*", "we unveil ", "peer_proposal_verb"),
    ("outcome_words", "wins?\\b", "it wins", "outcome"),
    ("own_dataset_references", "our\\s+collection", "tested on our collection", "own_dataset_reference"),
    # after a baseline score's cue, a link lets a fifth word stand before the number
    ("possessive_score_links", "reaching", "the previous best FID on test split reaching ", "baseline_score"),
])
def test_an_entry_added_by_a_rules_file_reaches_the_result_rules(tmp_path, key, entry, text, rule):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"results": {"extend": {key: [entry]}}}), encoding="utf-8")
    check = {"qualifier": "fullmatch", "method_link": "match", "other_score": "match", "dataset_after": "match"}.get(
        rule, "search")
    assert not getattr(getattr(result_rules(), rule), check)(text)
    assert getattr(getattr(result_rules([path]), rule), check)(text)


@pytest.mark.parametrize("piece", PIECES["source_words"])
def test_each_source_word_makes_the_dataset_after_it_the_source_of_other_data(nlp, piece):
    text = "We propose FooNet, a reader. FooNet is evaluated on Beta-QA, whose questions were {}from Alpha-QA."
    doc = annotate(nlp, text.format(example(piece) + " "), READER, ("FooNet",))
    assert evaluations(doc) == {("FooNet", "Beta-QA")}, example(piece)
    assert evaluations(annotate(nlp, text.format("also tested "), READER, ("FooNet",))) == {("FooNet", "Beta-QA"),
                                                                                   ("FooNet", "Alpha-QA")}


@pytest.mark.parametrize("piece", PIECES["trained_on_words"])
def test_each_trained_on_word_makes_the_dataset_after_it_training_data(nlp, piece):
    text = "We propose FooNet, a reader. FooNet, {}on Alpha-QA, reads well."
    doc = annotate(nlp, text.format(example(piece) + " "), READER, ("FooNet",))
    assert evaluations(doc) == set(), example(piece)
    assert evaluations(annotate(nlp, text.format("tested "), READER, ("FooNet",))) == {("FooNet", "Alpha-QA")}


@pytest.mark.parametrize("piece", PIECES["pretrained_on_words"])
def test_each_pretrained_on_word_keeps_a_dataset_trained_on_as_the_test_set(nlp, piece):
    """Where every dataset of a sentence is training data, one trained on (not pre-trained on) is still tested."""
    text = "We propose FooNet, a reader. FooNet, {} on Beta-QA and trained on Alpha-QA, reaches 81.2% accuracy."
    found = evaluations(annotate(nlp, text.format(example(piece)), READER, ("FooNet",)))
    assert ("FooNet", "Beta-QA") not in found, example(piece)


def _margins(text: str) -> list[str]:
    from kg.extraction.record import Extractor
    from kg.model import Abstract

    record = Extractor().record(Abstract("p", text))
    return sorted(r["value"] for r in record["relations"] if r["p"] == "improvesOver" and r.get("value"))


_LISTED_MARGINS = "We propose FooNet. FooNet outperforms BarNet by 2.1% on Alpha-QA and {}3.4% on Beta-QA."


def test_a_number_listed_after_a_margin_is_a_margin_too():
    assert _margins(_LISTED_MARGINS.format("")) == ["2.1", "3.4"]


@pytest.mark.parametrize("piece", PIECES["score_words"])
def test_each_score_word_makes_the_number_after_it_a_score_not_a_margin(piece):
    word = example(piece)
    # A word piece stands after a space; "=" and ":" right after a word ("F1= 3.4%").
    before = f"{word} " if word[:1].isalnum() else f"x{word} "
    assert _margins(_LISTED_MARGINS.format(before)) == ["2.1"], before


@pytest.mark.parametrize("qualifier", PIECES["score_qualifiers"])
def test_each_score_qualifier_may_stand_between_the_score_word_and_the_number(qualifier):
    assert _margins(_LISTED_MARGINS.format(f"reaching {qualifier} ")) == ["2.1"], qualifier


# -- another method's score after a comparison, and the dataset after a baseline -------------
_OTHER = {"FooNet": "Method", "BarNet": "Method", "FID": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}


@pytest.mark.parametrize("word", PIECES["other_score_links"])
def test_each_other_score_link_gives_the_number_to_the_method_after_it(nlp, word):
    """A lower FID than the other method's: FooNet improves over it."""
    text = "We propose FooNet, a generator. FooNet reaches an FID of 2.7, compared with 3.1 {} BarNet."
    found = {(r["s"], r["o"]) for r in rels(annotate(nlp, text.format(word), _OTHER, ("FooNet",)), "improvesOver")}
    assert found == {("FooNet", "BarNet")}
    found = {(r["s"], r["o"]) for r in rels(annotate(nlp, text.format("zzz"), _OTHER, ("FooNet",)), "improvesOver")}
    assert found == set()


def test_the_other_score_may_carry_its_metric(nlp):
    """ "45.1 AP vs. 42.8 AP for BarNet": the other method's score written with its metric; kept as a
    comparison only when the subject's score is the better one."""
    ents = {"FooNet": "Method", "BarNet": "Method", "AP": "Metric", "Alpha-QA": "Dataset"}
    text = "We propose FooNet, a detector. On Alpha-QA, FooNet reaches {} AP vs. 42.8 AP for BarNet."
    found = {(r["s"], r["o"]) for r in rels(annotate(nlp, text.format("45.1"), ents, ("FooNet",)), "improvesOver")}
    assert found == {("FooNet", "BarNet")}
    found = {(r["s"], r["o"]) for r in rels(annotate(nlp, text.format("41.1"), ents, ("FooNet",)), "improvesOver")}
    assert found == set()
    assert scores(annotate(nlp, text.format("45.1"), ents, ("FooNet",))) == {("FooNet", "AP", "45.1", "Alpha-QA"),
                                                                             ("BarNet", "AP", "42.8", "Alpha-QA")}


@pytest.mark.parametrize("word", PIECES["other_score_qualifiers"])
def test_each_other_score_qualifier_may_stand_before_the_other_number(nlp, word):
    text = "We propose FooNet, a generator. FooNet reaches an FID of 2.7, compared with {} 3.1 for BarNet."
    found = {(r["s"], r["o"]) for r in rels(annotate(nlp, text.format(word), _OTHER, ("FooNet",)), "improvesOver")}
    assert found == {("FooNet", "BarNet")}
    found = {(r["s"], r["o"]) for r in rels(annotate(nlp, text.format("zzz"), _OTHER, ("FooNet",)), "improvesOver")}
    assert found == set()


@pytest.mark.parametrize("word", PIECES["comparison_dataset_links"])
def test_each_comparison_dataset_link_leads_to_the_dataset_of_a_comparison(nlp, word):
    """No margin, two datasets in the sentence: only the link after the baseline says which one it is on."""
    text = "We propose FooNet, a reader. FooNet outperforms BarNet {} Alpha-QA, though Beta-QA stays hard."
    got = {(r["o"], r.get("dataset")) for r in rels(annotate(nlp, text.format(word), _OTHER, ("FooNet",)), "improvesOver")}
    assert got == {("BarNet", "Alpha-QA")}
    got = {(r["o"], r.get("dataset")) for r in rels(annotate(nlp, text.format("zzz"), _OTHER, ("FooNet",)), "improvesOver")}
    assert ("BarNet", "Alpha-QA") not in got


@pytest.mark.parametrize("word", PIECES["dataset_before_links"])
def test_each_dataset_before_link_gives_the_number_the_dataset_before_it(nlp, word):
    """Two datasets before the number: the one in its clause after the link is the number's."""
    ents = {"FooNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}
    text = "We propose FooNet, a reader. Beta-QA is hard, but {} Alpha-QA FooNet reaches 85.1% accuracy."
    assert ("FooNet", "accuracy", "85.1", "Alpha-QA") in scores(annotate(nlp, text.format(word), ents, ("FooNet",)))
    assert ("FooNet", "accuracy", "85.1", "Alpha-QA") not in scores(annotate(nlp, text.format("zzz"), ents, ("FooNet",)))


def test_a_count_of_datasets_does_not_end_the_window_of_a_margins_dataset(nlp):
    """ "0.5% gains on 30 datasets from Alpha-QA": 30 counts datasets, it is no next result."""
    ents = {"FooNet": "Method", "BarNet": "Method", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}
    doc = annotate(nlp, "We propose FooNet, a reader. FooNet improves BarNet, bringing 0.5% gains on 30 datasets from "
                   "Alpha-QA and 0.8% gains on 6 datasets from Beta-QA.", ents, ("FooNet",))
    got = {(r["o"], r.get("value"), r.get("dataset")) for r in rels(doc, "improvesOver") if r.get("value")}
    assert got == {("BarNet", "0.5", "Alpha-QA"), ("BarNet", "0.8", "Beta-QA")}


# -- the words between a number and its metric, and the units a metric may take ------------------
_WER = {"FooNet": "Method", "WER": "Metric", "BarNet": "Method", "accuracy": "Metric", "Alpha-QA": "Dataset"}


def _metric_of_score(nlp, between: str) -> set[tuple]:
    """The metric of 7.15%, a score or (after "by", "a reduction of") a margin."""
    text = f"We propose FooNet, a recognizer. FooNet outperforms BarNet on Alpha-QA, with a WER {between} 7.15%."
    doc = annotate(nlp, text, _WER, ("FooNet",))
    return {(r.get("metric"), r["value"]) for r in doc._.kg_relations if r.get("value") == "7.15"}


@pytest.mark.parametrize("piece", PIECES["metric_value_links"])
def test_each_metric_value_link_joins_a_metric_to_its_number(nlp, piece):
    assert _metric_of_score(nlp, example(piece)) == {("WER", "7.15")}, example(piece)
    assert _metric_of_score(nlp, "zzz") == set()


@pytest.mark.parametrize("piece", PIECES["metric_value_nouns"])
def test_each_metric_value_noun_may_stand_before_the_link(nlp, piece):
    assert _metric_of_score(nlp, f"{example(piece)} of") == {("WER", "7.15")}, example(piece)
    assert _metric_of_score(nlp, "zzz of") == set()


@pytest.mark.parametrize("piece", PIECES["metric_value_qualifiers"])
def test_each_metric_value_qualifier_may_stand_before_the_number(nlp, piece):
    assert _metric_of_score(nlp, f"of {example(piece)}") == {("WER", "7.15")}, example(piece)
    assert _metric_of_score(nlp, "of zzz") == set()


def _metric_of_margin(nlp, between: str, metric: str = "accuracy") -> set[tuple]:
    text = f"We propose FooNet, a recognizer. FooNet outperforms BarNet by 2.15% {between} {metric} on Alpha-QA."
    return {(r.get("metric"), r.get("value")) for r in rels(annotate(nlp, text, _WER, ("FooNet",)), "improvesOver")}


@pytest.mark.parametrize("piece", PIECES["value_metric_words"])
def test_each_value_metric_word_may_stand_between_a_number_and_its_metric(nlp, piece):
    # A word of going down is a gain in an error, and a drop in accuracy, which is no margin (number_roles).
    metric = "WER" if role_rules().down.match(example(piece)) else "accuracy"
    assert _metric_of_margin(nlp, f"{example(piece)} in", metric) == {(metric, "2.15")}, example(piece)
    assert _metric_of_margin(nlp, "zzz in") == {(None, "2.15")}


@pytest.mark.parametrize("piece", PIECES["value_metric_links"])
def test_each_value_metric_link_joins_a_number_to_the_metric_after_it(nlp, piece):
    assert _metric_of_margin(nlp, example(piece)) == {("accuracy", "2.15")}, example(piece)
    assert _metric_of_margin(nlp, "zzz") == {(None, "2.15")}


@pytest.mark.parametrize("piece", PIECES["value_metric_skipped"])
def test_each_value_metric_skipped_word_is_no_part_of_the_metric(nlp, piece):
    assert _metric_of_margin(nlp, f"in {example(piece)}") == {("accuracy", "2.15")}, example(piece)


def _unit_cases() -> list[tuple[str, str]]:
    return [(unit, piece) for unit, pieces in PIECES["unit_metrics"].items() for piece in pieces]


@pytest.mark.parametrize("unit, piece", _unit_cases())
def test_a_number_in_a_unit_of_the_rules_takes_only_a_metric_of_its_kind(nlp, unit, piece):
    """ "320 ms" is a latency or a time, never a WER; a metric that holds a word of its unit fits."""
    form = rules.load("units")["units"][unit][0]
    metric = f"decoding {example(piece)}"
    text = "We propose FooNet, a recognizer. FooNet outperforms BarNet on Alpha-QA, with a {} improvement of 320 {}."
    ents = {"FooNet": "Method", "BarNet": "Method", metric: "Metric", "WER": "Metric", "Alpha-QA": "Dataset"}
    found = {(r.get("metric"), r["value"]) for r in rels(annotate(nlp, text.format(metric, form), ents, ("FooNet",)),
                                                          "improvesOver")}
    assert found == {(metric, "320")}, (metric, form)
    found = {(r.get("metric"), r["value"]) for r in rels(annotate(nlp, text.format("WER", form), ents, ("FooNet",)),
                                                          "improvesOver")}
    assert found == {(None, "320")}, form


def test_a_margin_in_a_unit_no_metric_of_the_sentence_takes_has_no_metric(nlp):
    """ "a WER of 2.3% ... with a 320 ms chunk, a relative WER reduction of 12% over BarNet": the chunk is no
    margin, and the score listed after a score is no margin either."""
    text = ("We propose FooNet, a recognizer. FooNet reaches a WER of 2.3% on Alpha-QA and 5.4% on Beta-QA with a "
            "320 ms chunk, a relative WER reduction of 12% over BarNet.")
    doc = annotate(nlp, text, {**_WER, "Beta-QA": "Dataset"}, ("FooNet",))
    assert {(r["o"], r.get("metric"), r["value"]) for r in rels(doc, "improvesOver")} == {("BarNet", "WER", "12")}
    assert {(r["metric"], r["value"]) for r in rels(doc, "achieves")} == {("WER", "2.3"), ("WER", "5.4")}


# -- a baseline's own number, and "absolute points" ---------------------------------------------
_BASE = {"FooNet": "Method", "BarNet": "Method", "Alpha-QA": "Dataset"}


def _values(nlp, sentence: str) -> set[tuple]:
    doc = annotate(nlp, "We propose FooNet, a reader. " + sentence, _BASE, ("FooNet",))
    return {(r["o"], r.get("value"), r.get("unit")) for r in rels(doc, "improvesOver")}


@pytest.mark.parametrize("piece", PIECES["possessive_score_links"])
def test_each_possessive_score_link_gives_the_number_to_the_baseline(nlp, piece):
    """ "surpasses BarNet's gain of +1.7%": the number is BarNet's own, no margin over it."""
    assert _values(nlp, f"FooNet surpasses BarNet's gain {example(piece)} +1.7% on Alpha-QA.") == {("BarNet", None, None)}
    assert _values(nlp, f"FooNet surpasses BarNet's gain {example(piece)} only +1.7% on Alpha-QA.") \
        == {("BarNet", None, None)}
    assert _values(nlp, "FooNet surpasses BarNet's gain zzz +1.7% on Alpha-QA.") == {("BarNet", "1.7", "%")}


def _points_forms() -> list[str]:
    return rules.load("units")["units"]["points"]


@pytest.mark.parametrize("form", _points_forms())
def test_a_margin_with_absolute_before_its_points_is_in_points(nlp, form):
    assert _values(nlp, f"FooNet outperforms BarNet by 2.1 absolute {form} on Alpha-QA.") == {("BarNet", "2.1", "points")}


@pytest.mark.parametrize("piece", rules.load("units")["absolute_words"])
def test_each_absolute_word_may_stand_between_a_margin_and_its_points(nlp, piece):
    assert _values(nlp, f"FooNet outperforms BarNet by 2.1 {example(piece)} points on Alpha-QA.") \
        == {("BarNet", "2.1", "points")}
    assert _values(nlp, "FooNet outperforms BarNet by 2.1 zzz points on Alpha-QA.") == {("BarNet", "2.1", None)}


# -- dataset_before_links also join a list of scores each with its dataset --------------------
_LISTED = {"FooNet": "Method", "accuracy": "Metric", "QuxSet": "Dataset", "BarSet": "Dataset"}


@pytest.mark.parametrize("word", PIECES["dataset_before_links"])
def test_each_dataset_before_link_lists_a_second_score_in_the_first_ones_metric(nlp, word):
    doc = annotate(nlp, f"FooNet reaches 85.3% accuracy {word} QuxSet and 62.1% {word} BarSet.", _LISTED, ("FooNet",))
    assert ("FooNet", "accuracy", "62.1", "BarSet") in scores(doc)


def test_a_dataset_before_link_added_by_a_rules_file_lists_scores(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"results": {"extend": {"dataset_before_links": ["within"]}}}), encoding="utf-8")
    text = "FooNet reaches 85.3% accuracy within QuxSet and 62.1% within BarSet."
    for rules_files, listed in (([], False), ([str(path)], True)):
        nlp = pipeline(rules_files)
        assert (("FooNet", "accuracy", "62.1", "BarSet") in scores(annotate(nlp, text, _LISTED, ("FooNet",)))) == listed


# -- entity_patterns' list_separators join the datasets paired in order with a list of scores ----
@pytest.mark.parametrize("join", [", ", " and ", " & ", " / ", " and the "])
def test_a_list_of_datasets_pairs_in_order_with_a_list_of_scores(nlp, join):
    doc = annotate(nlp, f"FooNet reaches 85.1% and 78.3% accuracy on QuxSet{join}BarSet.", _LISTED, ("FooNet",))
    assert {("FooNet", "accuracy", "85.1", "QuxSet"), ("FooNet", "accuracy", "78.3", "BarSet")} <= scores(doc)


def test_a_list_separator_added_by_a_rules_file_pairs_datasets_with_scores(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"entity_patterns": {"extend": {"list_separators": ["plus"]}}}), encoding="utf-8")
    text = "FooNet reaches 85.1% and 78.3% accuracy on QuxSet plus BarSet."
    for rules_files, paired in (([], False), ([str(path)], True)):
        nlp = pipeline(rules_files)
        found = scores(annotate(nlp, text, _LISTED, ("FooNet",)))
        assert (("FooNet", "accuracy", "78.3", "BarSet") in found) == paired, found


# -- plain_scores: a sentence that names no metric is read for them, whatever their words ----------
def test_a_plain_score_added_by_a_rules_file_is_read_in_a_sentence_with_no_metric(tmp_path):
    """Only sentences with a metric or a plain score are read for scores; the
    plain scores are the rules' (once a literal "score" decided)."""

    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"results": {"extend": {"plain_scores": ["(?:an?|the)\\s+rating\\s+of"]}}}),
                    encoding="utf-8")
    ents = {"FooNet": "Method", "QuxSet": "Dataset"}
    for text, rules_files, expected in (
            ("FooNet reaches a score of 69.3 on QuxSet.", [], {("FooNet", "score", "69.3", "QuxSet")}),
            ("FooNet reaches a rating of 69.3 on QuxSet.", [], set()),
            ("FooNet reaches a rating of 69.3 on QuxSet.", [str(path)], {("FooNet", "score", "69.3", "QuxSet")})):
        nlp = pipeline(rules_files)
        assert scores(annotate(nlp, text, ents, ("FooNet",))) == expected, text



# -- baseline_score_breaks: after one of these, the number is a change, not another method's score ----
def test_a_number_after_a_baseline_score_break_is_the_subjects(nlp, tmp_path):

    assert scores(annotate(nlp, INTRO + "FooGAN lowers the previous best FID to 7.9 on ImageNet.", ENTS,
                           ("FooGAN",))) == {("FooGAN", "FID", "7.9", "ImageNet")}
    # "towards" as a link of a metric to its number ("FID towards 7.9"), then also as a break.
    text = INTRO + "FooGAN lowers the previous best FID towards 7.9 on ImageNet."
    for k, (breaks, expected) in enumerate((([], set()), (["towards"], {("FooGAN", "FID", "7.9", "ImageNet")}))):
        path = tmp_path / f"rules-{k}.json"
        change = {"metric_value_links": ["towards"], "baseline_score_breaks": breaks}
        path.write_text(json.dumps({"results": {"extend": change}}), encoding="utf-8")
        added = pipeline([str(path)])
        assert scores(annotate(added, text, ENTS, ("FooGAN",))) == expected, breaks
