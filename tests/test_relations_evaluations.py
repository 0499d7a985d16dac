"""Kinds of phrasing that say a method was evaluated on a dataset
(evaluatedOn), on sentences written for these tests (entity spans set by
hand, as in test_relations.py, so that only the relation rules are tested)."""

from __future__ import annotations

import kg.relations.component  # noqa: F401  registers kg_relations
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


# -- methods evaluated in a paper that proposes nothing by name ---------------------------
STUDY = {"FooBench": "Dataset", "RankerA": "Method", "RankerB": "Method", "RankerC": "Method"}


def test_each_method_listed_as_the_subject_is_evaluated(nlp):
    doc = annotate(nlp, "We evaluate RankerA, RankerB and RankerC on FooBench.", STUDY)
    assert evaluated(doc) == {("RankerA", "FooBench"), ("RankerB", "FooBench"), ("RankerC", "FooBench")}


def test_methods_evaluated_after_the_dataset(nlp):
    doc = annotate(nlp, "Based on FooBench, we conduct a thorough evaluation of RankerA and RankerB in two settings.", STUDY)
    assert evaluated(doc) == {("RankerA", "FooBench"), ("RankerB", "FooBench")}


def test_a_method_compared_to_after_the_dataset_is_a_yardstick(nlp):
    doc = annotate(nlp, "On FooBench our approach gives results comparable to RankerA in speed.", STUDY)
    assert evaluated(doc) == set()


def test_listed_methods_beside_a_proposal_are_not_its_subjects(nlp):
    doc = annotate(nlp, "We propose LoomNet, a ranker. We evaluate RankerA and RankerB on FooBench.",
                   {**STUDY, "LoomNet": "Method"}, proposed=("LoomNet",))
    assert evaluated(doc) == {("LoomNet", "FooBench")}


def test_proposals_listed_together_are_each_evaluated(nlp):
    doc = annotate(nlp, "We propose LoomNet and LoomNet-S, two rankers. "
                        "LoomNet and LoomNet-S reach the best results on FooBench.",
                   {"LoomNet": "Method", "LoomNet-S": "Method", "FooBench": "Dataset"},
                   proposed=("LoomNet", "LoomNet-S"))
    assert evaluated(doc) == {("LoomNet", "FooBench"), ("LoomNet-S", "FooBench")}


# -- a proposal named by its last word ----------------------------------------------------
def test_the_proposals_head_word_with_a_determiner_and_a_method_noun_is_the_proposal(nlp):
    doc = annotate(nlp, "We propose the Loom Fusion Transformer for graphs. "
                        "On FooBench, the transformer model scores an accuracy of 91.2%.",
                   {"Loom Fusion Transformer": "Method", "transformer": "Method", "FooBench": "Dataset",
                    "accuracy": "Metric"}, proposed=("Loom Fusion Transformer",))
    assert evaluated(doc) == {("Loom Fusion Transformer", "FooBench")}
    assert triples(doc, "achieves") == {("Loom Fusion Transformer", "accuracy")}


def test_a_head_word_without_a_method_noun_is_the_method_itself(nlp):
    doc = annotate(nlp, "We propose the Loom Fusion Transformer for graphs. "
                        "The transformer of Vaswani scores an accuracy of 88.0% on FooBench.",
                   {"Loom Fusion Transformer": "Method", "transformer": "Method", "FooBench": "Dataset",
                    "accuracy": "Metric"}, proposed=("Loom Fusion Transformer",))
    assert triples(doc, "achieves") == {("transformer", "accuracy")}


def test_what_we_use_is_the_subject_where_nothing_is_proposed(nlp):
    doc = annotate(nlp, "By applying RankerA to fit a linear probe, we reach the best results on FooBench.", STUDY)
    assert evaluated(doc) == {("RankerA", "FooBench")}


def test_what_we_use_is_not_the_subject_beside_a_proposal(nlp):
    doc = annotate(nlp, "We propose LoomNet, a ranker. By applying RankerA as a probe, we reach the best results on FooBench.",
                   {**STUDY, "LoomNet": "Method"}, proposed=("LoomNet",))
    assert evaluated(doc) == {("LoomNet", "FooBench")}


# -- the method a verb improves is its object, not the one evaluated ----------------------
def test_a_method_right_after_an_improve_verb_is_not_the_one_evaluated(nlp):
    ents = {"BarNet": "Method", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}
    doc = annotate(nlp, "This objective improves BarNet performance on benchmarks such as Alpha-QA and Beta-QA.", ents)
    assert evaluated(doc) == set()
    doc = annotate(nlp, "Trained with this objective, BarNet performs well on benchmarks such as Alpha-QA and Beta-QA.",
                   ents)
    assert evaluated(doc) == {("BarNet", "Alpha-QA"), ("BarNet", "Beta-QA")}
    doc = annotate(nlp, "We propose LoomNet, a weaver. LoomNet improves BarNet accuracy on Alpha-QA.",
                   {**ents, "LoomNet": "Method"}, proposed=("LoomNet",))
    assert evaluated(doc) == {("LoomNet", "Alpha-QA")}


# -- the proposal is not the subject of background or of another method's result ----------
LOOM = {"LoomNet": "Method", "BarNet": "Method", "FooBench": "Dataset"}


def test_a_result_of_the_field_before_the_proposal_is_named_is_background(nlp):
    doc = annotate(nlp, "Deep rankers reach strong results on FooBench. We propose LoomNet, a ranker of graphs.",
                   LOOM, proposed=("LoomNet",))
    assert evaluated(doc) == set()


def test_a_result_after_the_proposal_with_no_subject_is_the_proposals(nlp):
    doc = annotate(nlp, "We propose LoomNet, a ranker of graphs. Experiments on FooBench show strong results.",
                   LOOM, proposed=("LoomNet",))
    assert evaluated(doc) == {("LoomNet", "FooBench")}


def test_another_methods_result_is_not_the_proposals(nlp):
    doc = annotate(nlp, "We propose LoomNet, a ranker of graphs. BarNet reaches strong results on FooBench.",
                   LOOM, proposed=("LoomNet",))
    assert evaluated(doc) == set()
    doc = annotate(nlp, "We propose LoomNet, a ranker of graphs. BarNet reaches strong results on FooBench, "
                        "and our method does better.", LOOM, proposed=("LoomNet",))
    assert evaluated(doc) == {("LoomNet", "FooBench")}


# -- words that stand for the paper's own dataset ------------------------------------------
def test_our_benchmark_stands_for_the_dataset_the_paper_made(nlp):
    doc = annotate(nlp, "We introduce FooBench, a benchmark of graph queries. "
                        "We evaluate RankerA and RankerB on our benchmark.", STUDY, proposed=("FooBench",))
    assert evaluated(doc) == {("RankerA", "FooBench"), ("RankerB", "FooBench")}
    doc = annotate(nlp, "We introduce FooBench, a benchmark of graph queries. "
                        "Using our benchmark, we then assess RankerA in two settings.", STUDY, proposed=("FooBench",))
    assert evaluated(doc) == {("RankerA", "FooBench")}


def test_the_proposed_dataset_tests_the_proposal(nlp):
    doc = annotate(nlp, "We propose LoomNet, a weaver of graphs, and build LoomBench. "
                        "Experiments on the proposed dataset show that LoomNet weaves well.",
                   OWN, proposed=("LoomNet", "LoomBench"))
    assert evaluated(doc) == {("LoomNet", "LoomBench")}


def test_our_benchmark_without_a_dataset_of_the_papers_own_is_nothing(nlp):
    doc = annotate(nlp, "We evaluate RankerA on our benchmark.", STUDY)
    assert evaluated(doc) == set()
    doc = annotate(nlp, "We introduce FooBench, a benchmark of graph queries. "
                        "We release our benchmark together with RankerA for others.", STUDY, proposed=("FooBench",))
    assert evaluated(doc) == set()


# -- proposals introduced each in its own right ----------------------------------------------
PEERS = {"FooLaw": "Method", "FooDistill": "Method", "FooOrder": "Method", "Alpha-QA": "Dataset"}


def test_a_test_of_the_framework_tests_each_proposal_introduced_in_its_own_right(nlp):
    doc = annotate(nlp, "First, we propose FooLaw, a law of word frequency. Next, we propose FooDistill, a distiller. "
                        "Finally, we introduce FooOrder, a training order. "
                        "Experiments on Alpha-QA show the effectiveness of the framework.",
                   PEERS, proposed=("FooLaw", "FooDistill", "FooOrder"))
    assert evaluated(doc) == {("FooLaw", "Alpha-QA"), ("FooDistill", "Alpha-QA"), ("FooOrder", "Alpha-QA")}


def test_the_parts_of_a_proposal_are_not_tested_each(nlp):
    doc = annotate(nlp, "We propose FooLaw, a recogniser of speech. FooLaw employs two modules: FooDistill and FooOrder. "
                        "Experiments on Alpha-QA show the effectiveness of the framework.",
                   PEERS, proposed=("FooLaw", "FooDistill", "FooOrder"))
    assert evaluated(doc) == {("FooLaw", "Alpha-QA")}


def test_a_result_of_a_proposal_with_no_dataset_is_on_the_papers_own_dataset(nlp):
    doc = annotate(nlp, "We introduce FooBench, a benchmark of graph queries. "
                        "We also propose LoomNet, a ranker that stays competitive in every setting.",
                   {**STUDY, "LoomNet": "Method"}, proposed=("FooBench", "LoomNet"))
    assert evaluated(doc) == {("LoomNet", "FooBench")}


def test_a_result_of_another_method_with_no_dataset_is_left_alone(nlp):
    doc = annotate(nlp, "We introduce FooBench, a benchmark of graph queries. RankerA stays competitive in every setting.",
                   STUDY, proposed=("FooBench",))
    assert evaluated(doc) == set()


def test_a_word_of_how_well_it_does_makes_the_datasets_the_proposals_tests(nlp):
    ents = {"LoomNet": "Method", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}
    doc = annotate(nlp, "We propose LoomNet, a ranker of graphs. Smaller rankers do better on document sets "
                        "such as Alpha-QA and Beta-QA.", ents, proposed=("LoomNet",))
    assert evaluated(doc) == {("LoomNet", "Alpha-QA"), ("LoomNet", "Beta-QA")}
    doc = annotate(nlp, "We propose LoomNet, a ranker of graphs. Collections such as Alpha-QA and Beta-QA hold "
                        "long documents.", ents, proposed=("LoomNet",))
    assert evaluated(doc) == set()
