"""Extraction in several processes: same records, same order, bounded work in flight."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pyoxigraph as ox
import pytest

from kg.cli import main
from kg.extraction.record import Extractor
from kg.extraction.parallel import chunked, ordered_results, parallel_records
from kg.extraction.stream import record_stream
from kg.model import ExtractOptions
from kg.model import Abstract
from kg.entities.gazetteer import GazetteerError

METHODS = ["BERT", "ResNet-50", "a transformer", "XGBoost", "LoRA"]
DATASETS = ["ImageNet", "CIFAR-10", "SQuAD", "MS MARCO", "COCO"]
TASKS = ["image classification", "question answering", "passage retrieval", "object detection"]


def invented_abstracts(n: int) -> list[Abstract]:
    """Short abstracts written for these tests, each a little different."""
    out = []
    for i in range(n):
        name = f"Quokka{i}Net"
        m, d, t = METHODS[i % len(METHODS)], DATASETS[(i * 3) % len(DATASETS)], TASKS[i % len(TASKS)]
        text = (f"We propose {name}, a model for {t}. "
                f"On {d}, {name} reaches {70 + i % 20}.{i % 10}% accuracy and outperforms {m}. "
                + ("We also release code. " if i % 3 == 0 else "")
                + f"Ablations on {DATASETS[i % len(DATASETS)]} show that each part helps.")
        out.append(Abstract(id=f"t{i:03d}", text=text, title=f"{name} for {t}"))
    return out


@pytest.fixture(scope="module")
def serial_records():
    abstracts = invented_abstracts(40)
    return abstracts, [rec for _, rec in Extractor().records(abstracts)]


def test_two_workers_give_the_records_of_one_in_input_order(serial_records):
    abstracts, expected = serial_records
    pairs = list(parallel_records(iter(abstracts), workers=2, chunk_size=3))
    assert [a.id for a, _ in pairs] == [a.id for a in abstracts]
    assert [rec for _, rec in pairs] == expected
    assert any(rec["entities"]["Dataset"] for rec in expected)  # the corpus exercises extraction


def test_record_stream_picks_processes_for_more_than_one_worker(serial_records):
    abstracts, expected = serial_records
    assert [rec for _, rec in record_stream(abstracts[:7], workers=3)] == expected[:7]
    assert [rec for _, rec in record_stream(abstracts[:7], workers=1)] == expected[:7]


def test_a_bad_gazetteer_is_reported_before_any_worker_starts(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"name": "X", "type": "Planet"}\n', encoding="utf-8")
    with pytest.raises(GazetteerError, match="bad.jsonl:1"):
        record_stream(invented_abstracts(2), ExtractOptions(gazetteers=(str(bad),)), workers=2)


def test_ordered_results_keeps_order_when_later_chunks_finish_first():
    # Earlier chunks sleep longer, so completion order is the reverse of submission order.
    def work(chunk):
        time.sleep(0.02 * (10 - int(chunk[0].id[1:]) % 10))
        return [{"id": a.id} for a in chunk]

    abstracts = [Abstract(id=f"t{i}", text="x") for i in range(20)]
    with ThreadPoolExecutor(4) as pool:
        got = list(ordered_results(chunked(abstracts, 1), lambda c: pool.submit(work, c), window=8))
    assert [a.id for a, _ in got] == [r["id"] for _, r in got] == [a.id for a in abstracts]


def test_ordered_results_reads_input_lazily_with_a_bounded_window():
    pulled = 0
    in_flight = 0
    most_in_flight = 0
    lock = threading.Lock()

    def source():
        nonlocal pulled
        for i in range(1000):
            pulled += 1
            yield Abstract(id=f"t{i}", text="x")

    def work(chunk):
        nonlocal in_flight, most_in_flight
        with lock:
            in_flight += 1
            most_in_flight = max(most_in_flight, in_flight)
        time.sleep(0.001)
        with lock:
            in_flight -= 1
        return [{} for _ in chunk]

    with ThreadPoolExecutor(8) as pool:
        stream = ordered_results(chunked(source(), 10), lambda c: pool.submit(work, c), window=3)
        next(stream)
        assert pulled <= 3 * 10  # not the whole input
        assert sum(1 for _ in stream) == 999
    assert most_in_flight <= 3


def test_a_worker_that_returns_the_wrong_number_of_records_is_an_error():
    with ThreadPoolExecutor(1) as pool:
        stream = ordered_results(chunked([Abstract(id="a", text="x")], 5), lambda c: pool.submit(lambda: []),
                                 window=2)
        with pytest.raises(RuntimeError, match="0 records for 1"):
            list(stream)


def _write_corpus(path, abstracts):
    path.write_text("".join(json.dumps({"id": a.id, "title": a.title, "abstract": a.text}) + "\n"
                            for a in abstracts), encoding="utf-8")


def test_extract_cli_with_workers_writes_the_same_bytes(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    _write_corpus(corpus, invented_abstracts(25))
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["extract", str(corpus), "-o", str(one)]) == 0
    assert main(["extract", str(corpus), "-o", str(two), "--workers", "2"]) == 0
    assert two.read_bytes() == one.read_bytes()
    assert len(one.read_text(encoding="utf-8").splitlines()) == 25


def test_build_with_workers_gives_the_same_graph(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    _write_corpus(corpus, invented_abstracts(25))
    for name, extra in (("one", []), ("two", ["--workers", "2"])):
        assert main(["build", str(corpus), "-o", str(tmp_path / name), "--no-view", *extra]) == 0
        assert main(["export", "--store", str(tmp_path / name), "--format", "nq",
                     "-o", str(tmp_path / f"{name}.nq")]) == 0
    one = sorted((tmp_path / "one.nq").read_text(encoding="utf-8").splitlines())
    two = sorted((tmp_path / "two.nq").read_text(encoding="utf-8").splitlines())
    assert one == two and len(one) > 100
    assert (tmp_path / "one" / "records.jsonl").read_bytes() == (tmp_path / "two" / "records.jsonl").read_bytes()
    ttl = [sorted(str(q.triple) for q in ox.parse(path=str(tmp_path / name / "graph.ttl"), format=ox.RdfFormat.TURTLE))
           for name in ("one", "two")]
    assert ttl[0] == ttl[1] and len(ttl[0]) > 100


def test_workers_must_be_a_positive_number(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["extract", "x.jsonl", "--workers", "0"])
    assert exc.value.code == 2
    assert "at least 1" in capsys.readouterr().err


_KILLED_PARENT = """
import itertools, multiprocessing, sys
from kg.extraction.parallel import parallel_records
from kg.model import Abstract
endless = (Abstract(id=f"a{i}", text="We train BERT on SQuAD.") for i in itertools.count())
for n, _ in enumerate(parallel_records(endless, workers=2, chunk_size=2)):
    if n == 0:
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
"""


@pytest.mark.slow
def test_workers_exit_when_their_parent_is_killed():
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_PARENT], stdout=subprocess.PIPE, text=True, env=env)
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 2
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 20
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.5)
        alive = [p for p in alive if _running(p)]
    assert alive == []


def _running(pid: int) -> bool:
    import os
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A worker that exited but is not yet reaped by init still counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
