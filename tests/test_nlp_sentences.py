"""Sentence splitting that survives abbreviations, decimals and versions."""

from __future__ import annotations

import pytest

from kg.nlp import make_pipeline


@pytest.fixture(scope="module")
def nlp():
    return make_pipeline()


def sentences(nlp, text: str) -> list[str]:
    return [s.text for s in nlp(text).sents]


def test_abbreviations_do_not_end_sentences(nlp) -> None:
    text = ("Prior work (e.g., Smith et al. 2020) uses grids, i.e. fixed cells. "
            "Ours vs. theirs differs in cost.")
    assert sentences(nlp, text) == [
        "Prior work (e.g., Smith et al. 2020) uses grids, i.e. fixed cells.",
        "Ours vs. theirs differs in cost.",
    ]


def test_decimals_and_versions_do_not_end_sentences(nlp) -> None:
    text = "Accuracy rises by 0.5 points with v1.5 of the tool. It costs 2.3x less."
    assert sentences(nlp, text) == ["Accuracy rises by 0.5 points with v1.5 of the tool.", "It costs 2.3x less."]


def test_question_and_exclamation_marks_end_sentences(nlp) -> None:
    assert len(sentences(nlp, "Does scale help? We find it does! Gains are small.")) == 3


def test_a_lower_case_word_after_a_stop_continues_the_sentence(nlp) -> None:
    assert len(sentences(nlp, "We use approx. ten seeds and Fig. 3 shows it.")) == 1


@pytest.mark.parametrize("wanted,start,found", [((",",), 0, [1, 5]), ({"a", "b"}, 0, [0, 2, 3, 6]),
                                                ({"a", "b"}, 3, [3, 6]), ((), 0, []), ({"zz"}, 0, [])])
def test_positions_are_the_indices_of_the_wanted_words(wanted, start, found) -> None:
    from kg.nlp.tokens import positions

    assert positions(("a", ",", "b", "a", "c", ",", "a"), wanted, start) == found
