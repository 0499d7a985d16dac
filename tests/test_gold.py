"""The pool's gold in training/gold: every line parses, belongs to an abstract
of the pool and fits its text (kg.learned.gold). Reads the pool from
../shared, so it skips where that is absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import shared_file
from kg.learned.gold import GoldError, is_check, read_gold, record_problems

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "training" / "gold"


@pytest.fixture(scope="module")
def pool_texts() -> dict[str, str]:
    texts = {}
    for line in shared_file("corpus/pwc-abstracts.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        texts[row["id"]] = (row.get("title") or "") + "\n" + row["abstract"]
    return texts


def gold_files(*parts: str) -> list[Path]:
    return [path for part in parts or ("check", "train", "agreement") for path in sorted((GOLD / part).glob("*.jsonl"))]


@pytest.mark.shared
@pytest.mark.parametrize("path", gold_files(), ids=lambda p: str(p.relative_to(GOLD)))
def test_every_gold_line_fits_its_abstract(path: Path, pool_texts) -> None:
    records = list(read_gold([path], pool_texts))  # raises with the file and line of a broken one
    assert records and all(r.source == str(path) for r in records)


@pytest.mark.shared
def test_the_gold_covers_the_pool_once_with_its_check_set_apart(pool_texts) -> None:
    check = [r.record["id"] for r in read_gold(gold_files("check"), pool_texts)]
    train = [r.record["id"] for r in read_gold(gold_files("train"), pool_texts)]
    ids = check + train
    assert len(ids) == len(set(ids)) >= 4500
    assert len(check) >= 590 and all(map(is_check, check)) and not any(map(is_check, train))
    second = [r.record["id"] for r in read_gold(gold_files("agreement"), pool_texts)]
    assert len(second) * 25 >= len(ids) and set(second) <= set(ids)


def test_a_broken_line_names_its_file_and_line(tmp_path: Path) -> None:
    texts = {"p1": "FooNet: a detector\nWe evaluate FooNet on TideSet for road sign detection."}
    good = {"id": "p1", "entities": {"Method": [{"name": "FooNet", "proposed": True}], "Dataset": [{"name": "TideSet"}],
                                     "Task": [{"name": "road sign detection"}], "Metric": []},
            "relations": [{"s": "FooNet", "p": "evaluatedOn", "o": "TideSet"}]}
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(good) + "\n" + "{not json\n", encoding="utf-8")
    with pytest.raises(GoldError, match=rf"gold.jsonl:2: not valid JSON"):
        list(read_gold([path], texts))
    assert record_problems(good, texts["p1"]) == []


@pytest.mark.parametrize("change, problem", [
    (lambda r: r["entities"].pop("Metric"), "exactly the keys"),
    (lambda r: r["entities"]["Method"].append({"name": "BarNet"}), "'BarNet' does not occur"),
    (lambda r: r["entities"]["Dataset"][0].update(aliases=["TS-1"]), "'TS-1' does not occur"),
    (lambda r: r["relations"].append({"s": "BarNet", "p": "addresses", "o": "road sign detection"}),
     "s 'BarNet' is not an entity name"),
    (lambda r: r["relations"].append({"s": "FooNet", "p": "evaluatedOn", "o": "road signs"}),
     "o 'road signs' is not an entity name"),
    (lambda r: r.update(id="p2"), "not among the abstracts"),
])
def test_each_kind_of_broken_record_is_named(change, problem) -> None:
    text = "FooNet: a detector\nWe evaluate FooNet on TideSet for road sign detection."
    record = {"id": "p1", "entities": {"Method": [{"name": "FooNet"}], "Dataset": [{"name": "TideSet"}],
                                       "Task": [{"name": "road sign detection"}], "Metric": []}, "relations": []}
    change(record)
    problems = record_problems(record, text if record["id"] == "p1" else None)
    assert problems and problem in problems[0], problems


def test_an_improvement_over_the_texts_own_words_needs_no_entity() -> None:
    text = "FooNet beats majority voting on TideSet."
    record = {"id": "p1", "entities": {"Method": [{"name": "FooNet"}], "Dataset": [{"name": "TideSet"}], "Task": [],
                                       "Metric": []},
              "relations": [{"s": "FooNet", "p": "improvesOver", "o": "majority voting"}]}
    assert record_problems(record, text) == []
