"""Datasets told by their context, on sentences written for these tests."""

from __future__ import annotations

import pytest

from kg.entities.lexicon import lexicon

from entity_helpers import entities


@pytest.mark.parametrize("text, names", [
    ("Results on two public datasets, including Quokka-2 and WOMBAT, are strong.", ["Quokka-2", "WOMBAT"]),
    ("It transfers to downstream datasets, e.g., KOALA and DingoSet, without tuning.", ["KOALA", "DingoSet"]),
    ("We score three benchmarks: EMU-1 (birds), NUMBAT (mammals) and PossumQ (plants).",
     ["EMU-1", "NUMBAT", "PossumQ"]),
    ("Web-scale corpora (WALLABY, BILBY) are used for pretraining.", ["WALLABY", "BILBY"]),
    ("Finally we build a test collection called QUOLL that stresses retrievers.", ["QUOLL"]),
])
def test_names_a_dataset_word_introduces(nlp, text, names):
    found = entities(nlp, text)
    for name in names:
        assert (name, "Dataset") in found, (name, found)


def test_a_singular_dataset_word_introduces_no_list(nlp):
    found = entities(nlp, "The corpus (FooLicense-2) was released with TurboNet.")
    assert ("FooLicense-2", "Dataset") not in found


@pytest.mark.parametrize("text, name", [
    ("On QuollSet, the model reaches 81.2% accuracy.", "QuollSet"),
    ("Evaluations on NUMBAT across three backbones show gains.", "NUMBAT"),
    ("It gains +3.1 nDCG on WombatIR) and more.", "WombatIR"),
    ("Scores on the BILBY-2 and DingoQA splits improve.", "BILBY-2"),
])
def test_a_name_evaluated_on_is_a_dataset(nlp, text, name):
    assert (name, "Dataset") in entities(nlp, text)


@pytest.mark.parametrize("text, name", [
    ("Our tagger is based on QuollNet, which is fast.", "QuollNet"),
    ("We fine-tune on QuollNet features for speed.", "QuollNet"),
])
def test_a_name_on_which_something_rests_is_not_a_dataset(nlp, text, name):
    assert (name, "Dataset") not in entities(nlp, text)


def test_a_capitalised_cue_word_and_its_number_are_part_of_the_name(nlp):
    found = entities(nlp, "Our system was submitted to the QuollMOS Challenge 2031 last spring.")
    assert ("QuollMOS Challenge 2031", "Dataset") in found


def test_a_name_before_words_saying_what_a_benchmark_holds(nlp):
    found = entities(nlp, "On the WOMBAT weak supervision benchmark, the labeller gains 4 points.")
    assert ("WOMBAT", "Dataset") in found
    # after "a", the name is of something else ("a NUMBAT weak supervision benchmark": NUMBAT's benchmark)
    found = entities(nlp, "It is then tuned on a NUMBAT weak supervision benchmark for labelling.")
    assert ("NUMBAT", "Dataset") not in found


def test_a_list_carries_the_type_of_a_known_dataset_along(nlp):
    found = entities(nlp, "We score on real sets (e.g. GLUE, QUOLL, NUMBAT, BILBY) and synthetic ones.")
    assert {("QUOLL", "Dataset"), ("NUMBAT", "Dataset"), ("BILBY", "Dataset")} <= found


@pytest.mark.parametrize("text, name", [
    ("It gains on four datasets from QuollEmbed, which stresses long inputs.", "QuollEmbed"),
    ("The detector placed first in the WOMBAT24 competition this year.", "WOMBAT24"),
    ("It is tested on the Quoll-Part II and Numbat-Part 1 databases.", "Quoll-Part II"),
    ("It is tested on the Quoll-Part II and Numbat-Part 1 databases.", "Numbat-Part 1"),
    ("Alignment improves on the Gentle-Honest dataset by two points.", "Gentle-Honest"),
])
def test_more_ways_to_name_a_dataset(nlp, text, name):
    assert (name, "Dataset") in entities(nlp, text)


@pytest.mark.parametrize("text, name", [
    ("The parser learns well on text datasets such as quokkaLM and others.", "quokkaLM"),
    ("We also test on the wombatNet corpus of bird songs.", "wombatNet"),
])
def test_a_name_in_lower_case_with_a_capital_inside_where_a_dataset_word_says_so(nlp, text, name):
    assert (name, "Dataset") in entities(nlp, text)


def test_a_name_in_lower_case_with_a_capital_inside_is_no_name_alone(nlp):
    assert not any(text == "quokkaLM" for text, _ in entities(nlp, "The quokkaLM parser learns well."))


def dataset_forms(text: str) -> dict[str, set[str]]:
    from kg.extraction.record import Extractor
    from kg.model import Abstract
    rec = Extractor().record(Abstract("p", text))
    return {e["name"]: set(e.get("aliases") or []) for e in rec["entities"]["Dataset"]}


def test_a_dataset_written_with_its_noun_has_no_alias_for_that_form():
    """ "the WOMBAT benchmark" names WOMBAT: the noun says what it is, it is no other name of it."""
    forms = dataset_forms("QuillNet is tested on the WOMBAT benchmark and on WOMBAT again, and on the KOALA-2 corpus.")
    assert forms == {"WOMBAT": set(), "KOALA-2": set()}


def test_an_abbreviation_followed_by_a_dataset_noun_is_a_dataset(nlp):
    found = entities(nlp, "We report accuracy on the Wombat Bird Songs (WBS) Database with QuillNet.")
    assert ("Wombat Bird Songs", "Dataset") in found and ("WBS", "Dataset") in found


def test_a_task_abbreviation_followed_by_a_dataset_noun_stays_a_task(nlp):
    found = entities(nlp, "QuillNet leads on Fine-Grained Bird Classification (FGBC) datasets of songs.")
    assert not any(label == "Dataset" for text, label in found if "Classification" in text or text == "FGBC")


@pytest.mark.parametrize("text, names", [
    ("We evaluated QuillNet on two datasets Quokka Birds and Wombat SONGS this year.", ["Quokka Birds", "Wombat SONGS"]),
    ("It is tested on 3 benchmarks KOALA, DingoSet and EMU-1 with no tuning.", ["KOALA", "DingoSet", "EMU-1"]),
])
def test_a_count_lets_a_dataset_word_introduce_a_list(nlp, text, names):
    found = entities(nlp, text)
    for name in names:
        assert (name, "Dataset") in found


def test_a_count_before_a_dataset_word_takes_no_single_word_after_it(nlp):
    found = entities(nlp, "We tuned on two datasets Yesterday and left the rest.")
    assert ("Yesterday", "Dataset") not in found


def test_a_language_alone_before_a_dataset_word_is_no_dataset_name(nlp):
    found = entities(nlp, "We also release a comprehensive Cantonese benchmark for QuillNet.")
    assert not any(label == "Dataset" for _, label in found)
    assert ("Wombat Cantonese", "Dataset") in entities(nlp, "QuillNet is tested on the Wombat Cantonese corpus.")


@pytest.mark.parametrize("text, name", [
    ("Our entry to the ACL 2031 QuollRAG challenge ranked third.", "ACL 2031 QuollRAG challenge"),
    ("We rerank passages from the Wombat 2030 Deep Search track with it.", "Wombat 2030 Deep Search track"),
    ("Logs released for the Numbat Cup 2031 cover many queries.", "Numbat Cup 2031"),
    ("Clips come from earlier Bilby Challenges and were rated by listeners.", "Bilby Challenges"),
    ("It was ranked in the Possum 2030 Echo Challenge Task 2 by the organisers.", "Possum 2030 Echo Challenge Task 2"),
])
def test_an_evaluation_campaign_with_its_year_is_a_dataset(nlp, text, name):
    assert (name, "Dataset") in entities(nlp, text)


@pytest.mark.parametrize("part", sorted(lexicon().patterns.event_parts))
def test_each_event_part_and_its_number_belong_to_the_campaign(nlp, part):
    name = f"Possum 2030 Echo Challenge {part} 3"
    assert (name, "Dataset") in entities(nlp, f"It was ranked in the {name} by the organisers.")


@pytest.mark.parametrize("text", [
    "Scaling remains a core challenge for Quoll models.",
    "On the SI challenge the error rate drops.",
    "The Deep Search track is hard for retrievers.",
])
def test_an_event_word_without_year_or_capital_names_no_campaign(nlp, text):
    found = entities(nlp, text)
    assert not any(label == "Dataset" and name.lower().endswith(("challenge", "track")) for name, label in found), found


@pytest.mark.parametrize("text, name", [
    ("We rank passages of TREC Wombat and report recall.", "TREC Wombat"),
    ("Scores on TREC QUOLL improve by two points.", "TREC QUOLL"),
])
def test_a_known_dataset_with_a_capitalised_part_is_one_dataset(nlp, text, name):
    assert (name, "Dataset") in entities(nlp, text)


def test_a_known_dataset_before_a_known_method_stays_apart(nlp):
    found = entities(nlp, "On ImageNet ResNet-50 reaches 76% top-1 accuracy.")
    assert ("ImageNet", "Dataset") in found and ("ResNet-50", "Method") in found, found


def test_a_list_carries_a_known_dataset_type_past_glosses_in_brackets(nlp):
    found = entities(nlp, "We compare three modalities: QUOLLSET (eyes), HAM10000 (skin), and WOMBATSET (maps).")
    assert {("QUOLLSET", "Dataset"), ("HAM10000", "Dataset"), ("WOMBATSET", "Dataset")} <= found, found


def test_a_capitalised_common_word_inside_a_listed_dataset_name_is_part_of_it(nlp):
    found = entities(nlp, "Preference datasets such as Open Quokka, HH-RLHF, and HelpWombat are small.")
    assert ("Open Quokka", "Dataset") in found, found
