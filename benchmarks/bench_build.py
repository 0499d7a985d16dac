"""Build time and peak memory at growing corpus sizes, split by stage.

    python3 benchmarks/bench_build.py                          # 10k and 100k abstracts
    python3 benchmarks/bench_build.py --sizes 1000 3000 10000 30000 --workers 2
    python3 benchmarks/bench_build.py --sizes 100000 --no-view
    python3 benchmarks/bench_build.py --ratio                  # kg build / kg extract, one worker
    python3 benchmarks/bench_build.py --sizes 100000 --workers 2 --with-extract   # ... and at 100k, same workers
    python3 benchmarks/bench_build.py --ratio --compare ../main   # ... and of another checkout, same run
    python3 benchmarks/bench_build.py --sizes 10000 20000 --workers 2 --compare ../main   # taking turns

Corpora: ../shared/bench/scale/passages.jsonl (3,910 distinct passages of
real ML papers) up to its length; above it, its passages followed by copies
with new ids and their sentences shuffled (bench_corpus.py). `--ratio` runs
`kg extract` and `kg build` on passages.jsonl, alternating, three times each
(so the machine's noise hits both), and prints the median wall times and
their ratio (the target: at most 1.5).

Each build runs in its own process (python3 benchmarks/bench_build.py --child
...), so one size's memory never carries into the next. Inside it a thread
samples the resident memory of the build and its worker processes every
0.2 s and charges each sample to the stage running at that moment. Stages
interleave in a streaming build (read, extract, records, graph, store), so
their peaks are those of the whole streaming phase; canonicalise, export and
view run after it, one at a time.

Targets: 100k abstracts with --workers 2 on 2 cores in at most 120 s; 1M
projected by the fitted line in at most 20 min; peak memory under 4 GiB;
time growing linearly with corpus size (seconds per abstract flat);
`--ratio` at most 1.5.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# kg's options for the model, on every command this benchmark runs
MODEL: list[str] = []
MiB = 1 << 20


def tree_rss(proc) -> int:
    """Resident bytes of a process and all its children (extraction workers)."""
    import psutil

    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def child(corpus: str, out: str, workers: int, view: bool, use_model: bool = True) -> None:
    """Run one build here and print its figures as JSON on the last line."""
    import psutil

    from kg.builder import build
    from kg.timing import StageClock

    class Clock(StageClock):
        """Notes the CPU used so far when the stream of papers ends (the
        canonical pass starts; the workers have been shut down by then)."""
        stream_cpu: tuple[float, float] | None = None

        def switch(self, stage):
            if stage == "canonicalise" and self.stream_cpu is None:
                self.stream_cpu = _cpu()
            return super().switch(stage)

    clock = Clock()
    peaks: dict[str, int] = {}
    done = threading.Event()
    me = psutil.Process()

    log = Path(out).with_suffix(".log")
    started = time.perf_counter()

    def sample() -> None:
        ticks = 0
        while not done.wait(0.2):
            stage = clock.current or "setup"
            rss = tree_rss(me)
            peaks[stage] = max(peaks.get(stage, 0), rss)
            ticks += 1
            if ticks % 50 == 0:  # every 10 s, so a long run that is stopped still tells something
                with log.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"elapsed": round(time.perf_counter() - started, 1), "stage": stage,
                                         "rss_mib": rss // MiB, "stages": dict(clock.seconds)}) + "\n")

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu_before = _cpu()
    from kg.model import ExtractOptions

    summary = build([corpus], out, workers=workers, view=view, clock=clock,
                    options=ExtractOptions(use_model=use_model))
    cpu = [after - before for after, before in zip(_cpu(), cpu_before)]
    stream_cpu = [at - before for at, before in zip(clock.stream_cpu or _cpu(), cpu_before)]
    done.set()
    sampler.join()
    print(json.dumps({"abstracts": summary.read, "skipped": len(summary.skipped), "triples": summary.triples,
                      "seconds": summary.seconds, "stages": summary.stages, "peaks": peaks,
                      "cpu_build": cpu[0], "cpu_workers": cpu[1], "cpu_build_stream": stream_cpu[0]}))


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process (all its threads) and of its
    ended children (the extraction workers, once the build has shut them down)."""
    import resource

    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def run_size(n: int, workers: int, view: bool, keep: bool, tree: Path = ROOT, with_extract: bool = False) -> dict:
    from bench_corpus import PASSAGES, make_corpus

    corpus = make_corpus(n, source=PASSAGES)
    out = Path(tempfile.mkdtemp(prefix=f"kg-bench-build-{n}-"))
    extracted = None
    if with_extract:
        # The build's floor: the same corpus through `kg extract` with as many
        # workers, just before the build, so the machine's state is alike.
        kg, env = _kg(tree)
        cmd = [*kg, "extract", str(corpus), "-o", str(out / "extract.jsonl"), "--workers", str(workers), *MODEL]
        print(f"extracting {n} abstracts with {tree} (kg extract --workers {workers})", flush=True)
        extracted = _timed(cmd, env, out)[:2]
        (out / "extract.jsonl").unlink(missing_ok=True)
    print(f"building {n} abstracts with {tree} in {out} (progress every 10 s in {out.with_suffix('.log')})",
          flush=True)
    cmd = [sys.executable, __file__, "--child", str(corpus), str(out), "--workers", str(workers),
           "--child-tree", str(tree)]
    if not view:
        cmd.append("--no-view")
    cmd += MODEL
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if not keep:
        shutil.rmtree(out, ignore_errors=True)
    if done.returncode != 0:
        sys.exit(f"benchmark: the build of {n} abstracts failed:\n{done.stderr[-3000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["wall"] = wall
    figures["n"] = n
    figures["load"] = os.getloadavg()
    if extracted is not None:
        figures["extract_wall"], figures["extract_cpu"] = extracted
    return figures


def report(results: list[dict]) -> None:
    stages = ["read", "extract", "records", "graph", "store", "canonicalise", "export", "view"]
    seen = [s for s in stages if any(s in r["stages"] for r in results)]
    seen += sorted({s for r in results for s in r["stages"]} - set(stages))
    print("\nseconds by stage ('setup': building the pipeline and the resolver, committing the outputs)")
    print(f"{'abstracts':>9} {'triples':>10} {'seconds':>8} {'ms/abstr':>8} {'peak MiB':>8}  " +
          " ".join(f"{s[:8]:>8}" for s in ["setup", *seen]))
    for r in results:
        peak = max(r["peaks"].values(), default=0) / MiB
        setup = r["seconds"] - sum(r["stages"].values())
        print(f"{r['abstracts']:9d} {r['triples']:10d} {r['seconds']:8.1f} {1000 * r['seconds'] / r['abstracts']:8.2f} "
              f"{peak:8.0f}  {setup:8.1f} " + " ".join(f"{r['stages'].get(s, 0):8.1f}" for s in seen))
    print("\nload average (1, 5, 15 min) when each build ended (2 cores, shared with other work):")
    for r in results:
        print(f"{r['abstracts']:9d}  " + " ".join(f"{x:.1f}" for x in r.get("load", ())))
    print("\nCPU seconds of the build process (all its threads: while papers stream in, after) and of its"
          " extraction workers (all together), steadier than the clock on a shared machine:")
    for r in results:
        if "cpu_build_stream" in r:
            print(f"{r['abstracts']:9d}  build process {r['cpu_build']:7.1f} (stream {r['cpu_build_stream']:7.1f}, "
                  f"after {r['cpu_build'] - r['cpu_build_stream']:7.1f})  workers {r['cpu_workers']:7.1f}")
    if any("extract_wall" in r for r in results):
        print("\nkg extract of the same corpus with as many workers, just before each build (the build's floor):")
        for r in results:
            if "extract_wall" in r:
                build_cpu = r["cpu_build"] + r["cpu_workers"]
                print(f"{r['abstracts']:9d}  extract {r['extract_wall']:7.1f} s (CPU {r['extract_cpu']:7.1f})  "
                      f"build {r['seconds']:7.1f} s (CPU {build_cpu:7.1f})  build/extract: wall "
                      f"{r['seconds'] / r['extract_wall']:.2f}x, CPU {build_cpu / r['extract_cpu']:.2f}x")
    print("\npeak resident memory by stage (MiB, build process and its workers):")
    print(f"{'abstracts':>9}  " + " ".join(f"{s[:8]:>8}" for s in ["setup", *seen]))
    for r in results:
        print(f"{r['abstracts']:9d}  " + " ".join(f"{r['peaks'].get(s, 0) / MiB:8.0f}" for s in ["setup", *seen]))
    if len(results) >= 2:
        growth(results)


def growth(results: list[dict]) -> None:
    """Least-squares line of seconds against abstracts, and how far each size is from it."""
    xs = [r["abstracts"] for r in results]
    ys = [r["seconds"] for r in results]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    intercept = my - slope * mx
    ss_res = sum((y - (intercept + slope * x)) ** 2 for x, y in zip(xs, ys))
    ss_tot = sum((y - my) ** 2 for y in ys)
    r2 = 1 - ss_res / ss_tot if ss_tot else 1.0
    print(f"\ngrowth: seconds = {intercept:.1f} + {1000 * slope:.2f} ms x abstracts   (R^2 = {r2:.4f})")
    for size in sorted({10_000, 100_000, max(xs), 1_000_000}):
        where = "measured size" if size in xs else "projected"
        print(f"        line at {size:>9,}: {intercept + slope * size:8.0f} s = {(intercept + slope * size) / 60:5.1f} min ({where})")
    first, last = results[0], results[-1]
    size_ratio = last["abstracts"] / first["abstracts"]
    time_ratio = last["seconds"] / first["seconds"]
    mem_first = max(first["peaks"].values()) / MiB
    mem_last = max(last["peaks"].values()) / MiB
    print(f"        {size_ratio:.0f}x the abstracts took {time_ratio:.1f}x the time "
          f"({time_ratio / size_ratio:.2f} of linear) and {mem_last / mem_first:.2f}x the peak memory "
          f"({mem_first:.0f} -> {mem_last:.0f} MiB)")


def compare_sizes(trees: list[Path], results: dict[Path, list[dict]]) -> None:
    """Each checkout's seconds as a multiple of the last one's (this checkout), size by size."""
    print(f"\nagainst {trees[-1]} (same run, taking turns): wall seconds, CPU seconds of the build process "
          "(all threads), and of it while papers stream in")
    for i, n in enumerate(r["abstracts"] for r in results[trees[-1]]):
        mine = results[trees[-1]][i]
        cells = []
        for tree in trees:
            r = results[tree][i]
            cells.append(f"{tree.name}: {r['seconds']:.1f} s ({r['seconds'] / mine['seconds']:.2f}x), "
                         f"CPU {r['cpu_build']:.1f} s ({r['cpu_build'] / mine['cpu_build']:.2f}x), "
                         f"in the stream {r['cpu_build_stream']:.1f} s "
                         f"({r['cpu_build_stream'] / mine['cpu_build_stream']:.2f}x)")
        print(f"{n:9d}  " + "  |  ".join(cells))


def _kg(tree: Path) -> tuple[list[str], dict]:
    """The command that runs `tree`'s kg, and its environment (run it outside
    `tree`: see _timed)."""
    return [sys.executable, "-m", "kg"], {**os.environ, "PYTHONPATH": str(tree)}


def _timed(cmd: list[str], env: dict, cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (all threads, user + system) and output of `cmd`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    # cwd: `python -m` puts the current folder first on the path, before PYTHONPATH
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"benchmark: {' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout + done.stderr


def ratio(trees: list[Path], runs: int) -> None:
    """`kg build` / `kg extract` wall time on passages.jsonl with one worker,
    alternating extract and build (and the trees) so noise hits all alike."""
    from bench_corpus import PASSAGES

    if not PASSAGES.exists():
        sys.exit(f"benchmark: {PASSAGES} is not here (it lives in ../shared)")
    work = Path(tempfile.mkdtemp(prefix="kg-bench-ratio-"))
    times: dict[tuple[Path, str], list[float]] = {}
    stages: dict[Path, list[str]] = {}
    try:
        for i in range(runs):
            for tree in trees:
                kg, env = _kg(tree)
                wall, cpu, _ = _timed([*kg, "extract", str(PASSAGES), "-o", str(work / "records.jsonl"), *MODEL], env, work)
                times.setdefault((tree, "extract"), []).append(wall)
                times.setdefault((tree, "extract cpu"), []).append(cpu)
                wall, cpu, out = _timed([*kg, "build", str(PASSAGES), "-o", str(work / f"build-{i}"), *MODEL], env, work)
                times.setdefault((tree, "build"), []).append(wall)
                times.setdefault((tree, "build cpu"), []).append(cpu)
                stages.setdefault(tree, []).extend(l for l in out.splitlines() if l.startswith("seconds by stage"))
                shutil.rmtree(work / f"build-{i}", ignore_errors=True)
                print(f"run {i + 1}, {tree}: extract {times[(tree, 'extract')][-1]:.2f} s, "
                      f"build {wall:.2f} s  (load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{PASSAGES.name}, one worker, median of {runs} alternating runs "
          "(wall: the target; CPU: all threads, steadier on a shared machine):")
    print(f"{'tree':<32} {'extract s':>9} {'build s':>9} {'build/extract':>13} {'extract CPU':>11} {'build CPU':>9} "
          f"{'CPU ratio':>9}")
    for tree in trees:
        ext, bld = (statistics.median(times[(tree, k)]) for k in ("extract", "build"))
        ext_cpu, bld_cpu = (statistics.median(times[(tree, k)]) for k in ("extract cpu", "build cpu"))
        print(f"{str(tree):<32} {ext:9.2f} {bld:9.2f} {bld / ext:13.2f} {ext_cpu:11.2f} {bld_cpu:9.2f} "
              f"{bld_cpu / ext_cpu:9.2f}")
        for line in stages[tree]:
            print(f"    {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], help="corpus sizes (default 10000 100000)")
    ap.add_argument("--workers", type=int, default=1, help="extraction processes (default 1)")
    ap.add_argument("--no-view", action="store_true", help="skip the HTML view")
    ap.add_argument("--keep", action="store_true", help="keep the build folders (in the temporary folder)")
    ap.add_argument("--ratio", action="store_true", help="kg build / kg extract wall time on passages.jsonl")
    ap.add_argument("--with-extract", action="store_true",
                    help="before each build, run kg extract on the same corpus with as many workers, and print "
                         "build / extract (the target: the stages after extraction at most half of it)")
    ap.add_argument("--runs", type=int, default=3, help="--ratio: runs of each (default 3)")
    ap.add_argument("--compare", metavar="TREE", action="append", default=[],
                    help="also time the kg of this checkout, in the same run (repeatable); with --sizes, "
                         "the checkouts take turns at each size")
    ap.add_argument("--no-model", action="store_true", help="the rules alone (kg's --no-model)")
    ap.add_argument("--child", nargs=2, metavar=("CORPUS", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--child-tree", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.no_model:
        MODEL.append("--no-model")
    trees = [Path(t).resolve() for t in args.compare] + [ROOT]
    if args.ratio:
        ratio(trees, args.runs)
        return
    if args.child:
        if args.child_tree is not None:
            sys.path.insert(0, str(args.child_tree))  # that checkout's kg, not this one's
        child(args.child[0], args.child[1], args.workers, not args.no_view, not args.no_model)
        return
    results: dict[Path, list[dict]] = {tree: [] for tree in trees}
    for n in sorted(args.sizes):
        for tree in trees:
            r = run_size(n, args.workers, not args.no_view, args.keep, tree, args.with_extract)
            print(f"{n} abstracts, {tree}: {r['seconds']:.1f} s, peak {max(r['peaks'].values()) / MiB:.0f} MiB",
                  flush=True)
            results[tree].append(r)
    for tree in trees:
        if len(trees) > 1:
            print(f"\n== {tree}")
        report(results[tree])
    if len(trees) > 1:
        compare_sizes(trees, results)


if __name__ == "__main__":
    main()
