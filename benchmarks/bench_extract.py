"""Extraction throughput, as abstracts per second and as a multiple of spaCy's
bare tokenizer over the same texts in the same run (a figure that does not
depend on how fast or busy the machine is).

    python3 benchmarks/bench_extract.py                 # seed corpus and 10x, 1 and 2 workers
    python3 benchmarks/bench_extract.py --components    # also time each pipeline component
    python3 benchmarks/bench_extract.py --copies 10 --workers 1 2 4
    python3 benchmarks/bench_extract.py --input ../shared/bench/scale/passages.jsonl --workers 1 --no-model

Targets: one worker at most 8x the tokenizer's time with the rules alone
(`--no-model`; with the model kg ships, 12x: bench_model.py); two workers
at least 1.6x faster than one. On a busy machine the measured speed-up says
little, so the last column estimates it for idle cores from CPU times: the
slower of the main process and the workers' CPU time shared among them,
against the one-worker run; and "x tok CPU" is the multiple of the
tokenizer in CPU time, which a busy machine does not skew.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import spacy  # noqa: E402

from bench_corpus import make_corpus, seed_rows  # noqa: E402
from kg.extraction.parallel import parallel_records  # noqa: E402
from kg.extraction.record import Extractor  # noqa: E402
from kg.io import ReadReport, read_inputs  # noqa: E402
from kg.model import ExtractOptions  # noqa: E402


def read(path: Path) -> list:
    report = ReadReport()
    abstracts = list(read_inputs([path], report))
    if report.skipped:
        sys.exit(f"benchmark: {len(report.skipped)} records of {path} were skipped: {report.skipped[0]}")
    return abstracts


def time_tokenizer(texts: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of spaCy's bare English tokenizer, made
    afresh: its cache starts empty, as the extractor's does."""
    tokenizer = spacy.blank("en").tokenizer
    t, cpu = time.perf_counter(), time.process_time()
    for _ in tokenizer.pipe(texts, batch_size=256):
        pass
    return time.perf_counter() - t, time.process_time() - cpu


def median_run(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The run of median wall time among `runs` of (wall, CPU) seconds."""
    return sorted(runs)[len(runs) // 2]


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def time_extract(abstracts: list, workers: int, use_model: bool = True) -> tuple[float, float, float, float]:
    """(seconds including start-up, start-up seconds, CPU seconds of this
    process, CPU seconds of the workers). Start-up is building the pipeline,
    or starting the worker processes and their pipelines."""
    cpu_self, cpu_children = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    if workers == 1:
        extractor = Extractor(use_model=use_model)
        start = time.perf_counter() - t
        n = sum(1 for _ in extractor.records(abstracts))
    else:
        stream = parallel_records(abstracts, ExtractOptions(use_model=use_model), workers=workers)
        n = 0
        for _ in stream:
            if n == 0:
                start = time.perf_counter() - t  # first result: workers up and one chunk done
            n += 1
    assert n == len(abstracts)
    # The workers have exited (the pool shuts down when the stream ends), so their CPU time is counted.
    return (time.perf_counter() - t, start, cpu_seconds(resource.RUSAGE_SELF) - cpu_self,
            cpu_seconds(resource.RUSAGE_CHILDREN) - cpu_children)


def time_components(abstracts: list, use_model: bool = True) -> list[tuple[str, float]]:
    """Seconds added by each component, timed by running the pipeline up to it."""
    nlp = Extractor(use_model=use_model).nlp
    texts = [a.text for a in abstracts]
    names = nlp.pipe_names
    out, previous = [], time_tokenizer(texts)[0]
    out.append(("tokenizer", previous))
    for i, name in enumerate(names):
        with nlp.select_pipes(enable=names[: i + 1]):
            t = time.perf_counter()
            for _ in nlp.pipe(texts, batch_size=64):
                pass
            elapsed = time.perf_counter() - t
        out.append((name, elapsed - previous))
        previous = elapsed
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=10, help="size of the large corpus, in copies of the seed (default 10)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts to time (default 1 2)")
    ap.add_argument("--input", type=Path, help="time this corpus (JSON Lines abstracts) instead of the seed corpus "
                                               "and its copies")
    ap.add_argument("--no-model", action="store_true", help="the rules alone (kg's --no-model)")
    ap.add_argument("--components", action="store_true", help="also time each pipeline component on the large corpus")
    args = ap.parse_args()

    if args.input:
        corpora = {"input": args.input}
    else:
        n_seed = len(seed_rows())
        corpora = {"seed": make_corpus(n_seed), f"{args.copies}x": make_corpus(n_seed * args.copies)}
    large = list(corpora.values())[-1]
    print(f"{'corpus':8} {'abstracts':>9} {'workers':>7} {'seconds':>8} {'start-up':>8} {'abstr/s':>8} "
          f"{'tokenizer s':>11} {'x tokenizer':>11} {'speed-up':>8} {'CPU main':>8} {'CPU wkrs':>8} {'x tok CPU':>9} "
          f"{'idle est':>8}")
    for label, path in corpora.items():
        abstracts = read(path)
        texts = [a.text for a in abstracts]
        time_tokenizer(texts[:50])  # warm up
        base = base_cpu = None
        for workers in args.workers:
            # The tokenizer is timed twice right before each run and once right
            # after it, so that both see the same machine load; its time swings by
            # a third between calls, so the median of the three is the yardstick.
            before = [time_tokenizer(texts), time_tokenizer(texts)]
            seconds, start, cpu_main, cpu_workers = time_extract(abstracts, workers, not args.no_model)
            tok, tok_cpu = median_run(before + [time_tokenizer(texts)])
            base = base or seconds
            # On a machine with `workers` idle cores the run takes as long as its busiest part:
            # the main process, or the workers' CPU time shared among them.
            busiest = max(cpu_main, cpu_workers / workers)
            base_cpu = base_cpu or busiest
            print(f"{label:8} {len(abstracts):9d} {workers:7d} {seconds:8.2f} {start:8.2f} "
                  f"{len(abstracts) / seconds:8.0f} {tok:11.2f} {seconds / tok:11.2f} {base / seconds:8.2f} "
                  f"{cpu_main:8.1f} {cpu_workers:8.1f} {(cpu_main + cpu_workers) / tok_cpu:9.2f} "
                  f"{base_cpu / busiest:8.2f}")
    if args.components:
        abstracts = read(large)
        print(f"\nper component, {len(abstracts)} abstracts, one process (seconds; share of the total):")
        parts = time_components(abstracts, not args.no_model)
        total = sum(s for _, s in parts)
        for name, seconds in parts:
            print(f"  {name:22} {seconds:7.2f}  {seconds / total:5.0%}")


if __name__ == "__main__":
    main()
