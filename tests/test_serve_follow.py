"""`kg serve` follows its store: after `kg build --update` and `kg remove` on the
served folder, /sparql and / answer from the new build without a restart."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from kg.sparql.follow import FollowedStore, store_identity

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PAPERS = ("PREFIX fabio: <http://purl.org/spar/fabio/>\n"
          "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a fabio:ResearchPaper }")
NEW_ID = "follow-test-1"
NEW_ABSTRACT = {"id": NEW_ID, "title": "QuillNet for image classification",
                "abstract": "We propose QuillNet, a lightweight network for image classification. "
                            "QuillNet reaches 93.1% accuracy on CIFAR-10 and outperforms ResNet-50."}
SWITCH_SECONDS = 2.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, bytes]:
    req = urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


class Poller(threading.Thread):
    """Asks for the number of papers over and over, keeping every answer with its time."""

    def __init__(self, base: str):
        super().__init__(daemon=True)
        self.url = base + "/sparql?query=" + urllib.parse.quote(PAPERS)
        self.samples: list[tuple[float, int, int | None]] = []  # (time, HTTP status, papers)
        self.failures: list[str] = []
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            t = time.monotonic()
            try:
                status, body = get(self.url)
            except OSError as err:  # refused, reset: a failed request
                self.failures.append(repr(err))
                continue
            n = int(json.loads(body)["results"]["bindings"][0]["n"]["value"]) if status == 200 else None
            self.samples.append((t, status, n))

    def papers_after(self, t: float) -> list[int | None]:
        return [n for (ts, _, n) in self.samples if ts >= t]

    def wait_for(self, n: int, since: float, timeout: float) -> float:
        """The time of the first answer after `since` giving `n` papers (waiting up to `timeout` s)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = [ts for (ts, _, k) in self.samples if k == n and ts >= since]
            if seen:
                return seen[0]
            time.sleep(0.02)
        raise AssertionError(f"no answer gave {n} papers within {timeout} s")


@pytest.fixture
def build_dir(demo_build, tmp_path) -> Path:
    out = tmp_path / "build"
    shutil.copytree(demo_build, out)
    return out


def kg(*args: str) -> float:
    """Run a kg command to its end; the time it ended."""
    subprocess.run([sys.executable, "-m", "kg", *args], env=ENV, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.monotonic()


def test_served_answers_follow_update_and_remove_without_restart(build_dir, tmp_path):
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "kg", "serve", "--store", str(build_dir), "--port", str(port),
                               "--workers", "2", "--quiet"], env=ENV, cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    poller = Poller(base)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body = get(poller.url)
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "kg serve did not start"
                time.sleep(0.1)
        assert status == 200
        before = int(json.loads(body)["results"]["bindings"][0]["n"]["value"])
        poller.start()

        new = tmp_path / "new.jsonl"
        new.write_text(json.dumps(NEW_ABSTRACT) + "\n", encoding="utf-8")
        started = time.monotonic()
        updated = kg("build", "--update", str(new), "-o", str(build_dir), "-q")
        seen = poller.wait_for(before + 1, started, timeout=10)
        print(f"update seen {seen - updated:+.2f} s after the command ended")
        assert seen - updated <= SWITCH_SECONDS
        time.sleep(0.3)
        assert set(poller.papers_after(seen)) == {before + 1}  # never the old graph again
        status, view = get(base + "/")
        assert status == 200 and view == (build_dir / "graph.html").read_bytes()

        started = time.monotonic()
        removed = kg("remove", NEW_ID, "-o", str(build_dir))
        seen = poller.wait_for(before, started, timeout=10)
        print(f"remove seen {seen - removed:+.2f} s after the command ended")
        assert seen - removed <= SWITCH_SECONDS
        time.sleep(0.3)
        assert set(poller.papers_after(seen)) == {before}
        status, view = get(base + "/")
        assert status == 200 and view == (build_dir / "graph.html").read_bytes()
    finally:
        poller.halt.set()
        if poller.is_alive():
            poller.join(30)
        server.terminate()
        server.wait(30)
    assert server.returncode is not None
    assert not poller.failures
    print(f"{len(poller.samples)} answers")
    assert len(poller.samples) > 20 and {status for _, status, _ in poller.samples} == {200}


def test_a_query_begun_on_the_old_store_ends_on_it(demo_build, tmp_path):
    """The commit moves the served store aside and deletes it while a query reads it."""
    store = tmp_path / "store"
    shutil.copytree(demo_build / "store", store)
    followed = FollowedStore(store)
    old = followed.current()
    count = "SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }"
    rows = old.query(count)
    first = [next(rows) for _ in range(10)]

    # A commit: the new store is renamed in; the old one is renamed aside and removed.
    import pyoxigraph as ox
    staged = tmp_path / "staged"
    shutil.copytree(demo_build / "store", staged)
    db = ox.Store(str(staged))
    db.remove_graph(next(iter(db.named_graphs())))
    db.flush()
    del db
    aside = tmp_path / "aside"
    os.rename(store, aside)
    os.rename(staged, store)
    shutil.rmtree(aside)

    rest = list(rows)
    total = len(first) + len(rest)
    assert total == len(list(ox.Store.read_only(str(demo_build / "store")).query(count)))
    new = followed.current()
    assert new is not old and followed.switches == 1
    assert len(list(new.query(count))) < total


def test_no_store_for_an_instant_keeps_the_old_one(demo_build, tmp_path):
    store = tmp_path / "store"
    shutil.copytree(demo_build / "store", store)
    followed = FollowedStore(store)
    old = followed.current()
    os.rename(store, tmp_path / "aside")
    assert store_identity(store) is None
    assert followed.current() is old
    assert bool(old.query("ASK { GRAPH ?g { ?s ?p ?o } }"))
    os.rename(tmp_path / "aside", store)
    assert bool(followed.current().query("ASK { GRAPH ?g { ?s ?p ?o } }"))
