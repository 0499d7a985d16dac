"""What Oxigraph's loader alone costs for a build's quads: the floor under the
`store` stage of `kg build`, whatever the rest of kg does.

    python3 benchmarks/bench_loader.py --build BUILD_DIR   # a kept build (bench_build.py --keep prints where)

The store of the build is dumped as N-Quads, its papers' graphs are put in a
random order (a build meets papers in input order, not in the store's key
order, which would flatter the loader), and the quads are loaded into a fresh
store in a child process two ways, each followed by the compaction the build
runs (`Store.optimize`):

- `build`: paper by paper through kg's own loader (`KGStore.loader`, the
  files and sizes `kg build` uses), waiting for each file, as when the
  extraction workers keep the other core busy;
- `one file`: every quad in one `Store.bulk_load` call.

Prints wall and CPU seconds (all threads of the child, RocksDB's included) and
peak resident memory of each (for `build` it includes the dump's papers, held
in memory to feed the loader as a build's workers would). Compare the CPU with `kg extract` of the same
corpus (bench_build.py --with-extract): the target is that the stages after
extraction cost at most half of it.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_build import _cpu  # noqa: E402  (this folder is first on the path of a script)


def cpu_seconds() -> float:
    """CPU seconds of this process, all its threads (RocksDB's included)."""
    return _cpu()[0]


def papers_in_random_order(dump: Path, seed: int = 0) -> list[bytes]:
    """The dump's quads grouped by named graph, the groups shuffled."""
    graphs: dict[bytes, list[bytes]] = defaultdict(list)
    with dump.open("rb") as fh:
        for line in fh:
            # N-Quads: the graph is the last term before " ."
            graphs[line.rstrip()[:-1].rstrip().rsplit(b" ", 1)[-1]].append(line)
    order = list(graphs)
    random.Random(seed).shuffle(order)
    return [b"".join(graphs[g]) for g in order]


def child(dump: str, how: str, work: str) -> None:
    """Load `dump` one way into a fresh store under `work`; print the figures as JSON."""
    import pyoxigraph as ox

    from kg.builder import _LOAD_BATCH, _LOAD_CEILING
    from kg.store import KGStore

    papers = papers_in_random_order(Path(dump)) if how == "build" else None
    store = KGStore(Path(work) / "store")
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    if how == "build":
        with store.loader(work, _LOAD_BATCH, _LOAD_CEILING) as loader:
            for nquads in papers:
                loader.add(nquads, nquads.count(b"\n"))
    else:
        store.db.bulk_load(path=dump, format=ox.RdfFormat.N_QUADS, lenient=True)
    cpu1, t1 = cpu_seconds(), time.perf_counter()
    store.db.optimize()
    cpu2, t2 = cpu_seconds(), time.perf_counter()
    quads = len(store)
    print(json.dumps({"how": how, "quads": quads, "load_wall": t1 - t0, "load_cpu": cpu1 - cpu0,
                      "optimize_wall": t2 - t1, "optimize_cpu": cpu2 - cpu1,
                      "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", type=Path, help="a build folder (its store is read, not changed)")
    ap.add_argument("--child", nargs=3, metavar=("DUMP", "HOW", "WORK"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.build is None:
        ap.error("--build is required")
    import pyoxigraph as ox

    from kg.store import KGStore, store_path

    work = Path(tempfile.mkdtemp(prefix="kg-bench-loader-"))
    try:
        dump = work / "all.nq"
        source = KGStore(store_path(args.build), read_only=True)
        source.db.dump(str(dump), format=ox.RdfFormat.N_QUADS)
        print(f"{args.build}: {len(source):,} quads, {dump.stat().st_size / 2**20:,.0f} MiB of N-Quads", flush=True)
        print(f"{'how':<9} {'quads':>10} {'load s':>7} {'load CPU':>8} {'optimize s':>10} {'opt. CPU':>8} "
              f"{'CPU in all':>10} {'CPU us/quad':>11} {'peak MiB':>8}")
        for how in ("build", "one file"):
            target = work / how.replace(" ", "-")
            target.mkdir()
            done = subprocess.run([sys.executable, __file__, "--child", str(dump), how.split()[0], str(target)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"benchmark: loading ({how}) failed:\n{done.stderr[-3000:]}")
            r = json.loads(done.stdout.strip().splitlines()[-1])
            total = r["load_cpu"] + r["optimize_cpu"]
            print(f"{how:<9} {r['quads']:10,} {r['load_wall']:7.1f} {r['load_cpu']:8.1f} {r['optimize_wall']:10.1f} "
                  f"{r['optimize_cpu']:8.1f} {total:10.1f} {1e6 * total / r['quads']:11.1f} {r['peak_mib']:8,}",
                  flush=True)
            shutil.rmtree(target, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
