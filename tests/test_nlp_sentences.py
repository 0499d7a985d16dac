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


def test_token_columns_hold_what_the_tokens_say(nlp) -> None:
    from kg.nlp.tokens import Tok, token_columns, token_view

    text = ("We train FooNet-2 on İstanbul data (7.9%), e.g. ſome “quoted” words.\n\nThen  GPT-4o wins; "
            "ÉCOLE Straße café ½ x²!")
    doc = nlp(text)
    columns = token_columns(doc)
    assert columns.texts == tuple(t.text for t in doc)
    assert columns.lowers == tuple(t.lower_ for t in doc)
    assert columns.idxs == tuple(t.idx for t in doc)
    assert columns.is_space == tuple(t.is_space for t in doc)
    assert columns.is_punct == tuple(t.is_punct for t in doc)
    assert columns.is_alpha == tuple(t.is_alpha for t in doc)
    assert all(type(x) is bool for x in columns.is_space + columns.is_punct + columns.is_alpha)
    assert token_view(doc) == [Tok(t.i, t.text, t.lower_, t.idx, t.is_sent_start, t.sent.start, t.sent.end,
                                   t.is_space, t.is_punct, t.is_alpha) for t in doc]
    assert token_columns(nlp.make_doc("")) == ((),) * 6
