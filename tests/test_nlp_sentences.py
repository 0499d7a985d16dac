"""Sentence splitting that survives abbreviations, decimals and versions."""

from __future__ import annotations

import json

import pytest

from kg import rules
from kg.pipeline import entity_pipeline


@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


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


# -- the rule family "sentences": each entry on a sentence written for it ------------------------
_SENTENCES = rules.load("sentences")


def _forms(abbr: str) -> list[str]:
    """An abbreviation as written, and with a capital first letter when it is in lower case."""
    return [abbr] + ([abbr[0].upper() + abbr[1:]] if abbr[0].islower() else [])


@pytest.mark.parametrize("abbr", [a for a in _SENTENCES["abbreviations"] if a not in _SENTENCES["soft_terminals"]])
def test_each_abbreviation_is_one_token_and_ends_no_sentence(nlp, abbr) -> None:
    for form in _forms(abbr):
        doc = nlp(f"The grid {form} Ten cells are used.")
        assert form in [t.text for t in doc] and len(list(doc.sents)) == 1, form


@pytest.mark.parametrize("word", _SENTENCES["soft_terminals"])
def test_each_soft_terminal_ends_a_sentence_only_before_a_capital(nlp, word) -> None:
    assert word in _SENTENCES["abbreviations"]  # kept whole, so its full stop is no terminal of its own
    assert len(sentences(nlp, f"We use grids {word} Ten cells are used.")) == 2
    assert len(sentences(nlp, f"We use grids {word} ten cells are used.")) == 1


def test_an_abbreviation_or_soft_terminal_added_by_a_rules_file(tmp_path) -> None:
    text = "See Thm. Two for the proof."
    assert len(sentences(entity_pipeline(), text)) == 2
    kept = tmp_path / "kept.json"
    kept.write_text(json.dumps({"sentences": {"extend": {"abbreviations": ["Thm."]}}}), encoding="utf-8")
    assert len(sentences(entity_pipeline(rules=[kept]), text)) == 1
    soft = tmp_path / "soft.json"
    soft.write_text(json.dumps({"sentences": {"extend": {"soft_terminals": ["Thm."]}}}), encoding="utf-8")
    assert len(sentences(entity_pipeline(rules=[kept, soft]), text)) == 2
    assert len(sentences(entity_pipeline(rules=[kept, soft]), "See Thm. two for the proof.")) == 1
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


def test_the_records_sentence_offsets_are_those_of_doc_sents(nlp) -> None:
    # The record reads them from the splitter's sentence starts, without a Span per sentence.
    from kg.extraction.record import _sentence_offsets

    for text in ("We propose FooNet. It wins on BarSet (e.g. 7.9% more).  \n\nThen  QuuxNet follows!  ",
                 "One line only", "  Leading spaces. And a stop at the end.", " "):
        doc = nlp(text)
        assert _sentence_offsets(doc) == [[s.start_char, s.end_char] for s in doc.sents]
