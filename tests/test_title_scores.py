"""Scores a title states (kg/relations/title_scores.py), through the whole
extractor, on titles and abstracts written for these tests."""

from __future__ import annotations

import pytest

from kg.extraction.record import Extractor
from kg.model import Abstract

ABSTRACT = "We propose QuillNet, an image classifier. QuillNet is evaluated on ImageNet and outperforms BarNet."


@pytest.fixture(scope="module")
def extractor():
    return Extractor()


def scores(extractor, title: str, abstract: str = ABSTRACT) -> list[tuple]:
    record = extractor.record(Abstract("t1", abstract, title))
    return [(r["s"], r["metric"], r["value"], r.get("dataset"), "span" in r)
            for r in record["relations"] if r["p"] == "achieves"]


def test_a_score_in_the_title_is_the_papers_with_its_metric_and_dataset(extractor):
    assert scores(extractor, "QuillNet: 84.5% ImageNet Top-1 Accuracy with Sparse Kernels") == \
        [("QuillNet", "top-1 accuracy", "84.5", "ImageNet", False)]


def test_the_metric_may_stand_before_the_number(extractor):
    assert scores(extractor, "QuillNet Reaches a Top-1 Accuracy of 84.5% on ImageNet") == \
        [("QuillNet", "top-1 accuracy", "84.5", "ImageNet", False)]


def test_the_title_narrows_the_metric_of_the_abstracts_own_score(extractor):
    abstract = "We propose QuillNet, an image classifier. On ImageNet, QuillNet reaches an accuracy of 84.5%."
    assert scores(extractor, "QuillNet: 84.5% ImageNet Top-1 Accuracy with Sparse Kernels", abstract) == \
        [("QuillNet", "top-1 accuracy", "84.5", "ImageNet", True)]


@pytest.mark.parametrize("title", [
    "Boosting QuillNet by 2.5% in ImageNet Top-1 Accuracy",       # a margin
    "QuillNet: 84.5% Top-1 Accuracy on ImageNet and on Places365",  # two datasets: whose is it
    "QuillNet: 84.5% of the Weights Pruned on ImageNet",            # no metric beside the number
    "QuillNet 2.0: Sparse Kernels for ImageNet Top-1 Accuracy",     # a version, no score
])
def test_no_score_where_the_title_does_not_say_one(extractor, title):
    assert scores(extractor, title) == []


def test_a_paper_with_no_method_of_its_own_gets_no_title_score(extractor):
    assert scores(extractor, "84.5% ImageNet Top-1 Accuracy with Sparse Kernels",
                  "We study sparse kernels for image classification on ImageNet.") == []


def test_a_title_score_on_a_dataset_the_abstract_never_names_is_an_evaluation_on_it(extractor):
    record = extractor.record(Abstract("t1", ABSTRACT, "QuillNet: 84.5% Top-1 Accuracy on Places365"))
    assert ("QuillNet", "top-1 accuracy", "84.5", "Places365") in \
        [(r["s"], r["metric"], r["value"], r.get("dataset")) for r in record["relations"] if r["p"] == "achieves"]
    assert ("QuillNet", "Places365") in [(r["s"], r["o"]) for r in record["relations"] if r["p"] == "evaluatedOn"]
