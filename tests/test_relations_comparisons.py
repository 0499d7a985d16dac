"""improvesOver: kinds of comparison phrasing and how their baselines are
read, on sentences written for these tests (entity spans set by hand, as in
test_relations.py, so that only the relation rules are tested)."""

from __future__ import annotations

import pytest

import kg.relations.component  # noqa: F401  registers kg_relations
from kg import rules
from tests.cue_texts import example
from tests.test_relations import annotate, nlp, rels  # noqa: F401  nlp is a fixture

INTRO = "We introduce QuillNet, a parser for clause segmentation. "


def beaten(doc) -> set[tuple]:
    return {(r["s"], r["o"]) for r in rels(doc, "improvesOver")}


def valued(doc) -> set[tuple]:
    return {(r["s"], r["o"], r.get("value")) for r in rels(doc, "improvesOver")}


def run(nlp, sentence: str, **entities: str):
    ents = {"QuillNet": "Method", **{k.replace("_", " "): v for k, v in entities.items()}}
    return annotate(nlp, INTRO + sentence, ents, proposed=("QuillNet",))


# -- how a baseline phrase is read ---------------------------------------------------
@pytest.mark.parametrize("sentence, baseline", [
    # a name followed only by a kind of method: the name is the baseline
    ("QuillNet outperforms the strong BarNet baseline on PTB.", "BarNet"),
    ("QuillNet outperforms BarNet methods on PTB.", "BarNet"),
    ("QuillNet improves upon the BarNet (v2) architecture.", "BarNet"),
    # ... but a kind written in lower case stays whole
    ("QuillNet outperforms a strong chart parser baseline on PTB.", "strong chart parser baseline"),
    # a named method and its generic description in apposition
    ("QuillNet outperforms the baseline model, BarNet, on PTB.", "BarNet"),
    # "previously proposed" is earlier work, not the paper's
    ("QuillNet outperforms previously proposed methods on PTB.", "previously proposed methods"),
    ("QuillNet outperforms methods proposed in prior work.", "methods proposed in prior work"),
    # a participle inside the phrase does not end it
    ("QuillNet is more accurate than separately trained models.", "separately trained models"),
    ("QuillNet outperforms established methods on PTB.", "established methods"),
    ("QuillNet outperforms state-of-art parsers on PTB.", "state-of-art parsers"),
    # a count opens the phrase
    ("QuillNet outperforms five strong baselines on PTB.", "five strong baselines"),
    ("QuillNet outperforms 12 prior parsers on PTB.", "12 prior parsers"),
])
def test_baseline_phrases(nlp, sentence, baseline):
    doc = run(nlp, sentence, BarNet="Method", chart_parser="Method")
    assert beaten(doc) == {("QuillNet", baseline)}


@pytest.mark.parametrize("sentence, baseline", [
    # a method written in lower case after a word of baseline_phrases: a kind of earlier work, the phrase
    ("QuillNet outperforms the state-of-the-art AR transformer on PTB.", "state-of-the-art AR transformer"),
    ("QuillNet outperforms the SOTA sparse transformer on PTB.", "SOTA sparse transformer"),
    # without such a word, or written as a name, the method is the baseline
    ("QuillNet outperforms a plain transformer on PTB.", "Transformer"),
    ("QuillNet outperforms the state-of-the-art AR Transformer on PTB.", "Transformer"),
])
def test_a_lower_case_method_after_words_of_earlier_work_is_part_of_the_phrase(nlp, sentence, baseline):
    ents = {"QuillNet": "Method", "transformer": "Method", "Transformer": "Method"}
    doc = annotate(nlp, INTRO + sentence, ents, proposed=("QuillNet",), names={"transformer": "Transformer"})
    assert beaten(doc) == {("QuillNet", baseline)}


def test_an_abbreviation_with_kind_words_after_it_names_the_baseline(nlp):
    """ "MLP methods": the abbreviation is written as a name though the method's name is in lower case."""
    ents = {"QuillNet": "Method", "MLP": "Method"}
    doc = annotate(nlp, INTRO + "QuillNet surpasses MLP methods on PTB.", ents, proposed=("QuillNet",),
                   names={"MLP": "multilayer perceptron"})
    assert beaten(doc) == {("QuillNet", "multilayer perceptron")}


def test_a_number_that_counts_no_words_is_no_baseline(nlp):
    assert beaten(run(nlp, "QuillNet outperforms 2.5 points on PTB.")) == set()
    assert beaten(run(nlp, "QuillNet surpasses 90% accuracy on PTB.")) == set()


@pytest.mark.parametrize("sentence, baseline", [
    # the participle's phrase describes which earlier work: the baseline's own words keep it
    ("QuillNet outperforms prior parsers trained on PTB.", "prior parsers trained on PTB"),
    ("QuillNet outperforms all existing parsers trained with a tagging objective and is faster.",
     "existing parsers trained with a tagging objective"),
    # ... but a setting of the comparison, a number, or a named method ends the baseline before it
    ("QuillNet outperforms prior parsers trained with the same budget.", "prior parsers"),
    ("QuillNet outperforms prior parsers trained on 10x more data.", "prior parsers"),
    ("QuillNet outperforms BarNet trained on PTB.", "BarNet"),
])
def test_a_participle_phrase_after_a_baseline(nlp, sentence, baseline):
    doc = run(nlp, sentence, BarNet="Method")
    assert beaten(doc) == {("QuillNet", baseline)}


@pytest.mark.parametrize("sentence, baseline", [
    # "based" with no preposition after it is a hyphen's compound written apart: a kind, in the text's words
    ("QuillNet outperforms the state-of-the-art BarNet based chart parser on PTB.",
     "state-of-the-art BarNet based chart parser"),
    ("QuillNet outperforms prior BarNet based parsers on PTB.", "prior BarNet based parsers"),
    # ... "based on" is a participle's phrase, and a named method still ends there
    ("QuillNet outperforms BarNet based on PTB.", "BarNet"),
])
def test_a_compound_with_based_written_apart(nlp, sentence, baseline):
    doc = run(nlp, sentence, BarNet="Method")
    assert beaten(doc) == {("QuillNet", baseline)}


def test_a_participle_phrase_ends_at_a_list_separator(nlp):
    doc = run(nlp, "QuillNet surpasses both models trained on web forums and the tagger BarNet.", BarNet="Method")
    assert beaten(doc) == {("QuillNet", "models trained on web forums"), ("QuillNet", "BarNet")}


def test_a_dash_ends_the_baseline(nlp):
    doc = run(nlp, "QuillNet gains 2.1 points over the BarNet baseline -- a wide margin.", BarNet="Method")
    assert valued(doc) == {("QuillNet", "BarNet", "2.1")}


def test_a_possessive_ends_the_named_baseline(nlp):
    doc = run(nlp, "QuillNet surpasses BarNet's accuracy on PTB.", BarNet="Method")
    assert beaten(doc) == {("QuillNet", "BarNet")}


def test_the_comparison_word_said_again_after_a_list_separator(nlp):
    doc = run(nlp, "We show gains over a strong chart baseline, as well as over the previous state of the art.")
    assert beaten(doc) == {("QuillNet", "strong chart baseline"), ("QuillNet", "previous state of the art")}


def test_an_enumeration_ends_the_list_of_baselines(nlp):
    doc = run(nlp, "QuillNet (1) surpasses prior parsers, and (2) overcomes the drift problem of earlier parsers.")
    assert beaten(doc) == {("QuillNet", "prior parsers")}


# -- subjects ------------------------------------------------------------------------
@pytest.mark.parametrize("middle", ["with standard BarNet", "on top of a BarNet", "with the BarNet"])
def test_a_method_after_a_preposition_is_not_the_subject(nlp, middle):
    doc = run(nlp, f"ZapNet {middle} outperforms prior parsers on PTB.", ZapNet="Method", BarNet="Method")
    assert beaten(doc) == {("ZapNet", "prior parsers")}


def test_a_proposal_written_without_an_entity_span_is_the_subject(nlp):
    # The paper proposes QuillNet and ZapNet; the last sentence names ZapNet with no span on it.
    from kg.entities.entity import SPAN_KEY

    text = "We introduce QuillNet and ZapNet, two parsers. ZapNet is more accurate than BarNet on PTB."
    doc = nlp.make_doc(text)
    spans = []
    for form, at, proposed in (("QuillNet", text.find("QuillNet"), True), ("ZapNet", text.find("ZapNet"), True),
                               ("BarNet", text.find("BarNet"), False)):
        span = doc.char_span(at, at + len(form), label="Method")
        span._.kg_name, span._.proposed = form, proposed
        spans.append(span)
    doc.spans[SPAN_KEY] = spans
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    assert beaten(doc) == {("ZapNet", "BarNet")}


# -- "improves X": the method improved is the object --------------------------------
@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet improves BarNet by 2.1 points on PTB.", {("QuillNet", "BarNet", "2.1")}),
    ("QuillNet enhances existing parsers across treebanks.", {("QuillNet", "existing parsers", None)}),
    ("QuillNet speeds up the pretrained parsers by 3x.", {("QuillNet", "pretrained parsers", "3")}),
    ("QuillNet augments prior parsers such as BarNet and ZapNet.", {("QuillNet", "BarNet", None), ("QuillNet", "ZapNet", None)}),
    ("QuillNet improves the previous state of the art by 2.3 points.", {("QuillNet", "previous state of the art", "2.3")}),
    # no earlier work as the object: nothing is beaten
    ("QuillNet improves the results on PTB.", set()),
    ("QuillNet improves BarNet reasoning on PTB.", set()),
    ("QuillNet improves the training of parsers.", set()),
    ("QuillNet augments existing treebank datasets.", set()),
    # a kind the method is applied to, with no mark of earlier work
    ("QuillNet accelerates chart parsers.", set()),
    ("QuillNet enhances SSMs on PTB.", set()),
    ("The Parse-enhanced BarNet is fast.", set()),
])
def test_the_object_of_an_improve_verb(nlp, sentence, expected):
    assert valued(run(nlp, sentence, BarNet="Method", ZapNet="Method", SSMs="Method", chart_parsers="Method")) == expected


# -- names no entity span marks --------------------------------------------------------
@pytest.mark.parametrize("sentence, baselines", [
    ("QuillNet outperforms both SparseZip and Wanda on PTB.", {"SparseZip", "Wanda"}),
    ("QuillNet is 3x faster than the Hubble implementation.", {"Hubble"}),
    ("QuillNet learns a smaller grammar than Lempel-Ziv.", {"Lempel-Ziv"}),
    ("QuillNet parses 2x faster than zParse and fastChart.", {"zParse", "fastChart"}),
    ("QuillNet is faster than GPU baselines.", {"GPU baselines"}),
    ("QuillNet outperforms ImageNet-pretrained parsers.", set()),
])
def test_a_name_without_an_entity_span_is_a_baseline(nlp, sentence, baselines):
    doc = run(nlp, sentence, SparseZip="Method")
    assert {o for _, o in beaten(doc)} == baselines


# -- a yardstick comparison with an advantage after it ---------------------------------------
@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet reaches accuracy comparable to BarNet, with 3x fewer parameters.", {("QuillNet", "BarNet", "3")}),
    ("QuillNet performs on par with BarNet while being 2.5x faster.", {("QuillNet", "BarNet", "2.5")}),
    ("QuillNet matches the performance of BarNet at a much lower cost.", {("QuillNet", "BarNet", None)}),
    ("QuillNet performs on par with BarNet on PTB.", set()),
])
def test_a_yardstick_with_an_advantage_is_improved_over(nlp, sentence, expected):
    assert valued(run(nlp, sentence, BarNet="Method")) == expected


@pytest.mark.parametrize("piece", rules.load("relation_cues")["improve_of"])
def test_a_verb_of_improving_a_measure_is_an_advantage_over_a_yardstick(nlp, piece):
    """ "on par with BarNet while reducing memory": the verbs of improve_of say an advantage too."""
    verb = example(piece)
    assert beaten(run(nlp, f"QuillNet is on par with BarNet while it {verb} memory use.", BarNet="Method")) \
        == {("QuillNet", "BarNet")}, verb
    assert beaten(run(nlp, "QuillNet is on par with BarNet while it keeps memory use.", BarNet="Method")) == set()


def test_the_advantage_may_follow_the_yardsticks_description(nlp):
    sentence = ("QuillNet attains comparable accuracy to standard BarNet or BazNet parsers applied on pooled "
                "treebanks, but with significantly reduced memory.")
    assert beaten(run(nlp, sentence, BarNet="Method", BazNet="Method")) == {("QuillNet", "BarNet"), ("QuillNet", "BazNet")}


@pytest.mark.parametrize("reference, subject", [("It", "ZapNet"), ("Our method", "QuillNet")])
def test_it_is_the_proposal_named_last_and_our_method_the_papers(nlp, reference, subject):
    doc = annotate(nlp, INTRO + f"We also propose ZapNet for long clauses. {reference} outperforms BarNet on PTB.",
                   {"QuillNet": "Method", "ZapNet": "Method", "BarNet": "Method"}, proposed=("QuillNet", "ZapNet"))
    assert beaten(doc) == {(subject, "BarNet")}


# -- a reported result that names no method: the paper's proposal ---------------------------
@pytest.mark.parametrize("sentence, expected", [
    ("Experimental results show its efficacy, outperforming prior parsers.", {("QuillNet", "prior parsers")}),
    ("Experiments show a 12% reduction in errors compared to BarNet.", {("QuillNet", "BarNet")}),
    # a finite verb or a comparative has a subject of its own
    ("Experiments show that prior parsers outperform BarNet.", set()),
    ("In experiments, shallow parsers are faster than BarNet.", set()),
    # no report of a result
    ("Parsing long clauses is hard, compared to BarNet.", set()),
    ("In our experiments on PTB, outperforming BarNet is hard.", set()),
])
def test_a_reported_result_without_a_method_is_the_proposals(nlp, sentence, expected):
    assert beaten(run(nlp, sentence, BarNet="Method")) == expected


def test_the_subjects_name_with_kind_words_is_no_baseline(nlp):
    doc = run(nlp, "QuillNet gains 3 points over BarNet, enabling QuillNet parsers to run faster than BarNet.",
              BarNet="Method")
    assert beaten(doc) == {("QuillNet", "BarNet")}


# -- margins ---------------------------------------------------------------------------
def test_a_percentage_after_margin_words_is_the_margin_over_what_follows(nlp):
    doc = run(nlp, "QuillNet improves recall by an average of 6% over prior parsers and beats BarNet by 3%.",
              BarNet="Method")
    assert valued(doc) == {("QuillNet", "prior parsers", "6"), ("QuillNet", "BarNet", "3")}


def test_a_percentage_without_margin_words_is_no_margin(nlp):
    doc = run(nlp, "QuillNet reaches 85% over three runs, and BarNet is slower than QuillNet.", BarNet="Method")
    assert ("QuillNet", "three runs") not in beaten(doc)


def test_a_number_right_before_a_gain_noun_is_that_comparisons_margin(nlp):
    doc = run(nlp, "QuillNet outperforms the BarNet baseline, with an 8.6% relative error reduction over prior "
                   "parsers.", BarNet="Method")
    assert ("QuillNet", "prior parsers", "8.6") in valued(doc)


@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet reaches 9.1% error, a reduction of 13.5% from the previous state of the art.",
     {("QuillNet", "previous state of the art", "13.5")}),
    ("QuillNet shows large gains from pre-training on PTB.", set()),
])
def test_a_gain_with_its_number_then_from_its_baseline(nlp, sentence, expected):
    assert valued(run(nlp, sentence)) == expected


def test_a_finite_verb_in_a_reported_result_has_its_own_subject(nlp):
    assert beaten(run(nlp, "Experiments show that chart parsers improved recall over BarNet.", BarNet="Method")) == set()


def test_the_main_proposal_is_a_name_before_a_phrase_in_lower_case(nlp):
    doc = annotate(nlp, "We model the parse state and introduce ZapNet. Our method outperforms BarNet on PTB.",
                   {"parse state": "Method", "ZapNet": "Method", "BarNet": "Method"}, proposed=("parse state", "ZapNet"))
    assert beaten(doc) == {("ZapNet", "BarNet")}


def test_the_baselines_own_number_is_no_margin(nlp):
    doc = run(nlp, "QuillNet gains 7.9% over BarNet, surpassing ZapNet's gain of 1.7%.", BarNet="Method", ZapNet="Method")
    assert valued(doc) == {("QuillNet", "BarNet", "7.9"), ("QuillNet", "ZapNet", None)}


def test_by_itself_belongs_to_the_baseline(nlp):
    doc = run(nlp, "QuillNet gives a 4% error reduction over the baseline system by itself.")
    assert valued(doc) == {("QuillNet", "baseline system by itself", "4")}


# -- the comparison phrasings of the brief, each with its number ----------------------------
@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet outperforms BarNet by 2.1 points on PTB.", ("BarNet", "2.1")),
    ("QuillNet has 35% fewer parameters than BarNet.", ("BarNet", "35")),
    ("QuillNet lowers the error rate by 12% compared to BarNet.", ("BarNet", "12")),
    ("QuillNet cuts latency by 20% relative to BarNet.", ("BarNet", "20")),
    ("QuillNet gains 1.2 points over BarNet on PTB.", ("BarNet", "1.2")),
    ("QuillNet is 2.5x faster than BarNet.", ("BarNet", "2.5")),
    ("QuillNet achieves a 3.2x speedup over BarNet.", ("BarNet", "3.2")),
    ("QuillNet improves accuracy by 4 points vs. BarNet.", ("BarNet", "4")),
    ("QuillNet outperforms the previous state of the art by 1.2 points.", ("previous state of the art", "1.2")),
    ("QuillNet beats strong baselines by a 3% margin.", ("strong baselines", "3")),
    ("QuillNet runs faster than fully local inference, by 40%.", ("fully local inference", "40")),
])
def test_each_phrasing_gives_the_baseline_and_its_value(nlp, sentence, expected):
    assert ("QuillNet",) + expected in valued(run(nlp, sentence, BarNet="Method"))


def test_a_that_clause_with_a_subject_of_its_own_is_not_the_proposals(nlp):
    """ "we find that pruning outperforms X": pruning's comparison; "we show that it ..." stays the proposal's."""
    assert beaten(run(nlp, "For birds, we find that pruning outperforms prior parsers.")) == set()
    assert beaten(run(nlp, "We show that it outperforms prior parsers.")) == {("QuillNet", "prior parsers")}
    assert beaten(run(nlp, "We show that our parser is small, while outperforming prior parsers.")) == \
        {("QuillNet", "prior parsers")}


def test_a_margin_given_as_a_range_after_ranging(nlp):
    doc = run(nlp, "QuillNet outperforms BarNet, with accuracy gains ranging from 2.1% to 3.4% on PTB.", BarNet="Method")
    assert valued(doc) == {("QuillNet", "BarNet", "2.1-3.4")}


# -- a comparison made in brackets ------------------------------------------------------
def test_a_comparison_in_brackets_takes_the_number_there_and_leaves_the_score_outside(nlp):
    doc = run(nlp, "QuillNet reaches a 3.1x speedup on BarSet (a further 6.5% gain over BarNet).",
              BarNet="Method", BarSet="Dataset", speedup="Metric")
    assert valued(doc) == {("QuillNet", "BarNet", "6.5")}
    assert {(r["s"], r["metric"], r["value"], r.get("dataset")) for r in rels(doc, "achieves")} \
        == {("QuillNet", "speedup", "3.1", "BarSet")}


def test_a_comparison_outside_brackets_keeps_its_margin(nlp):
    doc = run(nlp, "QuillNet gives a 2.4x speedup over BarNet (measured on BarSet).",
              BarNet="Method", BarSet="Dataset", speedup="Metric")
    assert valued(doc) == {("QuillNet", "BarNet", "2.4")}


# -- "it" for the yardstick ------------------------------------------------------------
@pytest.mark.parametrize("sentence, baseline", [
    ("QuillNet matches BarNet on short clauses and outperforms it on long ones.", "BarNet"),
    ("QuillNet is on par with prior parsers for short clauses and beats them on long ones.", "prior parsers"),
    ("QuillNet matches the tagging objective on PTB and outperforms it on web text.", "tagging objective"),
])
def test_it_after_a_yardstick_is_the_yardstick_beaten(nlp, sentence, baseline):
    assert beaten(run(nlp, sentence, BarNet="Method")) == {("QuillNet", baseline)}


def test_it_with_no_yardstick_before_is_no_baseline(nlp):
    assert beaten(run(nlp, "BarNet is fast, and QuillNet outperforms it on PTB.", BarNet="Method")) == set()


def test_another_method_may_beat_the_proposal(nlp):
    # the paper reports where its proposal loses: BarNet is the subject, QuillNet the baseline
    doc = run(nlp, "BarNet still outperforms QuillNet by 1.2 points on long clauses.", BarNet="Method")
    assert valued(doc) == {("BarNet", "QuillNet", "1.2")}


def test_the_proposal_is_no_baseline_of_itself(nlp):
    doc = run(nlp, "Our parser outperforms QuillNet-free pipelines and QuillNet baselines.")
    assert all(o != "QuillNet" for _, o in beaten(doc))


# -- a saving said with "only" before "compared to" ----------------------------------------
@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet parses a page in only 12 passes compared to the 300 passes of BarNet.", {("QuillNet", "BarNet")}),
    ("QuillNet needs just 2 GPUs compared with BarNet.", {("QuillNet", "BarNet")}),
    # no saving word, no gain word: a comparison with no side taken
    ("QuillNet parses a page in 12 passes compared to BarNet.", set()),
])
def test_only_a_small_number_compared_to_a_baseline_is_a_saving(nlp, sentence, expected):
    assert beaten(run(nlp, sentence, BarNet="Method")) == expected


@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet sharply lowers BarNet's memory use.", {("QuillNet", "BarNet")}),
    ("QuillNet cuts the latency of BarNet by 40%.", {("QuillNet", "BarNet")}),
    ("QuillNet doubles the throughput of BarNet.", {("QuillNet", "BarNet")}),
    ("QuillNet improves the BarNet\u2019s recall on PTB.", {("QuillNet", "BarNet")}),
    # a possessive that is no object of an improve verb
    ("QuillNet reuses BarNet's lexicon to improve recall.", set()),
])
def test_a_method_named_with_a_possessive_after_an_improve_verb_is_improved_over(nlp, sentence, expected):
    assert beaten(run(nlp, sentence, BarNet="Method")) == expected


def test_numbers_given_as_examples_in_brackets_are_the_comparisons_margins(nlp):
    doc = run(nlp, "QuillNet clearly outperforms BarNet (e.g., 4.2% on PTB and 1.5% on CTB).",
              BarNet="Method", PTB="Dataset", CTB="Dataset")
    assert valued(doc) == {("QuillNet", "BarNet", "4.2"), ("QuillNet", "BarNet", "1.5")}


def test_numbers_in_brackets_are_no_margins_where_the_comparison_has_its_own(nlp):
    doc = run(nlp, "QuillNet beats BarNet by 2.0 points (e.g., 91.2% on PTB).",
              BarNet="Method", PTB="Dataset")
    assert valued(doc) == {("QuillNet", "BarNet", "2.0")}


@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet lowers the character error rate (CER) of a clause segmentation (CS) model by 6.1%.",
     {("QuillNet", "clause segmentation (CS) model", "6.1")}),
    ("QuillNet improves the accuracy of clause segmentation systems.", {("QuillNet", "clause segmentation systems", None)}),
    # a model of no task named, or a task with no model
    ("QuillNet improves the accuracy of the language model by 2.0%.", set()),
    ("QuillNet improves the accuracy of clause segmentation on legal text.", set()),
])
def test_a_model_of_a_task_whose_measure_is_improved_is_improved_over(nlp, sentence, expected):
    doc = run(nlp, sentence, clause_segmentation="Task")
    assert valued(doc) == expected


# -- a gerund phrase: what is done instead ------------------------------------------------
@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet is more accurate than selecting the first parse.", {("QuillNet", "selecting the first parse")}),
    ("QuillNet errs less often, compared to working on unlabeled clauses.",
     {("QuillNet", "working on unlabeled clauses")}),
    ("QuillNet is faster than BarNet or using a rule lexicon.",
     {("QuillNet", "BarNet"), ("QuillNet", "using a rule lexicon")}),
    # the paper's own, a word that only looks like a gerund, a gerund alone, a participle clause
    ("QuillNet is faster than using our lexicon alone.", set()),
    ("QuillNet is more accurate than nothing at all.", set()),
    ("QuillNet is more accurate than guessing.", set()),
    ("QuillNet outperforms BarNet, enabling faster parsing.", {("QuillNet", "BarNet")}),
])
def test_a_gerund_phrase_after_a_comparison_is_a_baseline_in_the_texts_words(nlp, sentence, expected):
    assert beaten(run(nlp, sentence, BarNet="Method")) == expected


@pytest.mark.parametrize("sentence, expected", [
    ("QuillNet reaches +2.1 BLEU over BarNet.", {("QuillNet", "BarNet", "2.1")}),
    ("QuillNet delivers 1.2 F1 points over BarNet.", {("QuillNet", "BarNet", "1.2")}),
    ("QuillNet yields +0.8 mAP over BarNet on PTB.", {("QuillNet", "BarNet", "0.8")}),
    ("QuillNet scores 3 points above BarNet.", {("QuillNet", "BarNet", "3")}),
    # a score reached, not a margin: no sign, no unit, no gain word
    ("QuillNet reaches 30.1 BLEU over the test set.", set()),
])
def test_a_metrics_name_between_a_margin_and_its_baseline(nlp, sentence, expected):
    assert valued(run(nlp, sentence, BarNet="Method", BLEU="Metric", F1="Metric", mAP="Metric")) == expected


@pytest.mark.parametrize("sentence, expected", [
    ("The improvement over BarNet is largest on long clauses.", {("QuillNet", "BarNet")}),
    ("Notably, the gains over BarNet grow with clause length.", {("QuillNet", "BarNet")}),
    # a gain with a name before it is that method's, not the proposal's
    ("ZapNet's improvement over BarNet is small.", {("ZapNet", "BarNet")}),
])
def test_a_gain_that_opens_the_sentence_is_the_proposals(nlp, sentence, expected):
    assert beaten(run(nlp, sentence, BarNet="Method", ZapNet="Method")) == expected


def test_a_second_model_of_a_task_with_its_own_measure_and_margin(nlp):
    doc = run(nlp, "QuillNet lowers the error rate of a clause segmentation model by 6.1%, and the latency of a "
                   "tree parsing model by 12%.", clause_segmentation="Task", tree_parsing="Task")
    assert valued(doc) == {("QuillNet", "clause segmentation model", "6.1"), ("QuillNet", "tree parsing model", "12")}
