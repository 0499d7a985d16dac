"""Metric names, on sentences written for these tests."""

from __future__ import annotations

import pytest

from kg import rules
from entity_helpers import entities


def test_the_score_of_a_known_metric_is_that_metric(nlp):
    found = entities(nlp, "QuillGAN reaches an FID score of 3.1 and a BLEU score of 30.")
    assert {("FID", "Metric"), ("BLEU", "Metric")} <= found
    assert ("QuillEval score", "Metric") in entities(nlp, "It raises the QuillEval score by two points.")


def test_a_generic_word_before_score_is_no_metric_name(nlp):
    found = entities(nlp, "QuillNet reaches a SOTA score and A score of 3 on QuollSet.")
    assert not any(label == "Metric" for _, label in found)


@pytest.mark.parametrize("text, name", [
    ("We compare the quasi-log-likelihood (QLL) of both samplers.", "quasi-log-likelihood"),
    ("We use the Brandt Koller (BK) divergence to compare the two.", "Brandt Koller"),
    ("Systems trained with the Answer Soundness (AS) metric gain most.", "Answer Soundness"),
    ("Its echo-to-hiss ratio (EHR) rises by 3 dB.", "echo-to-hiss ratio"),
])
def test_an_abbreviated_measure_is_a_metric(nlp, text, name):
    assert (name, "Metric") in entities(nlp, text)


def test_a_name_at_a_cutoff_is_a_metric(nlp):
    found = entities(nlp, "QuillNet gains +4.2 Sturdiness@10 over the baseline.")
    assert ("Sturdiness@10", "Metric") in found


def test_upper_case_spellings_of_known_metrics(nlp):
    found = entities(nlp, "QuillNet reaches a MAP of 0.51 with the same FLOPS.")
    assert {("MAP", "Metric"), ("FLOPS", "Metric")} <= found


def test_model_size_is_no_metric_name(nlp):
    assert entities(nlp, "Quality grows with model size for QuillNet.") == {("QuillNet", "Method")}


def test_a_setting_is_no_metric(nlp):
    found = entities(nlp, "We tune cosine learning rates for QuillNet.")
    assert not any(label == "Metric" for _, label in found)


def test_a_point_in_time_is_no_metric(nlp):
    found = entities(nlp, "QuillNet adapts its weights at inference time and during training time.")
    assert not any(label == "Metric" for _, label in found)
    assert ("inference time", "Metric") in entities(nlp, "QuillNet halves the inference time of BERT.")


def test_words_that_judge_a_value_are_no_part_of_its_name(nlp):
    found = entities(nlp, "QuillNet has the lowest glyph error rate of all taggers.")
    assert ("glyph error rate", "Metric") in found


def test_a_known_metric_in_the_plural(nlp):
    found = entities(nlp, "QuillNet improves accuracies and keeps latencies low.")
    assert {("accuracies", "Metric"), ("latencies", "Metric")} <= found


@pytest.mark.parametrize("noun", sorted(rules.load("entity_patterns")["metric_described_nouns"]))
def test_a_metric_before_a_noun_it_describes_is_no_metric(nlp, noun):
    found = entities(nlp, f"We study the echo error rate {noun} of QuillNet.")
    assert not any(label == "Metric" for _, label in found)


def test_a_metric_before_a_task_word_names_a_task(nlp):
    found = entities(nlp, "In a chord recall task, QuillNet learns fast.")
    assert ("chord recall", "Task") in found
    assert not any(label == "Metric" for _, label in found)


def test_a_generic_owner_starts_no_metric_name_but_what_follows_it_is_one(nlp):
    found = entities(nlp, "QuillNet lifts the average chord accuracy by three points.")
    assert ("chord accuracy", "Metric") in found
    assert ("average chord accuracy", "Metric") not in found


def test_a_metric_named_in_full_then_by_its_last_words_is_one_metric(nlp):
    doc = nlp("QuillNet cuts the query latency of QuollSet. The latency falls further with caching.")
    assert {s._.kg_name for s in doc.spans["entities"] if s.label_ == "Metric"} == {"query latency"}


def test_a_metric_word_with_two_longer_names_stays_as_written(nlp):
    doc = nlp("QuillNet cuts the query latency and the write latency. The latency falls further with caching.")
    assert {s._.kg_name for s in doc.spans["entities"] if s.label_ == "Metric"} >= {"latency"}


def test_a_possessive_owner_is_no_part_of_a_metric_name(nlp):
    found = entities(nlp, "QuillNet raises each judge's echo accuracy on QuollSet.")
    assert ("echo accuracy", "Metric") in found
    assert not any("judge" in text for text, _ in found)


@pytest.mark.parametrize("tail", ["constrained", "sensitive", "critical", "intensive", "bounded", "limited"])
def test_a_known_metric_before_an_adjective_half_is_no_metric(nlp, tail):
    found = entities(nlp, f"QuillNet serves latency-{tail} users on small boards.")
    assert not any(label == "Metric" for _, label in found)


@pytest.mark.parametrize("name", ["faithfulness", "generalization error", "signal-to-noise ratio"])
def test_well_known_metrics_are_known(nlp, name):
    assert (name, "Metric") in entities(nlp, f"QuillNet improves the {name} of small models.")


def test_a_level_modifier_is_no_part_of_a_metric_name(nlp):
    found = entities(nlp, "QuillNet lowers the token-level perplexity of small models.")
    assert ("perplexity", "Metric") in found
    assert ("token-level perplexity", "Metric") not in found


def test_a_range_of_multipliers_is_no_part_of_a_metric_name(nlp):
    found = entities(nlp, "QuillNet brings a 2-10x speedup on small boards.")
    assert ("speedup", "Metric") in found
    assert not any(text.startswith("2-10x") for text, _ in found)


def test_a_known_metric_before_performance_is_no_variant_of_it(nlp):
    found = entities(nlp, "QuillNet gains most in Recall@5-performance on QuollSet.")
    assert ("Recall@5-performance", "Metric") not in found


@pytest.mark.parametrize("word", sorted(rules.load("entity_patterns")["setting_words"]))
def test_a_metric_named_as_a_setting_is_no_metric(nlp, word):
    found = entities(nlp, f"QuillNet keeps its quality under {word} compression ratios.")
    assert not any(label == "Metric" for _, label in found)


def test_a_metric_after_a_preposition_alone_stays(nlp):
    assert ("compression ratio", "Metric") in entities(nlp, "QuillNet wins on compression ratio.")


def test_a_greek_letter_alone_is_no_metric(nlp):
    found = entities(nlp, "We set the step size to kappa and let kappa shrink, while Cohen's kappa rose.")
    assert ("kappa", "Metric") not in found
    assert ("Cohen's kappa", "Metric") in found


@pytest.mark.parametrize("kind", ["convergence", "polynomial", "exponential", "linear", "generalization"])
def test_a_rate_of_a_bound_is_no_metric(nlp, kind):
    found = entities(nlp, f"We prove a {kind} rate for QuillNet under mild assumptions.")
    assert not any(label == "Metric" for _, label in found)
