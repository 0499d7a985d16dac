"""Abbreviation pairs in both orders, and the test that decides them."""

from __future__ import annotations

import json

import pytest

from kg import rules
from kg.pipeline import entity_pipeline
from kg.nlp.abbrev_match import is_abbreviation, is_camel_abbreviation, is_loose_abbreviation


@pytest.mark.parametrize("short,long", [
    ("LSLMs", "Large Speech-Language Models"),
    ("Lion", "EvoLved Sign Momentum"),
    ("BDD100K", "Berkeley Deep Drive"),
    ("BER", "balanced error rate"),
    ("SCoRe", "Sparse Contrastive Representation Learning"),
    ("GNNs", "graph neural networks"),
    ("2SSP", "Two-Stage framework for Structured Pebbling"),
])
def test_true_pairs(short: str, long: str) -> None:
    assert is_abbreviation(short, long)


@pytest.mark.parametrize("short,long", [
    ("CNN", "recurrent network"),
    ("ViT", "image classification"),
    ("GAN", "generative model"),
    ("X", "some long form"),
])
def test_false_pairs(short: str, long: str) -> None:
    assert not is_abbreviation(short, long)


@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


def pairs(nlp, text: str) -> list[tuple[str, str]]:
    doc = nlp(text)
    return [(lg.text, sh.text) for lg, sh in doc._.abbreviations]


def test_long_form_then_short_form(nlp) -> None:
    text = "We study Large Speech-Language Models (LSLMs) on long audio."
    assert pairs(nlp, text) == [("Large Speech-Language Models", "LSLMs")]


def test_short_form_then_long_form(nlp) -> None:
    text = "We train with Lion (EvoLved Sign Momentum) instead of Adam."
    assert pairs(nlp, text) == [("EvoLved Sign Momentum", "Lion")]


def test_name_with_digits(nlp) -> None:
    text = "Results on Berkeley Deep Drive (BDD100K) are reported."
    assert pairs(nlp, text) == [("Berkeley Deep Drive", "BDD100K")]


def test_capitals_inside_words_when_no_long_form_has_them_open_words(nlp) -> None:
    text = "We propose a pebble generalization of multidimensional quilting (p-MDQ) for graphs."
    assert pairs(nlp, text) == [("pebble generalization of multidimensional quilting", "p-MDQ")]
    assert pairs(nlp, "We model it as an autoregressive (AR) chain.") == []


def test_a_leading_digit_spelled_out(nlp) -> None:
    text = "We describe a Two-Stage framework for Structured Pebbling (2SSP) for pruning."
    assert pairs(nlp, text) == [("Two-Stage framework for Structured Pebbling", "2SSP")]


@pytest.mark.parametrize("short,word,pair", [
    ("KS", "KiteSet", True), ("PQA", "PebbleQA", True), ("KSs", "KiteSet", True),
    ("BERT", "RoBERTa", False),  # a capital of the word left out
    ("KS", "KITESET", False), ("KS", "Kiteset", False), ("Ks", "KiteSet", False),
])
def test_a_camelcase_word_is_abbreviated_by_all_its_capitals(short: str, word: str, pair: bool) -> None:
    assert is_camel_abbreviation(short, word) is pair


def test_a_camelcase_name_and_its_capitals_in_brackets_are_one_entity(nlp) -> None:
    assert pairs(nlp, "We test on KiteSet (KS) and PebbleQA (PQA). KS is small.") == \
        [("KiteSet", "KS"), ("PebbleQA", "PQA")]
    doc = nlp("We evaluate on the KiteSet (KS) benchmark. Results on KS are strong.")
    names = {(s.text, s._.kg_name) for s in doc.spans["entities"]}
    assert ("KS", "KiteSet") in names


def test_brackets_that_hold_no_abbreviation(nlp) -> None:
    assert pairs(nlp, "The loss falls (see below) and the error rate (2.1%) too.") == []


def test_pair_becomes_one_entity_and_later_uses_are_its_mentions(nlp) -> None:
    doc = nlp("We measure the balanced error rate (BER) of each detector. The BER drops by half.")
    ents = [(s.text, s.label_, s._.kg_name) for s in doc.spans["entities"]]
    assert ("balanced error rate", "Metric", "balanced error rate") in ents
    assert ents.count(("BER", "Metric", "balanced error rate")) == 2
    long = next(s for s in doc.spans["entities"] if s.text == "balanced error rate")
    assert long._.aliases == ["BER"]


def test_generic_long_forms_give_no_entity(nlp) -> None:
    doc = nlp("Large language models (LLMs) are everywhere. LLMs hallucinate.")
    assert [s.text for s in doc.spans["entities"]] == []


@pytest.mark.parametrize("short,long", [
    ("QGA", "quillglass attention module"),  # a letter inside a word, a last word with none
    ("HWB", "hedged word embedding"),
    ("SAEs", "Sparse Autoencoders"),
    ("p-MDQ", "pebble generalization of multidimensional quilting"),  # a lower-case first letter, capitals after
])
def test_loose_pairs(short: str, long: str) -> None:
    assert not is_abbreviation(short, long) and is_loose_abbreviation(short, long)


@pytest.mark.parametrize("short,long", [
    ("ViT", "modalities -- vision"),  # a dash parts two phrases
    ("QGA", "the quillglass model only"),  # two words hold no letter
    ("MEG", "magnetoencephalographic"),  # one word
    ("GPT", "good old models"),  # the letters are not there
    ("AR", "as an autoregressive"),  # a function word opens no long form
])
def test_not_loose_pairs(short: str, long: str) -> None:
    assert not is_loose_abbreviation(short, long)


def test_a_loose_pair_joins_the_short_form_to_its_long_form(nlp) -> None:
    text = "We add a quillglass attention module (QGA) to the encoder. QGA is cheap."
    assert pairs(nlp, text) == [("quillglass attention module", "QGA")]
    doc = nlp(text)
    assert {s._.kg_name for s in doc.spans["entities"] if s.text == "QGA"} == {"quillglass attention module"}


# -- entity_patterns long_form_skipped_words: words of a long form that hold no letter ----------
_SKIPPED = rules.load("entity_patterns")["long_form_skipped_words"]


@pytest.mark.parametrize("word", _SKIPPED)
def test_each_skipped_word_needs_no_letter_of_the_short_form(word: str) -> None:
    long = f"quillglass {word} attention module"  # "module" is already the one word without a letter
    assert is_loose_abbreviation("QGA", long) and not is_loose_abbreviation("QGA", long, frozenset())


def test_a_word_skipped_by_a_rules_file_joins_a_loose_pair(tmp_path) -> None:
    text = "We add a quillglass via attention module (QGA) to the encoder."
    assert pairs(entity_pipeline(), text) == []
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"entity_patterns": {"extend": {"long_form_skipped_words": ["via"]}}}),
                    encoding="utf-8")
    assert pairs(entity_pipeline(rules=[path]), text) == [("quillglass via attention module", "QGA")]
