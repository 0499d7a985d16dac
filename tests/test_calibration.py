"""A model's confidence calibrated on its validation part
(kg.learned.calibration), and kg.eval.judged, which says which facts are right."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kg.eval import evaluate, judged
from kg.extraction.record import Extractor
from kg.learned.calibration import BANDS, MIN_FACTS, WEIGHT, Calibration, band
from kg.learned.model import META
from kg.model import Abstract

from test_train import corpus, model  # noqa: F401  (the small model trained on invented gold)


def test_a_confidence_falls_in_its_tenth() -> None:
    assert [band(c) for c in (0.0, 0.05, 0.1, 0.55, 0.99, 1.0)] == ["0.0", "0.0", "0.1", "0.5", "0.9", "0.9"]


def test_a_tenth_is_its_share_right_pulled_towards_its_kinds() -> None:
    # 30 Methods at 0.9, 24 right; 10 at 0.4, 2 right: the kind's share is 26/40.
    facts = [("Method", 0.92, k < 24) for k in range(30)] + [("Method", 0.41, k < 2) for k in range(10)]
    table = Calibration.fit(facts).table["Method"]
    share = 26 / 40
    assert table["0.9"] == round((24 + WEIGHT * share) / (30 + WEIGHT), 3)
    assert table["0.4"] == round((2 + WEIGHT * share) / (10 + WEIGHT), 3)
    # a tenth with no facts: the nearest below that has some, else the first above
    assert table["0.6"] == table["0.4"] and table["0.1"] == table["0.4"]
    assert set(table) == set(BANDS)


def test_the_values_of_a_kind_never_fall_as_the_confidence_rises() -> None:
    # Right more often at 0.3 than at 0.8: the two tenths (and those between) are pooled.
    facts = [("addresses", 0.35, k < 18) for k in range(20)] + [("addresses", 0.85, k < 4) for k in range(20)]
    values = [Calibration.fit(facts).table["addresses"][b] for b in BANDS]
    assert values == sorted(values)
    assert values[3] == values[8] < 18 / 20


def test_a_record_takes_the_values_and_a_kind_never_seen_keeps_its_own() -> None:
    calibration = Calibration({"Method": {b: 0.25 for b in BANDS}, "evaluatedOn": {b: 0.5 for b in BANDS}})
    record = {"entities": {"Method": [{"name": "FooNet", "confidence": 0.97}], "Task": [{"name": "x", "confidence": 0.8}]},
              "relations": [{"s": "FooNet", "p": "evaluatedOn", "o": "Y", "confidence": 0.9},
                            {"s": "FooNet", "p": "addresses", "o": "x", "confidence": 0.7}]}
    calibration.apply(record)
    assert record["entities"]["Method"][0]["confidence"] == 0.25 and record["entities"]["Task"][0]["confidence"] == 0.8
    assert [r["confidence"] for r in record["relations"]] == [0.5, 0.7]
    assert Calibration.from_dict(json.loads(json.dumps(calibration.to_dict()))).table == calibration.table


def test_judged_counts_what_the_report_counts() -> None:
    gold = {"id": "p", "entities": {"Method": [{"name": "FooNet", "aliases": ["FN"]}], "Dataset": [{"name": "CIFAR-10"}],
                                    "Task": [], "Metric": []},
            "relations": [{"s": "FooNet", "p": "evaluatedOn", "o": "CIFAR-10"}]}
    pred = {"id": "p", "entities": {"Method": [{"name": "FN"}, {"name": "BarNet"}], "Dataset": [{"name": "cifar10"}],
                                    "Task": [], "Metric": []},
            "relations": [{"s": "FN", "p": "evaluatedOn", "o": "cifar10"}, {"s": "BarNet", "p": "evaluatedOn",
                                                                            "o": "cifar10"}]}
    facts = [(kind, fact["name"] if "name" in fact else fact["s"], right) for kind, fact, right in judged(gold, pred)]
    assert facts == [("Method", "FN", True), ("Method", "BarNet", False), ("Dataset", "cifar10", True),
                     ("evaluatedOn", "FN", True), ("evaluatedOn", "BarNet", False)]
    report = evaluate([gold], [pred])
    assert report.entities["Method"].correct == 1 and report.relations["evaluatedOn"].correct == 1


def test_a_kind_with_few_facts_keeps_its_own_values() -> None:
    facts = [("achieves", 0.9, k < 2) for k in range(MIN_FACTS - 1)]
    calibration = Calibration.fit(facts)
    assert "achieves" not in calibration.table and calibration.value("achieves", 0.93) == 0.93


TEXT = "We propose RuneNet99, a new network for tide forecasting. On EmberSet-4, RuneNet99 outperforms PikeBase."


def test_kg_train_writes_the_relations_calibration(model) -> None:  # noqa: F811
    table = json.loads((model / META).read_text())["confidence"]
    assert set(table) <= {"evaluatedOn", "addresses", "improvesOver", "achieves"}
    assert all(set(by_band) == set(BANDS) and all(0 <= v <= 1 for v in by_band.values()) for by_band in table.values())


@pytest.fixture(scope="module")
def calibrated(model, tmp_path_factory) -> Path:  # noqa: F811
    """The small model with values of its own for two predicates."""
    folder = tmp_path_factory.mktemp("calibrated") / "model"
    shutil.copytree(model, folder)
    meta = json.loads((folder / META).read_text())
    meta["confidence"] = {"addresses": {b: 0.37 for b in BANDS}, "evaluatedOn": {b: 0.64 for b in BANDS}}
    (folder / META).write_text(json.dumps(meta))
    return folder


def test_extraction_with_a_model_gives_its_values(calibrated, model) -> None:  # noqa: F811
    record = Extractor(model=calibrated).record(Abstract("x1", TEXT))
    by_predicate = {r["p"]: r["confidence"] for r in record["relations"]}
    assert by_predicate.get("addresses") == 0.37 and by_predicate.get("evaluatedOn") == 0.64
    entities = Extractor(model=model).record(Abstract("x1", TEXT))["entities"]
    assert record["entities"] == entities  # entities keep the scorer's probability


def test_min_confidence_cuts_the_calibrated_values(calibrated) -> None:
    record = Extractor(model=calibrated, min_confidence=0.5).record(Abstract("x1", TEXT))
    predicates = {r["p"] for r in record["relations"]}
    assert "evaluatedOn" in predicates and "addresses" not in predicates
