"""A staged store is closed before its build commits it: pyoxigraph closes a
store only when its last reference goes, and a store left open keeps RocksDB
compacting (deleting and writing files) in the folder being synced and moved
into place."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.builder import build
from kg.io.outputs import OutputSet
from kg.store import STORE_DIRNAME, KGStore
from kg.update import remove, update
from tests.test_update import ABSTRACTS, NEW_TEXT, write_jsonl


@pytest.fixture
def commits(monkeypatch) -> list[str]:
    """For every commit, whether its staged store could be opened for writing
    (RocksDB refuses while the same process holds it open)."""
    seen: list[str] = []
    commit = OutputSet.commit

    def checked(self: OutputSet) -> None:
        store = self.stage / STORE_DIRNAME
        if (store / "CURRENT").exists():
            try:
                ox.Store(str(store))
                seen.append("closed")
            except OSError as exc:
                seen.append(f"open: {exc}")
        commit(self)

    monkeypatch.setattr(OutputSet, "commit", checked)
    return seen


def test_build_update_and_remove_commit_closed_stores(tmp_path: Path, commits: list[str]) -> None:
    out = tmp_path / "out"
    build([write_jsonl(tmp_path / "a.jsonl", ABSTRACTS)], out, view=False)
    update([write_jsonl(tmp_path / "b.jsonl", {"t-1": NEW_TEXT})], out, view=False)
    remove(["t-2"], out, view=False)
    assert commits == ["closed", "closed", "closed"]
    assert len(KGStore.at(out, read_only=True).papers()) == 2


def test_loader_lets_go_of_the_store(tmp_path: Path) -> None:
    store = KGStore(tmp_path / "store")
    with store.loader(tmp_path, batch=1) as loader:
        loader.add(b"<https://example.org/a> <https://example.org/b> <https://example.org/c> "
                   b"<https://example.org/g> .\n", 1)
    store.close()
    assert len(ox.Store(str(tmp_path / "store"))) == 1


def test_a_build_compacts_its_store_and_lets_go_of_it(tmp_path: Path, commits: list[str], monkeypatch) -> None:
    """The build compacts the store it loaded (queries on a bulk-loaded store read
    many overlapping files) and the compaction's thread lets go of it before the commit."""
    compacted: list[int] = []
    optimize = KGStore.optimize

    def counted(self: KGStore):
        compacted.append(len(self))
        return optimize(self)

    monkeypatch.setattr(KGStore, "optimize", counted)
    out = tmp_path / "out"
    summary = build([write_jsonl(tmp_path / "a.jsonl", ABSTRACTS)], out, view=False)
    assert compacted == [summary.triples] and summary.triples > 0
    assert commits == ["closed"]


def test_optimize_keeps_every_quad(tmp_path: Path) -> None:
    store = KGStore(tmp_path / "store")
    with store.loader(tmp_path, batch=1) as loader:
        for i in range(3):
            loader.add(f"<https://example.org/s{i}> <https://example.org/p> \"{i}\" <https://example.org/g> .\n"
                       .encode(), 1)
    with store.optimize():
        assert len(store) == 3  # reads go on while it compacts
    store.close()
    assert len(ox.Store(str(tmp_path / "store"))) == 3
