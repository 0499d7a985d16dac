"""The SPARQL server under abuse while other clients keep asking: runaway,
malformed, oversized, SERVICE and update requests each get their status,
and the ordinary clients are answered, with 200, all along."""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path

import pytest

from kg.builder import build, demo_corpus
from kg.serve import ServeConfig, make_server
from kg.sparql.ready import ready_questions

TIMEOUT = 3.0
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    build([demo_corpus()], out, view=False)
    srv = make_server(ServeConfig(build_dir=Path(out), port=0, workers=3, timeout=TIMEOUT, quiet=True))
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def ask(srv, method: str, path: str, body: bytes | None = None, ctype: str | None = None) -> tuple[int, bytes]:
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=60)
    headers = {"Accept": "application/sparql-results+json"}
    if ctype:
        headers["Content-Type"] = ctype
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    except (ConnectionError, http.client.HTTPException) as err:
        if body is not None and len(body) > 1_000_000:
            return 413, str(err).encode()  # the server may close mid-upload after answering 413
        raise
    finally:
        conn.close()


ABUSE = {
    "runaway": ("POST", "/sparql", RUNAWAY.encode(), "application/sparql-query", 503),
    "malformed": ("POST", "/sparql", b"SELEKT ?x WHERE { ?x ?y }", "application/sparql-query", 400),
    "oversized": ("POST", "/sparql", b"SELECT * WHERE { ?s ?p ?o } #" + b"x" * 1_100_000, "application/sparql-query", 413),
    "service": ("POST", "/sparql", b"SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
                "application/sparql-query", 403),
    "update": ("POST", "/sparql", b"INSERT DATA { <http://example.org/a> <http://example.org/b> 1 }",
               "application/sparql-update", 403),
    "not UTF-8": ("POST", "/sparql", b"SELECT * WHERE { ?s ?p \xff }", "application/sparql-query", 400),
}


def test_abuse_gets_the_right_status_while_others_are_served(server):
    questions = list(ready_questions().values())
    assert questions
    stop = threading.Event()
    served: list[tuple[float, int, str]] = []  # (finish time, status, question and answer if not 200)

    def ordinary(seed: int) -> None:
        i = seed
        while not stop.is_set():
            q = questions[i % len(questions)]
            i += 1
            if i % 2:
                status, body = ask(server, "GET", f"/ask/{q.name}")
            else:
                status, body = ask(server, "POST", "/sparql", q.bind().encode(), "application/sparql-query")
            served.append((time.monotonic(), status, q.name if status == 200 else f"{q.name}: {body[:200]!r}"))

    clients = [threading.Thread(target=ordinary, args=(i,), daemon=True) for i in range(4)]
    for c in clients:
        c.start()
    try:
        abuse_status = {}
        windows = {}
        for name, (method, path, body, ctype, _) in ABUSE.items():
            t0 = time.monotonic()
            abuse_status[name] = ask(server, method, path, body, ctype)
            windows[name] = (t0, time.monotonic())
    finally:
        stop.set()
        for c in clients:
            c.join(timeout=60)

    assert {k: s for k, (s, _) in abuse_status.items()} == {k: v[-1] for k, v in ABUSE.items()}
    assert b"SERVICE" in abuse_status["service"][1] or b"service" in abuse_status["service"][1]
    assert served, "no ordinary request was answered"
    bad = [(name, status) for _, status, name in served if status != 200]
    assert bad == []
    # While the runaway query held a worker up to the time limit, others were still answered.
    start, end = windows["runaway"]
    assert end - start >= TIMEOUT * 0.9
    assert sum(start <= t <= end for t, _, _ in served) >= 3


def test_server_keeps_answering_after_the_runaway_worker_was_killed(server):
    status, _ = ask(server, "POST", "/sparql", RUNAWAY.encode(), "application/sparql-query")
    assert status == 503
    for q in list(ready_questions().values())[:3]:
        status, body = ask(server, "GET", f"/ask/{q.name}")
        assert status == 200 and b'"results"' in body


# For the 2-worker server: long enough that a third long query meets the first two still running.
LONG_TIMEOUT = 6.0
LONG_AFTER = 1.0


def wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not reach the expected state"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def two_worker_server(demo_build):
    srv = make_server(ServeConfig(build_dir=Path(demo_build), port=0, workers=2, timeout=LONG_TIMEOUT,
                                  long_after=LONG_AFTER, quiet=True))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_as_many_runaway_clients_as_workers_do_not_starve_the_others(two_worker_server):
    srv = two_worker_server
    questions = list(ready_questions().values())
    stop = threading.Event()
    runaway: list[tuple[float, float, int]] = []  # (start, end, status)
    served: list[tuple[float, float, int]] = []

    def abuser() -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            status, _ = ask(srv, "POST", "/sparql", RUNAWAY.encode(), "application/sparql-query")
            runaway.append((t0, time.monotonic(), status))

    def ordinary(seed: int) -> None:
        i = seed
        while not stop.is_set():
            q = questions[i % len(questions)]
            i += 1
            t0 = time.monotonic()
            status, _ = ask(srv, "GET", f"/ask/{q.name}")
            served.append((t0, time.monotonic(), status))

    abusers = [threading.Thread(target=abuser, daemon=True) for _ in range(2)]
    for a in abusers:
        a.start()
    wait_for(lambda: srv.pool.long_queries() == 2)  # both runaways now count as long queries
    clients = [threading.Thread(target=ordinary, args=(i,), daemon=True) for i in range(3)]
    for c in clients:
        c.start()
    time.sleep(TIMEOUT)
    stop.set()
    for t in clients + abusers:
        t.join(timeout=60)

    assert runaway and {s for _, _, s in runaway} == {503}
    assert served and {s for _, _, s in served} == {200}
    # The ordinary clients never waited for a runaway query to end.
    waits = sorted(end - start for start, end, _ in served)
    assert len(served) >= 10
    assert waits[len(waits) // 2] < 1.0 and waits[-1] < LONG_TIMEOUT, waits


def test_a_third_long_query_is_stopped_early_to_keep_the_reserve(two_worker_server):
    srv = two_worker_server
    out: dict[int, tuple[int, bytes, float]] = {}

    def send(i: int) -> None:
        t0 = time.monotonic()
        status, body = ask(srv, "POST", "/sparql", RUNAWAY.encode(), "application/sparql-query")
        out[i] = (status, body, time.monotonic() - t0)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    wait_for(lambda: srv.pool.long_queries() == 2)
    send(2)  # two long queries run already, the most a 2-worker server allows
    for t in threads:
        t.join(timeout=60)
    assert [s for s, _, _ in out.values()] == [503, 503, 503]
    status, body, took = out[2]
    assert b"long queries" in body and took < LONG_TIMEOUT - LONG_AFTER
    status, body = ask(srv, "GET", f"/ask/{next(iter(ready_questions()))}")
    assert status == 200


def test_malformed_query_is_400_while_every_worker_is_busy(two_worker_server):
    srv = two_worker_server
    threads = [threading.Thread(target=ask, args=(srv, "POST", "/sparql", RUNAWAY.encode(),
                                                  "application/sparql-query")) for _ in range(2)]
    for t in threads:
        t.start()
    wait_for(lambda: srv.pool.idle() == 0)
    t0 = time.monotonic()
    for text in (b"SELEKT ?x WHERE { ?x ?y }", b"ASK { ?s ?p }", b"SELECT * WHERE { ?s ?p ?o } LIMIT x"):
        status, body = ask(srv, "POST", "/sparql", text, "application/sparql-query")
        assert status == 400 and body.startswith(b"SPARQL syntax error: ") and b" at 1:" in body, body
        assert body.count(b"\n") == 1, body
    assert time.monotonic() - t0 < 0.5  # answered without waiting for a worker
    for t in threads:
        t.join(timeout=60)
