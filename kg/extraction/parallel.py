"""Extraction over several local processes, records still in input order.

Abstracts go to the workers in chunks; each worker builds its pipeline once
and turns a chunk into records. At most a few chunks per worker are in flight,
so memory stays bounded however long the input is, and results are yielded in
the order the chunks were sent, so the output is the same as with one worker.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar

from kg.extraction.worker import Worker
from kg.model import Abstract, ExtractOptions

T = TypeVar("T")
Pair = tuple[Abstract, Any]  # a record, or a PaperOutput for a build

DEFAULT_CHUNK = 32
# Chunks in flight per worker: enough that no worker waits for the next chunk.
IN_FLIGHT_PER_WORKER = 3


class _Result(Protocol):
    def result(self) -> Any: ...


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def ordered_results(chunks: Iterable[list[Abstract]], submit: Callable[[list[Abstract]], _Result],
                    window: int) -> Iterator[Pair]:
    """Submit chunks with at most `window` unfinished, and yield (abstract,
    record) pairs in submission order. `submit` returns anything with a
    `.result()` (a concurrent.futures or Dask future)."""
    pending: deque[tuple[list[Abstract], _Result]] = deque()
    try:
        for chunk in chunks:
            pending.append((chunk, submit(chunk)))
            if len(pending) >= window:
                yield from _pairs(*pending.popleft())
        while pending:
            yield from _pairs(*pending.popleft())
    finally:
        for _, fut in pending:
            cancel = getattr(fut, "cancel", None)
            if cancel is not None:
                cancel()


def _pairs(chunk: list[Abstract], fut: _Result) -> Iterator[Pair]:
    records = fut.result()
    if len(records) != len(chunk):
        raise RuntimeError(f"a worker returned {len(records)} records for {len(chunk)} abstracts")
    yield from zip(chunk, records)


# -- worker side ----------------------------------------------------------------
_worker = None


def _init_worker(options: ExtractOptions, papers: bool) -> None:
    global _worker


    # Ctrl-C is the parent's to handle: it stops sending chunks and shuts the
    # pool down, instead of every worker printing its own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()

    _worker = Worker(options, papers)
    # The pipeline (vocabulary, matchers, rule tables) lives as long as the
    # worker: frozen, it is left out of the cycle collector's full passes,
    # which otherwise walk all of it again and again while papers stream.
    gc.freeze()


def _exit_with_parent() -> None:
    """A worker whose parent was killed (SIGTERM, SIGKILL) would wait for work
    forever: it holds the task pipe open itself. A watcher ends it."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="kg-parent-watch", daemon=True).start()


def _extract_chunk(chunk: list[Abstract]) -> list:
    return _worker.chunk(chunk)


# -- parent side ----------------------------------------------------------------
def parallel_records(abstracts: Iterable[Abstract], options: ExtractOptions = ExtractOptions(), *,
                     workers: int = 2, chunk_size: int = DEFAULT_CHUNK, papers: bool = False) -> Iterator[Pair]:
    """(abstract, record) pairs in input order, extracted by `workers`
    processes; for `papers`, (abstract, PaperOutput) pairs (kg.extraction.worker)."""
    # The platform's default start method: fork on Linux, where workers then
    # share the parent's imported spaCy and start in a fraction of a second.
    ctx = multiprocessing.get_context()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(options, papers))
    try:
        yield from ordered_results(chunked(abstracts, chunk_size), lambda c: pool.submit(_extract_chunk, c),
                                   window=workers * IN_FLIGHT_PER_WORKER)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
