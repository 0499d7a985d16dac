"""Entity confidence (kg.entities.confidence): its values per rule; relation
confidence (kg.relations.confidence): the raw values calibrated; and
what --min-confidence leaves out of a record. The rules alone (use_model=False):
with the learned model, an entity's confidence is its scorer's probability (tests/test_learned.py)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kg import rules
from kg.extraction.record import Extractor
from kg.entities.confidence import entity_confidence, keep_confident
from kg.relations.confidence import band, relation_confidence
from kg.model import Abstract
from kg.entities.entity import fold_name
from kg.entities.candidates import PRIORITY

TEXT = ("We propose GlacierNet, a graph attention network for semantic segmentation. GlacierNet is "
        "evaluated on ImageNet and reaches 91.2% accuracy on ImageNet, outperforming ResNet-50 by 2.1 "
        "points. We also test the Frobnicate benchmark.")
TYPES = ("Method", "Dataset", "Task", "Metric")


@pytest.fixture(scope="module")
def record() -> dict:
    return Extractor(use_model=False).record(Abstract(id="p1", text=TEXT))


def _entity(rec: dict, etype: str, name: str) -> dict:
    return next(e for e in rec["entities"][etype] if e["name"] == name)


def test_every_packaged_rule_has_a_value_for_every_type_once_and_repeated():
    packaged = rules.load("confidence")
    for key in ("entity_rules", "entity_rules_repeated"):
        assert set(PRIORITY) | {"other"} <= set(packaged[key])
        for rule, per_type in packaged[key].items():
            assert set(per_type) == set(TYPES), (key, rule)
            assert all(0 <= v <= 1 for v in per_type.values()), (key, rule)


def test_every_entity_carries_the_value_of_its_best_rule(record):
    values = rules.load("confidence")
    once, repeated = values["entity_rules"], values["entity_rules_repeated"]
    assert all(0 <= e["confidence"] <= 1 for ents in record["entities"].values() for e in ents)
    # Named twice, once by the proposal rule and once as a name: the proposal's value for a repeated name.
    assert _entity(record, "Method", "GlacierNet")["confidence"] == max(repeated["proposal"]["Method"],
                                                                        repeated["name"]["Method"])
    assert _entity(record, "Dataset", "ImageNet")["confidence"] == repeated["gazetteer"]["Dataset"]
    assert _entity(record, "Task", "semantic segmentation")["confidence"] == once["gazetteer"]["Task"]
    assert _entity(record, "Dataset", "Frobnicate")["confidence"] == once["cue"]["Dataset"]


def test_confidence_is_the_last_key_and_leaves_the_others_as_they_were(record):
    for ents in record["entities"].values():
        for e in ents:
            assert list(e)[-2:] == ["mentions", "confidence"]


def test_a_rule_not_in_the_file_gets_the_other_value():
    conf = entity_confidence()
    other = rules.load("confidence")["entity_rules"]["other"]
    assert conf(["a-rule-added-later"], "Task", 1) == other["Task"]
    assert conf([], "Task", 1) == 0.0


def test_a_rules_file_changes_the_values(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"confidence": {"extend": {"entity_rules": {"cue": {"Dataset": 0.12}}}}}))
    rec = Extractor(use_model=False, rules=[path]).record(Abstract(id="p1", text=TEXT))
    assert _entity(rec, "Dataset", "Frobnicate")["confidence"] == 0.12
    # The rest of the cue rule's values stay.
    assert entity_confidence([path]).single["cue"]["Method"] == rules.load("confidence")["entity_rules"]["cue"]["Method"]


@pytest.mark.parametrize("value", [1.5, "high", True, -0.1])
def test_a_value_that_is_not_a_share_is_refused(tmp_path, value):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"confidence": {"extend": {"entity_rules": {"cue": {"Dataset": value}}}}}))
    with pytest.raises(rules.RulesError, match=r"confidence\.entity_rules\.cue\.Dataset must be a number"):
        entity_confidence([path])


# -- keep_confident, on a record written by hand ------------------------------------
HAND = {
    "id": "p2",
    "entities": {
        "Method": [{"name": "FooNet", "proposed": True, "confidence": 0.9},
                   {"name": "Bar Network", "aliases": ["BarNet"], "confidence": 0.4},
                   {"name": "Baz", "confidence": 0.9}],
        "Dataset": [{"name": "QuuxBench", "confidence": 0.4}, {"name": "CIFAR-10", "confidence": 0.9}],
        "Task": [{"name": "baz", "confidence": 0.3}],  # shares a name with a kept Method
        "Metric": [{"name": "accuracy", "confidence": 0.6}],
    },
    "relations": [
        {"s": "FooNet", "p": "improvesOver", "o": "BarNet", "confidence": 0.9},  # object left out, by its alias
        {"s": "FooNet", "p": "evaluatedOn", "o": "QuuxBench", "confidence": 0.9},  # object left out
        {"s": "FooNet", "p": "evaluatedOn", "o": "CIFAR-10", "confidence": 0.4},  # itself below
        {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "91.2", "dataset": "QuuxBench",
         "confidence": 0.9},  # metric left out at 0.7
        {"s": "FooNet", "p": "improvesOver", "o": "the previous state of the art", "value": "2",
         "dataset": "QuuxBench", "confidence": 0.9},  # no entity object: stays, without its dataset
        {"s": "FooNet", "p": "addresses", "o": "baz", "confidence": 0.9},  # "baz" is still a Method's name
    ],
}


def test_keep_confident_leaves_out_entities_and_the_relations_that_name_them():
    rec = keep_confident(copy.deepcopy(HAND), 0.5)
    assert {t: [e["name"] for e in ents] for t, ents in rec["entities"].items()} == {
        "Method": ["FooNet", "Baz"], "Dataset": ["CIFAR-10"], "Task": [], "Metric": ["accuracy"]}
    assert rec["relations"] == [
        {"s": "FooNet", "p": "achieves", "metric": "accuracy", "value": "91.2", "confidence": 0.9},
        {"s": "FooNet", "p": "improvesOver", "o": "the previous state of the art", "value": "2", "confidence": 0.9},
        {"s": "FooNet", "p": "addresses", "o": "baz", "confidence": 0.9},
    ]
    higher = keep_confident(copy.deepcopy(HAND), 0.7)
    assert [r["p"] for r in higher["relations"]] == ["improvesOver", "addresses"]


def test_keep_confident_at_zero_keeps_everything():
    assert keep_confident(copy.deepcopy(HAND), 0.0) == HAND


def test_min_confidence_in_the_extractor_is_keep_confident_on_the_full_record(record):
    for c in (0.5, 0.7, 0.9):
        cut = Extractor(use_model=False, min_confidence=c).record(Abstract(id="p1", text=TEXT))
        assert cut == keep_confident(copy.deepcopy(record), c)
    assert Extractor(use_model=False, min_confidence=0.0).record(Abstract(id="p1", text=TEXT)) == record


def test_cli_extract_min_confidence_drops_entities(tmp_path, record):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "p1", "abstract": TEXT}) + "\n")
    out = tmp_path / "out.jsonl"
    root = Path(__file__).resolve().parents[1]
    values = rules.load("confidence")
    cut = values["entity_rules_repeated"]["gazetteer"]["Dataset"]  # ImageNet's, named twice
    proc = subprocess.run([sys.executable, "-m", "kg", "extract", str(src), "-o", str(out), "-q",
                           "--no-model", "--min-confidence", str(cut)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(out.read_text())
    assert [e["name"] for e in rec["entities"]["Dataset"]][:1] == ["ImageNet"]
    assert all(e["confidence"] >= cut for ents in rec["entities"].values() for e in ents)
    below = {e["name"] for ents in record["entities"].values() for e in ents if e["confidence"] < cut}
    kept = {e["name"] for ents in rec["entities"].values() for e in ents}
    assert below and not below & kept


# -- relation confidence: the relation rules' raw values, calibrated ---------------
RELATION_KEYS = ("relation_bands", "relation_bands_repeated")
BANDS = tuple(f"{k / 10:.1f}" for k in range(10))


def test_every_packaged_predicate_has_a_value_for_every_band():
    packaged = rules.load("confidence")
    for key in RELATION_KEYS:
        assert {"evaluatedOn", "addresses", "improvesOver", "achieves", "other"} <= set(packaged[key])
        for predicate, per_band in packaged[key].items():
            assert set(per_band) == set(BANDS), (key, predicate)
            assert all(0 <= v <= 1 for v in per_band.values()), (key, predicate)


HAND_ENTITIES = {
    "Method": [{"name": "Glacier Network", "aliases": ["GlacierNets"], "proposed": True,
                "mentions": [[0, 15], [20, 31]], "confidence": 0.9},
               {"name": "BazNet", "mentions": [[40, 46]], "confidence": 0.4}],
    "Dataset": [{"name": "QuuxBench", "mentions": [[50, 59]], "confidence": 0.9}],
    "Task": [{"name": "glacier mapping", "mentions": [[60, 75]], "confidence": 0.7}],
    "Metric": [],
}


def test_calibration_maps_predicate_band_and_repeated_subject_as_documented():
    values = rules.load("confidence")
    once, repeated = values["relation_bands"], values["relation_bands_repeated"]
    relations = [
        # Named twice, here by its alias in another case and number: the repeated table; 0.9 up to 1 is "0.9".
        {"s": "glaciernet", "p": "evaluatedOn", "o": "QuuxBench", "span": [0, 80], "confidence": 0.9},
        {"s": "Glacier Network", "p": "addresses", "o": "glacier mapping", "span": [0, 80], "confidence": 0.65},
        # Named once: the single table.
        {"s": "BazNet", "p": "improvesOver", "o": "the previous best", "value": "2", "span": [0, 80], "confidence": 0.75},
        {"s": "BazNet", "p": "evaluatedOn", "o": "QuuxBench", "span": [0, 80], "confidence": 1.0},
        # A subject that is no entity of the record counts as named once.
        {"s": "a baseline", "p": "addresses", "o": "glacier mapping", "span": [0, 80], "confidence": 0.0},
        # A predicate the table does not name takes "other".
        {"s": "Glacier Network", "p": "usesMetric", "o": "QuuxBench", "span": [0, 80], "confidence": 0.55},
    ]
    calibrated = relation_confidence().calibrate(copy.deepcopy(relations), HAND_ENTITIES)
    assert [r["confidence"] for r in calibrated] == [
        repeated["evaluatedOn"]["0.9"], repeated["addresses"]["0.6"], once["improvesOver"]["0.7"],
        once["evaluatedOn"]["0.9"], once["addresses"]["0.0"], repeated["other"]["0.5"]]
    # Only the value changes; the key keeps its place.
    for before, after in zip(relations, calibrated):
        assert list(before) == list(after)
        assert {k: v for k, v in before.items() if k != "confidence"} == \
            {k: v for k, v in after.items() if k != "confidence"}


def test_band_edges():
    assert [band(x) for x in (0.0, 0.09, 0.1, 0.3, 0.49, 0.5, 0.7, 0.85, 0.9, 1.0)] == \
        ["0.0", "0.0", "0.1", "0.3", "0.4", "0.5", "0.7", "0.8", "0.9", "0.9"]


def test_record_relations_carry_the_calibrated_value_of_their_raw_one(record):
    ex = Extractor(use_model=False)
    doc = ex.nlp(TEXT)
    raw = [dict(r) for r in doc._.kg_relations]
    assert raw, "the test text has relations"
    assert record["relations"] == relation_confidence().calibrate(raw, record["entities"])


def test_a_rules_file_changes_the_relation_values(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"confidence": {"extend": {"relation_bands_repeated": {"evaluatedOn": {"0.9": 0.13}}}}}))
    rec = Extractor(use_model=False, rules=[path]).record(Abstract(id="p1", text=TEXT))
    imagenet = next(r for r in rec["relations"] if r["p"] == "evaluatedOn" and r["o"] == "ImageNet")
    assert imagenet["confidence"] == 0.13


@pytest.mark.parametrize("change, message", [
    ({"relation_bands": {"addresses": {"0.5": 1.5}}}, r"relation_bands\.addresses\.0\.5 must be a number"),
    ({"relation_bands": {"usesMetric": {"0.5": 0.5}}}, r"relation_bands\.usesMetric must be an object with a value for each band"),
])
def test_a_relation_value_that_cannot_be_used_is_refused(tmp_path, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"confidence": {"extend": change}}))
    with pytest.raises(rules.RulesError, match=message):
        relation_confidence([path])


def test_min_confidence_compares_the_calibrated_value_not_the_raw_one(tmp_path):
    raw = next(r["confidence"] for r in Extractor(use_model=False).nlp(TEXT)._.kg_relations if r.get("o") == "Frobnicate")
    assert raw < 0.99
    # Every entity sure, and Frobnicate's band of raw evaluatedOn values sure: a cut just above its
    # raw value keeps it, as the relation rules' own filter would not.
    packaged = rules.load("confidence")
    change = {key: {rule: {t: 1.0 for t in TYPES} for rule in packaged[key]}
              for key in ("entity_rules", "entity_rules_repeated")}
    change.update({key: {"evaluatedOn": {band(raw): 1.0}} for key in RELATION_KEYS})
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"confidence": {"extend": change}}))
    rec = Extractor(use_model=False, rules=[path], min_confidence=raw + 0.01).record(Abstract(id="p1", text=TEXT))
    assert ("evaluatedOn", "Frobnicate", 1.0) in [(r["p"], r.get("o"), r["confidence"]) for r in rec["relations"]]


def test_cli_extract_min_confidence_keeps_the_relations_at_or_above_it(record, tmp_path):
    values = sorted({r["confidence"] for r in record["relations"]})
    assert len(values) >= 3, "the test text's relations have values to cut between"
    cut = values[len(values) // 2]
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "p1", "abstract": TEXT}) + "\n")
    out = tmp_path / "out.jsonl"
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-m", "kg", "extract", str(src), "-o", str(out), "-q",
                           "--no-model", "--min-confidence", str(cut)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    rec = json.loads(out.read_text())
    assert rec["relations"], "a relation at the cut is kept"
    assert all(r["confidence"] >= cut for r in rec["relations"])
    # What keep_confident does, said plainly: a relation at or above the cut stays unless it names an
    # entity left out; a left-out dataset is taken off it.
    kept = {fold_name(n) for ents in rec["entities"].values() for e in ents for n in [e["name"], *(e.get("aliases") or [])]}
    gone = {fold_name(n) for ents in record["entities"].values() for e in ents
            for n in [e["name"], *(e.get("aliases") or [])]} - kept
    expected = [{k: v for k, v in r.items() if k != "dataset" or fold_name(v) not in gone}
                for r in record["relations"]
                if r["confidence"] >= cut and not any(r.get(k) and fold_name(r[k]) in gone for k in ("s", "o", "metric"))]
    assert rec["relations"] == expected
