"""Benchmark corpora made at run time from the shared seed abstracts.

Copy k of a seed abstract gets a new id and its sentences in a shuffled
order, so the texts are realistic yet no two are identical (the readers drop
repeated ids, and identical texts would flatter any cache). Written to the
system's temporary folder, never into the project.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SEED = SHARED / "corpus" / "seed-abstracts.jsonl"
# 3,910 distinct passages of real ML papers: the source of the build benchmarks
PASSAGES = SHARED / "bench" / "scale" / "passages.jsonl"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(])")


def seed_rows(source: Path = SEED) -> list[dict]:
    if not source.exists():
        sys.exit(f"benchmark: the corpus {source} is not here (it lives in ../shared)")
    return [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]


def make_corpus(n: int, out: Path | None = None, seed: int = 0, source: Path = SEED) -> Path:
    """A JSON Lines corpus of `n` abstracts: those of `source` (the seed
    abstracts unless told) first, then shuffled copies."""
    rows = seed_rows(source)
    name = f"kg-bench-{n}.jsonl" if source == SEED else f"kg-bench-{source.stem}-{n}.jsonl"
    out = out or Path(tempfile.gettempdir()) / name
    if out.exists() and sum(1 for _ in out.open(encoding="utf-8")) == n:
        return out
    rng = random.Random(seed)
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for i in range(n):
            row = dict(rows[i % len(rows)])
            copy = i // len(rows)
            if copy:
                sentences = _SENTENCE_END.split(row["abstract"])
                rng.shuffle(sentences)
                row["abstract"] = " ".join(sentences)
                row["id"] = f"{row['id']}-copy{copy}"
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(out)
    return out
