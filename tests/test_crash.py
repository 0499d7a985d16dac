"""A real `kg build` killed with SIGKILL part-way: the previous records.jsonl,
graph.ttl, graph.html and store are still there, parse, agree with each other,
and a later build completes the work."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.builder import build
from kg.cli import main
from kg.io.outputs import STAGE_PREFIX
from kg.store import KGStore

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

# Templates and well-known names, combined into as many distinct abstracts as needed.
METHODS = ["ResNet-50", "BERT", "Transformer", "LSTM", "XGBoost", "U-Net", "ViT", "GPT-2"]
DATASETS = ["CIFAR-10", "ImageNet", "SQuAD", "MNIST", "COCO", "WMT14", "Cityscapes", "GLUE"]
TASKS = ["image classification", "question answering", "machine translation", "object detection"]
METRICS = ["accuracy", "F1", "BLEU", "mIoU"]
TEMPLATES = [
    "We propose Model{i}, a compact network for {task}. Model{i} is evaluated on {data} and outperforms {method} "
    "by {a}.{b} points of {metric}. Ablations show that the gating layer matters most.",
    "This paper introduces Net{i} for {task}. On {data}, Net{i} reaches {a}.{b}% {metric}, improving over {method} "
    "while using half the parameters.",
]


def corpus(n: int, salt: str) -> list[dict]:
    combos = itertools.product(METHODS, DATASETS, TASKS, METRICS)
    rows = []
    for i, (method, data, task, metric) in zip(range(n), itertools.cycle(combos)):
        text = TEMPLATES[i % 2].format(i=i, task=task, data=data, method=method, metric=metric, a=50 + i % 40, b=i % 10)
        rows.append({"id": f"{salt}-{i}", "title": f"Paper {salt} {i}", "abstract": text})
    return rows


def write_corpus(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def snapshot(out: Path) -> dict:
    """What a user of the outputs sees: ids in records.jsonl, papers in the
    store, papers in graph.ttl; asserts each output parses."""
    records = [json.loads(l)["id"] for l in (out / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    store = KGStore.at(out, read_only=True)
    ident = "http://purl.org/dc/terms/identifier"
    in_store = sorted(r["i"].value for r in store.query(f"SELECT ?i WHERE {{ ?p <{ident}> ?i }}"))
    store.close()
    ttl_ids = sorted(q.object.value for q in ox.parse(path=str(out / "graph.ttl"), format=ox.RdfFormat.TURTLE)
                     if q.predicate.value == ident)
    html = (out / "graph.html").read_text(encoding="utf-8")
    assert html.rstrip().endswith("</html>")
    return {"records": sorted(records), "store": in_store, "ttl": ttl_ids, "html": html}


def staged_file(out: Path, name: str) -> Path | None:
    for stage in out.glob(f"{STAGE_PREFIX}*"):
        if (stage / name).exists():
            return stage / name
    return None


def kill_when(out: Path, corpus_path: Path, ready) -> None:
    """Start `kg build`, SIGKILL it as soon as `ready()` holds."""
    build = subprocess.Popen([sys.executable, "-m", "kg", "build", str(corpus_path), "-o", str(out)],
                             cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        while not ready() and time.monotonic() < deadline:
            assert build.poll() is None, "the build ended before the moment to kill it; make the corpus bigger"
            time.sleep(0.005)
        build.send_signal(signal.SIGKILL)
        build.wait(timeout=30)
    finally:
        if build.poll() is None:
            build.kill()
    assert build.returncode == -signal.SIGKILL


@pytest.mark.slow
def test_sigkill_part_way_leaves_previous_outputs(tmp_path):
    out = tmp_path / "out"
    build([write_corpus(tmp_path / "old.jsonl", corpus(30, "old"))], out)
    before = snapshot(out)
    assert before["records"] == before["store"] == before["ttl"] and len(before["records"]) == 30

    new = write_corpus(tmp_path / "new.jsonl", corpus(400, "new"))
    moments = {
        "while extracting": lambda: (f := staged_file(out, "records.jsonl")) is not None and f.stat().st_size > 20_000,
        "while writing graph.ttl and graph.html": lambda: staged_file(out, "graph.ttl") is not None,
    }
    for moment, ready in moments.items():
        kill_when(out, new, ready)
        assert snapshot(out) == before, f"killed {moment}: the previous outputs changed"

    # A later `kg build --update` completes the work and sweeps the dead builds' staging folders.
    assert main(["build", "--update", str(new), "-o", str(out), "--quiet"]) == 0
    done = snapshot(out)
    assert done["records"] == done["store"] == done["ttl"]
    assert done["records"] == sorted(before["records"] + [f"new-{i}" for i in range(400)])
    assert not list(out.glob(f"{STAGE_PREFIX}*")) and not list(out.glob(".kg-new-*"))
