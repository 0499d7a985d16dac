"""What the learned model costs: extraction with and without it against spaCy's
bare tokenizer, a build against an extraction of the same corpus, and the
peak memory of an extracting process.

    python3 benchmarks/bench_model.py --input ../shared/bench/scale/passages.jsonl
    python3 benchmarks/bench_model.py --input ../shared/bench/scale/passages.jsonl --model MODEL_DIR

Figures, all measured in this run on the same texts:
- "x tokenizer": CPU seconds of `Extractor` (one process, the whole
  pipeline, titles included) over the CPU seconds of spaCy's bare English
  tokenizer, the median of three tokenizer runs around it. Targets: the
  rules alone at most 8x, with the model at most 12x.
- "build / extract": wall and CPU time of `kg build INPUT` over `kg extract
  INPUT`, each a whole command with one worker. Target: at most 1.5x.
- "peak MiB": the largest resident size of a `kg extract` process with the
  model. Target: under 1 GiB per worker.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_extract import median_run, read, time_tokenizer  # noqa: E402
from kg.extraction.record import Extractor  # noqa: E402


def extract_cpu(abstracts: list, **options) -> float:
    """CPU seconds of one Extractor over `abstracts` (after its start-up)."""
    extractor = Extractor(**options)
    cpu = time.process_time()
    n = sum(1 for _ in extractor.records(abstracts))
    assert n == len(abstracts)
    return time.process_time() - cpu


def x_tokenizer(abstracts: list, texts: list[str], **options) -> tuple[float, float]:
    """(extraction CPU seconds, the same over the tokenizer's)."""
    before = [time_tokenizer(texts), time_tokenizer(texts)]
    cpu = extract_cpu(abstracts, **options)
    _, tok_cpu = median_run(before + [time_tokenizer(texts)])
    return cpu, cpu / tok_cpu


def command(args: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak resident MiB) of one kg command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kg", *args, "--quiet"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", type=Path, required=True, help="abstracts (JSON Lines) to time")
    ap.add_argument("--model", help="a model folder (default: the one shipped with kg)")
    args = ap.parse_args()
    model = ["--model", args.model] if args.model else []
    abstracts = read(args.input)
    texts = [a.text for a in abstracts]
    time_tokenizer(texts[:50])  # warm up
    rules_cpu, rules_x = x_tokenizer(abstracts, texts, use_model=False)
    model_cpu, model_x = x_tokenizer(abstracts, texts, model=args.model)
    print(f"{len(abstracts)} abstracts of {args.input.name}, one process")
    print(f"  rules alone   {rules_cpu:7.1f} CPU-s  {rules_x:5.2f}x tokenizer  (target 8x)")
    print(f"  with model    {model_cpu:7.1f} CPU-s  {model_x:5.2f}x tokenizer  (target 12x)")
    with tempfile.TemporaryDirectory() as tmp:
        ex_wall, ex_cpu, ex_peak = command(["extract", str(args.input), "-o", f"{tmp}/r.jsonl", *model])
        b_wall, b_cpu, _ = command(["build", str(args.input), "-o", f"{tmp}/out", *model])
    print(f"  kg extract    {ex_wall:7.1f} s ({ex_cpu:.1f} CPU-s), peak {ex_peak:.0f} MiB  (target < 1024)")
    print(f"  kg build      {b_wall:7.1f} s ({b_cpu:.1f} CPU-s)")
    print(f"  build / extract  {b_wall / ex_wall:.2f}x wall, {b_cpu / ex_cpu:.2f}x CPU  (target 1.5x)")


if __name__ == "__main__":
    main()
