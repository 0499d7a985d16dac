"""What is not a method name, on sentences written for these tests."""

from __future__ import annotations

import pytest

from entity_helpers import entities


@pytest.mark.parametrize("text", [
    "We train 1B/3B/8B variants and 70M-1B variants with 1.45G operations.",  # sizes
    "Training runs on V100 and H100s in a day.",  # hardware
    "It beats non-BERT rankers on short queries.",  # negated name
    "QuollNet-pretrained and ReLU-activated encoders differ; XAI-methods disagree.",  # hyphenated adjectives
    "Progress towards AGI needs XAI tools.",  # fields, not methods
    "A 5D radiance field and 7-Dimensional features are fitted.",  # counts of dimensions
    "The [QUOLL] symbol and the final <WOMBAT> token are masked.",  # special tokens
])
def test_not_method_names(nlp, text):
    assert not any(label in ("Method", "Dataset") for _, label in entities(nlp, text))


def test_items_listed_with_a_known_method_are_methods(nlp):
    found = entities(nlp, "We compare QuillNet, sparse rerouting, lattice probes, and stochastic feature hashing.")
    assert {("sparse rerouting", "Method"), ("lattice probes", "Method"),
            ("stochastic feature hashing", "Method")} <= found
    found = entities(nlp, "Pruned models rival both SparseGPT and Wombat on long inputs.")
    assert ("Wombat", "Method") in found
    # a bracketed short form after the known name does not end the list
    found = entities(nlp, "Baselines include sparse autoencoders (SAEs), lattice probes and kernel rerouting.")
    assert {("lattice probes", "Method"), ("kernel rerouting", "Method")} <= found


@pytest.mark.parametrize("text, not_found", [
    ("QuillNet uses token representations, and FooNet reaches high accuracy.", "token representations"),  # clauses
    ("We combine FooNet and iterative optimization of sampled batches.", "iterative optimization"),  # "of" goes on
    ("QuillNet, lattice probes appear.", "lattice probes"),  # commas alone: no list
])
def test_what_is_not_a_listed_method(nlp, text, not_found):
    assert not any(t == not_found and label == "Method" for t, label in entities(nlp, text))


def test_items_after_a_word_for_methods_are_methods(nlp):
    found = entities(nlp, "Techniques such as weight rerouting or kernel fusion can reduce the cost.")
    assert {("weight rerouting", "Method"), ("kernel fusion", "Method")} <= found
    found = entities(nlp, "We study two approaches: autoencoding and masked rerouting.")
    assert {("autoencoding", "Method"), ("masked rerouting", "Method")} <= found


def test_a_title_case_name_the_rule_cannot_delimit_is_left_out(nlp):
    # a capitalised word after the head word: "Golden Gate Bridge"
    found = entities(nlp, "We walked across the Quokka Gate Bridge at dawn.")
    assert not any(label == "Method" for _, label in found)
    found = entities(nlp, "We add Rank-2 Glyph Finetuning to the encoder.")
    assert ("Rank-2 Glyph Finetuning", "Method") in found


def test_a_method_name_before_task_words_names_a_task(nlp):
    found = entities(nlp, "Transformers excel at sequence-to-sequence tasks and at QuokkaNet problems.")
    assert ("sequence-to-sequence", "Task") in found and ("QuokkaNet", "Task") in found
    assert ("Transformers", "Method") in found


def test_the_attention_mechanism_is_a_generic_term(nlp):
    found = entities(nlp, "QuokkaNet replaces the attention mechanism with multi-head attention.")
    assert ("multi-head attention", "Method") in found
    assert not any(t.startswith("attention mechanism") for t, _ in found)


@pytest.mark.parametrize("text, name", [
    ("On the test set, Kite V2 scores best.", "Kite V2"),
    ("We compare with Pebble-Net V3 on birds.", "Pebble-Net V3"),
])
def test_a_version_after_a_capitalised_word_is_part_of_its_name(nlp, text, name):
    assert name in {n for n, _ in entities(nlp, text)}


def test_a_version_after_a_function_word_stands_alone(nlp):
    names = {n for n, _ in entities(nlp, "We compare with The V2 on birds.")}
    assert "The V2" not in names


@pytest.mark.parametrize("text, name", [
    ("We improve prior methods such as Round-To-Kite and QuillQ on birds.", "Round-To-Kite"),
    ("Pebble codes, found in models such as KiteNet, GLQ, or mKite, run fast.", "mKite"),
])
def test_names_of_other_shapes_listed_after_a_word_for_methods(nlp, text, name):
    assert (name, "Method") in entities(nlp, text)


def test_a_hyphenated_word_in_lower_case_after_a_capital_is_no_listed_name(nlp):
    assert ("Round-to-kite", "Method") not in entities(nlp, "We improve prior methods such as Round-to-kite and QuillQ.")


@pytest.mark.parametrize("text, name", [
    ("Answers are scored by QuollLM 3.3 70B Instruct in every trial.", "QuollLM 3.3 70B Instruct"),
    ("The judge is Mistral 7B in every run.", "Mistral 7B"),
    ("Our students beat QuollJEPA 2 encoders on video probes.", "QuollJEPA 2"),
    ("It is distilled from WombatLM 2.5 Chat, a chat model.", "WombatLM 2.5 Chat"),
])
def test_a_model_version_size_and_variant_belong_to_its_name(nlp, text, name):
    assert (name, "Method") in entities(nlp, text)


def test_a_count_after_a_name_is_no_version(nlp):
    found = entities(nlp, "QuollNet runs 2 times faster than BERT 3 times over.")
    assert ("QuollNet", "Method") in found and ("BERT", "Method") in found, found


@pytest.mark.parametrize("text, word", [
    ("Training ran on a WOMBAT Lambda cluster of many nodes.", "WOMBAT"),
    ("We study a toy model, the perturbed Block QMDP, in depth.", "QMDP"),
    ("Scores on NUMBAT Feb 2031 problems are reported.", "NUMBAT"),
])
def test_a_name_beside_a_plain_capitalised_word_is_part_of_a_longer_name(nlp, text, word):
    assert (word, "Method") not in entities(nlp, text)


def test_a_name_alone_is_still_a_method(nlp):
    assert ("WOMBAT", "Method") in entities(nlp, "Training with WOMBAT takes a day. Lambda calculus is older.")


def test_a_title_case_run_listed_with_known_methods_is_a_method(nlp):
    found = entities(nlp, "We study several maps, including Metric Quokka Scaling, IsoMap, and UMAP.")
    assert ("Metric Quokka Scaling", "Method") in found, found
