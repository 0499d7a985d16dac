"""WordSet: per-word judgements remembered across texts, with bounded memory."""

from __future__ import annotations

from kg.nlp.word_sets import WordSet


def test_each_distinct_word_is_judged_once_and_the_passing_ones_are_found() -> None:
    calls: list[str] = []

    def capitalised(word: str) -> bool:
        calls.append(word)
        return word[:1].isupper()

    words = WordSet(capitalised)
    assert words.among(("We", "train", "FooNet", "on", "FooNet")) == {"We", "FooNet"}
    assert words.among(("FooNet", "beats", "BarNet")) == {"FooNet", "BarNet"}
    assert sorted(calls) == sorted(["We", "train", "FooNet", "on", "beats", "BarNet"])


def test_memory_starts_afresh_past_its_limit() -> None:
    words = WordSet(str.isdigit, limit=3)
    words.among(("1", "a", "b", "c"))
    assert words.among(("2", "d")) == {"2"}
    assert len(words.judged) <= 3 + 2
