"""What each number of a result sentence is (kg/relations/number_roles.py):
a score, a gain, a reduction, a drop, another method's score or a setting,
on sentences written for these tests with invented names, entity spans set
by hand (as in test_relations.py). Every entry of the rule family
"number_roles" is tried on a sentence written for its key, and must give the
number the key's role; the same sentence with a word that is no entry must
not. Last, sentences of every role that is no score give no score."""

from __future__ import annotations

import json

import pytest

import kg.relations.component  # noqa: F401  registers kg_relations
from kg.nlp.tokens import doc_text
from kg.relations.component import _sentences
from kg.relations.cues import cues
from kg.relations.number_roles import Role, number_role
from kg.relations.numbers import number_reader
from kg.relations.results import result_rules
from kg.relations.role_rules import role_rules
from kg.relations.sentence import doc_mentions, sentence_view
from tests.cue_texts import examples
from tests.test_relation_cue_lists import pipeline
from tests.test_relations import annotate

PIECES = role_rules().pieces
ENTS = {"FooNet": "Method", "BarNet": "Method", "QuillNet": "Method", "accuracy": "Metric", "error": "Metric",
        "AUC": "Metric", "sparsity": "Metric", "QuillBench": "Dataset"}
OWN = ("FooNet",)
P = "We propose FooNet, a pruner. "


@pytest.fixture(scope="module")
def nlp():
    return pipeline()


def roles(nlp, text: str, ents: dict[str, str] | None = None, rules_files: tuple[str, ...] = ()) -> dict[str, tuple]:
    """Each number of `text` (by its value) -> (role, owner), as the relation rules read it."""
    doc = annotate(nlp, text, ents or ENTS, OWN)
    whole = doc_text(doc)
    mentions = doc_mentions(doc, whole)
    found: dict[str, tuple] = {}
    for bounds in _sentences(doc):
        first, end = bounds[0], bounds[1]
        s = sentence_view(doc, bounds, whole, [m for m in mentions if first <= m.tok_start and m.tok_end <= end],
                          "FooNet", cues(rules_files))
        s.result_rules, s.numbers = result_rules(rules_files), number_reader(rules_files)
        for q in s.quantities:
            role = number_role(s, q)
            found[q.value] = (role.role, role.owner)
    return found


def facts(nlp, text: str, ents: dict[str, str] | None = None) -> set[tuple]:
    rels = annotate(nlp, text, ents or ENTS, OWN)._.kg_relations
    return {(r["p"], r["s"], r.get("o"), r.get("value")) for r in rels if r.get("value") is not None}


# -- each key: (sentence for an entry x, the number to read, the role it must have) ----------
CASES = {
    # A change upwards: a gain in accuracy (and, below, a drop in an error).
    "up_words": (lambda x: P + f"FooNet outperforms BarNet on QuillBench with 5.5% {x} accuracy.", "5.5", Role.GAIN),
    "down_words": (lambda x: P + f"FooNet outperforms BarNet on QuillBench with 5.5% {x} error.", "5.5", Role.REDUCTION),
    "better_words": (lambda x: P + f"FooNet outperforms BarNet on QuillBench, with {x} AUC up to 5.5%.", "5.5", Role.GAIN),
    "worse_words": (lambda x: P + f"FooNet outperforms BarNet on QuillBench, with {x} AUC up to 5.5%.", "5.5", Role.DROP),
    # More of a cost is a drop.
    "cost_words": (lambda x: P + f"FooNet outperforms BarNet on QuillBench with 5.5% more {x}.", "5.5", Role.DROP),
    "setting_openers": (lambda x: P + f"FooNet reaches 91.5% accuracy on QuillBench {x} 50% sparsity.", "50",
                        Role.SETTING),
    "setting_words": (lambda x: P + f"FooNet reaches 91.5% accuracy on QuillBench at 50% {x}.", "50", Role.SETTING),
    "setting_after": (lambda x: P + f"FooNet reaches an accuracy of 91.5% on QuillBench with 5 {x}.", "5", Role.SETTING),
    "setting_before": (lambda x: P + f"FooNet reaches an accuracy of 91.5% with the {x} 5.5% error on QuillBench.",
                       "5.5", Role.SETTING),
    "setting_links": (lambda x: P + f"FooNet outperforms BarNet on QuillBench, with error {x} 5.5% and 7.5%.", "5.5",
                      Role.SETTING),
    "owner_links": (lambda x: P + f"FooNet reaches 91.5% accuracy on QuillBench, surpassing the 82.5% accuracy {x} "
                                  "BarNet.", "82.5", Role.OTHER),
}


def _ents(key: str, x: str) -> dict[str, str]:
    """setting_words: the word itself is a metric's name, so that without the rule the number is its score."""
    return {**ENTS, x: "Metric"} if key == "setting_words" else ENTS


def test_every_key_has_a_sentence():
    assert set(PIECES) == set(CASES)


@pytest.mark.parametrize("key", sorted(CASES))
def test_every_entry_gives_its_role(nlp, key):
    sentence, value, role = CASES[key]
    failed = [(piece, x) for piece in PIECES[key] for x in examples(piece)
              if roles(nlp, sentence(x), _ents(key, x)).get(value, (None,))[0] is not role]
    assert not failed, f"{key}: entries that do not make the number a {role.value}: {failed}"


@pytest.mark.parametrize("key", sorted(CASES))
def test_without_an_entry_the_sentence_gives_another_role(nlp, key):
    sentence, value, role = CASES[key]
    assert roles(nlp, sentence("zzz"), _ents(key, "zzz")).get(value, (None,))[0] is not role


@pytest.mark.parametrize("key", sorted(CASES))
def test_an_entry_added_by_a_rules_file_gives_its_role(nlp, tmp_path, key):
    sentence, value, role = CASES[key]
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"number_roles": {"extend": {key: ["zzz"]}}}), encoding="utf-8")
    assert roles(nlp, sentence("zzz"), _ents(key, "zzz"), (str(path),)).get(value, (None,))[0] is role


# -- which way is better: the same word a gain in one measure, a drop in another ----------------
@pytest.mark.parametrize("piece", PIECES["up_words"])
def test_each_up_word_is_a_drop_in_an_error(nlp, piece):
    for x in examples(piece):
        text = P + f"FooNet outperforms BarNet on QuillBench with 5.5% {x} error."
        assert roles(nlp, text)["5.5"][0] is Role.DROP, x


@pytest.mark.parametrize("piece", PIECES["down_words"])
def test_each_down_word_is_a_drop_in_accuracy(nlp, piece):
    for x in examples(piece):
        text = P + f"FooNet outperforms BarNet on QuillBench with 5.5% {x} accuracy."
        assert roles(nlp, text)["5.5"][0] is Role.DROP, x


def test_a_change_before_the_number_reads_its_measure_between(nlp):
    assert roles(nlp, P + "FooNet reduces the error of BarNet by 3.5 points on QuillBench.")["3.5"][0] is Role.REDUCTION
    assert roles(nlp, P + "FooNet reduces the accuracy of BarNet by 3.5 points on QuillBench.")["3.5"][0] is Role.DROP
    assert roles(nlp, P + "FooNet shows an accuracy drop of 0.5% on QuillBench.")["0.5"][0] is Role.DROP


def test_less_than_before_a_number_is_a_qualifier_not_a_change(nlp):
    found = roles(nlp, P + "FooNet prunes BarNet with less than 0.5% accuracy loss on QuillBench.")
    assert found["0.5"][0] is Role.DROP  # the loss says so, not "less"
    assert roles(nlp, P + "FooNet reaches less than 4.5% error on QuillBench.")["4.5"][0] is Role.SCORE


def test_a_number_listed_after_a_change_takes_its_role(nlp):
    found = roles(nlp, P + "FooNet prunes BarNet with accuracy drops of 0.5% and 0.8% on QuillBench.")
    assert found["0.5"][0] is Role.DROP and found["0.8"][0] is Role.DROP


def test_a_word_of_a_change_inside_a_metrics_name_is_none(nlp):
    ents = {**ENTS, "log loss": "Metric"}
    found = roles(nlp, P + "FooNet reaches an accuracy of 91.5%, with a log loss of 0.35 on QuillBench.", ents)
    assert found["0.35"][0] is Role.SCORE


# -- another method's score ------------------------------------------------------------------------
@pytest.mark.parametrize("text, value, owner", [
    ("FooNet reaches 91.5% accuracy on QuillBench, against BarNet's 82.5% accuracy.", "82.5", "BarNet"),
    ("FooNet reaches 91.5% accuracy on QuillBench, while BarNet's accuracy is 82.5%.", "82.5", "BarNet"),
    ("FooNet reaches 91.5% accuracy on QuillBench, compared with 82.5% for BarNet.", "82.5", "BarNet"),
    ("FooNet reaches 91.5% accuracy on QuillBench, compared to the strong BarNet (82.5%).", "82.5", "BarNet"),
    ("FooNet reaches 91.5% accuracy on QuillBench, surpassing the 82.5% accuracy of human raters.", "82.5", None),
])
def test_another_methods_score_is_that_methods(nlp, text, value, owner):
    found = roles(nlp, P + text)
    assert found[value] == (Role.OTHER, owner)
    assert found["91.5"][0] is Role.SCORE


def test_the_papers_own_method_named_so_keeps_its_score(nlp):
    assert roles(nlp, P + "On QuillBench, FooNet's 91.5% accuracy is the best.")["91.5"][0] is Role.SCORE
    text = P + "FooNet outperforms BarNet on QuillBench, reaching the 91.5% accuracy of our model."
    assert roles(nlp, text)["91.5"][0] is Role.SCORE


def test_another_methods_score_named_is_credited_to_it(nlp):
    got = facts(nlp, P + "FooNet reaches 91.5% accuracy on QuillBench, compared to QuillNet's 84.5% and BarNet's "
                    "80.5% accuracy.")
    assert {("achieves", "FooNet", None, "91.5"), ("achieves", "QuillNet", None, "84.5"),
            ("achieves", "BarNet", None, "80.5")} <= got


# -- none of them becomes a score -------------------------------------------------------------------------
NOT_SCORES = [
    # drops and losses
    ("FooNet speeds up BarNet by 2x on QuillBench with an accuracy drop of 0.6%.", "0.6"),
    ("FooNet prunes 70% of the weights of BarNet on QuillBench with only a 0.7% top-5 accuracy loss.", "0.7"),
    ("On QuillBench, FooNet lowers the accuracy of BarNet by 1.5% while running 2x faster.", "1.5"),
    ("FooNet outperforms BarNet on QuillBench, at the cost of 1.5% accuracy on shorter inputs.", "1.5"),
    # error reductions: a margin, no score
    ("FooNet reduces the error of BarNet by 3.6 points on QuillBench.", "3.6"),
    ("On QuillBench, FooNet gives an error reduction of 3.6 points over BarNet.", "3.6"),
    # another method's score, with the method not named
    ("FooNet reaches 91.5% accuracy on QuillBench, surpassing the 82.5% accuracy of human raters.", "82.5"),
    ("FooNet reaches 91.5% accuracy on QuillBench, compared with 82.5% for the previous best.", "82.5"),
    # settings: rates, ratios, sizes, budgets, counts
    ("FooNet outperforms BarNet on QuillBench at 50% sparsity, with noise rates as 10% and 30%.", "50 10 30"),
    ("With only 10% labeled data, FooNet outperforms BarNet on QuillBench.", "10"),
    ("FooNet outperforms BarNet on QuillBench in 5-fold cross-validation with 4-bit weights.", "5 4"),
    ("FooNet reaches the target 0.5% error within a budget of 20% on QuillBench.", "0.5 20"),
    ("FooNet outperforms BarNet on 12 datasets and keeps 95% of the original accuracy.", "12 95"),
    ("FooNet matches BarNet on QuillBench with 41.5% of the number of weights and 38.5% FLOPs.", "41.5 38.5"),
]
QUILL_ENTS = {**ENTS, "top-5 accuracy": "Metric", "noise rates": "Metric", "FLOPs": "Metric"}


@pytest.mark.parametrize("text, values", NOT_SCORES)
def test_no_drop_loss_reduction_other_score_or_setting_is_a_score(nlp, text, values):
    rels = annotate(nlp, P + text, QUILL_ENTS, OWN)._.kg_relations
    numbers = set(values.split())
    assert not [r for r in rels if r["p"] == "achieves" and r["value"] in numbers], text
    margins = {r["value"] for r in rels if r["p"] == "improvesOver" and r.get("value")}
    # an error reduction over BarNet is a margin; a drop, a setting or another's score is not
    assert margins & numbers <= {"3.6"}, text
