"""Number, unit and gain parsing on sentences written for these tests."""

from __future__ import annotations

import json

import pytest

from kg import rules
from kg.relations.numbers import number_reader, quantities, runs
from tests.test_relation_cue_lists import examples, pipeline


def only(text: str):
    found = quantities(text)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("text, value, unit", [
    ("Our parser gains 7.9% over the baseline.", "7.9", "%"),
    ("Accuracy rises by +4.7% with the new loss.", "4.7", "%"),
    ("It is better by up to 2.5% on every split.", "2.5", "%"),
    ("The model runs 1.5x faster.", "1.5", "x"),
    ("Decoding is 4.41x quicker than before.", "4.41", "x"),
    ("Training becomes 40 times faster.", "40", "x"),
    ("Inference sees a 2.24times speedup.", "2.24", "x"),
    ("The gap shrinks by 0.3 BLEU.", "0.3", None),
    ("Segmentation improves by 6.4 mIoU.", "6.4", None),
    ("The recogniser reaches 22.3% WER.", "22.3", "%"),
    ("Latency falls to 34 ms per image.", "34", "ms"),
    ("A margin of 2.1 percentage points remains.", "2.1", "points"),
    ("The score goes up by 3 points.", "3", "points"),
    ("Quality improves by 0.8 dB.", "0.8", "dB"),
    ("Errors drop by 7.6\\% in the LaTeX source.", "7.6", "%"),
])
def test_number_forms(text, value, unit):
    q = only(text)
    assert (q.value, q.unit) == (value, unit)
    assert text[q.start:q.end].lstrip("+").startswith(value)


def test_sign_is_kept_apart_from_the_value():
    q = only("Recall changes by -0.5% on the hard split.")
    assert q.value == "0.5" and q.signed


def test_range_is_one_value():
    q = only("Gains range from a few cases: 2% to 5% on each task.")
    assert (q.value, q.unit) == ("2-5", "%")
    assert only("The drop is 2-5% on average.").value == "2-5"
    assert only("between 3 and 4 points").value == "3-4"


def test_from_to_keeps_both_ends():
    q = only("Precision goes from 61.79 to 66.94 after tuning.")
    assert (q.from_value, q.value, q.unit) == ("61.79", "66.94", None)
    q = only("Top-1 rises from 70% to 72.5% with it.")
    assert (q.from_value, q.value, q.unit) == ("70", "72.5", "%")


def test_from_to_with_a_remark_between():
    q = only("Recall@5 goes from 86% (without the filter) to 87%.")
    assert (q.from_value, q.value, q.unit) == ("86", "87", "%")


def test_coordinated_numbers_share_the_trailing_unit():
    text = "It beats both rivals by 3.1 and 1.2 points respectively."
    found = quantities(text)
    assert [(q.value, q.unit) for q in found] == [("3.1", "points"), ("1.2", "points")]
    assert len(runs(text, found)) == 1


def test_absolute_and_relative_gains_kept_apart():
    a, r = quantities("The error falls 2.1% absolute and 9% relative.")
    assert (a.value, a.gain) == ("2.1", "absolute")
    assert (r.value, r.gain) == ("9", "relative")
    assert only("a relative improvement of 12% on test").gain == "relative"
    assert only("an improvement of 1.5 percentage points").gain == "absolute"
    assert only("a gain of 4% overall").gain is None


def test_relative_to_names_a_baseline_and_makes_no_gain_relative():
    assert only("improves AP by 2.3 points relative to BarNet").gain is None
    assert only("a 12% relative reduction in WER").gain == "relative"


def test_a_hyphenated_points_unit():
    """ "a 2.3-point gain": the unit written with a hyphen, as "-fold" is."""
    assert (only("yields a 2.3-point gain in AP").value, only("yields a 2.3-point gain in AP").unit) == ("2.3", "points")


def test_a_gain_word_after_a_comma_is_the_next_numbers():
    """ "with a 320 ms chunk, a relative reduction of 12%": "relative" is the 12%'s, not the chunk's."""
    chunk, gain = quantities("It decodes with a 320 ms chunk, a relative error reduction of 12% over BarNet.")
    assert (chunk.value, chunk.gain) == ("320", None)
    assert (gain.value, gain.gain) == ("12", "relative")


@pytest.mark.parametrize("text", [
    "We fine-tune ResNet-50 and GPT-4o on CIFAR-10.",
    "The method was first described in 2019.",
    "Results for v1.0 of the Llama-3 release.",
])
def test_names_and_years_are_not_numbers(text):
    assert quantities(text) == []


def test_dimensions_are_not_speedups():
    assert all(q.unit != "x" for q in quantities("We use 3 x 3 kernels on 256 times 256 images."))


def test_a_list_marker_is_no_number():
    found = quantities("FooNet (1) beats BarNet by 1.3 points and (2) halves the memory.")
    assert [q.value for q in found] == ["1.3"]
    # No word after the bracket, a larger number or a unit: kept.
    assert [q.value for q in quantities("It scores (85) overall (3).")] == ["85", "3"]
    assert [q.value for q in quantities("FooNet (4%) and BarNet (3.5) differ.")] == ["4", "3.5"]


def test_ranging_from_a_to_b_is_a_range():
    q = only("Gains ranging from 12.4% to 31.6% appear on every split.")
    assert (q.value, q.unit, q.from_value) == ("12.4-31.6", "%", None)


def test_from_two_values_to_two_values_is_two_changes():
    text = "FooGAN moves IS and FID from 52.1 and 18.2 to 160.3 and 7.9 respectively."
    found = quantities(text)
    assert [(q.from_value, q.value) for q in found] == [("52.1", "160.3"), ("18.2", "7.9")]
    assert [text[q.start:q.end] for q in found] == ["160.3", "7.9"]
    assert len(runs(text, found)) == 1


@pytest.mark.parametrize("text, value, unit", [
    ("Decoding reaches 141 tokens/s on one GPU.", "141", "tokens/s"),
    ("Decoding reaches 90 tokens per second.", "90", "tokens/s"),
    ("The encoder handles 1,200 images/s on a laptop.", "1,200", "images/s"),
    ("Training runs at 310 samples/sec.", "310", "samples/s"),
])
def test_rate_units(text, value, unit):
    q = only(text)
    assert (q.value, q.unit) == (value, unit)


@pytest.mark.parametrize("text, value, unit", [
    ("FooNet reaches 41.25 +/- 0.46% top-1 accuracy.", "41.25", "%"),
    ("FooNet reaches 85.3 \u00b1 0.2 F1.", "85.3", None),
    ("FooNet reaches 85.3\u00b10.2% F1.", "85.3", "%"),
    ("FooNet reaches 85.3% (\u00b10.2) F1.", "85.3", "%"),
])
def test_a_spread_is_no_number_of_its_own(text, value, unit):
    q = only(text)
    assert (q.value, q.unit) == (value, unit)


def test_a_value_with_its_spread_is_one_expression():
    text = "FooNet reaches 41.25 +/- 0.46% top-1 accuracy."
    q = only(text)
    assert text[q.start:q.end] == "41.25 +/- 0.46%"


# -- the words of the units family: each entry on a sentence written for its key -------------
_UNITS = rules.load("units")


def _entries(key: str) -> list[str]:
    """The strings each regex piece of `key` matches, one per alternative."""
    return [x for piece in _UNITS[key] for x in examples(piece)]


@pytest.mark.parametrize("word", _entries("absolute_words"))
def test_each_absolute_word_makes_a_gain_absolute(word):
    assert only(f"FooNet gains 2.1% {word} over BarNet.").gain == "absolute"


@pytest.mark.parametrize("word", _entries("relative_words"))
def test_each_relative_word_makes_a_gain_relative(word):
    assert only(f"FooNet gains 2.1% {word} over BarNet.").gain == "relative"


@pytest.mark.parametrize("written", ["percentage points", "pp", "p.p."])
def test_a_unit_written_as_an_absolute_word_makes_a_gain_absolute(written):
    q = only(f"FooNet gains 2.1 {written} over BarNet.")
    assert (q.unit, q.gain) == ("points", "absolute")
    assert only("FooNet gains 2.1 points over BarNet.").gain is None


def test_a_gain_without_such_a_word_is_neither():
    assert only("FooNet gains 2.1% zzz over BarNet.").gain is None


@pytest.mark.parametrize("word", _entries("range_words"))
def test_each_range_word_makes_from_to_a_range(word):
    q = only(f"Gains {word} from 2% to 5% on all sets.")
    assert (q.value, q.unit, q.from_value) == ("2-5", "%", None)


def test_from_to_without_a_range_word_is_a_change():
    q = only("Gains zzz from 2% to 5% on all sets.")
    assert (q.value, q.from_value) == ("5", "2")


@pytest.mark.parametrize("word", _entries("coordinators"))
@pytest.mark.parametrize("comma", ["", ","])
def test_each_coordinator_joins_two_numbers(word, comma):
    text = f"It gains 1.1{comma} {word} 1.3% on the sets."
    found = quantities(text)
    assert [(q.value, q.unit) for q in found] == [("1.1", "%"), ("1.3", "%")]
    assert len(runs(text, found)) == 1


@pytest.mark.parametrize("unit", _UNITS["size_units"])
def test_a_number_in_a_size_unit_is_no_result(unit):
    from kg.extraction.record import Extractor
    from kg.model import Abstract

    def scores(text: str) -> list[tuple]:
        return [(r["metric"], r["value"]) for r in Extractor().record(Abstract("a", text))["relations"]
                if r["p"] == "achieves"]

    assert scores("We propose FooNet. FooNet achieves a latency of 12 ms on ImageNet.") == [("latency", "12")]
    for form in _UNITS["units"][unit]:
        assert scores(f"We propose FooNet. FooNet achieves a latency of 12 {form} on ImageNet.") == [], form


@pytest.mark.parametrize("key, entry, text, check", [
    ("absolute_words", "flat", "FooNet gains 2.1% flat over BarNet.", lambda qs, t: qs[0].gain == "absolute"),
    ("relative_words", "proportional", "FooNet gains 2.1% proportional over BarNet.",
     lambda qs, t: qs[0].gain == "relative"),
    ("range_words", "spann?ing", "Gains spanning from 2% to 5% on all sets.", lambda qs, t: qs[0].value == "2-5"),
    ("coordinators", "plus", "It gains 1.1 plus 1.3% on the sets.", lambda qs, t: qs[0].unit == "%"),
    ("size_units", "ms", "It takes 12 ms per image.", lambda qs, t: qs[0].unit in number_reader(t).size_units),
])
def test_an_entry_added_by_a_rules_file_reaches_the_number_reader(tmp_path, key, entry, text, check):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"units": {"extend": {key: [entry]}}}), encoding="utf-8")
    assert not check(quantities(text), ())
    assert check(quantities(text, [path]), [path])


# -- count_nouns: "on 12 collections from X" counts, it is no result --------------------------
_COUNT_ENTS = {"FooNet": "Method", "accuracy": "Metric", "QuxSet": "Dataset", "BarSet": "Dataset"}
_COUNT_TEXT = "FooNet reaches 85.1% accuracy on 12 {} from QuxSet, and 80.2% on BarSet."


def _first_score_dataset(rules_files: list[str], noun: str) -> str | None:
    from tests.test_relations import annotate

    nlp = pipeline(rules_files)
    rels = annotate(nlp, _COUNT_TEXT.format(noun), _COUNT_ENTS, ())._.kg_relations
    return next(r.get("dataset") for r in rels if r["p"] == "achieves" and r["value"] == "85.1")


def test_a_count_before_a_dataset_leaves_it_to_the_score_before():
    """The count ("12 collections") does not close the score's window: the dataset after it is the score's."""
    assert _first_score_dataset([], "collections") == "QuxSet"


def test_a_rules_file_adds_a_count_noun(tmp_path):
    """An irregular plural counts once a rules file names it."""
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"units": {"extend": {"count_nouns": ["corpora"]}}}), encoding="utf-8")
    assert _first_score_dataset([], "corpora") is None
    assert _first_score_dataset([str(path)], "corpora") == "QuxSet"
