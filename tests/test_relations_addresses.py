"""The addresses rule (kg/relations/addresses.py, cues in
kg/resources/rules/addresses.json) on sentences written for these tests, with
the entity spans set by hand."""

from __future__ import annotations

import json

import pytest
import spacy

import kg.relations.component  # noqa: F401  registers kg_relations
from kg import rules
from tests.test_relation_cue_lists import pipeline
from tests.test_relations import annotate, triples

PROPOSAL = "We propose QuillNet, a parser for clause segmentation. "


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_relations")
    return nlp


def addresses(nlp, text: str, entities: dict[str, str], proposed: tuple[str, ...] = (),
              names: dict[str, str] | None = None) -> set[tuple]:
    return triples(annotate(nlp, text, entities, proposed, names), "addresses")


# -- sentences about the methods of others ------------------------------------------
def test_a_method_of_others_addresses_the_task_it_is_for(nlp):
    found = addresses(nlp, "Gated state models (GSMs) offer a fast architecture for sequence modeling. " + PROPOSAL,
                      {"Gated state models": "Method", "GSMs": "Method", "QuillNet": "Method",
                       "sequence modeling": "Task", "clause segmentation": "Task"}, proposed=("QuillNet",),
                      names={"GSMs": "Gated state models"})
    assert ("Gated state models", "sequence modeling") in found
    assert ("QuillNet", "clause segmentation") in found


def test_a_method_of_others_with_progress_in_a_field_does_not_address_it(nlp):
    # No purpose word leads to the task: the sentence only sets the scene for the proposal.
    found = addresses(nlp, "Diffusion models have made fast progress in image synthesis. " + PROPOSAL,
                      {"Diffusion models": "Method", "QuillNet": "Method", "image synthesis": "Task",
                       "clause segmentation": "Task"}, proposed=("QuillNet",))
    assert ("Diffusion models", "image synthesis") not in found
    assert ("QuillNet", "image synthesis") in found


def test_a_method_set_against_the_subject_does_not_address_its_task(nlp):
    found = addresses(nlp, "Gated state models are an alternative to Transformers for sequence modeling.",
                      {"Gated state models": "Method", "Transformers": "Method", "sequence modeling": "Task"})
    assert found == {("Gated state models", "sequence modeling")}


def test_a_method_written_as_its_abbreviation_before_to_addresses_each_listed_task(nlp):
    found = addresses(nlp, "Applications of convolutional networks (CNNs) to audio tagging and speech recognition "
                           "are common.",
                      {"convolutional networks": "Method", "CNNs": "Method", "audio tagging": "Task",
                       "speech recognition": "Task"}, names={"CNNs": "convolutional networks"})
    assert found == {("convolutional networks", "audio tagging"), ("convolutional networks", "speech recognition")}


@pytest.mark.parametrize("lead_in", ["When run on long inputs, ", "For short clauses, ", "Compared to older parsers, "])
def test_a_method_after_a_lead_in_phrase_opens_its_clause(nlp, lead_in):
    # The lead-in ends at its comma: the method after it is the subject of the purpose that follows.
    found = addresses(nlp, PROPOSAL + lead_in + "the FooParse tagger builds span tables for clause merging.",
                      {"QuillNet": "Method", "FooParse": "Method", "clause segmentation": "Task",
                       "clause merging": "Task"}, proposed=("QuillNet",))
    assert ("FooParse", "clause merging") in found


LEAD_IN_ENTS = {"QuillNet": "Method", "FooParse": "Method", "clause segmentation": "Task", "clause merging": "Task"}


@pytest.mark.parametrize("word", sorted(rules.load("addresses")["lead_in_openers"]))
def test_each_lead_in_opener_lets_the_method_after_its_comma_open_the_clause(nlp, word):
    found = addresses(nlp, PROPOSAL + f"{word.capitalize()} the long inputs, the FooParse tagger builds span tables "
                                      "for clause merging.", LEAD_IN_ENTS, proposed=("QuillNet",))
    assert ("FooParse", "clause merging") in found


def test_without_its_lead_in_openers_a_rules_file_keeps_the_method_inside_the_opening_phrase(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"addresses": {"replace": {"lead_in_openers": []}}}))
    text = PROPOSAL + "When run on long inputs, the FooParse tagger builds span tables for clause merging."
    assert ("FooParse", "clause merging") in addresses(pipeline(), text, LEAD_IN_ENTS, proposed=("QuillNet",))
    assert ("FooParse", "clause merging") not in addresses(pipeline([str(path)]), text, LEAD_IN_ENTS,
                                                           proposed=("QuillNet",))


def test_a_lead_in_phrase_needs_its_comma(nlp):
    # Without the comma the method stands inside the opening phrase: not the subject of the clause.
    found = addresses(nlp, PROPOSAL + "When the FooParse tagger builds span tables it helps clause merging.",
                      {"QuillNet": "Method", "FooParse": "Method", "clause segmentation": "Task",
                       "clause merging": "Task"}, proposed=("QuillNet",))
    assert ("FooParse", "clause merging") not in found


def test_the_examples_of_a_class_address_its_task(nlp):
    found = addresses(nlp, "Pretrained rankers, such as BERT and T5, are strong at passage ranking.",
                      {"BERT": "Method", "T5": "Method", "passage ranking": "Task"})
    assert found == {("BERT", "passage ranking"), ("T5", "passage ranking")}


def test_a_class_and_its_examples_address_its_task(nlp):
    found = addresses(nlp, "Gated state models (GSMs), such as Mamba, are a fast alternative to Transformers for "
                           "sequence modeling. " + PROPOSAL,
                      {"Gated state models": "Method", "GSMs": "Method", "Mamba": "Method", "Transformers": "Method",
                       "QuillNet": "Method", "sequence modeling": "Task", "clause segmentation": "Task"},
                      proposed=("QuillNet",), names={"GSMs": "Gated state models"})
    assert {("Gated state models", "sequence modeling"), ("Mamba", "sequence modeling")} <= found
    assert ("Transformers", "sequence modeling") not in found


# -- papers that propose nothing by name ------------------------------------------------
def test_the_methods_a_paper_studies_address_the_tasks_of_the_sentence(nlp):
    found = addresses(nlp, "We further audit the FooLM and BarLM models on stance prediction.",
                      {"FooLM": "Method", "BarLM": "Method", "stance prediction": "Task"})
    assert found == {("FooLM", "stance prediction"), ("BarLM", "stance prediction")}


def test_our_method_with_a_word_before_its_name_is_the_papers_own(nlp):
    # Nothing is proposed by name: "our" and one lower-case word before a method make it the paper's.
    found = addresses(nlp, "Diffusion parsers are slow. Experiments show that our staged FooDiff parsers improve "
                           "clause merging.",
                      {"FooDiff": "Method", "clause merging": "Task"})
    assert found == {("FooDiff", "clause merging")}


def test_a_method_named_after_the_tasks_is_not_studied_for_them(nlp):
    found = addresses(nlp, "We study stance prediction and compare FooLM with two baselines.",
                      {"FooLM": "Method", "stance prediction": "Task"})
    assert found == set()


def test_tasks_where_results_were_found_are_those_of_the_method_of_the_finding(nlp):
    found = addresses(nlp, "Extensive experiments on passage ranking and query expansion show that FooNet is robust.",
                      {"FooNet": "Method", "passage ranking": "Task", "query expansion": "Task"})
    assert found == {("FooNet", "passage ranking"), ("FooNet", "query expansion")}


def test_a_method_in_the_same_clause_as_the_results_is_no_finding(nlp):
    found = addresses(nlp, "Experiments on passage ranking use FooNet as a reference.",
                      {"FooNet": "Method", "passage ranking": "Task"})
    assert found == set()


def test_a_relative_clause_with_a_purpose_word_belongs_to_the_method_before_it(nlp):
    found = addresses(nlp, "Gated state models are a class of networks that have emerged as a fast choice for "
                           "sequence modeling.",
                      {"Gated state models": "Method", "sequence modeling": "Task"})
    assert found == {("Gated state models", "sequence modeling")}


def test_a_relative_clause_naming_a_part_gives_no_task(nlp):
    found = addresses(nlp, "The FooNet encoder implements a pipeline that consists of passage retrieval and reranking.",
                      {"FooNet": "Method", "passage retrieval": "Task"})
    assert found == set()


# -- classes of methods named by their task -------------------------------------------
@pytest.mark.parametrize("text", [
    "Popular manifold learning algorithms such as UMAP and IsoMap preserve local structure.",
    "We compare approaches for manifold learning (UMAP, IsoMap) on three corpora.",
])
def test_the_examples_of_a_class_named_by_its_task_address_it(nlp, text):
    found = addresses(nlp, PROPOSAL + text, {"QuillNet": "Method", "UMAP": "Method", "IsoMap": "Method",
                                             "clause segmentation": "Task", "manifold learning": "Task"},
                      proposed=("QuillNet",))
    assert {("UMAP", "manifold learning"), ("IsoMap", "manifold learning")} <= found


def test_a_method_after_a_task_without_a_class_noun_is_no_example(nlp):
    found = addresses(nlp, "Results on manifold learning, such as those of UMAP, vary.",
                      {"UMAP": "Method", "manifold learning": "Task"})
    assert found == set()


def test_a_method_described_in_an_apposition_addresses_the_task_it_is_for(nlp):
    found = addresses(nlp, "We analyse the attention of the Transformer, a strong architecture for machine "
                           "translation.", {"Transformer": "Method", "machine translation": "Task"})
    assert found == {("Transformer", "machine translation")}


# -- means_links: a task that names a means of the method ----------------------------
@pytest.mark.parametrize("link", sorted(rules.load("addresses")["means_links"]))
def test_a_task_named_as_a_means_of_the_method_is_not_addressed(nlp, link):
    found = addresses(nlp, f"QuillNet then works {link} span retrieval and clause merging. " + PROPOSAL,
                      {"QuillNet": "Method", "span retrieval": "Task", "clause merging": "Task",
                       "clause segmentation": "Task"}, proposed=("QuillNet",))
    assert ("QuillNet", "clause segmentation") in found
    assert ("QuillNet", "span retrieval") not in found and ("QuillNet", "clause merging") not in found


def test_a_means_link_opening_the_sentence_leaves_the_task_alone(nlp):
    # "Through X tasks, we show ...": where results were found, not a part of the method.
    found = addresses(nlp, "Through span retrieval tasks, we show that QuillNet is fast.",
                      {"QuillNet": "Method", "span retrieval": "Task"}, proposed=("QuillNet",))
    assert ("QuillNet", "span retrieval") in found


def test_a_means_link_added_by_a_rules_file_does_its_part(tmp_path):
    text = "QuillNet then works atop span retrieval. " + PROPOSAL
    ents = {"QuillNet": "Method", "span retrieval": "Task", "clause segmentation": "Task"}
    assert "atop" not in rules.load("addresses")["means_links"]
    nlp = pipeline()
    assert ("QuillNet", "span retrieval") in addresses(nlp, text, ents, proposed=("QuillNet",))
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"addresses": {"extend": {"means_links": ["atop"]}}}), encoding="utf-8")
    nlp = pipeline([str(path)])
    assert ("QuillNet", "span retrieval") not in addresses(nlp, text, ents, proposed=("QuillNet",))


# -- use_links: a list of downstream uses --------------------------------------------
@pytest.mark.parametrize("link", sorted(rules.load("addresses")["use_links"]))
def test_tasks_listed_as_downstream_uses_are_not_addressed(nlp, link):
    found = addresses(nlp, f"Such parses serve {link} span retrieval and clause merging. " + PROPOSAL,
                      {"QuillNet": "Method", "span retrieval": "Task", "clause merging": "Task",
                       "clause segmentation": "Task"}, proposed=("QuillNet",))
    assert ("QuillNet", "clause segmentation") in found
    assert ("QuillNet", "span retrieval") not in found and ("QuillNet", "clause merging") not in found


def test_a_task_named_outside_a_list_of_uses_is_still_addressed(nlp):
    found = addresses(nlp, "Such parses serve several applications. They help span retrieval. " + PROPOSAL,
                      {"QuillNet": "Method", "span retrieval": "Task", "clause segmentation": "Task"},
                      proposed=("QuillNet",))
    assert ("QuillNet", "span retrieval") in found


# -- absence_links: a task the method does without ----------------------------------------
@pytest.mark.parametrize("link", sorted(rules.load("addresses")["absence_links"]))
def test_a_task_the_method_does_without_is_not_addressed(nlp, link):
    found = addresses(nlp, PROPOSAL + f"QuillNet parses long clauses {link} span retrieval or clause merging.",
                      {"QuillNet": "Method", "span retrieval": "Task", "clause merging": "Task",
                       "clause segmentation": "Task"}, proposed=("QuillNet",))
    assert ("QuillNet", "clause segmentation") in found
    assert ("QuillNet", "span retrieval") not in found and ("QuillNet", "clause merging") not in found


def test_a_task_after_an_absence_link_elsewhere_in_the_sentence_is_still_addressed(nlp):
    found = addresses(nlp, PROPOSAL + "Without any tuning, QuillNet is strong at span retrieval.",
                      {"QuillNet": "Method", "span retrieval": "Task", "clause segmentation": "Task"},
                      proposed=("QuillNet",))
    assert ("QuillNet", "span retrieval") in found
