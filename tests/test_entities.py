"""Entity patterns, proposals and the record, on sentences written for the tests."""

from __future__ import annotations

import pytest

from kg.extraction.record import Extractor
from kg.model import Abstract
from kg.pipeline import entity_pipeline
from entity_helpers import entities


def proposed(nlp, text: str) -> set[tuple[str, str]]:
    doc = nlp(text)
    return {(s._.kg_name, s.label_) for s in doc.spans["entities"] if s._.proposed}


# -- patterns for names no list holds ------------------------------------------
def test_task_phrases_in_task_positions(nlp) -> None:
    found = entities(nlp, "The method is built for wildlife sound classification, detection and segmentation.")
    assert {("wildlife sound classification", "Task"), ("detection", "Task"), ("segmentation", "Task")} <= found


def test_task_phrase_outside_a_task_position_is_left_out(nlp) -> None:
    found = entities(nlp, "A careful manual inspection of the logs showed wildlife sound classification errors.")
    assert not any(label == "Task" for _, label in found)


@pytest.mark.parametrize("text", ["We pose the Sparse FOO (SFOO) task for glacier maps.",
                                  "We pose the Sparse FOO (SFOO) problem for glacier maps."])
def test_an_abbreviation_pair_before_a_task_word_is_a_task(nlp, text) -> None:
    assert {("Sparse FOO", "Task"), ("SFOO", "Task")} <= entities(nlp, text)


def test_a_lower_case_pair_that_names_work_before_a_tool_is_a_task(nlp) -> None:
    found = entities(nlp, "Glacier outline attribution (GOA) methods are slow.")
    assert {("Glacier outline attribution", "Task"), ("GOA", "Task")} <= found


def test_a_title_case_pair_before_a_tool_is_no_task(nlp) -> None:
    found = entities(nlp, "We train Glacier Outline Attribution (GOA) models on radar scans.")
    assert ("GOA", "Task") not in found


def test_a_lower_case_pair_ending_in_learning_is_a_task(nlp) -> None:
    found = entities(nlp, "Ranking agents are trained by glacier outline learning (GOL), with noisy labels.")
    assert {("glacier outline learning", "Task"), ("GOL", "Task")} <= found


def test_a_title_case_pair_ending_in_learning_stays_a_method(nlp) -> None:
    found = entities(nlp, "We train agents by Glacier Outline Learning (GOL) on radar scans.")
    assert ("GOL", "Method") in found


def test_task_said_with_a_verb(nlp) -> None:
    assert ("estimating reef coverage", "Task") in entities(nlp, "A model for estimating reef coverage, trained once.")


def test_bare_task_word_alone_is_not_a_task(nlp) -> None:
    assert not any(label == "Task" for _, label in entities(nlp, "The classification of errors is manual."))


def test_metric_phrases(nlp) -> None:
    found = entities(nlp, "It improves glyph decoding accuracy and lowers inference latency.")
    assert ("glyph decoding accuracy", "Metric") in found
    assert ("inference latency", "Metric") in found


def test_method_phrases(nlp) -> None:
    found = entities(nlp, "Training uses a margin ranking loss and the Brandt Koller Classifier beats majority voting.")
    assert ("margin ranking loss", "Method") in found
    assert ("Brandt Koller Classifier", "Method") in found
    assert ("majority voting", "Method") in found


def test_names_by_shape_and_by_dataset_words(nlp) -> None:
    found = entities(nlp, "QuillNet is tested on the Harbor Birds dataset and on FooBench, ZetaSet and "
                          "Kestrel-7 benchmarks.")
    assert ("QuillNet", "Method") in found
    assert ("Harbor Birds", "Dataset") in found
    assert {("FooBench", "Dataset"), ("ZetaSet", "Dataset"), ("Kestrel-7", "Dataset")} <= found


def test_name_in_a_list_with_known_datasets_is_a_dataset(nlp) -> None:
    found = entities(nlp, "Results on CIFAR-10, SVHN and GrovePix show the gap.")
    assert ("GrovePix", "Dataset") in found


def test_generic_words_and_acronyms_are_not_entities(nlp) -> None:
    found = entities(nlp, "Deep learning on GPUs with large language models and neural networks is costly; "
                          "our framework runs on a CPU via an API.")
    assert found == set()


# -- the paper's own proposals ---------------------------------------------------
@pytest.mark.parametrize("text,name", [
    ("We propose GlintFormer, a transformer for radar echoes.", "GlintFormer"),
    ("In this letter, we introduce a simple method called PebbleMix for augmentation.", "PebbleMix"),
    ("We present Drift Aware Quantile Regression (DAQR) for streaming data.", "Drift Aware Quantile Regression"),
    ("Our approach, TideRank, learns to order passages.", "TideRank"),
    ("OrbitNet, a novel recurrent model, predicts satellite drift.", "OrbitNet"),
    ("We release HarborQA, a new benchmark for port logistics questions.", "HarborQA"),
])
def test_proposals(nlp, text: str, name: str) -> None:
    assert name in {n for n, _ in proposed(nlp, text)}


def test_proposed_dataset_is_a_dataset(nlp) -> None:
    assert ("HarborQA", "Dataset") in proposed(nlp, "We release HarborQA, a new benchmark for port logistics.")
    assert ("LoomSet", "Dataset") in proposed(nlp, "We curate LoomSet, a large-scale textile defect dataset.")


def test_known_methods_mentioned_are_not_proposals(nlp) -> None:
    assert proposed(nlp, "We fine-tune BERT and compare it with RoBERTa on SST-2.") == set()


def test_every_mention_of_a_proposal_is_proposed_and_sets_proposed_name(nlp) -> None:
    doc = nlp("We propose KiteNet for drone tracking. KiteNet runs at 90 fps.")
    assert [s._.proposed for s in doc.spans["entities"] if s.text == "KiteNet"] == [True, True]
    assert doc._.proposed_name == "KiteNet"


def test_proposed_name_is_the_proposal_named_most_often(nlp) -> None:
    # a part introduced before the system is named less often than the system
    doc = nlp("We first propose PebbleNorm, a normalisation layer. We then propose KiteNet, built on it. "
              "KiteNet tracks drones. KiteNet runs at 90 fps.")
    assert doc._.proposed_name == "KiteNet"


# -- the record ------------------------------------------------------------------
def test_record_follows_the_spec() -> None:
    extractor = Extractor()
    text = ("We propose Sparse Echo Routing (SER), a routing method for speech recognition. "
            "SER beats Conformer on LibriSpeech and lowers the word error rate (WER). CIFAR10 and CIFAR-10 agree.")
    rec = extractor.record(Abstract(id="t1", text=text))
    assert rec["id"] == "t1" and set(rec["entities"]) == {"Method", "Dataset", "Task", "Metric"}
    method = next(e for e in rec["entities"]["Method"] if e["name"] == "Sparse Echo Routing")
    assert method["aliases"] == ["SER"] and method["proposed"] is True
    assert len(method["mentions"]) == 3
    metric = next(e for e in rec["entities"]["Metric"] if e["name"] == "word error rate")
    assert metric["aliases"] == ["WER"]
    cifar = [e for e in rec["entities"]["Dataset"] if "CIFAR" in e["name"]]
    assert len(cifar) == 1 and cifar[0]["canonical"] == "CIFAR-10"
    for ents in rec["entities"].values():
        for e in ents:
            for start, end in e["mentions"]:
                assert text[start:end] in [e["name"], *e.get("aliases", [])]


# -- any input -------------------------------------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

_WORDS = ["We", "propose", "introduce", "called", "FooNet", "(", ")", "FN", ",", "a", "novel", "dataset", "on",
          "CIFAR-10", "and", "accuracy", "for", "image", "classification", ".", "the", "benchmark", "BER",
          "balanced", "error", "rate", "Large", "Models", "LMs", "our", "method", "\\textbf{", "}", "$", "e.g.", "\n\n"]
_NLP = entity_pipeline()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=40))
def test_any_word_salad_gives_ordered_non_overlapping_typed_spans(words: list[str]) -> None:
    doc = _NLP(" ".join(words))
    spans = list(doc.spans["entities"])
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))
    assert all(s.label_ in ("Method", "Dataset", "Task", "Metric") and s._.kg_name for s in spans)


# -- narrowed tasks, plural outputs, numbers beside names ------------------------------
def test_known_task_narrowed_by_its_modifiers(nlp) -> None:
    found = entities(nlp, "We study contrastive objectives for hypergraph representation learning on citation data.")
    assert ("hypergraph representation learning", "Task") in found
    assert ("representation learning", "Task") not in found


def test_plural_of_a_task_is_an_output_not_the_task(nlp) -> None:
    found = entities(nlp, "Finally, we offer practical recommendations for practitioners who tune the sampler.")
    assert not any(label == "Task" for _, label in found)


@pytest.mark.parametrize("amount", ["3.1times", "3.1x", "3.1 times"])
def test_a_number_with_its_unit_stays_out_of_a_metric_name(nlp, amount) -> None:
    found = entities(nlp, f"Experiments show that PebbleCache reaches up to {amount} speedup on long clips.")
    assert ("speedup", "Metric") in found
    assert not any(amount.split()[0] in text for text, _ in found)


def test_capitalised_word_listed_between_known_datasets_is_a_dataset(nlp) -> None:
    found = entities(nlp, "We report miss rates on CIFAR-10, Marlin and SVHN.")
    assert ("Marlin", "Dataset") in found
    # Without a list of known datasets the same word is left alone.
    assert not any(text == "Marlin" for text, _ in entities(nlp, "We report miss rates on Marlin."))


# -- abbreviations with numbers, brackets and shared last words -------------------------
def test_bracket_then_colon_still_closes_the_short_form(nlp) -> None:
    doc = nlp("We present gated sparse attention (GSA): a layer that routes tokens.")
    assert [(lg.text, sh.text) for lg, sh in doc._.abbreviations] == [("gated sparse attention", "GSA")]


def test_short_form_opening_with_a_number(nlp) -> None:
    doc = nlp("We build 4D Sparse Voxel Mapping (4DSVM) for moving scenes.")
    assert [(lg.text, sh.text) for lg, sh in doc._.abbreviations] == [("4D Sparse Voxel Mapping", "4DSVM")]


def test_short_form_that_keeps_the_last_word_of_its_long_form(nlp) -> None:
    text = ("We develop a Gated Sparse Mask R-CNN (GSM R-CNN) detector. "
            "Results show that the proposed GSM R-CNN is accurate.")
    doc = nlp(text)
    assert [(lg.text, sh.text) for lg, sh in doc._.abbreviations] == [("Gated Sparse Mask R-CNN", "GSM R-CNN")]
    assert proposed(nlp, text) == {("Gated Sparse Mask R-CNN", "Method")}
    names = {s._.kg_name for s in doc.spans["entities"] if s.text == "GSM R-CNN"}
    assert names == {"Gated Sparse Mask R-CNN"}


# -- more ways of naming the paper's own method ------------------------------------------
@pytest.mark.parametrize("text, name", [
    ("Our system, called Deep Harbor, outperforms earlier pipelines on noisy speech.", "Deep Harbor"),
    ("When trained at scale, our models (TideGANs) reach a better FID.", "TideGANs"),
    ("This report describes OrbitNet, an entry to a shared task.", "OrbitNet"),
    ("Results show that the proposed token budget allocation significantly outperforms dense baselines.",
     "token budget allocation"),
])
def test_more_proposal_phrasings(nlp, text, name) -> None:
    assert proposed(nlp, text) == {(name, "Method")}


def test_descriptor_before_named_is_not_the_proposal(nlp) -> None:
    text = "In this letter, we propose a lightly tuned Faster R-CNN detector named KestrelDet for drones."
    assert proposed(nlp, text) == {("KestrelDet", "Method")}


@pytest.mark.parametrize("text", [
    "On birds, the proposed method clearly beats dense baselines.",
    "We compare against the proposed pooling operations of earlier work.",
    "The proposed matrix completion on toy graphs converges.",
])
def test_the_proposed_with_a_generic_or_unfinished_phrase_names_nothing(nlp, text) -> None:
    assert proposed(nlp, text) == set()


def test_camel_case_name_that_spells_an_english_word_matches_only_as_written(nlp) -> None:
    assert not any(label == "Dataset" for _, label in entities(nlp, "We train at the largest scale tried so far."))
    assert ("LargeST", "Dataset") in entities(nlp, "We forecast traffic on LargeST.")


@pytest.mark.parametrize("pair", ["English-to-German", "En-De", "Zh→En"])
def test_a_language_pair_is_not_a_name(nlp, pair) -> None:
    found = entities(nlp, f"We reach 31.2 BLEU on {pair} WMT 2014 with a small model.")
    assert not any(text == pair for text, _ in found)
    assert ("WMT 2014", "Dataset") in found


def test_names_side_by_side_in_a_dataset_list_are_one_item(nlp) -> None:
    found = entities(nlp, "We test on four re-identification sets, CUHK03, QMUL GRID, CUHK Campus and VIPeR.")
    assert {("QMUL GRID", "Dataset"), ("CUHK Campus", "Dataset"), ("VIPeR", "Dataset")} <= found


def test_we_refer_to_it_as_names_the_proposal(nlp) -> None:
    text = "We refer to our architecture as a “braided ladder” network built on repeated pooling."
    assert proposed(nlp, text) == {("braided ladder", "Method")}


def test_last_word_of_a_longer_name_in_a_list_is_not_a_dataset_alone(nlp) -> None:
    found = entities(nlp, "We test FooNet on TREC 2019 Deep Learning Track, CIFAR-10 and MS MARCO.")
    assert not any(text == "Track" for text, _ in found)


def test_masked_language_modeling_is_a_method_not_the_task_language_modeling(nlp) -> None:
    found = entities(nlp, "The encoder is pretrained with masked language modeling on web text.")
    assert ("masked language modeling", "Method") in found
    assert not any(label == "Task" for _, label in found)


def test_lip_reading_with_a_hyphen_is_the_known_task(nlp) -> None:
    assert ("lip-reading", "Task") in entities(nlp, "Silent video makes lip-reading hard for small models.")


@pytest.mark.parametrize("name", ["associative recall", "passkey retrieval", "needle-in-a-haystack"])
def test_well_known_synthetic_tasks_are_tasks(nlp, name) -> None:
    assert (name, "Task") in entities(nlp, f"FooNet is strong on {name} with long inputs.")


def test_an_abbreviation_pair_before_a_task_word_names_that_task(nlp) -> None:
    doc = nlp("Divers ask for reef cover index (RCI) prediction from drone photos.")
    tasks = {(s._.kg_name, tuple(s._.aliases or ())) for s in doc.spans["entities"] if s.label_ == "Task"}
    assert ("reef cover index prediction", ("RCI prediction",)) in tasks


def test_a_metric_pair_before_a_word_of_change_names_no_task(nlp) -> None:
    found = entities(nlp, "FooNet gives a 5% relative Character Error Rate (CER) reduction on BarSet.")
    assert not any(label == "Task" for _, label in found)
