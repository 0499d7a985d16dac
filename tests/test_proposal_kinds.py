"""Kinds of phrasing that name the paper's own method (lower-case names set
off by a novelty apposition, "our ... tool, nnFoo", size variants, names
defined after an opener), on sentences written for the tests."""

from __future__ import annotations

import pytest


def proposed(nlp, text: str) -> set[tuple[str, str]]:
    doc = nlp(text)
    return {(s._.kg_name, s.label_) for s in doc.spans["entities"] if s._.proposed}


@pytest.mark.parametrize("text, name", [
    ("To fix this, we propose pebble flow samplers -- a simple recipe for uneven steps.",
     "pebble flow samplers"),
    ("We propose quill graph networks, a simple and new family of encoders.", "quill graph networks"),
])
def test_a_plural_lower_case_name_set_off_by_a_novelty_apposition(nlp, text, name) -> None:
    assert (name, "Method") in proposed(nlp, text)


def test_a_plural_that_is_done_stays_no_name(nlp) -> None:
    assert proposed(nlp, "We propose training value critics, which lowers the cost.") == set()


@pytest.mark.parametrize("text", [
    "We study ranking. We show experimentally that FooNet outperforms BarNet on long lists.",
    "We study ranking. Tests show empirically that FooNet beats BarNet on long lists.",
])
def test_an_adverb_between_show_and_that_before_a_result_subject(nlp, text) -> None:
    assert ("FooNet", "Method") in proposed(nlp, text)


@pytest.mark.parametrize("text, name", [
    ("We run our in-house pebble feature tool, nnQuill, on every clip.", "nnQuill"),
    ("We derive a cheaper attention. The resulting sparse transformer, the Pebbleformer, matches Transformers.",
     "Pebbleformer"),
    ("Our method, FooNet, sorts birds.", "FooNet"),
])
def test_a_name_set_off_after_our_or_the_resulting_and_a_described_noun(nlp, text, name) -> None:
    assert (name, "Method") in proposed(nlp, text)


@pytest.mark.parametrize("text", [
    "We compare our results on the benchmark, BarNet is worse.",
    "Our strong baseline model, BarNet, is weak.",
])
def test_a_phrase_between_our_and_the_noun_names_nothing(nlp, text) -> None:
    assert proposed(nlp, text) == set()


def test_a_lower_camel_name_after_a_cue(nlp) -> None:
    assert ("xQuill", "Method") in proposed(nlp, "We propose xQuill, a recurrent model for tides.")


@pytest.mark.parametrize("text, name", [
    ("We refer to our pebble statistic as the ``quill bundle null.'' It is strong.", "quill bundle null"),
    ("We build a sorter called ``FooNet'' for birds.", "FooNet"),
])
def test_a_name_in_tex_quotes_after_a_naming_word(nlp, text, name) -> None:
    assert (name, "Method") in proposed(nlp, text)


def test_a_short_form_defined_after_an_opener_where_no_cue_names_one(nlp) -> None:
    text = ("Big models cost memory. We build a hybrid pruning scheme, which unites "
            "Sparse Quill And Pebble Pruning (SQPP). It is small.")
    assert proposed(nlp, text) == {("Sparse Quill And Pebble Pruning", "Method")}


def test_a_short_form_defined_after_words_of_others_work_is_not_the_proposal(nlp) -> None:
    text = ("We devise a ranker that hardens prior scorers, e.g. the well-known "
            "Quill Pebble Luce (QPL) model.")
    assert proposed(nlp, text) == set()


def test_a_name_defined_right_after_a_novel_is_proposed_anywhere(nlp) -> None:
    text = "We introduce FooNets. FooNets use a novel Quill Attention Via Pebble features (QAVP) for speed."
    assert ("Quill Attention Via Pebble features", "Method") in proposed(nlp, text)


def test_a_name_defined_after_other_words_is_not_made_proposed_by_novel(nlp) -> None:
    text = "We introduce FooNets. A novel idea is to reuse Quill Attention Via Pebble features (QAVP) for speed."
    assert ("Quill Attention Via Pebble features", "Method") not in proposed(nlp, text)


def test_a_short_form_defined_after_an_opener_and_a_description_takes_capitalised_words_before(nlp) -> None:
    text = ("Reading lips is hard. Specifically, we first propose a new lip cropping scheme based on face size "
            "and a Boosted Quill3D pebble encoder (BQE) to read frames.")
    assert proposed(nlp, text) == {("Boosted Quill3D pebble encoder", "Method")}


def test_a_lone_capitalised_part_that_an_article_introduces(nlp) -> None:
    text = ("We propose FooNet, a framework consisting of a Quill Inverter that guesses prompts, "
            "and a Separator that checks them.")
    assert ("Separator", "Method") in proposed(nlp, text)


@pytest.mark.parametrize("text, names", [
    ("We propose FooLM-7B, a small model. FooLM-13B is larger and beats Llama-13B.", {"FooLM-7B", "FooLM-13B"}),
    ("Our 8B/405B-Quill runs 9x faster, and 8B/70B-Quill serves 141 tokens/s.",
     {"8B/405B-Quill", "8B/70B-Quill"}),
])
def test_a_variant_of_a_proposal_that_differs_only_by_its_size(nlp, text, names) -> None:
    assert {n for n, _ in proposed(nlp, text)} == names


def test_a_variant_built_on_the_undefined_initials_of_a_proposal(nlp) -> None:
    text = ("We build a Deep Quill Term Weighting framework for ranking. On short passages, DeepQT-Index "
            "stores weights in an index. DeepQT-Query weighs query terms, and DeepQT is fast.")
    names = {n for n, _ in proposed(nlp, text)}
    assert {"Deep Quill Term Weighting", "DeepQT-Index", "DeepQT-Query"} <= names
    assert "DeepQT" not in names  # the initials alone are the proposal's alias, not a second entity


def test_a_variant_built_on_a_defined_short_form(nlp) -> None:
    text = "We propose Bayesian Pebble Ordering (BPO) for ranking. A smaller BPO-Lite runs on phones."
    assert "BPO-Lite" in {n for n, _ in proposed(nlp, text)}


def test_a_hyphenated_word_that_begins_with_other_initials_is_no_variant(nlp) -> None:
    text = "We propose Bayesian Pebble Ordering for ranking. We compare it with BQO-Lite on phones."
    assert "BQO-Lite" not in {n for n, _ in proposed(nlp, text)}


@pytest.mark.parametrize("text, name", [
    ("We add one trained vector called Quill token to replace pooling.", "Quill token"),
    ("A model called Quokka trained on birds works.", "Quokka"),
    ("We add a learnable vector called Quokka, which pools frames.", "Quokka"),
])
def test_a_lone_capitalised_word_after_a_naming_word_takes_the_noun_that_ends_the_phrase(nlp, text, name) -> None:
    assert {n for n, _ in proposed(nlp, text)} == {name}
