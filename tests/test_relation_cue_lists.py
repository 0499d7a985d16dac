"""Every entry of every list of the relation_cues rule family
(kg/resources/rules/relation_cues.json) does its job on a sentence written
for it: the entry's words (for a regex piece, strings that the piece
matches, one for each of its alternatives) are put into a sentence made for
the list, and the relation rules must read that sentence as the list says.
So an entry added to the packaged file either works or fails here, and
docs/rules.md's account of each key is checked.

The entity spans are set by hand (as in test_relations.py), so that only the
relation rules are tested."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Callable

import pytest
import spacy

import kg.relations.component  # noqa: F401  registers kg_relations
from kg import rules
from kg.nlp.tokenizer import install
from tests.cue_texts import examples
from tests.test_relations import annotate

DATA = rules.load("relation_cues")
PROPOSAL = "We propose QuillNet, a parser for clause segmentation. "


def test_examples_are_matched_by_their_piece() -> None:
    assert examples("beat(?:s|ing)?") == ["beat", "beats", "beating"]
    assert examples("state[- ]of[- ]the[- ]art") == ["state of the art"]
    assert examples("outperform\\w*") == ["outperform"]
    assert examples("e\\.g\\.,?") == ["e.g.", "e.g.,"]


# -- the relation component on a sentence with entity spans set by hand ---------------
def pipeline(rules_files: list[str] | None = None) -> spacy.Language:
    """The relation component after kg's tokenizer ("fine-tuning" is one token),
    reading the user's `rules_files` as well as the packaged rules."""
    nlp = spacy.blank("en")
    install(nlp)
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_relations", config={"rules": list(rules_files or [])})
    return nlp


@pytest.fixture(scope="module")
def nlp():
    return pipeline()


def relations(nlp, text: str, entities: dict[str, str], proposed: tuple[str, ...] = ()) -> list[dict]:
    return annotate(nlp, text, entities, proposed)._.kg_relations


def improves(rels: list[dict]) -> set[tuple[str, str]]:
    return {(r["s"], r["o"]) for r in rels if r["p"] == "improvesOver"}


def evaluations(rels: list[dict]) -> set[tuple[str, str]]:
    return {(r["s"], r["o"]) for r in rels if r["p"] == "evaluatedOn"}


def values(rels: list[dict]) -> set[tuple[str, str, str | None]]:
    return {(r["s"], r["o"], r.get("value")) for r in rels if r["p"] == "improvesOver"}


METHODS = {"FooNet": "Method", "BarNet": "Method", "BazNet": "Method", "QuillNet": "Method", "CIFAR-10": "Dataset",
           "QuillBench": "Dataset", "zig attention": "Method"}  # a method whose name is written in lower case
OWN = ("QuillNet", "QuillBench")  # the paper's own method and dataset


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# Each list: (sentence for an entry x, what the rules must read in it).
Case = tuple[Callable[[str], str], Callable[[list[dict], str], bool]]
beats_barnet: Callable[[list[dict], str], bool] = lambda rels, x: ("FooNet", "BarNet") in improves(rels)
quill_beats_barnet: Callable[[list[dict], str], bool] = lambda rels, x: ("QuillNet", "BarNet") in improves(rels)

REGEX_LISTS: dict[str, Case] = {
    "improve_verbs": (lambda x: f"FooNet {x} BarNet on CIFAR-10.", beats_barnet),
    "improve_nouns_over": (lambda x: f"FooNet gives {x} over BarNet on CIFAR-10.", beats_barnet),
    "over_words": (lambda x: f"FooNet gives improvements {x} BarNet on CIFAR-10.", beats_barnet),
    "compared_to": (lambda x: f"FooNet gives higher accuracy {x} BarNet on CIFAR-10.", beats_barnet),
    "comparatives": (lambda x: f"FooNet gives {x} accuracy than BarNet on CIFAR-10.", beats_barnet),
    "improve_of": (lambda x: f"FooNet {x} the accuracy of BarNet on CIFAR-10.", beats_barnet),
    "improve_on_verbs": (lambda x: f"FooNet {x} upon BarNet on CIFAR-10.", beats_barnet),
    "improve_object_verbs": (lambda x: f"FooNet {x} BarNet on CIFAR-10.", beats_barnet),
    "margin_units": (lambda x: f"FooNet is 2.1 {x} over BarNet on CIFAR-10.", beats_barnet),
    # A gain word before or after a number makes it the margin.
    "gain_words": (lambda x: f"FooNet outperforms BarNet with {x} of 2.1 on CIFAR-10. "
                             f"FooNet outperforms BazNet with 1.5 {x} on CIFAR-10.",
                   lambda rels, x: {("FooNet", "BarNet", "2.1"), ("FooNet", "BazNet", "1.5")} <= values(rels)),
    "margin_before": (lambda x: f"FooNet outperforms BarNet {x} 2.1 on CIFAR-10.",
                      lambda rels, x: ("FooNet", "BarNet", "2.1") in values(rels)),
    "number_qualifiers": (lambda x: f"FooNet outperforms BarNet by {x} 2.1 on CIFAR-10.",
                          lambda rels, x: ("FooNet", "BarNet", "2.1") in values(rels)),
    # A bare whole number is a score only after a verb of achieving.
    "achieve_verbs": (lambda x: f"FooNet {x} 91 BLEU on CIFAR-10.",
                      lambda rels, x: any(r["p"] == "achieves" and r["value"] == "91" for r in rels)),
    # With nothing else to tie the proposal to the dataset, an evaluation word does.
    "evaluation": (lambda x: PROPOSAL + f"The {x} part uses CIFAR-10.",
                   lambda rels, x: any(r["p"] == "evaluatedOn" and r["o"] == "CIFAR-10" for r in rels)),
    "report_verbs": (lambda x: PROPOSAL + f"Experimental results {x} a 12% reduction in errors compared to BarNet.",
                     quill_beats_barnet),
    # With nothing proposed by name, the method "we" use does what "we" do.
    "instrument_words": (lambda x: f"By {x} FooNet to fit a probe, we reach the best results on CIFAR-10.",
                         lambda rels, x: any(r["p"] == "evaluatedOn" and (r["s"], r["o"]) == ("FooNet", "CIFAR-10")
                                             for r in rels)),
    # With nothing proposed by name, the method after one of these is evaluated on the dataset before it.
    "evaluate_verbs": (lambda x: f"On CIFAR-10, we {x} of FooNet.",
                       lambda rels, x: any(r["p"] == "evaluatedOn" and (r["s"], r["o"]) == ("FooNet", "CIFAR-10")
                                           for r in rels)),
    # The paper's own dataset is made in a sentence with one of these, not tested on.
    "release_verbs": (lambda x: PROPOSAL + f"We {x} QuillBench, a test suite for evaluation.",
                      lambda rels, x: not any(r["p"] == "evaluatedOn" and r["o"] == "QuillBench" for r in rels)),
    "method_nouns": (lambda x: PROPOSAL + f"Our {x} outperforms BarNet on CIFAR-10.", quill_beats_barnet),
    "own_markers": (lambda x: PROPOSAL + f"{cap(x)} method outperforms BarNet on CIFAR-10.", quill_beats_barnet),
    "self_reference": (lambda x: PROPOSAL + f"{cap(x)} outperform BarNet on CIFAR-10.", quill_beats_barnet),
    "definite_nouns": (lambda x: PROPOSAL + f"On CIFAR-10 the {x} outperforms BarNet.", quill_beats_barnet),
    "definite_determiners": (lambda x: PROPOSAL + f"On CIFAR-10 {x} optimizer outperforms BarNet.", quill_beats_barnet),
    # ... and what keeps "the model" from standing for the proposal.
    "definite_not_modifiers": (lambda x: PROPOSAL + f"On CIFAR-10 the {x} optimizer outperforms BarNet.",
                               lambda rels, x: not improves(rels)),
    "definite_not_before": (lambda x: PROPOSAL + f"On CIFAR-10 the optimizer {x} outperforms BarNet.",
                            lambda rels, x: not improves(rels)),
    # Right after a sentence that names the proposal, these stand for it.
    "carried_reference": (lambda x: PROPOSAL + f"{cap(x)} outperform BarNet on CIFAR-10.", quill_beats_barnet),
    "not_before_subject_it": (lambda x: PROPOSAL + f"Studies {x} it outperform BarNet on CIFAR-10.",
                              lambda rels, x: not improves(rels)),
    # Nothing is proposed by name: "our FooNet" makes FooNet the paper's own, and "it" stands for it.
    "own_before_name": (lambda x: f"We study {x} FooNet here. It outperforms BarNet on CIFAR-10.", beats_barnet),
    "sentence_openers": (lambda x: PROPOSAL + f"{cap(x)}, compared with BarNet, QuillNet gives higher accuracy.",
                         quill_beats_barnet),
    # A method named after these is compared with, so the subject is the one before it.
    "yardsticks": (lambda x: f"FooNet {x} BarNet and outperforms prior methods on CIFAR-10.",
                   lambda rels, x: improves(rels) == {("FooNet", "prior methods")}),
    "advantage_links": (lambda x: f"FooNet reaches accuracy comparable to BarNet, {x} 3x fewer parameters.", beats_barnet),
    "compared_before": (lambda x: f"FooNet runs {x} BarNet and outperforms prior methods on CIFAR-10.",
                        lambda rels, x: improves(rels) == {("FooNet", "prior methods")}),
    "verb_object_words": (lambda x: f"FooNet outperforms {x} BarNet, with higher accuracy than prior methods.",
                          lambda rels, x: ("BarNet", "prior methods") not in improves(rels)
                          and ("FooNet", "prior methods") in improves(rels)),
    # "2.7 ... compared with 3.1 for BarNet" beats BarNet only where lower is better.
    "lower_is_better": (lambda x: PROPOSAL + f"QuillNet reaches a {x} of 2.7, compared with 3.1 for BarNet.",
                        quill_beats_barnet),
    # A small number said to be small makes "compared to" a gain with no comparative written.
    "saving_words": (lambda x: f"FooNet needs {x} 8 passes compared to the 300 passes of BarNet on CIFAR-10.",
                     beats_barnet),
    "baseline_phrases": (lambda x: f"FooNet outperforms the {x} parser on CIFAR-10.",
                         lambda rels, x: improves(rels) == {("FooNet", f"{x} parser")}),
    "baseline_leading_of": (lambda x: f"FooNet surpasses {x} of prior methods on CIFAR-10.",
                            lambda rels, x: improves(rels) == {("FooNet", "prior methods")}),
    "example_markers": (lambda x: f"FooNet outperforms prior methods, {x} BarNet and BazNet, on CIFAR-10.",
                        lambda rels, x: improves(rels) == {("FooNet", "BarNet"), ("FooNet", "BazNet")}),
    # A further baseline with a margin of its own: "outperforms BarNet by 2.1 points and BazNet by 0.8 points".
    "next_margin_words": (lambda x: f"FooNet outperforms BarNet {x} 2.1 points and BazNet {x} 0.8 points on CIFAR-10.",
                          lambda rels, x: ("FooNet", "BazNet") in improves(rels)),
    # A clause opened by one of these with a subject of its own is not about "we" or the proposal.
    "subject_clause_openers": (lambda x: PROPOSAL + f"For birds, we find {x} pruning outperforms prior methods.",
                               lambda rels, x: ("QuillNet", "prior methods") not in improves(rels)),
    "next_baseline_joins": (lambda x: f"FooNet outperforms BarNet by 2.1 points{' ' if x[:1].isalnum() else ''}{x} "
                                      f"BazNet by 0.8 points on CIFAR-10.",
                            lambda rels, x: ("FooNet", "BazNet") in improves(rels)),
}

WORD_LISTS: dict[str, Case] = {
    "baseline_heads": (lambda x: f"FooNet outperforms several {x} on CIFAR-10.",
                       lambda rels, x: improves(rels) == {("FooNet", x)}),
    # A modifier makes a plural noun a baseline, and keeps "the X model" from being the proposal.
    "baseline_modifiers": (lambda x: f"FooNet outperforms {x} parsers on CIFAR-10. "
                                     + PROPOSAL + f"On CIFAR-10 the {x} optimizer outperforms BarNet.",
                           lambda rels, x: ("FooNet", f"{x} parsers") in improves(rels)
                           and ("QuillNet", "BarNet") not in improves(rels)),
    "baseline_drop_first": (lambda x: f"FooNet outperforms {x} prior methods on CIFAR-10.",
                            lambda rels, x: improves(rels) == {("FooNet", "prior methods")}),
    "baseline_stop": (lambda x: f"FooNet outperforms prior {x} methods on CIFAR-10.",
                      lambda rels, x: not any(o.endswith("methods") for _, o in improves(rels))),
    "baseline_stop_exceptions": (lambda x: f"FooNet outperforms prior methods {x} on CIFAR-10.",
                                 lambda rels, x: improves(rels) == {("FooNet", f"prior methods {x}")}),
    "baseline_stop_after_noun": (lambda x: f"FooNet outperforms prior methods {x} parsers.",
                                 lambda rels, x: improves(rels) == {("FooNet", "prior methods")}),
    # A participle with one of these after it keeps its phrase in a baseline of the text's own words.
    "baseline_participle_preps": (lambda x: f"FooNet outperforms prior methods trained {x} web forums.",
                                  lambda rels, x: improves(rels) == {("FooNet", f"prior methods trained {x} web forums")}),
    # "it" after a comparison stands for the yardstick named before it.
    "pronoun_objects": (lambda x: f"FooNet matches BarNet on CIFAR-10 and outperforms {x} on larger images.",
                        lambda rels, x: improves(rels) == {("FooNet", "BarNet")}),
    # A compound written apart ("BarNet based parsers") is one baseline in the text's own words.
    "baseline_compound_participles": (lambda x: f"FooNet outperforms prior BarNet {x} parsers on CIFAR-10.",
                                      lambda rels, x: improves(rels) == {("FooNet", f"prior BarNet {x} parsers")}),
    # ... unless the phrase is the comparison's setting.
    "baseline_participle_settings": (lambda x: f"FooNet outperforms prior methods trained with {x} forums.",
                                     lambda rels, x: improves(rels) == {("FooNet", "prior methods")}),
    "not_baseline_plurals": (lambda x: f"FooNet outperforms existing {x} on CIFAR-10.", lambda rels, x: not improves(rels)),
    "own_words": (lambda x: f"FooNet outperforms the {x} methods on CIFAR-10.", lambda rels, x: not improves(rels)),
    "own_first_words": (lambda x: f"FooNet outperforms the {x} methods on CIFAR-10.", lambda rels, x: not improves(rels)),
    # A phrase that joins baselines as a list separator does.
    "baseline_join_phrases": (lambda x: f"FooNet outperforms prior methods {x} BazNet on CIFAR-10.",
                              lambda rels, x: {("FooNet", "prior methods"), ("FooNet", "BazNet")} <= improves(rels)),
    "clause_breaks": (lambda x: f"FooNet is small {x} outperforms prior methods on CIFAR-10.",
                      lambda rels, x: not improves(rels)),
    # After a method's name in lower case, a word that names the method itself leaves the name the baseline.
    "name_heads": (lambda x: f"FooNet outperforms the popular zig attention {x}, and runs faster.",
                   lambda rels, x: improves(rels) == {("FooNet", "zig attention")}),
    # A word that only looks like a gerund opens no gerund phrase baseline ("than during the night runs").
    "not_gerunds": (lambda x: f"FooNet is more accurate than {x} the night runs.", lambda rels, x: not improves(rels)),
}

def new_word(key: str) -> str:
    """A word that is no entry of list `key` (a plural where the list holds plurals)."""
    return {"not_baseline_plurals": "zzzs", "not_gerunds": "zzzing"}.get(key, "zzz")


def test_every_list_has_a_sentence() -> None:
    # setting_openers: tests/test_relations_phrasings.py (an entry only undoes compared_before's word)
    assert set(DATA) == set(REGEX_LISTS) | set(WORD_LISTS) | {"not_baseline_after", "plural_name_endings",
                                                               "setting_openers"}


def test_the_sentences_need_their_entry() -> None:
    """Each sentence with a word that is no entry gives what the list would
    not: the check is not met by the sentence alone."""
    blank = pipeline()
    met = [key for key, (sentence, check) in {**REGEX_LISTS, **WORD_LISTS}.items()
           if check(relations(blank, sentence(new_word(key)), METHODS | {"BLEU": "Metric", "zzz": "Metric"}, OWN),
                    new_word(key))]
    assert not met, f"sentences that pass with no entry in them: {met}"


@pytest.mark.parametrize("key", sorted(REGEX_LISTS))
def test_every_alternative_of_a_cue_list_fires(nlp, key: str) -> None:
    sentence, check = REGEX_LISTS[key]
    failed = []
    for piece in DATA[key]:
        for x in examples(piece):
            ents = METHODS | {"BLEU": "Metric"}
            if key == "lower_is_better":
                ents = ents | {x: "Metric"}
            if not check(relations(nlp, sentence(x), ents, OWN), x):
                failed.append((piece, sentence(x)))
    assert not failed, f"{key}: entries that do nothing: {failed}"


@pytest.mark.parametrize("key", sorted(WORD_LISTS))
def test_every_word_of_a_word_list_fires(nlp, key: str) -> None:
    sentence, check = WORD_LISTS[key]
    failed = [word for word in DATA[key] if not check(relations(nlp, sentence(word), METHODS, OWN), word)]
    assert not failed, f"{key}: entries that do nothing: {failed}"


# -- a user's rules file reaches every cue ----------------------------------------------
def _rules_file(tmp_path, key: str, entries: list[str]):
    path = tmp_path / f"{key}.json"
    path.write_text(json.dumps({"relation_cues": {"extend": {key: entries}}}), encoding="utf-8")
    return path


def test_an_entry_added_by_a_rules_file_works_in_every_list(tmp_path) -> None:
    """ "zzz" (new_word) added to each list: its sentence now reads as the list says
    (test_the_sentences_need_their_entry shows it does not without the file)."""
    failed = []
    for key, (sentence, check) in {**REGEX_LISTS, **WORD_LISTS}.items():
        word = new_word(key)
        nlp = pipeline([str(_rules_file(tmp_path, key, [word]))])
        if not check(relations(nlp, sentence(word), METHODS | {"BLEU": "Metric", "zzz": "Metric"}, OWN), word):
            failed.append(key)
    assert not failed, f"lists whose added entry does nothing: {failed}"


ECLIPSE = "FooNet eclipses RetinaNet by 2.1 points on COCO."


def _eclipses(record: dict) -> list[tuple]:
    return [(r["s"], r["o"], r.get("value"), r.get("unit"), r.get("dataset"))
            for r in record["relations"] if r["p"] == "improvesOver"]


def test_a_rules_file_adds_an_improve_verb_through_the_extractor(tmp_path) -> None:
    from kg.extraction.record import Extractor
    from kg.model import Abstract

    path = _rules_file(tmp_path, "improve_verbs", ["eclips\\w*"])
    assert _eclipses(Extractor().record(Abstract("a", ECLIPSE))) == []
    assert _eclipses(Extractor(rules=[path]).record(Abstract("a", ECLIPSE))) == \
        [("FooNet", "RetinaNet", "2.1", "points", "COCO")]


def test_a_rules_file_adds_an_improve_verb_through_the_cli(tmp_path) -> None:
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "p1", "abstract": ECLIPSE}) + "\n", encoding="utf-8")
    path = _rules_file(tmp_path, "improve_verbs", ["eclips\\w*"])
    for rules_args, expected in (([], []), (["--rules", str(path)], [("FooNet", "RetinaNet", "2.1", "points", "COCO")])):
        out = tmp_path / "out.jsonl"
        run = subprocess.run([sys.executable, "-m", "kg", "extract", str(inp), "-o", str(out), "--quiet", *rules_args],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert _eclipses(json.loads(out.read_text())) == expected


# -- not_baseline_after: a name right after "on" is where, not what is compared ------------------
# Only "improves ... on" among the packaged cues ends in such a word, so each
# entry is tried after a cue a rules file adds: "measured <entry>".
def _measured(tmp_path, entry: str, more: dict | None = None) -> spacy.Language:
    change = {"extend": {"compared_to": [f"measured {entry}"], **(more or {})}}
    path = tmp_path / f"rules-{len(list(tmp_path.iterdir()))}.json"  # a new name: rules are read once per path
    path.write_text(json.dumps({"relation_cues": change}), encoding="utf-8")
    return pipeline([str(path)])


@pytest.mark.parametrize("word", [x for piece in DATA["not_baseline_after"] for x in examples(piece)])
def test_a_name_after_each_not_baseline_word_is_no_baseline(tmp_path, word) -> None:
    text = f"FooNet gives higher accuracy measured {word} Quokka."
    assert improves(relations(_measured(tmp_path, word), text, METHODS)) == set()


def test_a_name_after_another_word_is_a_baseline_unless_a_rules_file_adds_the_word(nlp, tmp_path) -> None:
    text = "FooNet gives higher accuracy measured zzz Quokka."
    assert improves(relations(_measured(tmp_path, "zzz"), text, METHODS)) == {("FooNet", "Quokka")}
    added = _measured(tmp_path, "zzz", {"not_baseline_after": ["zzz"]})
    assert improves(relations(added, text, METHODS)) == set()
    # the packaged cue that needs it: "improves accuracy on SQuAD"
    assert improves(relations(nlp, "FooNet improves accuracy on Quokka.", METHODS)) == set()


@pytest.mark.parametrize("sep", rules.load("entity_patterns")["list_separators"])
def test_each_list_separator_of_the_lexicon_splits_a_list_of_baselines(nlp, sep) -> None:
    text = f"FooNet outperforms prior methods{sep if sep == ',' else ' ' + sep} BarNet on CIFAR-10."
    assert improves(relations(nlp, text, METHODS)) == {("FooNet", "prior methods"), ("FooNet", "BarNet")}


# -- plural_name_endings: a name in the plural after an improve verb is a kind, not a baseline ----
PLURALS = METHODS | {"SSMs": "Method", "diffusion models": "Method", "BarNets": "Method"}


@pytest.mark.parametrize("name", ["SSMs", "diffusion models"])
def test_a_plural_name_after_an_improve_verb_is_no_baseline(nlp, tmp_path, name) -> None:
    text = f"FooNet enhances {name} on CIFAR-10."
    assert improves(relations(nlp, text, PLURALS)) == set()
    none = tmp_path / "none.json"
    none.write_text(json.dumps({"relation_cues": {"replace": {"plural_name_endings": []}}}), encoding="utf-8")
    nlp = pipeline([str(none)])
    assert improves(relations(nlp, text, PLURALS)) == {("FooNet", name)}


def test_a_rules_file_adds_a_plural_name_ending(nlp, tmp_path) -> None:
    text = "FooNet enhances BarNets on CIFAR-10."
    assert improves(relations(nlp, text, PLURALS)) == {("FooNet", "BarNets")}
    added = pipeline([str(_rules_file(tmp_path, "plural_name_endings", ["Nets"]))])
    assert improves(relations(added, text, PLURALS)) == set()


def _with_separator(tmp_path, sep: str) -> spacy.Language:
    path = tmp_path / f"sep-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps({"entity_patterns": {"extend": {"list_separators": [sep]}}}), encoding="utf-8")
    return pipeline([str(path)])


SEPARATORS = rules.load("entity_patterns")["list_separators"]


# Each separator as written ("FooNet, BarNet", "FooNet and BarNet", "FooNet / BarNet"), a word also after a comma.
@pytest.mark.parametrize("join", [sep if sep == "," else f" {sep}" for sep in SEPARATORS]
                         + [f", {sep}" for sep in SEPARATORS if sep[:1].isalnum()])
def test_each_list_separator_lists_methods_with_the_subject(nlp, join) -> None:
    """Nothing is proposed by name: the methods listed with the subject are evaluated where it is."""
    text = f"We compare FooNet{join} BarNet on CIFAR-10."
    assert {("FooNet", "CIFAR-10"), ("BarNet", "CIFAR-10")} <= evaluations(relations(nlp, text, METHODS))


def test_a_list_separator_added_by_a_rules_file_lists_methods_with_the_subject(nlp, tmp_path) -> None:
    text = "We compare FooNet plus BarNet on CIFAR-10."
    assert ("FooNet", "CIFAR-10") not in evaluations(relations(nlp, text, METHODS))
    added = _with_separator(tmp_path, "plus")
    assert {("FooNet", "CIFAR-10"), ("BarNet", "CIFAR-10")} <= evaluations(relations(added, text, METHODS))


def test_a_list_separator_after_an_improve_verbs_object_ends_it(tmp_path) -> None:
    """ "enhances prior parsers and ...": the object is the baseline; the
    separators are entity_patterns' list_separators, so one a user adds
    ends the object too."""
    text = "FooNet enhances prior parsers plus runs fast on CIFAR-10."
    path = tmp_path / "plus.json"
    path.write_text(json.dumps({"entity_patterns": {"extend": {"list_separators": ["plus"]}}}), encoding="utf-8")
    for rules_files, expected in (([], set()), ([str(path)], {("FooNet", "prior parsers")})):
        nlp = pipeline(rules_files)
        assert improves(relations(nlp, text, METHODS)) == expected


def test_an_adjective_before_a_coordinating_list_separator_shares_the_noun_after(nlp, tmp_path) -> None:
    """ "diffusion-based and flow-based generators" is one baseline; the
    coordinating words are the words among list_separators."""
    assert improves(relations(nlp, "FooNet outperforms diffusion-based or flow-based generators on CIFAR-10.",
                              METHODS)) == {("FooNet", "diffusion-based or flow-based generators")}
    text = "FooNet outperforms diffusion-based plus flow-based generators on CIFAR-10."
    assert improves(relations(_with_separator(tmp_path, "plus"), text, METHODS)) == \
        {("FooNet", "diffusion-based plus flow-based generators")}
