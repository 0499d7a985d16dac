"""The proposal cues are data (kg/resources/rules/proposals.json): every entry
of every list does its part on a sentence written from the entry itself, so
an entry added to the file is tested with no new test; and a phrasing added
by a user's rules file is found with that one edit."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kg import rules
from kg.pipeline import entity_pipeline
from kg.entities.candidates import candidates
from kg.entities.lexicon import lexicon
from kg.proposals.cues import compile_cues
from kg.proposals.component import find_proposals
from tests.cue_texts import example

_PACKAGED = rules.load("proposals")


@pytest.fixture(scope="module")
def before_proposals():
    """The pipeline up to the proposal rules."""
    nlp = entity_pipeline()
    return lambda text: nlp(text, disable=["kg_proposals", "kg_entities"])


def _proposed(before_proposals, text: str, data: dict) -> set[tuple[str, str]]:
    """(text, label) of what the proposal rules with the cues `data` find in `text`."""
    doc = before_proposals(text)
    find_proposals(doc, lexicon(), compile_cues(data))
    return {(doc[c.start:c.end].text, c.label) for c in candidates(doc) if c.source == "proposal"}


def _without(key: str, entry: str) -> dict:
    data = rules.load("proposals")
    data[key] = [e for e in data[key] if e != entry]
    return data


# Per cue list: a sentence made from an entry (its example in place of {}),
# and what the proposal rules find there with the entry; without the entry
# they must find something else (mostly nothing).
_CASES = {
    "subjects": ("{} presents FooNet to count birds.", {("FooNet", "Method")}),
    "joined_subjects": ("We study birds {} introduce FooNet, a counter.", {("FooNet", "Method")}),
    "subject_adverbs": ("We {} present FooNet to count birds.", {("FooNet", "Method")}),
    "opener_verbs": ("We {} FooNet to count birds.", {("FooNet", "Method")}),
    "gerund_openers": ("The gap is closed {} FooNet to count birds.", {("FooNet", "Method")}),
    "naming_words": ("A bird counter {} FooNet runs fast.", {("FooNet", "Method")}),
    "naming_not_after": ("It is a {}called FooNet.", set()),
    "novelty_words": ("We study a {} objective called soft mixing.", {("soft mixing", "Method")}),
    "our_adjectives": ("Our {} FooNet counts birds.", {("FooNet", "Method")}),
    "our_nouns": ("Our {}, FooNet, counts birds.", {("FooNet", "Method")}),
    "our_openers": ("We sort birds. {} own bird counting model, FooNet, is fast.", {("FooNet", "Method")}),
    "our_not_between": ("Our {} model, FooNet, counts birds.", set()),
    "the_proposed": ("As a result, {} soft label mixing outperforms BarNet.", {("soft label mixing", "Method")}),
    "ours_marks": ("FooNet ({}) counts birds.", {("FooNet", "Method")}),
    "lower_name_skipped": ("We propose {} soft label mixing, which helps.", {("soft label mixing", "Method")}),
    "lower_name_generic_heads": ("We propose soft label {}, which helps.", set()),
    "lower_name_set_off": ("We propose soft label mixing {} a way for birds.", {("soft label mixing", "Method")}),
    "lower_name_after_comma": ("We propose soft label mixing, {} birds.", {("soft label mixing", "Method")}),
    "lower_name_ends": ("We propose a soft label layer {} birds.", {("soft label layer", "Method")}),
    "namely_words": ("We propose a new approach ({} FooNet) for birds.", {("FooNet", "Method")}),
    "component_cues": ("Our FooNet {} BarNorm and BazPool.",
                       {("FooNet", "Method"), ("BarNorm", "Method"), ("BazPool", "Method")}),
    "others_before": ("We build a hybrid pruning scheme, which unites {} parts, Quill Pebble (QP) pruning.", set()),
    "list_counts": ("We present {} pebble layers: (a) Soft Pebble Pooling (SPP) and (b) Hard Pebble Gating (HPG).",
                    {("Soft Pebble Pooling", "Method"), ("Hard Pebble Gating", "Method")}),
    "list_marks": ("We propose two simple changes to attention {} clipped pebble and gated quill.",
                   {("clipped pebble", "Method"), ("gated quill", "Method")}),
    "result_subject_after": ("Tests on birds {} FooNet outperforms BarNet.", {("FooNet", "Method")}),
    "result_verbs": ("Counting birds is hard. FooNet {} BarNet on birds.", {("FooNet", "Method")}),
    "result_adverbs": ("Counting birds is hard. FooNet {} outperforms BarNet.", {("FooNet", "Method")}),
    "apposition_adjectives": ("FooNet, a {} detector, counts birds.", {("FooNet", "Method")}),
    "dataset_words": ("We release a {} FooData to count birds.", {("FooData", "Dataset")}),
    "dataset_words_after": ("We release FooData, a large {} of birds.", {("FooData", "Dataset")}),
    "metric_words_after": ("We propose FooScore, a simple {} of bird counts.", {("FooScore", "Metric")}),
    "dataset_name_endings": ("We release Zeta{} to count birds.", None),  # the name is the example
    "scan_stop": ("We propose a detector {} FooNet and birds.", set()),
    "not_after_subject": ("Then the proposed soft label mixing {} the birds works.", set()),
}


# Entries whose written example is too short to need them: the sentence gives them the words they are for.
_LONG_OBJECT = {
    "we call (?-i:[a-z][\\w-]*s) (?:(?-i:[a-z][\\w-]*) ){0,4}": "A bird counter runs fast; {}with two extra heads FooNet.",
}


def _entries():
    for key, entries in _PACKAGED.items():
        for entry in entries:
            yield key, entry


def test_every_key_has_a_case() -> None:
    assert set(_CASES) == set(_PACKAGED)


@pytest.mark.parametrize("key, entry", list(_entries()))
def test_every_entry_of_every_cue_list_does_its_part(before_proposals, key: str, entry: str) -> None:
    template, expected = _CASES[key]
    plain = ("scan_stop", "not_after_subject", "dataset_name_endings", "naming_not_after", "lower_name_skipped",
             "lower_name_generic_heads", "lower_name_ends", "lower_name_set_off", "lower_name_after_comma",
             "list_marks", "result_adverbs", "our_not_between")
    written = entry if key in plain else example(entry, 0)
    if key == "naming_words" and written.startswith("we "):
        template = "A bird counter runs fast, and {} FooNet."
    if entry in _LONG_OBJECT:
        template = _LONG_OBJECT[entry]
    text = template.format(written)
    if key == "dataset_name_endings":
        expected = {("Zeta" + written, "Dataset")}
    with_entry = _proposed(before_proposals, text, _PACKAGED)
    without_entry = _proposed(before_proposals, text, _without(key, entry))
    assert with_entry == expected, (text, with_entry)
    assert without_entry != expected, (text, without_entry)


def test_an_emptied_cue_list_matches_nothing(before_proposals) -> None:
    data = rules.load("proposals")
    data["subjects"] = []
    assert _proposed(before_proposals, "We present FooNet to count birds.", data) == set()


_ONE_EDIT = "The authors present FooNet, a detector for road signs."


def test_a_new_phrasing_is_one_edit_of_a_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"proposals": {"extend": {"subjects": ["the authors"]}}}), encoding="utf-8")

    def proposed(nlp) -> set[str]:
        doc = nlp(_ONE_EDIT)
        return {s._.kg_name for s in doc.spans["entities"] if s._.proposed}

    assert proposed(entity_pipeline()) == set()
    assert proposed(entity_pipeline(rules=[path])) == {"FooNet"}


def test_herein_we_present_names_the_proposal() -> None:
    """The issue's example opener: "we present" is a subject and an opener verb, whatever comes before."""
    doc = entity_pipeline()("Herein we present FooNet, a detector for road signs.")
    assert {s._.kg_name for s in doc.spans["entities"] if s._.proposed} == {"FooNet"}


# -- kinds of phrasing, each with sentences written for it -------------------------------
@pytest.fixture(scope="module")
def nlp():
    return entity_pipeline()


def _proposed_names(nlp, text: str) -> set[str]:
    doc = nlp(text)
    return {s._.kg_name for s in doc.spans["entities"] if s._.proposed}


@pytest.mark.parametrize("text, names", [
    # an opener verb in the past tense
    ("For the second track, we designed FooNet to count birds.", {"FooNet"}),
    ("We developed BarNet, which counts birds.", {"BarNet"}),
    # names listed with a proposal
    ("We present FooNet (FN) and BarNet (BN), two models for birds.", {"FooNet", "BarNet"}),
    ("We propose FooNet and compare it with BarNet.", {"FooNet"}),
    # the parts of a proposal
    ("We propose FooNet. Our FooNet consists of two modules: Shared Echo Pooling (SEP) and a Kite Gate.",
     {"FooNet", "Shared Echo Pooling", "Kite Gate"}),
    ("Our approach comprises a Multiview centroid loss and BERT.", {"Multiview centroid loss"}),
    ("We introduce KiteNet. KiteNet is a combination of two variants of KiteNet: KiteNet-Fast, which skips pixels, "
     "and KiteNet-Tiny.", {"KiteNet", "KiteNet-Fast", "KiteNet-Tiny"}),
    # an opener whose subject came earlier in the sentence
    ("We frame routing as ranking and introduce FooNet, a router.", {"FooNet"}),
    # "and" joining two words of one phrase does not end the search for the name
    ("We propose a novel and lightweight pooling mechanism, FooNet, for birds.", {"FooNet"}),
    # "our" and a name, with at most one modifier between
    ("On three sets, our FooNet counts birds best.", {"FooNet"}),
    ("Our parameter-efficient BarNet is cheap.", {"BarNet"}),
    # a name with a hyphen right after "our" is the name, not a modifier
    ("Our Kite-MoE approach routes tokens cheaply.", {"Kite-MoE"}),
    ("Our Margin-KD loss helps rankers.", {"Margin-KD"}),
    ("Our advanced model, BazNet, is cheap.", {"BazNet"}),
    # a name marked as the paper's own in brackets
    ("FooNet (ours) beats BarNet by 2 points.", {"FooNet"}),
    # a novelty apposition after a defined abbreviation or a run of capitalised words
    ("Results show that Drift Aware Quantile Regression (DAQR), a novel method, predicts drift.",
     {"Drift Aware Quantile Regression"}),
    ("These findings motivate Pebble Sampling, a simple but effective decoder.", {"Pebble Sampling"}),
    # naming: "we call" with its object, "denoted as", "that we refer to as"
    ("We call this new approach FooNet.", {"FooNet"}),
    ("We call this design a Pebble Net (PN).", {"Pebble Net"}),
    # "we call" with a bare plural and the words that say which ones before the name
    ("We call detectors given four more heads Pebble Counters, and test them on birds.", {"Pebble Counters"}),
    ("We call models trained this way Quill Nets.", {"Quill Nets"}),
    ("We call a public API to label the birds.", set()),
    ("This novel approach, denoted as Soft Label Mixing (SLM), is fast.", {"Soft Label Mixing"}),
    ("This yields a three-step recipe that we refer to as FooNet.", {"FooNet"}),
    # a lower-case name right after an opener, ending where the clause goes on
    ("We propose knot boosting, a technique for small models.", {"knot boosting"}),
    ("We introduce a latent gating layer that pools tokens.", {"latent gating layer"}),
    ("By proposing selective anchor updating, we keep static nodes fixed.", {"selective anchor updating"}),
    ("We propose a banded self-attention which looks at a strip.", {"banded self-attention"}),
    # "namely" after a noun of method, in a sentence that introduces something
    ("In this note we propose a new approach (namely, Orthogonal Pebble Nets) to count birds.",
     {"Orthogonal Pebble Nets"}),
    ("We propose a delay-aware coordinate update rule (DECUR) for fixed points.", {"delay-aware coordinate update rule"}),
    # a lower-case name after a naming word where the sentence introduces something
    ("We propose a new objective, called soft label mixing, for birds.", {"soft label mixing"}),
    # a lone compound that describes ("-like", "-specific") is no name: the search goes on to the name
    ("We propose a FooNet-like mechanism, BarCache, for decoding.", {"BarCache"}),
    ("We propose a Bird-Invariant Counter that pools keypoints.", {"Bird-Invariant Counter"}),
    # words of its own before a name known before make a new variant of it
    ("Connectionist Temporal Classification (CTC) is slow. We propose the pebble-weighted CTC which waits less.",
     {"pebble-weighted CTC"}),
    ("Markov decision processes (MDPs) act at once. We introduce noisy lagged action MDPs, a formalism.",
     {"noisy lagged action MDPs"}),
    ("We introduce an improved Bidirectional T5 architecture for audio.", {"Bidirectional T5"}),
    # "our main contribution is X"; "we ... to propose X"
    ("Our main contribution is Pebble Representation Learning (PRL), which nests codes.",
     {"Pebble Representation Learning"}),
    ("We build on graph theory to propose the Quill Memory Module (QMM), a memory for text.", {"Quill Memory Module"}),
    # names listed after a naming word; a name's capitalised words joined by "and" after it
    ("This paper studies two reward models, called the Pebble Transformer (P Transformer) and the Quill Transformer.",
     {"Pebble Transformer", "Quill Transformer"}),
    ("We present FooNet, a mixer with a dual mechanism called Selective Pebble and Quill Mixer.",
     {"FooNet", "Selective Pebble and Quill Mixer"}),
    # markup around a name ("*...*" in arXiv abstracts) leaves spaces that are no words of the search
    ("We study a toy model called the *Pebble Grid MDP*, and run it on birds.", {"Pebble Grid MDP"}),
    ("We introduce a *Quill Memory Net* for long texts.", {"Quill Memory Net"}),
    # a name in quotes; a lower-case name whose first word is a hyphenated -ing word
    ('Finally we present a "Pebble Lens" view of hidden states.', {"Pebble Lens"}),
    ("Second, we introduce bi-pebbling regularization, which joins two losses.", {"bi-pebbling regularization"}),
    # a common word opens a run of capitalised words followed by two more
    ("This paper proposes a Deep Pebble Term Weighting framework that learns term weights.",
     {"Deep Pebble Term Weighting"}),
    # "namely" right after a proposal's name lists its variants
    ("We propose a family of pebble mixers, called the Pebblers. Two types of the Pebblers, namely the fast "
     "Pebbler (FP) and the slow Pebbler (SP), are given.", {"Pebblers", "fast Pebbler", "slow Pebbler"}),
    ("We propose FooNet. FooNet is tested on two public sets, namely Kestrel-1 and Heron-2.", {"FooNet"}),
    # in an abstract where no cue found a proposal, an unknown name that does better than others
    ("Experiment results show that PQN contributes to better diversity.", {"PQN"}),
    ("We release a recall benchmark, and show that Pebble Mind Transformers outperform the state of the art.",
     {"Pebble Mind Transformers"}),
    # a lone capitalised word takes the method head after it
    ("We also introduce a Quokka regularizer that steadies training.", {"Quokka regularizer"}),
    # a name in brackets right after a noun of method
    ("We introduce a new weakly-supervised method (Rank-1 Pebble Finetuning; RPF-1) for steering.",
     {"Rank-1 Pebble Finetuning"}),
    # a defined name may open with an -ing word
    ("We introduce sliding pebble attention (SPA) for long texts.", {"sliding pebble attention"}),
    # after an opener, "and the" goes on with something else
    ("We propose FooNet and the Pebble Loss it is trained with.", {"FooNet"}),
    # a name set off by commas after a generic head
    ("We propose a new objective, pebble smoothing, which counts birds.", {"pebble smoothing"}),
    ("We develop a new gray-box method, quill2net, that reads logs.", {"quill2net"}),
])
def test_proposals_by_kind(nlp, text: str, names: set[str]) -> None:
    assert _proposed_names(nlp, text) == names


@pytest.mark.parametrize("text", [
    # "namely" lists what a noun before it covers, mostly things the paper did not make
    "We test on two public sets, namely FooSet and BarSet.",
    "Our method beats BarNet on birds.",
    "In Table 2, a new record is set.",
    # a lower-case description after an opener, not a name
    "We propose a multi-task learning framework for birds.",
    "We propose training value critics with contrast.",
    "We introduce a network designed for birds.",
    "We present hardware embeddings for cost models.",
    "We propose a spherical extension of spectral clustering.",
    "We develop a training-free metric that ranks models.",
    "We propose a pebble auction where bids are pooled.",
    "The old design is costly and introduces BarNet errors.",
    "We propose the Incremental FooNet (IFN) task for text.",
    "We introduce an RNN-specific merging metric that ranks heads.",
    "We propose a new method, a simple one, for birds.",
    "We propose a new method, which counts birds.",
    # a list needs a count before it, names or items of two or more words, and a dash that stands apart
    "We introduce two key measures: signal and noise.",
    "We propose training value critics (VCs) with contrast.",
    "We propose a new method (see Section 3) for birds.",
    "We propose a Deep Pebble framework for birds.",
    # a known name that does better than others, or any where a cue found the proposal
    "Results show that LoRA outperforms full fine-tuning.",
    "Earlier models were trained to introduce FooNet errors.",
    "We present an analysis of birds: clipped pebble and gated quill.",
    "We devise an algorithm for the Foo--Bar--Baz (FBB) model.",
    # a gerund opener needs "by": here it tells what others did
    "Earlier work has focused on developing FooNets for birds.",
    # a known task's name with words before it stays a task
    "Scene text recognition (STR) is hard. We introduce a modular three-stage STR framework for it.",
    "Automatic speech recognition (ASR) is hard. We present a lean multispeaker ASR.",
    # parts of something that is not the paper's own
    "A DeepNet consists of two sub-networks, BarNet and BazNet.",
    # names of tasks, and known models, after "our"
    "Semantic role labeling (SRL) is hard. We train our SRL model on news.",
    "We fine-tune our BERT model on news.",
    "Statistical Machine Translation (SMT) and Neural Machine Translation (NMT) both exist; we tune our improved SMT "
    "system.",
    # a comma that goes on with more description does not set a lower-case name off
    "We propose a triple pathway, 9-layers deep, two-dimensional network.",
    # naming words after which the name is not the paper's own
    "Training shows a phenomenon called Ridge of Drift in the loss.",
    "This is a so-called Foo-type result.",
    "The tags mark what we call FooNet units.",
    # a lower-case name after a naming word, in a sentence that introduces nothing
    "The task involves identifying named entities in news.",
    "The memory (called hidden state) is small.",
    "Learning node vectors is hard. This task is called Graph Pebble Learning.",
])
def test_not_proposals(nlp, text: str) -> None:
    assert _proposed_names(nlp, text) == set()


def test_a_proposal_written_again_is_named_again(nlp) -> None:
    doc = nlp("We propose a new memory model called Titans. On long texts, Titans beat BarNet.")
    assert [(s.text, s._.proposed) for s in doc.spans["entities"] if s.text == "Titans"] == [
        ("Titans", True), ("Titans", True)]


def test_a_part_of_a_longer_proposal_is_not_named_again(nlp) -> None:
    text = ("Markov decision processes (MDPs) act at once. We introduce noisy lagged action MDPs, "
            "a new formalism for delays.")
    assert _proposed_names(nlp, text) == {"noisy lagged action MDPs"}


def test_what_comes_before_a_naming_word_says_dataset(nlp) -> None:
    doc = nlp("We then build a realistic dataset called Quokka that stresses retrievers.")
    assert {(s._.kg_name, s.label_) for s in doc.spans["entities"] if s._.proposed} == {("Quokka", "Dataset")}


@pytest.mark.parametrize("text", [
    "We propose FooNet, a new way to measure bird counts.",
    "We propose FooNet, a deep metric learning model for birds.",
])
def test_metric_words_that_do_not_end_the_apposition_leave_a_method(nlp, text: str) -> None:
    doc = nlp(text)
    assert {(s._.kg_name, s.label_) for s in doc.spans["entities"] if s._.proposed} == {("FooNet", "Method")}


def test_a_proposed_name_that_ends_in_a_dataset_word_is_a_dataset(nlp) -> None:
    doc = nlp("We construct a large-scale Cross-Age Pebble dataset (CAP).")
    assert {(s._.kg_name, s.label_) for s in doc.spans["entities"] if s._.proposed} == {
        ("Cross-Age Pebble dataset", "Dataset")}


@pytest.mark.parametrize("key", ["subjects", "gerund_openers", "naming_words", "namely_words", "novelty_words",
                                 "the_proposed", "component_cues", "joined_subjects"])
def test_the_first_letter_lookahead_finds_what_the_plain_alternation_finds(key: str) -> None:
    from kg.proposals.cues import _word_alt
    from kg.rules import any_of

    pieces = _PACKAGED[key]
    fast = re.compile(_word_alt(pieces), re.I)
    plain = re.compile(rf"\b{any_of(pieces)}", re.I)
    text = " ".join(f"{example(p, 0)} x{example(p, 0).upper()} {example(p, 0).title()}" for p in pieces)
    text += " \u017fo-called \u212aind \u0130t we\u2019re the proposed"
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)]
    assert fast.search(text) is not None
