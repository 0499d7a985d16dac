"""Relations whose parts sit in different sentences of an abstract, on
sentences written for these tests (entity spans set by hand, as in
test_relations.py, so that only the relation rules are tested)."""

from __future__ import annotations

import kg.relations.component  # noqa: F401  registers kg_relations
from tests.test_relations import annotate, nlp, rels  # noqa: F401  nlp is a fixture

ENTS = {"KelpNet": "Method", "DriftNet": "Method", "SwellNet": "Method",
        "TideSet": "Dataset", "ReefSet": "Dataset"}


def valued(doc) -> set[tuple]:
    return {(r["s"], r["o"], r.get("value"), r.get("dataset")) for r in rels(doc, "improvesOver")}


# -- a margin said in a sentence that names no baseline ---------------------------------
def test_a_margin_without_a_baseline_is_over_the_one_baseline_named_before(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet runs faster than DriftNet on long horizons. "
                        "On TideSet, our method gives a 9.2% improvement in recall.",
                   ENTS, proposed=("KelpNet",))
    assert ("KelpNet", "DriftNet", "9.2", "TideSet") in valued(doc)


def test_a_margin_without_a_baseline_is_over_the_one_baseline_named_after(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "On TideSet it shows a 4.1% gain in recall. "
                        "Overall, KelpNet outperforms DriftNet at a lower cost.",
                   ENTS, proposed=("KelpNet",))
    assert ("KelpNet", "DriftNet", "4.1", "TideSet") in valued(doc)


def test_a_margin_without_a_baseline_is_left_out_where_several_are_compared(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet outperforms DriftNet and is faster than SwellNet. "
                        "On TideSet, our method gives a 9.2% improvement in recall.",
                   ENTS, proposed=("KelpNet",))
    assert not any(v == "9.2" for _, _, v, _ in valued(doc))


def test_another_methods_margin_is_not_carried_to_the_proposals_baseline(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet outperforms DriftNet on ReefSet. "
                        "Earlier, SwellNet had shown a 3.5% gain on TideSet.",
                   ENTS, proposed=("KelpNet",))
    assert not any(v == "3.5" for _, _, v, _ in valued(doc))


def test_a_score_reached_is_not_a_margin(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet outperforms DriftNet on ReefSet. "
                        "On TideSet, KelpNet reaches 71.3% accuracy.",
                   {**ENTS, "accuracy": "Metric"}, proposed=("KelpNet",))
    assert not any(v == "71.3" for _, _, v, _ in valued(doc))


# -- "they" right after a sentence about the proposal --------------------------------------
def beaten(doc) -> set[tuple]:
    return {(r["s"], r["o"]) for r in rels(doc, "improvesOver")}


def test_they_after_a_sentence_that_names_the_proposal_is_the_proposal(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet models tides with a learned kernel. "
                        "They also run faster than DriftNet on TideSet.",
                   ENTS, proposed=("KelpNet",))
    assert ("KelpNet", "DriftNet") in beaten(doc)


def test_they_after_a_sentence_about_other_methods_is_not_the_proposal(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "Samplers such as SwellNet need long warm-up phases. "
                        "They are also slower than DriftNet on TideSet.",
                   ENTS, proposed=("KelpNet",))
    assert ("KelpNet", "DriftNet") not in beaten(doc)


def test_a_method_named_after_they_is_the_subject(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet models tides with a learned kernel. "
                        "In their tests they saw SwellNet outperform DriftNet on TideSet.",
                   ENTS, proposed=("KelpNet",))
    assert beaten(doc) == {("SwellNet", "DriftNet")}


# -- one comparison said twice -----------------------------------------------------------
def test_a_comparison_without_a_number_goes_where_its_baseline_has_one_with_a_kind_word(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet outperforms DriftNet on long horizons. "
                        "On TideSet it cuts recall errors by 9.2% compared to DriftNets.",
                   {**ENTS, "DriftNets": "Method"}, proposed=("KelpNet",), names={"DriftNets": "DriftNet network"})
    got = {(r["o"], r.get("value")) for r in rels(doc, "improvesOver")}
    assert got == {("DriftNet network", "9.2")}


def test_a_comparison_without_a_number_stays_beside_another_baseline_with_the_same_first_word(nlp):
    doc = annotate(nlp, "We present KelpNet, a sampler of ocean states. "
                        "KelpNet outperforms prior methods on long horizons. "
                        "On TideSet it cuts recall errors by 9.2% compared to prior samplers.",
                   ENTS, proposed=("KelpNet",))
    got = {(r["o"], r.get("value")) for r in rels(doc, "improvesOver")}
    assert got == {("prior methods", None), ("prior samplers", "9.2")}
