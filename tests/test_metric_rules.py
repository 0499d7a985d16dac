"""Metric names, on sentences written for these tests."""

from __future__ import annotations

import pytest

from kg.nlp import make_pipeline


@pytest.fixture(scope="module")
def nlp():
    return make_pipeline()


def entities(nlp, text: str) -> set[tuple[str, str]]:
    doc = nlp(text)
    return {(s.text, s.label_) for s in doc.spans["entities"]}


def test_the_score_of_a_known_metric_is_that_metric(nlp):
    found = entities(nlp, "QuillGAN reaches an FID score of 3.1 and a BLEU score of 30.")
    assert {("FID", "Metric"), ("BLEU", "Metric")} <= found
    assert ("QuillEval score", "Metric") in entities(nlp, "It raises the QuillEval score by two points.")


def test_a_generic_word_before_score_is_no_metric_name(nlp):
    found = entities(nlp, "QuillNet reaches a SOTA score and A score of 3 on QuollSet.")
    assert not any(label == "Metric" for _, label in found)
