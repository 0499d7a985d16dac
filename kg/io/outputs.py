"""All outputs of one build change together, or not at all.

A build writes every output (records.jsonl, graph.ttl, graph.html, the store
folder, ...) into a staging folder `.kg-stage-*` inside the output folder,
while the previous outputs stay in place untouched. `commit()` then writes a
COMMIT manifest into the staging folder: that one atomic rename is the moment
the build counts as done. Only after it are the staged entries moved into
place, one rename each (a folder: the old one is renamed aside first).

A kill at any moment therefore leaves either
- no COMMIT: the previous outputs, complete; the staging folder is litter,
  removed by the next `recover()` once its builder is dead; or
- a COMMIT: the new outputs, possibly not all moved yet, and possibly no
  store folder at all for an instant; `recover()` finishes the moves.

`recover()` runs at the start of every build and whenever a store is opened
(kg.store.KGStore.at), so readers never see a half-moved set. A builder holds
an flock on its staging folder for its whole life: the kernel releases it
when the process dies, even by SIGKILL, which is how recovery tells a dead
builder's litter from a live build. Moves and recovery hold an flock on
`.kg-lock` in the output folder so they never interleave.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

STAGE_PREFIX = ".kg-stage-"
COMMIT = "COMMIT"
_ALIVE = ".alive"
_FOLDER_LOCK = ".kg-lock"
_ASIDE = ".aside-"
_NEW_PREFIX = ".kg-new-"


class OutputSet:
    """Stage the outputs of one build in `out_dir`; `commit()` swaps them in.

    Leaving the `with` block without `commit()` (an error, --strict, Ctrl-C)
    discards everything staged and leaves the previous outputs as they were.
    """

    def __init__(self, out_dir: str | os.PathLike):
        self.out = Path(out_dir)
        self.stage: Path | None = None
        self._alive_fd: int | None = None
        self.committed = False
        self._drops: set[str] = set()

    def __enter__(self) -> "OutputSet":
        self.out.mkdir(parents=True, exist_ok=True)
        recover(self.out)
        # Lock first, then give the folder the name recovery looks for, so
        # recovery never meets a staging folder whose builder has no lock yet.
        fresh = Path(tempfile.mkdtemp(prefix=_NEW_PREFIX, dir=self.out))
        self._alive_fd = os.open(fresh / _ALIVE, os.O_CREAT | os.O_RDWR, 0o644)
        fcntl.flock(self._alive_fd, fcntl.LOCK_EX)
        self.stage = self.out / (STAGE_PREFIX + fresh.name.removeprefix(_NEW_PREFIX))
        os.rename(fresh, self.stage)
        return self

    def path(self, name: str) -> Path:
        """Where to write the output `name` (a file or a folder) of this build."""
        if self.stage is None:
            raise RuntimeError("OutputSet used outside its `with` block")
        if not name or "/" in name or name.startswith(".") or name == COMMIT:
            raise ValueError(f"not an output name: {name!r}")
        return self.stage / name

    def scratch(self, name: str) -> Path:
        """A working file of this build that is no output: it lives in the
        staging folder, is never moved into place, and goes with the folder."""
        return self.path(name).with_name("." + name)

    def drop(self, name: str) -> None:
        """Remove the earlier output `name` at commit (it would not match the new ones)."""
        self.path(name)  # validates the name
        self._drops.add(name)

    def commit(self) -> None:
        """Make the staged outputs the current ones, all together."""
        assert self.stage is not None
        names = sorted(p.name for p in self.stage.iterdir() if not p.name.startswith(".") and p.name != COMMIT)
        for name in names:
            _sync_tree(self.stage / name)
        tmp = self.stage / f".{COMMIT}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"outputs": names, "drop": sorted(self._drops - set(names))}, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.stage / COMMIT)
        _sync_dir(self.stage)
        self.committed = True
        with _folder_lock(self.out):
            _roll_forward(self.out, self.stage)

    def __exit__(self, *exc) -> None:
        if self._alive_fd is not None:
            os.close(self._alive_fd)  # releases the flock
            self._alive_fd = None
        if self.stage is not None and not self.committed:
            shutil.rmtree(self.stage, ignore_errors=True)


def recover(out_dir: str | os.PathLike) -> list[str]:
    """Finish or discard what interrupted builds left in `out_dir`; return what
    was done, one line each. Cheap when there is nothing to do."""
    out = Path(out_dir)
    try:
        stages = sorted(out.glob(f"{STAGE_PREFIX}*")) + sorted(out.glob(f"{_NEW_PREFIX}*"))
    except OSError:
        return []
    if not stages:
        return []
    done: list[str] = []
    try:
        with _folder_lock(out):
            for stage in stages:
                if not stage.is_dir():
                    continue
                if (stage / COMMIT).exists():
                    _roll_forward(out, stage)
                    done.append(f"finished the interrupted commit of {stage.name}")
                elif (stage / _ALIVE).exists() and _builder_dead(stage):
                    shutil.rmtree(stage, ignore_errors=True)
                    done.append(f"removed {stage.name}, left by an interrupted build")
    except OSError:
        # A reader without write access cannot repair; it reads what is there.
        return done
    return done


def _roll_forward(out: Path, stage: Path) -> None:
    """Move each staged output into place. Idempotent: a kill part-way through
    leaves a state from which running it again completes the same moves."""
    try:
        manifest = json.loads((stage / COMMIT).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return  # another process finished this commit first
    for name in manifest["outputs"]:
        staged, target = stage / name, out / name
        if not staged.exists():
            continue  # moved on an earlier pass
        if staged.is_dir() and not staged.is_symlink():
            aside = stage / f"{_ASIDE}{name}"
            if target.exists() or target.is_symlink():
                if aside.exists():
                    shutil.rmtree(aside, ignore_errors=True)
                os.replace(target, aside)
            os.replace(staged, target)
        else:
            os.replace(staged, target)
    for name in manifest.get("drop", []):
        target = out / name
        if target.is_dir() and not target.is_symlink():
            aside = stage / f"{_ASIDE}{name}"
            os.replace(target, aside)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
    _sync_dir(out)
    shutil.rmtree(stage, ignore_errors=True)


def _builder_dead(stage: Path) -> bool:
    try:
        fd = os.open(stage / _ALIVE, os.O_RDWR)
    except FileNotFoundError:
        return False  # renamed or removed meanwhile: not ours to judge
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


@contextlib.contextmanager
def _folder_lock(out: Path) -> Iterator[None]:
    fd = os.open(out / _FOLDER_LOCK, os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _sync_tree(path: Path) -> None:
    """fsync a staged output so the COMMIT never points at data still only in
    the page cache (matters for power loss; a killed process loses nothing)."""
    if path.is_dir():
        for p in path.rglob("*"):
            if p.is_file():
                _sync_file(p)
        _sync_dir(path)
    elif path.is_file():
        _sync_file(path)


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
