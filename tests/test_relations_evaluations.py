"""Kinds of phrasing that say a method was evaluated on a dataset
(evaluatedOn), on sentences written for these tests (entity spans set by
hand, as in test_relations.py, so that only the relation rules are tested)."""

from __future__ import annotations

import kg.extract.relations  # noqa: F401  registers kg_relations
from tests.test_relations import annotate, nlp, triples  # noqa: F401  nlp is a fixture


def evaluated(doc) -> set[tuple]:
    return triples(doc, "evaluatedOn")


# -- a dataset of the paper's own ------------------------------------------------------
OWN = {"LoomNet": "Method", "LoomBench": "Dataset"}


def test_the_proposal_tested_on_its_own_dataset_in_one_sentence(nlp):
    doc = annotate(nlp, "We propose LoomNet, a weaver of graphs. "
                        "Experiments on our new LoomBench dataset show that LoomNet ranks nodes well.",
                   OWN, proposed=("LoomNet", "LoomBench"))
    assert evaluated(doc) == {("LoomNet", "LoomBench")}


def test_the_sentence_that_makes_the_dataset_tests_nothing_on_it(nlp):
    doc = annotate(nlp, "We propose LoomNet, a weaver of graphs. "
                        "We also release LoomBench, a benchmark for evaluating graph weavers.",
                   OWN, proposed=("LoomNet", "LoomBench"))
    assert evaluated(doc) == set()


def test_results_reported_later_are_on_the_dataset_made_before(nlp):
    doc = annotate(nlp, "We propose LoomNet, a weaver of graphs. "
                        "To measure weaving, we build a benchmark called LoomBench. "
                        "Experiments show that our method weaves faster than prior work.",
                   OWN, proposed=("LoomNet", "LoomBench"))
    assert evaluated(doc) == {("LoomNet", "LoomBench")}


def test_results_reported_before_the_dataset_is_made_are_not_on_it(nlp):
    doc = annotate(nlp, "We propose LoomNet, a weaver of graphs. "
                        "Experiments show that our method weaves faster than prior work. "
                        "We also release LoomBench, a set of woven graphs.",
                   OWN, proposed=("LoomNet", "LoomBench"))
    assert evaluated(doc) == set()


def test_results_of_another_method_are_not_the_proposals(nlp):
    doc = annotate(nlp, "We propose LoomNet, a weaver of graphs, and build a benchmark called LoomBench. "
                        "Experiments show that GraphSAGE remains strong on small graphs.",
                   {**OWN, "GraphSAGE": "Method"}, proposed=("LoomNet", "LoomBench"))
    assert ("LoomNet", "LoomBench") not in evaluated(doc)
