"""The shipped demo corpus and its hand-made gold records stay consistent with
each other, with the reader and with the extraction-record spec."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from kg.builder import demo_corpus
from kg.io import ReadReport, read_inputs

DEMO_DIR = Path(__file__).resolve().parents[1] / "kg" / "data" / "demo"
ABSTRACTS = DEMO_DIR / "abstracts.jsonl"
GOLD = DEMO_DIR / "gold.jsonl"
ENTITY_TYPES = {"Method", "Dataset", "Task", "Metric"}
RELATION_TYPES = {"evaluatedOn", "addresses", "improvesOver", "achieves"}
UNITS_WITHOUT_WORDS = {"%", "points", "x"}


@pytest.fixture(scope="module")
def abstracts() -> list:
    report = ReadReport()
    read = list(read_inputs([ABSTRACTS], report))
    assert not report.skipped, [str(s) for s in report.skipped]
    assert not report.warnings
    return read


@pytest.fixture(scope="module")
def gold() -> list[dict]:
    rows = []
    for n, line in enumerate(GOLD.read_text(encoding="utf-8").splitlines(), start=1):
        assert line.strip(), f"gold.jsonl:{n} is blank"
        rows.append(json.loads(line))
    return rows


def _names(record: dict) -> set[str]:
    return {e["name"] for ents in record["entities"].values() for e in ents}


def test_build_default_is_this_corpus() -> None:
    assert demo_corpus().resolve() == ABSTRACTS.resolve()


def test_demo_reads_into_24_to_28_abstracts_with_unique_ids(abstracts: list) -> None:
    assert 24 <= len(abstracts) <= 28
    ids = [a.id for a in abstracts]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"demo-\d\d", i) for i in ids)


def test_every_abstract_is_marked_illustrative_and_has_a_topic(abstracts: list) -> None:
    for a in abstracts:
        assert a.meta.get("illustrative") is True, a.id
        assert a.meta.get("collection"), a.id
        assert a.title, a.id
        assert 150 <= len(a.text.split()) <= 250, f"{a.id}: {len(a.text.split())} words"


def test_gold_has_one_record_per_abstract_in_the_same_order(abstracts: list, gold: list[dict]) -> None:
    assert [g["id"] for g in gold] == [a.id for a in abstracts]
    for g in gold:
        assert set(g) == {"id", "entities", "relations"}, g["id"]
        assert set(g["entities"]) == ENTITY_TYPES, g["id"]


def test_gold_entity_names_are_surface_forms_of_their_abstract(abstracts: list, gold: list[dict]) -> None:
    text = {a.id: a.text for a in abstracts}
    for g in gold:
        for etype, ents in g["entities"].items():
            for e in ents:
                assert set(e) <= {"name", "aliases", "proposed"}, (g["id"], e)
                for form in [e["name"], *e.get("aliases", [])]:
                    assert form in text[g["id"]], f"{g['id']}: {etype} {form!r} is not in the abstract"


def test_gold_relations_name_only_entities_of_their_record(abstracts: list, gold: list[dict]) -> None:
    text = {a.id: a.text for a in abstracts}
    for g in gold:
        names = _names(g)
        by_type = {t: {e["name"] for e in ents} for t, ents in g["entities"].items()}
        for r in g["relations"]:
            where = f"{g['id']}: {r}"
            assert r["p"] in RELATION_TYPES, where
            assert r["s"] in by_type["Method"], where
            if r["p"] == "evaluatedOn":
                assert r["o"] in by_type["Dataset"], where
            elif r["p"] == "addresses":
                assert r["o"] in by_type["Task"], where
            elif r["p"] == "improvesOver":
                # a baseline is a named method or its own words in the abstract
                assert r["o"] in names or r["o"] in text[g["id"]], where
            else:
                assert "o" not in r and "metric" in r and "value" in r, where
            if "metric" in r:
                assert r["metric"] in by_type["Metric"], where
            if "dataset" in r:
                assert r["dataset"] in by_type["Dataset"], where
            if "value" in r:
                assert r["value"] in text[g["id"]], where
            if "unit" in r:
                assert r["unit"] in UNITS_WITHOUT_WORDS or r["unit"].isalpha(), where


def test_every_relation_type_occurs_several_times(gold: list[dict]) -> None:
    counts = Counter(r["p"] for g in gold for r in g["relations"])
    for p in RELATION_TYPES:
        assert counts[p] >= 5, (p, counts)


def test_one_abstract_has_no_named_proposal_and_others_have_one(gold: list[dict]) -> None:
    proposing = [g for g in gold if any(e.get("proposed") for ents in g["entities"].values() for e in ents)]
    assert 1 <= len(gold) - len(proposing) <= 3
    assert len(proposing) >= 20


def test_leaderboards_connect_several_abstracts(gold: list[dict]) -> None:
    """Shared datasets and metrics are what make the demo graph one graph."""
    def reporting(metric_words: str, dataset_prefix: str) -> set[str]:
        found = set()
        for g in gold:
            forms = {e["name"]: [e["name"], *e.get("aliases", [])] for ents in g["entities"].values() for e in ents}
            for r in g["relations"]:
                if r["p"] != "achieves" or not r.get("dataset"):
                    continue
                ds = [f.replace("-", "").lower() for f in forms[r["dataset"]]]
                met = [f.lower() for f in forms[r["metric"]]]
                if any(d.startswith(dataset_prefix) for d in ds) and any(metric_words in m for m in met):
                    found.add(g["id"])
        return found

    assert len(reporting("top-1 accuracy", "imagenet")) >= 3
    assert len(reporting("accuracy", "cifar10")) >= 3
    assert len(reporting("wer", "librispeech")) >= 2


def test_demo_text_shares_no_passage_with_the_shared_corpus(abstracts: list, shared) -> None:
    def shingles(text: str, n: int = 8) -> set[str]:
        words = re.findall(r"[a-z0-9]+", text.lower())
        return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}

    theirs: set[str] = set()
    for rel in ("corpus/seed-abstracts.jsonl", "gold/dev.input.jsonl"):
        for line in shared(rel).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                theirs |= shingles(row.get("abstract") or row.get("text") or "")
    for a in abstracts:
        common = shingles(a.text) & theirs
        assert not common, f"{a.id} repeats shared text: {sorted(common)[:3]}"
