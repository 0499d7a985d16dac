"""The kg_relations component on sentences written for these tests, with the
entity spans set by hand so that only the relation rules are tested."""

from __future__ import annotations

import re

import pytest
import spacy
from spacy.tokens import Doc

import kg.relations.component  # noqa: F401  registers kg_relations
from kg.entities.entity import SPAN_KEY


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_relations")
    return nlp


def annotate(nlp, text: str, entities: dict[str, str], proposed: tuple[str, ...] = (),
             names: dict[str, str] | None = None) -> Doc:
    """Mark every occurrence of each surface form in `entities` (form -> label)."""
    doc = nlp.make_doc(text)
    spans = []
    for form, label in entities.items():
        for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text):
            span = doc.char_span(m.start(), m.end(), label=label)
            assert span is not None, form
            span._.kg_name = (names or {}).get(form, form)
            span._.proposed = form in proposed
            spans.append(span)
    doc.spans[SPAN_KEY] = spans
    for name, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def rels(doc: Doc, p: str) -> list[dict]:
    return [r for r in doc._.kg_relations if r["p"] == p]


def triples(doc: Doc, p: str) -> set[tuple]:
    return {(r["s"], r.get("o") or r.get("metric")) for r in rels(doc, p)}


PROPOSAL = "We propose QuillNet, a parser for clause segmentation. "


# -- evaluatedOn and lists -------------------------------------------------------
def test_each_dataset_of_a_list_is_evaluated_on(nlp):
    doc = annotate(nlp, PROPOSAL + "We evaluate our method on CIFAR-10, CIFAR-100 and ImageNet.",
                   {"QuillNet": "Method", "CIFAR-10": "Dataset", "CIFAR-100": "Dataset", "ImageNet": "Dataset"},
                   proposed=("QuillNet",))
    assert triples(doc, "evaluatedOn") == {("QuillNet", "CIFAR-10"), ("QuillNet", "CIFAR-100"), ("QuillNet", "ImageNet")}


def test_training_data_is_not_a_test_set(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet is pre-trained on WebText and evaluated on SQuAD.",
                   {"QuillNet": "Method", "WebText": "Dataset", "SQuAD": "Dataset"}, proposed=("QuillNet",))
    assert triples(doc, "evaluatedOn") == {("QuillNet", "SQuAD")}


def test_relation_carries_its_sentence_and_a_confidence(nlp):
    text = PROPOSAL + "Experiments on ImageNet confirm it."
    doc = annotate(nlp, text, {"QuillNet": "Method", "ImageNet": "Dataset"}, proposed=("QuillNet",))
    (rel,) = rels(doc, "evaluatedOn")
    start, end = rel["span"]
    assert text[start:end] == "Experiments on ImageNet confirm it."
    assert 0.0 < rel["confidence"] <= 1.0


# -- addresses ---------------------------------------------------------------------
def test_proposal_addresses_its_task(nlp):
    doc = annotate(nlp, PROPOSAL, {"QuillNet": "Method", "clause segmentation": "Task"}, proposed=("QuillNet",))
    assert triples(doc, "addresses") == {("QuillNet", "clause segmentation")}


def test_a_proposal_named_after_the_task_addresses_it(nlp):
    doc = annotate(nlp, PROPOSAL + "On glacier segmentation, its variant QuillNet-S is the fastest.",
                   {"QuillNet": "Method", "QuillNet-S": "Method", "clause segmentation": "Task",
                    "glacier segmentation": "Task"}, proposed=("QuillNet", "QuillNet-S"))
    assert ("QuillNet-S", "glacier segmentation") in triples(doc, "addresses")
    assert ("QuillNet", "glacier segmentation") not in triples(doc, "addresses")


# -- subjects --------------------------------------------------------------------
@pytest.mark.parametrize("subject", ["Our method", "The proposed approach", "It", "Our model", "We"])
def test_words_for_the_proposal_stand_for_its_name(nlp, subject):
    doc = annotate(nlp, PROPOSAL + f"{subject} outperforms BM25 on MS MARCO.",
                   {"QuillNet": "Method", "BM25": "Method", "MS MARCO": "Dataset"}, proposed=("QuillNet",))
    assert triples(doc, "improvesOver") == {("QuillNet", "BM25")}
    assert triples(doc, "evaluatedOn") == {("QuillNet", "MS MARCO")}


@pytest.mark.parametrize("subject", ["Our method", "The proposed approach", "It", "Our model"])
def test_unnamed_proposal_gives_nothing(nlp, subject):
    doc = annotate(nlp, "We propose a new parser. " + f"{subject} outperforms BM25 by 2.5% on MS MARCO.",
                   {"BM25": "Method", "MS MARCO": "Dataset"})
    assert doc._.kg_relations == []


def test_nothing_proposed_the_method_opening_the_clause_addresses_its_tasks(nlp):
    doc = annotate(nlp, "However, RoBERTa is widely used for question answering.",
                   {"RoBERTa": "Method", "question answering": "Task"})
    assert triples(doc, "addresses") == {("RoBERTa", "question answering")}


def test_nothing_proposed_a_method_right_before_for_addresses_the_task(nlp):
    doc = annotate(nlp, "Many teams now rely on QuillNet (QN) for clause segmentation.",
                   {"QuillNet": "Method", "clause segmentation": "Task"})
    assert triples(doc, "addresses") == {("QuillNet", "clause segmentation")}


def test_nothing_proposed_a_method_named_in_passing_addresses_nothing(nlp):
    doc = annotate(nlp, "We compare QuillNet with two parsers on clause segmentation.",
                   {"QuillNet": "Method", "clause segmentation": "Task"})
    assert rels(doc, "addresses") == []


def test_proposal_named_without_a_span_is_still_the_subject(nlp):
    # The second "QuillNet" carries no entity span; the name alone is enough.
    text = PROPOSAL + "Tests show that QuillNet is faster than all prior parsers."
    doc = nlp.make_doc(text)
    span = doc.char_span(text.find("QuillNet"), text.find("QuillNet") + 8, label="Method")
    span._.kg_name, span._.proposed = "QuillNet", True
    doc.spans[SPAN_KEY] = [span]
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    assert triples(doc, "improvesOver") == {("QuillNet", "prior parsers")}


def test_a_named_method_is_its_own_subject(nlp):
    doc = annotate(nlp, "In our study, RoBERTa outperforms ELMo on every task.",
                   {"RoBERTa": "Method", "ELMo": "Method"})
    assert triples(doc, "improvesOver") == {("RoBERTa", "ELMo")}


def test_subject_is_the_long_name_of_the_proposal(nlp):
    text = "We introduce Sparse Quill Attention (SQA). SQA outperforms Longformer."
    doc = annotate(nlp, text, {"Sparse Quill Attention": "Method", "SQA": "Method", "Longformer": "Method"},
                   proposed=("Sparse Quill Attention", "SQA"), names={"SQA": "Sparse Quill Attention"})
    assert triples(doc, "improvesOver") == {("Sparse Quill Attention", "Longformer")}


# -- improvesOver: baselines and their numbers ---------------------------------------
def test_each_baseline_gets_its_own_number(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet outperforms BM25 and DPR by 3.1 and 1.2 points, respectively.",
                   {"QuillNet": "Method", "BM25": "Method", "DPR": "Method"}, proposed=("QuillNet",))
    got = {(r["o"], r["value"], r["unit"]) for r in rels(doc, "improvesOver")}
    assert got == {("BM25", "3.1", "points"), ("DPR", "1.2", "points")}


@pytest.mark.parametrize("sentence, baseline", [
    ("QuillNet clearly surpasses the previous state of the art.", "previous state of the art"),
    ("QuillNet beats majority voting on all splits.", "majority voting"),
    ("QuillNet performs better than all existing methods in our tests.", "existing methods"),
    ("QuillNet shows consistent improvements over strong baselines.", "strong baselines"),
])
def test_baselines_in_the_texts_own_words(nlp, sentence, baseline):
    doc = annotate(nlp, PROPOSAL + sentence, {"QuillNet": "Method"}, proposed=("QuillNet",))
    assert triples(doc, "improvesOver") == {("QuillNet", baseline)}


def test_named_examples_replace_the_generic_words(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet outperforms sparse retrievers such as BM25 and SPLADE.",
                   {"QuillNet": "Method", "BM25": "Method", "SPLADE": "Method"}, proposed=("QuillNet",))
    assert triples(doc, "improvesOver") == {("QuillNet", "BM25"), ("QuillNet", "SPLADE")}


@pytest.mark.parametrize("sentence, value, unit", [
    ("QuillNet outperforms BM25 by 7.9% on MS MARCO.", "7.9", "%"),
    ("QuillNet outperforms BM25 by +4.7% on MS MARCO.", "4.7", "%"),
    ("QuillNet outperforms BM25 by up to 2.5% on MS MARCO.", "2.5", "%"),
    ("QuillNet outperforms BM25 by 2% to 5% on MS MARCO.", "2-5", "%"),
    ("QuillNet is 1.5x faster than BM25 on MS MARCO.", "1.5", "x"),
    ("QuillNet gives a 4.41x speedup over BM25 on MS MARCO.", "4.41", "x"),
    ("QuillNet is 40 times faster than BM25 on MS MARCO.", "40", "x"),
])
def test_margin_forms(nlp, sentence, value, unit):
    doc = annotate(nlp, PROPOSAL + sentence, {"QuillNet": "Method", "BM25": "Method", "MS MARCO": "Dataset"},
                   proposed=("QuillNet",))
    (rel,) = rels(doc, "improvesOver")
    assert (rel["o"], rel["value"], rel["unit"], rel["dataset"]) == ("BM25", value, unit, "MS MARCO")


@pytest.mark.parametrize("sentence, metric, value", [
    ("QuillNet improves over Transformer by 0.3 BLEU.", "BLEU", "0.3"),
    ("QuillNet outperforms DeepLab by 6.4 mIoU on the test split.", "mIoU", "6.4"),
])
def test_margin_in_metric_points(nlp, sentence, metric, value):
    base = "Transformer" if "Transformer" in sentence else "DeepLab"
    doc = annotate(nlp, PROPOSAL + sentence, {"QuillNet": "Method", base: "Method", metric: "Metric"},
                   proposed=("QuillNet",))
    (rel,) = rels(doc, "improvesOver")
    assert (rel["o"], rel["metric"], rel["value"], rel["unit"]) == (base, metric, value, "points")


def test_absolute_and_relative_margins(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet reduces the error of BM25 by 2.1% absolute.",
                   {"QuillNet": "Method", "BM25": "Method"}, proposed=("QuillNet",))
    (rel,) = rels(doc, "improvesOver")
    assert (rel["o"], rel["value"], rel["gain"]) == ("BM25", "2.1", "absolute")
    doc = annotate(nlp, PROPOSAL + "QuillNet outperforms BM25 with a relative gain of 12%.",
                   {"QuillNet": "Method", "BM25": "Method"}, proposed=("QuillNet",))
    (rel,) = rels(doc, "improvesOver")
    assert (rel["value"], rel["gain"]) == ("12", "relative")


def test_several_margins_over_one_baseline(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet gains up to 3.3% on Alpha-QA and 1.9% on Beta-QA over prior methods.",
                   {"QuillNet": "Method", "Alpha-QA": "Dataset", "Beta-QA": "Dataset"}, proposed=("QuillNet",))
    got = {(r["o"], r["value"], r.get("dataset")) for r in rels(doc, "improvesOver")}
    assert got == {("prior methods", "3.3", "Alpha-QA"), ("prior methods", "1.9", "Beta-QA")}


# -- achieves ----------------------------------------------------------------------
@pytest.mark.parametrize("sentence, metric, value, unit", [
    ("QuillNet achieves 22.3% WER on LibriSpeech.", "WER", "22.3", "%"),
    ("QuillNet reaches a WER of 22.3% on LibriSpeech.", "WER", "22.3", "%"),
    ("On LibriSpeech, our model obtains an F1 score of 91.2.", "F1 score", "91.2", None),
    ("Our model improves F1 score on LibriSpeech from 61.79 to 66.94.", "F1 score", "66.94", None),
])
def test_scores_reached(nlp, sentence, metric, value, unit):
    doc = annotate(nlp, PROPOSAL + sentence,
                   {"QuillNet": "Method", "LibriSpeech": "Dataset", metric: "Metric"}, proposed=("QuillNet",))
    (rel,) = rels(doc, "achieves")
    assert (rel["s"], rel["metric"], rel["value"], rel.get("unit"), rel["dataset"]) == \
        ("QuillNet", metric, value, unit, "LibriSpeech")


def test_a_margin_is_not_a_score(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet outperforms BM25 by 4.1% accuracy.",
                   {"QuillNet": "Method", "BM25": "Method", "accuracy": "Metric"}, proposed=("QuillNet",))
    assert rels(doc, "achieves") == []
    (rel,) = rels(doc, "improvesOver")
    assert (rel["metric"], rel["value"]) == ("accuracy", "4.1")


def test_sizes_are_not_scores(nlp):
    doc = annotate(nlp, PROPOSAL + "QuillNet has 7B parameters and reaches 80.1% accuracy.",
                   {"QuillNet": "Method", "accuracy": "Metric"}, proposed=("QuillNet",))
    assert {(r["metric"], r["value"]) for r in rels(doc, "achieves")} == {("accuracy", "80.1")}


def test_low_confidence_relations_can_be_left_out():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_relations", config={"min_confidence": 0.55})
    text = PROPOSAL + "Results on SQuAD follow. QuillNet is evaluated on WikiQA."
    doc = annotate(nlp, text, {"QuillNet": "Method", "SQuAD": "Dataset", "WikiQA": "Dataset"}, proposed=("QuillNet",))
    # Only the sentence that names the proposal is sure enough.
    assert triples(doc, "evaluatedOn") == {("QuillNet", "WikiQA")}
    assert all(r["confidence"] >= 0.55 for r in doc._.kg_relations)


def test_pipeline_runs_the_component():
    from kg.pipeline import extraction_pipeline

    nlp = extraction_pipeline()
    assert "kg_relations" in nlp.pipe_names
    doc = nlp("We propose a model. It works well.")
    assert isinstance(doc._.kg_relations, list)
