"""The rule family "entity_patterns" (shapes of numbers and names, small word
lists of the entity rules), each key on sentences written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg import rules
from kg.pipeline import entity_pipeline
from kg.entities.lexicon import lexicon
from entity_helpers import entities


def test_every_key_is_documented():
    doc = Path(__file__).parent.parent / "docs" / "rules.md"
    if not doc.exists():
        pytest.skip("docs/rules.md not in this checkout")
    text = doc.read_text(encoding="utf-8")
    for key in rules.load("entity_patterns"):
        assert f"| `{key}` |" in text, key


def test_number_unit_quantity_and_roman_numerals_are_not_names(nlp):
    found = entities(nlp, "QuillNet reaches 87.5 accuracy and runs 2.4x faster with 7B parameters on Part II.")
    assert {text for text, _ in found} == {"QuillNet", "accuracy"}
    shapes = lexicon().patterns
    assert shapes.number.match("-3.5") and shapes.number.match("87%") and not shapes.number.match("3D")
    assert shapes.quantity.match("2.4X") and shapes.quantity.match("fold") and not shapes.quantity.match("x2")
    assert shapes.unit.match("40GB") and not shapes.unit.match("40GBs")
    assert "IV" in shapes.roman_numerals


def test_characters_of_formulas_keep_a_word_from_being_a_name(nlp):
    assert entities(nlp, "The terms Fx_i and A+2 and Q'Net appear in the proof.") == set()


def test_a_language_pair_is_not_a_name(nlp):
    assert entities(nlp, "We translate En-De and English-to-German with QuillNet.") == {("QuillNet", "Method")}


def test_a_version_number_continues_a_dataset_name(nlp):
    assert ("Ferry 2", "Dataset") in entities(nlp, "QuillNet is tested on the Ferry 2 dataset.")


def test_dataset_name_endings(nlp):
    found = entities(nlp, "Tests on FooBench, BarQA and Baz-10K show gains.")
    assert found == {("FooBench", "Dataset"), ("BarQA", "Dataset"), ("Baz-10K", "Dataset")}


def test_list_separators_carry_a_dataset_through_a_list(nlp):
    assert ("Quokka", "Dataset") in entities(nlp, "We evaluate on CIFAR-10, SVHN and Quokka.")


def test_allowed_participles_and_gerunds_stay_inside_a_name(nlp):
    found = entities(nlp, "The supervised contrastive loss helps, but the sorted contrastive loss does not.")
    assert ("supervised contrastive loss", "Method") in found and ("contrastive loss", "Method") in found
    found = entities(nlp, "The margin ranking loss helps, but the blending ranking loss does not.")
    assert ("margin ranking loss", "Method") in found and ("ranking loss", "Method") in found


def test_title_joiners_and_proper_name_method_heads(nlp):
    assert ("Mixture of Experts Transformer", "Method") in entities(nlp, "The Mixture of Experts Transformer is strong.")
    found = entities(nlp, "The Kuramoto model and the Ising model are classic.")
    assert {("Kuramoto model", "Method"), ("Ising model", "Method")} <= found


def test_heads_after_a_name_are_left_out_of_the_name(nlp):
    doc = nlp("We fine-tune the Quokka models and the Wombat network.")
    names = {s.text: s._.kg_name for s in doc.spans["entities"]}
    assert names["Quokka models"] == "Quokka" and names["Wombat network"] == "Wombat network"


def test_score_heads_generic_owners_and_generic_methods(nlp):
    found = entities(nlp, "QuillNet improves the QuillEval score and the confidence score.")
    assert ("QuillEval score", "Metric") in found and not any("confidence" in t for t, _ in found)
    found = entities(nlp, "QuillNet improves model accuracy and glyph accuracy.")
    assert ("glyph accuracy", "Metric") in found and ("model accuracy", "Metric") not in found
    assert entities(nlp, "We compare with models and networks.") == set()


def test_a_rules_file_extends_the_family(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"entity_patterns": {"extend": {"dataset_name_endings": ["Arena"]}}}))
    text = "Scores of FooArena vary widely."
    assert ("FooArena", "Dataset") not in entities(entity_pipeline(), text)
    assert ("FooArena", "Dataset") in entities(entity_pipeline(rules=[str(path)]), text)


def test_a_piece_that_is_not_a_regular_expression_is_an_error(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"entity_patterns": {"extend": {"number": ["[0-9"]}}}))
    with pytest.raises(rules.RulesError, match="entity_patterns"):
        lexicon([str(path)])


@pytest.mark.parametrize("noun", sorted(lexicon().patterns.dataset_nouns))
def test_a_known_method_name_before_a_dataset_noun_is_a_dataset(nlp, noun):
    found = entities(nlp, f"QuillNet is tested on the Alpaca {noun} with a 7B model.")
    assert ("Alpaca", "Dataset") in found


def test_a_known_method_name_without_a_dataset_noun_stays_a_method(nlp):
    assert ("Alpaca", "Method") in entities(nlp, "QuillNet is tuned like Alpaca with a 7B model.")


def test_a_known_name_before_models_stays_one_entity_in_the_record():
    from kg.extraction.record import Extractor
    from kg.model import Abstract
    rec = Extractor().record(Abstract(id="t", text="We fine-tune the RoBERTa models. RoBERTa then tags QuillSet."))
    names = [e["name"] for e in rec["entities"]["Method"]]
    assert names == ["RoBERTa"]
