"""Oxigraph (our store) against rdflib's in-memory store at 1 million triples and more.

The large graph is synthesised from a real build: a corpus is built with
`kg build`, its quads are read back, and each paper's graph is copied under new
paper ids until the graph holds --triples triples (entities stay shared, as
they are in a real corpus where many papers name the same datasets). Both
stores load the same N-Quads file, then answer every ready question.

    python3 benchmarks/bench_store.py                 # 1,000,000 triples
    python3 benchmarks/bench_store.py --triples 2000000 --corpus my.jsonl

Prints load time, each ready question's latency (median of --repeat runs) for
both stores, and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.builder import build, demo_corpus  # noqa: E402
from kg.sparql.ready import ready_questions  # noqa: E402
from kg.store import KGStore  # noqa: E402

SEED = ROOT.parent / "shared" / "corpus" / "seed-abstracts.jsonl"
PAPER_MARK = "/paper/"


def _renamer(copy: int):
    """Maps a term of one paper to the same term of copy number `copy`."""
    cache: dict = {}

    def rename(term):
        if isinstance(term, ox.NamedNode) and PAPER_MARK in term.value:
            node = cache.get(term.value)
            if node is None:
                head, _, tail = term.value.partition(PAPER_MARK)
                node = cache[term.value] = ox.NamedNode(f"{head}{PAPER_MARK}c{copy}-{tail}")
            return node
        return term
    return rename


def synthesise(corpus: Path, triples: int, work: Path) -> tuple[Path, int, int]:
    """An N-Quads file of at least `triples` quads; returns it, its size and the number of papers."""
    build([corpus], work / "base", view=False)
    base = KGStore.at(work / "base", read_only=True)
    quads = list(base.db.quads_for_pattern(None, None, None, None))
    shared = [q for q in quads if PAPER_MARK not in str(q.graph_name)]
    per_paper = [q for q in quads if PAPER_MARK in str(q.graph_name)]
    papers = len(base.papers())
    copies = max(1, -(-(triples - len(shared)) // max(1, len(per_paper))))
    out = work / "big.nq"
    total = len(shared)
    with open(out, "wb") as fh:
        ox.serialize(shared, fh, ox.RdfFormat.N_QUADS)
        for c in range(copies):
            rename = _renamer(c)
            batch = []
            for q in per_paper:
                obj = q.object
                if isinstance(obj, ox.Literal) and q.predicate.value.endswith("/identifier"):
                    obj = ox.Literal(f"c{c}-{obj.value}")
                batch.append(ox.Quad(rename(q.subject), q.predicate, rename(obj), rename(q.graph_name)))
            ox.serialize(batch, fh, ox.RdfFormat.N_QUADS)
            total += len(batch)
    return out, total, papers * copies


def timed(fn, repeat: int) -> tuple[float, int]:
    times, rows = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        rows = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), rows


def timed_with_cap(fn, repeat: int, cap: float) -> tuple[float, int] | None:
    """`timed` in a forked child, killed after `cap` seconds (None then): rdflib's
    evaluation cannot be interrupted otherwise. Only for pure-Python stores."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: measure, report, leave without cleanup
        os.close(r)
        try:
            os.write(w, json.dumps(timed(fn, repeat)).encode())
        finally:
            os._exit(0)
    os.close(w)
    deadline = time.monotonic() + cap
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            data = os.read(r, 1 << 16)
            os.close(r)
            return tuple(json.loads(data)) if data else None
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(r)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--triples", type=int, default=1_000_000, help="size of the synthesised graph (default 1,000,000)")
    ap.add_argument("--corpus", type=Path, default=SEED if SEED.exists() else demo_corpus(),
                    help="abstracts to build and replicate (default: the shared seed corpus, else the demo corpus)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per question; the median is printed (default 3)")
    ap.add_argument("--skip-rdflib", action="store_true", help="measure only Oxigraph")
    ap.add_argument("--rdflib-cap", type=float, default=120.0, metavar="SECONDS",
                    help="give up on an rdflib question after this long (default 120)")
    args = ap.parse_args(argv)

    questions = {name: q.bind() for name, q in ready_questions().items()}
    with tempfile.TemporaryDirectory(prefix="kg-bench-store.") as tmp:
        work = Path(tmp)
        t0 = time.perf_counter()
        nq, size, papers = synthesise(args.corpus, args.triples, work)
        print(f"graph: {size:,} quads, {papers:,} papers, from {args.corpus.name} "
              f"(synthesised in {time.perf_counter() - t0:.1f} s)")

        t0 = time.perf_counter()
        store = ox.Store(str(work / "ox"))
        store.bulk_load(path=str(nq), format=ox.RdfFormat.N_QUADS)
        store.flush()
        ox_load = time.perf_counter() - t0
        ox_times = {}
        for name, text in questions.items():
            ox_times[name] = timed(lambda: len(list(store.query(text, use_default_graph_as_union=True))), args.repeat)
        del store  # closed before forking for rdflib

        rdf_load, rdf_times = None, {}
        if not args.skip_rdflib:
            import rdflib
            t0 = time.perf_counter()
            ds = rdflib.Dataset(default_union=True)
            ds.parse(str(nq), format="nquads")
            rdf_load = time.perf_counter() - t0
            for name, text in questions.items():
                rdf_times[name] = timed_with_cap(lambda: len(list(ds.query(text))), args.repeat, args.rdflib_cap)

    print(f"\n{'':34} {'oxigraph':>12} {'rdflib':>14} {'rdflib/ox':>10}")
    print(f"{'load (s)':34} {ox_load:>12.2f} " + (f"{rdf_load:>14.2f} {rdf_load / ox_load:>9.1f}x"
                                                   if rdf_load is not None else f"{'-':>14}"))
    ratios, capped = [], []
    for name in questions:
        (ot, orows) = ox_times[name]
        label = f"{name} ({orows} rows, ms)"
        if args.skip_rdflib:
            print(f"{label:34} {ot * 1000:>12.1f} {'-':>14}")
            continue
        rd = rdf_times.get(name)
        if rd is None:
            capped.append(name)
            print(f"{label:34} {ot * 1000:>12.1f} {'>' + format(args.rdflib_cap * 1000, '.0f'):>14} "
                  f"{'>' + format(args.rdflib_cap / ot, '.0f') + 'x':>10}")
            continue
        print(f"{label:34} {ot * 1000:>12.1f} {rd[0] * 1000:>14.1f} {rd[0] / ot:>9.1f}x")
        if rd[1] != orows:
            print(f"  note: rdflib gave {rd[1]} rows, Oxigraph {orows}")
        ratios.append(rd[0] / ot)
    if ratios:
        print(f"\nratios (rdflib in-memory / Oxigraph): load {rdf_load / ox_load:.1f}x; query latency median "
              f"{statistics.median(ratios):.1f}x, min {min(ratios):.1f}x, max {max(ratios):.1f}x over "
              f"{len(ratios)} ready questions" + (f"; {len(capped)} more stopped at the {args.rdflib_cap:g} s cap "
                                                   f"in rdflib ({', '.join(capped)})" if capped else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
