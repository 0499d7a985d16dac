"""Load and abuse the SPARQL server: many clients asking the ready questions
while a few others send runaway, malformed, oversized, SERVICE and update
requests. Prints requests per second, latency percentiles, errors and the
memory of the server (its process and its query workers) over the run.

    python3 benchmarks/load_server.py                      # 50 clients, 60 s, demo corpus
    python3 benchmarks/load_server.py --clients 20 --seconds 10 --build outputs/
    python3 benchmarks/load_server.py --url http://127.0.0.1:7878   # a server already running

Without --url it builds the demo corpus into a temporary folder (unless
--build names a build folder) and starts `kg serve` in a child process, so
the memory figures are the server's alone. The exit code is 1 if a ready
question got anything but 200 or an abuse request got the wrong status.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# Abuse requests: (name, method, path, body, content type, the statuses that are right)
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
ABUSE = [
    ("runaway", "POST", "/sparql", RUNAWAY, "application/sparql-query", {503}),
    ("malformed", "POST", "/sparql", "SELEKT ?x WHERE { ?x ?y }", "application/sparql-query", {400}),
    ("oversized", "POST", "/sparql", "SELECT * WHERE { ?s ?p ?o } #" + "x" * 1_100_000, "application/sparql-query", {413}),
    ("service", "POST", "/sparql", "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
     "application/sparql-query", {403}),
    ("update", "POST", "/sparql", "INSERT DATA { <http://example.org/a> <http://example.org/b> 1 }",
     "application/sparql-update", {403}),
    ("update-in-query", "GET", "/sparql?query=" + quote("DELETE WHERE { ?s ?p ?o }"), None, None, {400, 403}),
]


def ready_requests() -> list[tuple[str, str, str, str | None, str | None]]:
    """(label, method, path, body, content type) for every ready question, both
    as /ask/NAME with its example values and as the bound text POSTed to /sparql."""
    from kg.sparql.ready import ready_questions

    out = []
    for name, q in ready_questions().items():
        out.append((f"ask/{name}", "GET", f"/ask/{name}", None, None))
        out.append((f"sparql/{name}", "POST", "/sparql", q.bind(), "application/sparql-query"))
    return out


class Client(threading.Thread):
    """One client on one keep-alive connection, reconnecting when the server closes it."""

    def __init__(self, host: str, port: int, requests: list, stop: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.host, self.port, self.requests, self.stop = host, port, requests, stop
        self.rng = random.Random(seed)
        self.results: list[tuple[str, int, float]] = []  # (label, status or -1, seconds)
        self.failures: list[str] = []
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: str | None, ctype: str | None) -> int:
        headers = {"Accept": "application/sparql-results+json"}
        if ctype:
            headers["Content-Type"] = ctype
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            try:
                self.conn.request(method, path, body=body.encode() if body is not None else None, headers=headers)
                resp = self.conn.getresponse()
                resp.read()
                if resp.will_close:
                    self.conn.close()
                    self.conn = None
                return resp.status
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt == 2 or body is not None and len(body) > 1_000_000:
                    # An oversized body may be cut off by the server after its 413: that is a refusal.
                    return 413 if body is not None and len(body) > 1_000_000 else -1
        return -1

    def run(self) -> None:
        while not self.stop.is_set():
            label, method, path, body, ctype = self.rng.choice(self.requests)[:5]
            t0 = time.perf_counter()
            status = self.request(method, path, body, ctype)
            self.results.append((label, status, time.perf_counter() - t0))


class AbuseClient(Client):
    def run(self) -> None:
        i = 0
        while not self.stop.is_set():
            label, method, path, body, ctype, ok = self.requests[i % len(self.requests)]
            i += 1
            t0 = time.perf_counter()
            status = self.request(method, path, body, ctype)
            self.results.append((label, status, time.perf_counter() - t0))
            if status not in ok:
                self.failures.append(f"{label}: status {status}, expected {sorted(ok)}")
            self.stop.wait(0.2)


def server_memory(pid: int) -> float:
    """MiB resident: the server process and all its children (query workers)."""
    import psutil

    try:
        proc = psutil.Process(pid)
        procs = [proc] + proc.children(recursive=True)
    except psutil.NoSuchProcess:
        return 0.0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def start_server(build_dir: Path, workers: int, timeout: float) -> tuple[subprocess.Popen, str]:
    cmd = [sys.executable, "-m", "kg", "serve", "--store", str(build_dir), "--port", "0",
           "--workers", str(workers), "--timeout", str(timeout), "--quiet"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line and proc.poll() is not None:
            raise SystemExit(f"the server did not start (exit code {proc.returncode})")
        m = re.search(r"(http://[\d.]+:\d+)/sparql", line)
        if m:
            threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep the pipe drained
            return proc, m.group(1)
    proc.kill()
    raise SystemExit("the server did not start within 120 s")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50, help="concurrent clients asking ready questions (default 50)")
    ap.add_argument("--abusers", type=int, default=1, help="concurrent clients sending bad requests (default 1; 0: none)")
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the run (default 60)")
    ap.add_argument("--build", type=Path, help="build folder to serve (default: the demo corpus, built now)")
    ap.add_argument("--url", help="load a server that is already running instead of starting one")
    ap.add_argument("--workers", type=int, default=None,
                    help="query workers of the started server (default: as `kg serve`, from the CPU count)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="query time limit of the started server (default: as `kg serve`)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    return ap.parse_args(argv)


def run_clients(normal: list[Client], abusers: list[Client], stop: threading.Event, seconds: float,
                proc: subprocess.Popen | None) -> tuple[list[float], float]:
    """Run every client for `seconds`, sampling the server's memory each second
    (when it is our child); the memory samples and the seconds the run took."""
    memory: list[float] = []
    if proc:
        memory.append(server_memory(proc.pid))
    t0 = time.perf_counter()
    for c in normal + abusers:
        c.start()
    while time.perf_counter() - t0 < seconds:
        time.sleep(1.0)
        if proc:
            memory.append(server_memory(proc.pid))
    stop.set()
    for c in normal + abusers:
        c.join(timeout=150)
    return memory, time.perf_counter() - t0


def stop_server(proc: subprocess.Popen | None, tmp: tempfile.TemporaryDirectory | None) -> None:
    if proc:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    if tmp:
        tmp.cleanup()


def summarise(normal: list[Client], abusers: list[Client], memory: list[float], elapsed: float,
              args: argparse.Namespace) -> tuple[dict, Counter, list[str]]:
    """The run's figures, the ready questions' errors and the abuse answered wrongly."""
    results = [r for c in normal for r in c.results]
    latencies = [s for _, status, s in results if status == 200]
    errors = Counter(f"{label} -> {status}" for label, status, _ in results if status != 200)
    abuse = Counter(f"{label} -> {status}" for c in abusers for label, status, _ in c.results)
    abuse_failures = [f for c in abusers for f in c.failures]
    # Memory after warm-up (first 10% of the run) to its end: growth there would mean a leak.
    warm = memory[max(1, len(memory) // 10):] if len(memory) > 2 else memory
    figures = {
        "clients": args.clients, "abusers": args.abusers, "seconds": round(elapsed, 1),
        "requests": len(results), "requests_per_second": round(len(results) / elapsed, 1),
        "latency_ms": {f"p{p}": round(pct(latencies, p) * 1000, 1) for p in (50, 90, 99)}
        | {"max": round(max(latencies, default=float("nan")) * 1000, 1),
           "mean": round(statistics.fmean(latencies) * 1000, 1) if latencies else None},
        "errors": sum(errors.values()), "error_kinds": dict(errors),
        "abuse_statuses": dict(sorted(abuse.items())), "abuse_wrong_status": abuse_failures[:10],
        "memory_mib": {"start": round(memory[0], 1), "after_warm_up": round(warm[0], 1),
                       "end": round(memory[-1], 1), "max": round(max(memory), 1)} if memory else None,
    }
    return figures, errors, abuse_failures


def print_figures(figures: dict, errors: Counter, abuse_failures: list[str], server: str | None) -> None:
    if server:
        print(server)
    print(f"{figures['clients']} clients (+{figures['abusers']} abusive) for {figures['seconds']} s: "
          f"{figures['requests']} ready-question requests, {figures['requests_per_second']} per second")
    lat = figures["latency_ms"]
    print(f"latency ms: p50 {lat['p50']}, p90 {lat['p90']}, p99 {lat['p99']}, max {lat['max']}, mean {lat['mean']}")
    print(f"errors: {figures['errors']}" + (f" {figures['error_kinds']}" if errors else ""))
    print("abuse answered: " + ", ".join(f"{k} x{v}" for k, v in figures["abuse_statuses"].items()))
    if abuse_failures:
        print("abuse with a wrong status: " + "; ".join(abuse_failures[:10]))
    if figures["memory_mib"]:
        m = figures["memory_mib"]
        print(f"server memory MiB (process + workers): start {m['start']}, after warm-up {m['after_warm_up']}, "
              f"end {m['end']}, max {m['max']}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    from kg.serve import ServeConfig, default_workers

    workers = args.workers or default_workers()
    timeout = args.timeout or ServeConfig(build_dir=Path(".")).timeout
    proc = None
    tmp = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        build_dir = args.build
        if build_dir is None:
            from kg.builder import build, demo_corpus
            tmp = tempfile.TemporaryDirectory(prefix="kg-load.")
            build_dir = Path(tmp.name)
            build([demo_corpus()], build_dir, view=False)
        proc, base = start_server(build_dir, workers, timeout)
    split = urlsplit(base)
    host, port = split.hostname, split.port or 80

    stop = threading.Event()
    normal = [Client(host, port, ready_requests(), stop, seed=i) for i in range(args.clients)]
    abusers = [AbuseClient(host, port, ABUSE, stop, seed=1000 + i) for i in range(args.abusers)]
    try:
        memory, elapsed = run_clients(normal, abusers, stop, args.seconds, proc)
    finally:
        stop.set()
        stop_server(proc, tmp)

    figures, errors, abuse_failures = summarise(normal, abusers, memory, elapsed, args)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print_figures(figures, errors, abuse_failures,
                      f"server: {workers} query workers, {timeout:g} s time limit" if proc else None)
    return 1 if errors or abuse_failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
