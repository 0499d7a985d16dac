"""Progress of long work, for a person watching: a bar on stderr with
abstracts done, rate and time left. Off when stderr is not a terminal (logs,
pipes, CI) or when asked to be quiet, so scripts never see it.
"""

from __future__ import annotations

import csv
import os
import re
import sys
from pathlib import Path
from typing import IO, Iterable, Iterator, TypeVar

from tqdm import tqdm

T = TypeVar("T")

# tqdm's monitor is a thread; a thread alive when extraction workers fork is a hazard.
tqdm.monitor_interval = 0

_PARA = re.compile(rb"\n[ \t]*\n")


def wanted(quiet: bool = False, stream: IO | None = None) -> bool:
    """Whether to draw a bar: not quiet, and the stream is a terminal."""
    stream = sys.stderr if stream is None else stream
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def track(items: Iterable[T], *, total: int | None = None, desc: str = "abstracts", quiet: bool = False,
          stream: IO | None = None, force: bool = False) -> Iterator[T]:
    """`items` unchanged, counting them on a bar. `force` draws the bar even
    when the stream is not a terminal (unless quiet)."""
    stream = sys.stderr if stream is None else stream
    show = not quiet and (force or wanted(quiet, stream))
    if not show:
        yield from items
        return
    with tqdm(total=total, desc=desc, unit=" abstracts", file=stream, dynamic_ncols=True,
              smoothing=0.05, mininterval=0.5) as bar:
        for item in items:
            yield item
            bar.update(1)


def estimate_abstracts(paths: Iterable[str | os.PathLike], fmt: str | None = None) -> int | None:
    """A quick count of the abstracts in the input files, for the bar's time
    left: JSON Lines rows, CSV rows, text paragraphs. It reads the files once
    without parsing records, so it may count a bad record the reader skips.
    None when a file cannot be counted."""
    total = 0
    for p in paths:
        path = Path(p)
        if str(p) == "-" or path.suffix.lower() in (".gz", ".bz2"):
            return None  # standard input cannot be read twice; compressed files would cost a second decompression
        kind = fmt or {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv"}.get(
            path.suffix.lower(), "txt")
        try:
            if kind == "jsonl":
                total += _count_lines(path)
            elif kind == "csv":
                with path.open(encoding="utf-8", errors="replace", newline="") as fh:
                    total += max(0, sum(1 for _ in csv.reader(fh)) - 1)
            else:
                total += sum(1 for block in _PARA.split(path.read_bytes()) if block.strip())
        except OSError:
            return None
    return total


def _count_lines(path: Path) -> int:
    n = 0
    last = b"\n"
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


class Steps:
    """A bar of steps of work (passes of training, rounds of scoring) that
    may be counted from other threads; nothing is drawn when stderr is not a
    terminal or when asked to be quiet."""

    def __init__(self, total: int, desc: str, quiet: bool = False, stream: IO | None = None):
        stream = sys.stderr if stream is None else stream
        self.bar = (tqdm(total=total, desc=desc, unit=" steps", file=stream, dynamic_ncols=True, mininterval=0.5)
                    if wanted(quiet, stream) else None)

    def step(self, n: int = 1) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
