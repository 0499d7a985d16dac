"""`kg train` end to end on gold written for these tests (invented papers,
so the test runs anywhere), the model it writes, and the model shipped in
the package against the gold in the repository."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kg.extraction.record import Extractor
from kg.learned.gold import GoldError
from kg.learned.model import META, default_model, gold_hash, read_meta
from kg.learned.settings import TaggerSettings
from kg.trainer import train
from kg.model import Abstract

ROOT = Path(__file__).resolve().parents[1]

_STEMS = ["Quill", "Tide", "Loom", "Fern", "Glint", "Marl", "Brisk", "Vale", "Sorrel", "Ember", "Pike", "Rune"]
_TASKS = ["road sign detection", "glacier segmentation", "bird call tagging", "tide forecasting",
          "moss species recognition", "kiln fault diagnosis"]
_METRICS = ["accuracy", "F1", "recall"]


def _paper(k: int, rnd: random.Random) -> tuple[dict, dict]:
    """One invented abstract and its gold record."""
    method = rnd.choice(_STEMS) + rnd.choice(["Net", "Former", "GAN"]) + str(k)
    baseline = rnd.choice(_STEMS) + "Base"
    dataset = rnd.choice(_STEMS) + "Set-" + str(rnd.randint(1, 9))
    task, metric = rnd.choice(_TASKS), rnd.choice(_METRICS)
    value = f"{rnd.randint(50, 99)}.{rnd.randint(0, 9)}"
    text = (f"We propose {method}, a new network for {task}. On {dataset}, {method} outperforms {baseline} "
            f"and reaches {value}% {metric}.")
    record = {"id": f"t{k:03d}", "entities": {
        "Method": [{"name": method, "proposed": True}, {"name": baseline}], "Dataset": [{"name": dataset}],
        "Task": [{"name": task}], "Metric": [{"name": metric}]},
        "relations": [{"s": method, "p": "addresses", "o": task}, {"s": method, "p": "evaluatedOn", "o": dataset},
                      {"s": method, "p": "improvesOver", "o": baseline},
                      {"s": method, "p": "achieves", "metric": metric, "value": value, "unit": "%",
                       "dataset": dataset}]}
    return {"id": record["id"], "title": f"{method} for {task}", "abstract": text}, record


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, Path]:
    rnd = random.Random(7)
    papers = [_paper(k, rnd) for k in range(50)]
    folder = tmp_path_factory.mktemp("gold")
    texts, gold = folder / "texts.jsonl", folder / "gold.jsonl"
    texts.write_text("".join(json.dumps(t) + "\n" for t, _ in papers), encoding="utf-8")
    gold.write_text("".join(json.dumps(r) + "\n" for _, r in papers), encoding="utf-8")
    return texts, gold


@pytest.fixture(scope="module")
def model(corpus, tmp_path_factory) -> Path:
    texts, gold = corpus
    out = tmp_path_factory.mktemp("models") / "small"
    report = train([gold], [texts], out, TaggerSettings(epochs=3), say=lambda line: None, quiet=True)
    assert report.training + report.validation == 50 and report.validation > 0
    return out


def test_a_small_model_is_a_spacy_folder_that_names_its_gold(model, corpus) -> None:
    _, gold = corpus
    assert (model / "config.cfg").is_file() and (model / "kg_tagger").is_dir()
    meta = read_meta(model)
    assert meta["trained_on"]["sha256"] == gold_hash([gold]) and meta["trained_on"]["records"] == 50
    assert set(meta["parts"]["entities"]) == {"Method", "Dataset", "Task", "Metric"}


def test_extraction_with_the_model_runs_its_parts_and_says_so(model) -> None:
    extractor = Extractor(model=model)
    assert {"kg_tagger", "kg_learned_candidates", "kg_entity_scorer", "kg_relation_linker"} <= set(extractor.nlp.pipe_names)
    text = "We propose RuneNet99, a new network for tide forecasting. On EmberSet-4, RuneNet99 outperforms PikeBase."
    record = extractor.record(Abstract("x1", text, title="RuneNet99 for tide forecasting"))
    assert record["extractor"]["name"] == "kg-learned" and record["extractor"]["model"] == read_meta(model)[
        "trained_on"]["sha256"][:12]
    names = {e["name"] for ents in record["entities"].values() for e in ents}
    assert "RuneNet99" in names and "tide forecasting" in names
    assert Extractor(use_model=False).record(Abstract("x1", text))["extractor"]["name"] == "kg-rules"


def test_the_command_line_trains_and_extracts(model, corpus, tmp_path) -> None:
    texts, gold = corpus
    out = tmp_path / "records.jsonl"
    run = subprocess.run([sys.executable, "-m", "kg", "extract", str(texts), "-o", str(out), "--model", str(model),
                          "-q"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert sum(1 for _ in out.open()) == 50
    run = subprocess.run([sys.executable, "-m", "kg", "eval", str(gold), str(out)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 0 and "Method" in run.stdout


def test_a_broken_gold_line_is_named_and_no_model_is_left(corpus, tmp_path) -> None:
    texts, gold = corpus
    broken = tmp_path / "gold.jsonl"
    lines = gold.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace('"name": "F1"', '"name": "BLEU"').replace('"name": "accuracy"', '"name": "BLEU"') \
        .replace('"name": "recall"', '"name": "BLEU"')
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "model"
    with pytest.raises(GoldError, match=r"gold.jsonl:4: Metric 'BLEU' does not occur"):
        train([broken], [texts], out, TaggerSettings(epochs=1), say=lambda line: None, quiet=True)
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".model")]
    run = subprocess.run([sys.executable, "-m", "kg", "train", str(broken), "--input", str(texts), "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "gold.jsonl:4:" in run.stderr and "Traceback" not in run.stderr


def test_the_shipped_model_was_trained_on_the_gold_in_the_repository() -> None:
    shipped = default_model()
    if shipped is None:
        pytest.skip("this installation ships no model")
    meta = json.loads((shipped / META).read_text(encoding="utf-8"))
    train_files = sorted((ROOT / "training" / "gold" / "train").glob("*.jsonl"))
    assert meta["trained_on"]["files"] == [p.name for p in train_files]
    assert meta["trained_on"]["sha256"] == gold_hash(train_files)
    check_ids = {json.loads(line)["id"] for p in (ROOT / "training" / "gold" / "check").glob("*.jsonl")
                 for line in p.open(encoding="utf-8")}
    train_ids = {json.loads(line)["id"] for p in train_files for line in p.open(encoding="utf-8")}
    assert check_ids and not check_ids & train_ids
