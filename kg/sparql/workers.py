"""Queries run in worker processes, so that a timeout really stops the work.

Workers answer from the newest committed build of their store folder
(kg.sparql.follow): `kg build`, `--update` and `kg remove` on a served folder
show in the answers without a restart.

Oxigraph evaluates a query in Rust without a way to cancel it, and a thread
cannot be stopped from outside. So each query goes to one of a few worker
processes that hold the store open read-only; a query past its deadline gets
its worker killed (SIGKILL) and a fresh one started in its place. Workers are
fresh interpreters, never forks, since the parent runs threads.

This module is imported by the workers: it imports nothing heavy.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import pyoxigraph as ox

from kg.sparql.follow import FollowedStore
from kg.sparql.prefixes import (
    PREFIXES,  # queries need no PREFIX lines for kg's prefixes
)
from kg.sparql.ready import ready_question, store_spellings
from kg.sparql.results import NotAcceptable, serialize
from kg.sparql.syntax import describe
from kg.sparql.words import names_a_dataset

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


@dataclass
class QueryJob:
    text: str
    accepted: list[str] = field(default_factory=lambda: ["*/*"])
    max_rows: int | None = None  # None: every row
    default_graphs: list[str] = field(default_factory=list)
    named_graphs: list[str] = field(default_factory=list)
    # a ready question: `text` is then ignored, the worker binds the question itself,
    # since matching names in any case needs the store
    question: str | None = None
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class QueryAnswer:
    status: int          # an HTTP status: 200, 400 (syntax), 406 (format), 500
    content_type: str
    body: bytes
    rows: int = 0
    truncated: bool = False


class QueryTimeout(RuntimeError):
    pass


class PoolBusy(RuntimeError):
    pass


class LongQueriesBusy(PoolBusy):
    """Too many long queries at once: the newest one is stopped so short ones keep being served."""


def execute(store, job: QueryJob, prefixes: dict[str, str] | None = None) -> QueryAnswer:
    """Run one job on an open pyoxigraph Store; every outcome is an answer, never an exception."""
    kw: dict = {}
    if job.default_graphs:  # the protocol's dataset wins over the query's FROM, as the protocol says
        kw["default_graph"] = [ox.NamedNode(g) for g in job.default_graphs]
    elif not names_a_dataset(job.text):
        kw["use_default_graph_as_union"] = True
    if job.named_graphs:
        kw["named_graphs"] = [ox.NamedNode(g) for g in job.named_graphs]
    try:
        text = job.text
        if job.question:
            text = ready_question(job.question).bind(job.params, store_spellings(store))
        results = store.query(text, prefixes=PREFIXES, **kw)
        out = serialize(results, job.accepted, job.max_rows, prefixes)
    except SyntaxError as err:
        return QueryAnswer(400, "text/plain; charset=utf-8",
                           f"SPARQL syntax error: {describe(str(err), job.text)}\n".encode())
    except NotAcceptable as err:
        return QueryAnswer(406, "text/plain; charset=utf-8", f"{err}\n".encode())
    except (ValueError, TypeError) as err:  # e.g. a bad graph IRI in default-graph-uri
        return QueryAnswer(400, "text/plain; charset=utf-8", f"bad request: {err}\n".encode())
    except Exception as err:  # the engine's own evaluation errors
        return QueryAnswer(500, "text/plain; charset=utf-8", f"query failed: {err}\n".encode())
    return QueryAnswer(200, out.content_type, out.body, out.rows, out.truncated)


# How often an idle worker looks for a newer committed build, so that it has the
# new store open before the next query comes, and lets go of the old one's files.
IDLE_CHECK_SECONDS = 0.5


def _worker_main(store_path: str, prefixes: dict[str, str], inbox: Connection, outbox: Connection) -> None:
    try:
        followed = FollowedStore(store_path)
    except Exception as err:
        outbox.send(("error", f"cannot open the store at {store_path}: {err}"))
        return
    outbox.send(("ready", None))
    while True:
        try:
            if not inbox.poll(IDLE_CHECK_SECONDS):
                followed.current()
                continue
            job = inbox.recv()
        except (EOFError, OSError):
            return
        # Each query runs start to end on the store current when it began (see kg.sparql.follow).
        outbox.send(execute(followed.current(), job, prefixes))


def _lower_priority(pid: int) -> None:
    """Give a long query's worker the lowest CPU priority, so that on a machine
    with few cores the runaways do not slow the short questions down either."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, 19)
    except (OSError, AttributeError):  # the process just ended, or no such call here
        pass


class _Worker:
    """One worker process, run as `python -m kg.sparql.workers` rather than through
    multiprocessing, so that it imports only this module and never the program
    that started it (the CLI would pull in spaCy)."""
    def __init__(self, store_path: str, prefixes: dict[str, str]):
        child_in, self._to_child = os.pipe()
        self._from_child, child_out = os.pipe()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [_PACKAGE_ROOT, env.get("PYTHONPATH")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kg.sparql.workers", store_path, json.dumps(prefixes), str(child_in), str(child_out)],
            pass_fds=(child_in, child_out), stdin=subprocess.DEVNULL, env=env)
        os.close(child_in)
        os.close(child_out)
        self.inbox = Connection(self._from_child, writable=False)
        self.outbox = Connection(self._to_child, readable=False)
        self.ready = False

    def wait_ready(self, timeout: float) -> None:
        if self.ready:
            return
        if not self.inbox.poll(timeout):
            raise QueryTimeout("a query worker did not start in time")
        kind, msg = self.inbox.recv()
        if kind != "ready":
            raise RuntimeError(msg)
        self.ready = True

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(5)
        self.inbox.close()
        self.outbox.close()


class QueryPool:
    """Worker processes with a deadline per job, and a reserve that long queries cannot take.

    Why a reserve: with a fixed pool, as many runaway clients as workers hold
    every worker until the time limit and every other client waits (the load
    benchmark with 2 abusers against 2 workers showed p90 latencies of 12 s).
    A per-address limit would not help here: behind a proxy, or on one machine,
    all clients share an address. So the pool tells long queries from short ones
    by how long they have run: a job still running after `slow_after` seconds
    becomes a long query, and a fresh worker is started in its place, so
    `workers` processes stay free for short questions; the long query's worker
    drops to the lowest CPU priority, so that runaways take no CPU from them
    either, and is ended when its query is. At most `max_slow` long
    queries run at once (so at most `workers + max_slow` processes); a job that
    would be one more is stopped at once with LongQueriesBusy (HTTP 503), which
    bounds what any number of runaway clients can take. Long queries are told
    apart only after they start, so a short query may wait for a worker for up
    to `slow_after` plus a worker's start-up (~0.3 s) while runaways arrive.
    """
    def __init__(self, store_path: str, workers: int = 2, prefixes: dict[str, str] | None = None,
                 start_timeout: float = 60.0, slow_after: float = 1.0, max_slow: int | None = None):
        self.store_path = str(store_path)
        self.prefixes = dict(prefixes or {})
        self.workers = max(1, workers)
        self.slow_after = slow_after
        self.max_slow = self.workers if max_slow is None else max(0, max_slow)
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: set[_Worker] = set()
        self._slow = 0  # jobs running past slow_after; each has a spare worker standing in for it
        self._lock = threading.Lock()
        self._closed = False
        started = [self._spawn() for _ in range(self.workers)]
        for w in started:  # fail now, with the store's own message, rather than on the first query
            w.wait_ready(start_timeout)
            self._idle.put(w)

    def _spawn(self) -> _Worker:
        w = _Worker(self.store_path, self.prefixes)
        with self._lock:
            self._all.add(w)
        return w

    def _surplus(self) -> bool:
        """True when there are more workers than the base pool plus one stand-in per long query."""
        with self._lock:
            return len(self._all) > self.workers + self._slow

    def _retire(self, w: _Worker) -> None:
        with self._lock:
            self._all.discard(w)
            short = len(self._all) < self.workers + self._slow
        w.kill()
        if short and not self._closed:
            self._idle.put(self._spawn())

    def _release(self, w: _Worker) -> None:
        """Give a worker back, or end it when a long query's stand-in is no longer needed."""
        if self._closed or self._surplus():
            with self._lock:
                self._all.discard(w)
            w.kill()
        else:
            self._idle.put(w)

    def _become_slow(self) -> bool:
        """Count one more long query and start its stand-in; False when max_slow are running."""
        with self._lock:
            if self._slow >= self.max_slow:
                return False
            self._slow += 1
        if not self._closed:
            self._idle.put(self._spawn())
        return True

    def run(self, job: QueryJob, timeout: float, wait: float | None = None) -> QueryAnswer:
        """The answer to `job`, or QueryTimeout once it has run `timeout` seconds; a worker
        that overran is killed, which stops its work. Waiting for a free worker does not
        count against `timeout` (a runaway query must not make its neighbours time out),
        but gives up with PoolBusy after `wait` seconds (default: 3 x timeout, at least 30)."""
        wait = max(30.0, 3 * timeout) if wait is None else wait
        try:
            w = self._idle.get(timeout=wait)
        except queue.Empty:
            raise PoolBusy(f"all query workers stayed busy for {wait:g} s") from None
        slow = False
        try:
            w.wait_ready(60.0)  # a replacement worker may still be starting
            w.outbox.send(job)
            first = min(self.slow_after, timeout)
            if not w.inbox.poll(first):
                if first >= timeout:
                    raise QueryTimeout(f"query stopped after the {timeout:g} s time limit")
                slow = self._become_slow()
                if not slow:
                    raise LongQueriesBusy(f"{self.max_slow} long queries are already running, the most "
                                          f"this server allows at once; this one was stopped after "
                                          f"{self.slow_after:g} s")
                _lower_priority(w.proc.pid)
                if not w.inbox.poll(timeout - first):
                    raise QueryTimeout(f"query stopped after the {timeout:g} s time limit")
            answer = w.inbox.recv()
        except BaseException:
            if slow:
                with self._lock:
                    self._slow -= 1
            self._retire(w)
            raise
        if slow:
            with self._lock:
                self._slow -= 1
            self._retire(w)  # its priority cannot be raised again without privileges
        else:
            self._release(w)
        return answer

    def idle(self) -> int:
        """How many workers are waiting for a job (an estimate while jobs come and go)."""
        return self._idle.qsize()

    def long_queries(self) -> int:
        """How many jobs are running past `slow_after`, each with a stand-in worker."""
        with self._lock:
            return self._slow

    def pids(self) -> list[int]:
        with self._lock:
            return [w.proc.pid for w in self._all]

    def close(self) -> None:
        self._closed = True
        with self._lock:
            workers = list(self._all)
            self._all.clear()
        for w in workers:
            w.kill()


if __name__ == "__main__":
    # Run the loop from the imported module, not from __main__, so that the answers it
    # pickles name kg.sparql.workers.QueryAnswer, which the parent can load.
    from kg.sparql.workers import _worker_main as worker_loop

    _path, _prefixes, _in, _out = sys.argv[1:5]
    worker_loop(_path, json.loads(_prefixes), Connection(int(_in), writable=False),
                Connection(int(_out), readable=False))
