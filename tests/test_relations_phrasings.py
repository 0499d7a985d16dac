"""Phrasing classes of comparisons that any ML abstract may use, on
sentences written for these tests (entity spans set by hand, as in
test_relations.py, so that only the relation rules are tested)."""

from __future__ import annotations

import pytest

import kg.relations.component  # noqa: F401  registers kg_relations
from tests.test_relations import annotate, nlp, rels, triples  # noqa: F401  nlp is a fixture


INTRO = "We introduce GlintNet, a detector for aerial scenes. "
ENTS = {"GlintNet": "Method"}


def improvements(doc) -> dict[str, dict]:
    return {r["o"]: r for r in rels(doc, "improvesOver")}


# -- "it" / "its" standing for the proposal ----------------------------------------
def test_it_after_an_introductory_phrase_is_the_proposal(nlp):
    doc = annotate(nlp, INTRO + "With the same ResNet-50 backbone it outperforms RetinaNet by 2.6 points on DOTA.",
                   {**ENTS, "ResNet-50": "Method", "RetinaNet": "Method", "DOTA": "Dataset"}, proposed=("GlintNet",))
    got = improvements(doc)
    assert set(got) == {"RetinaNet"}
    assert got["RetinaNet"]["s"] == "GlintNet" and got["RetinaNet"]["value"] == "2.6"


def test_it_as_an_object_is_not_a_subject(nlp):
    doc = annotate(nlp, INTRO + "Compared with it, FCOS is 1.5x faster than RetinaNet.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method"}, proposed=("GlintNet",))
    assert all(r["s"] != "GlintNet" for r in rels(doc, "improvesOver"))


def test_its_advantage_over_a_baseline(nlp):
    doc = annotate(nlp, INTRO + "On DOTA its advantage over RetinaNet is largest for tiny vehicles.",
                   {**ENTS, "RetinaNet": "Method", "DOTA": "Dataset"}, proposed=("GlintNet",))
    assert triples(doc, "improvesOver") == {("GlintNet", "RetinaNet")}


# -- the comparison written first --------------------------------------------------
@pytest.mark.parametrize("opening", ["Compared with RetinaNet", "Against RetinaNet", "Relative to RetinaNet"])
def test_fronted_comparison_names_the_proposal_after_the_comma(nlp, opening):
    doc = annotate(nlp, INTRO + f"{opening}, GlintNet uses 2.4x less memory at test time.",
                   {**ENTS, "RetinaNet": "Method"}, proposed=("GlintNet",))
    got = improvements(doc)
    assert set(got) == {"RetinaNet"}
    assert got["RetinaNet"]["s"] == "GlintNet" and (got["RetinaNet"]["value"], got["RetinaNet"]["unit"]) == ("2.4", "x")


def test_fronted_comparison_without_a_name_is_the_papers_proposal(nlp):
    doc = annotate(nlp, INTRO + "Relative to FCOS, the miss rate falls by 9% relative on DOTA.",
                   {**ENTS, "FCOS": "Method", "miss rate": "Metric", "DOTA": "Dataset"}, proposed=("GlintNet",))
    rel = improvements(doc)["FCOS"]
    assert (rel["s"], rel["value"], rel.get("gain"), rel.get("metric")) == ("GlintNet", "9", "relative", "miss rate")


def test_fronted_comparison_credits_no_other_named_method(nlp):
    # The method after the comma is not the paper's: whose gain this is stays unsaid.
    doc = annotate(nlp, INTRO + "Compared with FCOS, RetinaNet is 3.0 points better on DOTA.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method", "DOTA": "Dataset"}, proposed=("GlintNet",))
    assert ("GlintNet", "FCOS") not in triples(doc, "improvesOver")


# -- a gain noun before its baseline -------------------------------------------------
def test_relative_reduction_over_a_baseline(nlp):
    doc = annotate(nlp, INTRO + "GlintNet reaches a miss rate of 4.1%, a relative miss rate reduction of 15% over FCOS.",
                   {**ENTS, "miss rate": "Metric", "FCOS": "Method"}, proposed=("GlintNet",))
    rel = improvements(doc)["FCOS"]
    assert (rel["value"], rel["unit"], rel.get("gain"), rel.get("metric")) == ("15", "%", "relative", "miss rate")


def test_signed_margin_over_a_baseline(nlp):
    doc = annotate(nlp, INTRO + "GlintNet adds +1.7% over FCOS on DOTA with the same schedule.",
                   {**ENTS, "FCOS": "Method", "DOTA": "Dataset"}, proposed=("GlintNet",))
    rel = improvements(doc)["FCOS"]
    assert (rel["value"], rel["unit"], rel.get("dataset")) == ("1.7", "%", "DOTA")


def test_points_over_a_generic_baseline_we_tried(nlp):
    doc = annotate(nlp, INTRO + "On DOTA it gains 1.4 points over the strongest anchor-free baseline we tried.",
                   {**ENTS, "DOTA": "Dataset"}, proposed=("GlintNet",))
    got = improvements(doc)
    assert list(got) == ["strongest anchor-free baseline"]
    assert got["strongest anchor-free baseline"]["value"] == "1.4"


def test_improves_a_metric_over_a_baseline(nlp):
    doc = annotate(nlp, INTRO + "GlintNet improves mean average precision over FCOS by 3.3% at equal cost.",
                   {**ENTS, "mean average precision": "Metric", "FCOS": "Method"}, proposed=("GlintNet",))
    rel = improvements(doc)["FCOS"]
    assert (rel["value"], rel.get("metric")) == ("3.3", "mean average precision")


# -- several baselines, each with its own margin ---------------------------------------
def test_each_baseline_keeps_its_own_margin(nlp):
    doc = annotate(nlp, INTRO + "GlintNet outperforms FCOS by 2.2 points and RetinaNet by a wide margin.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method"}, proposed=("GlintNet",))
    got = improvements(doc)
    assert set(got) == {"FCOS", "RetinaNet"}
    assert got["FCOS"]["value"] == "2.2" and "value" not in got["RetinaNet"]


def test_two_baselines_two_margins_in_order(nlp):
    doc = annotate(nlp, INTRO + "GlintNet beats FCOS by 2.2 points, and RetinaNet by 3.9 points.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method"}, proposed=("GlintNet",))
    got = improvements(doc)
    assert (got["FCOS"]["value"], got["RetinaNet"]["value"]) == ("2.2", "3.9")


# -- two scores compared ----------------------------------------------------------------
def test_score_compared_with_a_baselines_score(nlp):
    doc = annotate(nlp, INTRO + "GlintNet reaches an mAP of 41.2 on DOTA, compared with 38.0 for FCOS.",
                   {**ENTS, "mAP": "Metric", "DOTA": "Dataset", "FCOS": "Method"}, proposed=("GlintNet",))
    assert ("GlintNet", "FCOS") in triples(doc, "improvesOver")


def test_lower_error_compared_with_a_baseline_is_an_improvement(nlp):
    doc = annotate(nlp, INTRO + "GlintNet reaches a miss rate of 6.5, compared with 8.1 for FCOS.",
                   {**ENTS, "miss rate": "Metric", "FCOS": "Method"}, proposed=("GlintNet",))
    assert ("GlintNet", "FCOS") in triples(doc, "improvesOver")


def test_a_worse_score_compared_with_a_baseline_is_no_improvement(nlp):
    doc = annotate(nlp, INTRO + "GlintNet reaches an mAP of 36.4 on DOTA, compared with 38.0 for FCOS.",
                   {**ENTS, "mAP": "Metric", "DOTA": "Dataset", "FCOS": "Method"}, proposed=("GlintNet",))
    assert ("GlintNet", "FCOS") not in triples(doc, "improvesOver")


# -- the proposal named by its kind --------------------------------------------------
def test_the_detector_stands_for_the_proposal(nlp):
    doc = annotate(nlp, INTRO + "On DOTA the detector needs 30% fewer epochs than FCOS.",
                   {**ENTS, "DOTA": "Dataset", "FCOS": "Method"}, proposed=("GlintNet",))
    assert triples(doc, "improvesOver") == {("GlintNet", "FCOS")}


def test_the_best_model_named_is_not_the_proposal(nlp):
    doc = annotate(nlp, INTRO + "Among prior work, the best model FCOS only achieves an mAP of 30.2 on DOTA.",
                   {**ENTS, "FCOS": "Method", "mAP": "Metric", "DOTA": "Dataset"}, proposed=("GlintNet",))
    assert all(r["s"] != "GlintNet" for r in rels(doc, "achieves"))


# -- the text's own words for a single baseline ------------------------------------------
@pytest.mark.parametrize("baseline", ["the full-precision counterpart", "a detection-only ablation", "the random initialization"])
def test_singular_generic_baseline(nlp, baseline):
    doc = annotate(nlp, INTRO + f"GlintNet surpasses {baseline} by 2.0 points on DOTA.",
                   {**ENTS, "DOTA": "Dataset"}, proposed=("GlintNet",))
    got = improvements(doc)
    assert len(got) == 1 and baseline.split(" ", 1)[1] in next(iter(got))


# -- a method named as the yardstick is not the subject --------------------------------------
@pytest.mark.parametrize("phrase", ["match the accuracy of standard ResNet-50", "are on par with ResNet-50"])
def test_yardstick_method_is_not_evaluated_in_its_own_right(nlp, phrase):
    doc = annotate(nlp, f"In experiments, lattice networks {phrase} on both CIFAR-10 and ImageNet.",
                   {"ResNet-50": "Method", "lattice networks": "Method", "CIFAR-10": "Dataset", "ImageNet": "Dataset"})
    assert not any(s == "ResNet-50" for s, _ in triples(doc, "evaluatedOn"))


# -- earlier work as the subject of a comparison ------------------------------------
def test_earlier_work_as_the_clause_subject_is_no_comparison_of_the_proposal(nlp):
    doc = annotate(nlp, INTRO + "Although the older baseline beats the naive method on "
                   "DOTA, our study finds it weak on tiny vehicles.", {**ENTS, "DOTA": "Dataset"}, proposed=("GlintNet",))
    assert not rels(doc, "improvesOver")


def test_earlier_work_as_an_object_before_the_cue_leaves_the_proposal_the_subject(nlp):
    # "prior detectors" is the object of the first comparison, not the subject of the second
    doc = annotate(nlp, INTRO + "We find that it is 2x faster than prior detectors and more accurate than RetinaNet.",
                   {**ENTS, "RetinaNet": "Method"}, proposed=("GlintNet",))
    assert ("GlintNet", "RetinaNet") in triples(doc, "improvesOver")


# -- a clause opened by where the result holds ------------------------------------------
@pytest.mark.parametrize("opening", ["On long clauses", "On DOTA"])
def test_a_setting_opening_the_sentence_leaves_the_method_after_it_the_subject(nlp, opening):
    doc = annotate(nlp, INTRO + f"{opening} FCOS outperforms RetinaNet by 1.2 points.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method"}, proposed=("GlintNet",))
    assert triples(doc, "improvesOver") == {("FCOS", "RetinaNet")}


def test_a_method_after_than_on_is_still_compared(nlp):
    doc = annotate(nlp, INTRO + "GlintNet runs faster than on tiny scenes RetinaNet does.",
                   {**ENTS, "RetinaNet": "Method"}, proposed=("GlintNet",))
    assert ("RetinaNet", "GlintNet") not in triples(doc, "improvesOver")


def test_a_method_in_an_opening_with_phrase_is_what_is_used_not_what_scores(nlp):
    doc = annotate(nlp, INTRO + "With a FCOS encoder and 300 epochs, the box AP on DOTA rises from 40.2 (RetinaNet) to 44.9.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method", "DOTA": "Dataset", "box AP": "Metric"},
                   proposed=("GlintNet",))
    assert not any(r["s"] == "FCOS" for r in doc._.kg_relations)


def test_a_method_right_after_the_opening_with_is_what_is_used_not_the_subject(nlp):
    doc = annotate(nlp, INTRO + "With FCOS the detector outperforms RetinaNet.",
                   {**ENTS, "FCOS": "Method", "RetinaNet": "Method"}, proposed=("GlintNet",))
    assert ("FCOS", "RetinaNet") not in triples(doc, "improvesOver")
