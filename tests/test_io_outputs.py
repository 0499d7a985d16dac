"""The commit protocol of kg.io.outputs: all outputs change together or not
at all, and a process killed at any step leaves a state that `recover` turns
into either the complete old set or the complete new set."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.io.outputs import STAGE_PREFIX, OutputSet, recover
from kg.store import KGStore

ROOT = Path(__file__).resolve().parents[1]
EX = "http://example.org/"


def make_store(path: Path, label: str) -> None:
    db = ox.Store(str(path))
    db.add(ox.Quad(ox.NamedNode(EX + "s"), ox.NamedNode(EX + "label"), ox.Literal(label)))
    db.flush()
    del db


def store_label(out: Path) -> str:
    store = KGStore.at(out, read_only=True)
    (row,) = list(store.query(f"SELECT ?l WHERE {{ <{EX}s> <{EX}label> ?l }}"))
    return row["l"].value


def generation(out: Path) -> str:
    """Which build the outputs in `out` come from; fails if they disagree."""
    files = {name: (out / name).read_text(encoding="utf-8") for name in ("records.jsonl", "graph.ttl")}
    labels = set(files.values()) | {store_label(out)}
    assert len(labels) == 1, f"outputs from different builds: {labels}"
    return labels.pop()


def stage_generation(out: Path, label: str) -> OutputSet:
    staged = OutputSet(out).__enter__()
    for name in ("records.jsonl", "graph.ttl"):
        staged.path(name).write_text(label, encoding="utf-8")
    make_store(staged.path("store"), label)
    return staged


def test_commit_swaps_everything_and_abort_keeps_the_old(tmp_path):
    out = tmp_path / "out"
    stage_generation(out, "one").commit()
    assert generation(out) == "one"
    with OutputSet(out) as staged:
        staged.path("records.jsonl").write_text("two", encoding="utf-8")
        make_store(staged.path("store"), "two")
        # left without commit, as a --strict failure or an exception would
    assert generation(out) == "one"
    assert not list(out.glob(f"{STAGE_PREFIX}*"))


def test_dropped_output_goes_at_commit(tmp_path):
    out = tmp_path / "out"
    staged = stage_generation(out, "one")
    staged.path("graph.html").write_text("view", encoding="utf-8")
    staged.commit()
    staged = stage_generation(out, "two")
    staged.drop("graph.html")
    staged.commit()
    assert generation(out) == "two" and not (out / "graph.html").exists()


def test_output_names_are_checked(tmp_path):
    with OutputSet(tmp_path) as staged:
        for bad in ("", "../x", ".hidden", "COMMIT", "a/b"):
            with pytest.raises(ValueError):
                staged.path(bad)


_KILLER = textwrap.dedent("""
    # Stages one generation like stage_generation(), then commits, killing
    # itself with SIGKILL just before its kill_at-th rename. Imports only what
    # it needs so each run starts fast.
    import os, signal, sys
    from pathlib import Path
    import pyoxigraph as ox
    from kg.io.outputs import OutputSet
    out, label, kill_at = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    staged = OutputSet(out).__enter__()
    for name in ("records.jsonl", "graph.ttl"):
        staged.path(name).write_text(label, encoding="utf-8")
    db = ox.Store(str(staged.path("store")))
    db.add(ox.Quad(ox.NamedNode({ex!r} + "s"), ox.NamedNode({ex!r} + "label"), ox.Literal(label)))
    db.flush()
    del db
    calls = 0
    real_replace = os.replace
    def replace(src, dst):
        global calls
        calls += 1
        if calls == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        real_replace(src, dst)
    os.replace = replace
    staged.commit()
    print("committed after", calls, "renames")
""")


def test_kill_at_every_rename_of_a_commit(tmp_path):
    """SIGKILL the committing process just before each of its renames; after
    recovery the outputs are always one whole generation, never a mix, and the
    store always opens."""
    script = tmp_path / "killer.py"
    script.write_text(_KILLER.format(ex=EX), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "out"
    stage_generation(out, "old").commit()
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "probe"), "x", "0"],
                          capture_output=True, text=True, env=env, timeout=60)
    renames = int(done.stdout.split()[2])
    assert renames >= 4  # COMMIT, two files, the store aside and in
    seen = []
    for kill_at in range(1, renames + 1):
        label = f"new{kill_at}"
        proc = subprocess.run([sys.executable, str(script), str(out), label, str(kill_at)],
                              capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        recover(out)
        gen = generation(out)
        seen.append(gen == label)
        assert not list(out.glob(f"{STAGE_PREFIX}*")), "recovery left a staging folder"
        if gen != label:
            # The kill came before the commit point: the next build still works.
            stage_generation(out, label).commit()
            assert generation(out) == label
    # Killed before the COMMIT rename: old set; after it: new set.
    assert seen == [False] + [True] * (renames - 1)


def test_store_open_recovers_an_interrupted_commit(tmp_path):
    """The window between moving the old store aside and the new one in: a
    reader opening the store finishes the commit instead of finding none."""
    out = tmp_path / "out"
    stage_generation(out, "old").commit()
    staged = stage_generation(out, "new")
    real_replace = os.replace
    calls = []

    def replace_then_die(src, dst):
        calls.append(dst)
        if Path(dst) == out / "store":
            raise KeyboardInterrupt  # stands in for a kill at this instant
        real_replace(src, dst)

    os.replace = replace_then_die
    try:
        with pytest.raises(KeyboardInterrupt):
            staged.commit()
    finally:
        os.replace = real_replace
    assert not (out / "store").exists()
    assert store_label(out) == "new"  # KGStore.at recovered
    assert generation(out) == "new"


def test_live_build_is_not_swept_away(tmp_path):
    out = tmp_path / "out"
    staged = stage_generation(out, "busy")
    assert recover(out) == []
    assert staged.stage.exists()
    staged.__exit__(None, None, None)
    assert not staged.stage.exists()


def test_dead_builders_litter_is_removed(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    code = ("import os, signal, sys; from pathlib import Path; from kg.io.outputs import OutputSet;"
            "s = OutputSet(Path(sys.argv[1])).__enter__(); s.path('records.jsonl').write_text('x');"
            "os.kill(os.getpid(), signal.SIGKILL)")
    proc = subprocess.run([sys.executable, "-c", code, str(out)], env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == -signal.SIGKILL
    (litter,) = out.glob(f"{STAGE_PREFIX}*")
    assert recover(out) == [f"removed {litter.name}, left by an interrupted build"]
    assert not litter.exists() and not (out / "records.jsonl").exists()
