"""Markup is blanked out with spaces, never moving a character."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from kg.nlp.cleanup import clean


@pytest.mark.parametrize("raw,kept", [
    (r"we use \textit{SwiftNet} here", "SwiftNet"),
    (r"the \textbf{Fast Loop} model", "Fast Loop"),
    (r"an \emph{important} step", "important"),
    ("a **bold** claim", "bold"),
    ("an *italic* word", "italic"),
    ("call `run_all` now", "run_all"),
])
def test_markup_goes_and_its_content_stays_in_place(raw: str, kept: str) -> None:
    out = clean(raw)
    assert len(out) == len(raw)
    i = out.index(kept)
    assert raw[i:i + len(kept)] == kept
    assert "\\" not in out and "*" not in out and "`" not in out


def test_math_and_tildes_become_spaces() -> None:
    raw = r"error $\epsilon$ of Table~2"
    out = clean(raw)
    assert "$" not in out and "~" not in out and "\\" not in out
    assert out.endswith("Table 2")


def test_escapes_and_html_entities_keep_their_character_first() -> None:
    assert clean(r"3.5\% better").startswith("3.5% ")
    assert clean("R&amp;D costs &lt; 5").startswith("R&    D costs <    5")


def test_snake_case_and_plain_text_are_untouched() -> None:
    for text in ("a snake_case_name and 2*3*4", "plain words, nothing else."):
        assert clean(text) == text


@given(st.text(alphabet=st.sampled_from(list("ab \\{}$~*_`&;#<>/itexbfmph0123")), max_size=60))
def test_clean_never_changes_the_length(text: str) -> None:
    assert len(clean(text)) == len(text)


def test_a_brace_group_alone_is_blanked() -> None:
    assert clean("(x) {BERT}") == "(x)  BERT "
    assert clean("we use {BERT} here") == "we use  BERT  here"


@given(st.text(alphabet=st.sampled_from(list("ab \\{}$~*_`&;#<>/itexbfmph0123%(\u00a0\u2003\u2009\t")), max_size=60))
def test_running_only_the_steps_whose_characters_are_there_changes_nothing(text: str) -> None:
    """clean() runs a step only when one of its `needs` is in the text; every
    step run in order, unconditionally, gives the same result."""
    from kg.nlp.cleanup import _STEPS

    out = text
    for step in _STEPS:
        out = step.pattern.sub(step.replace, out)
    assert clean(text) == out
