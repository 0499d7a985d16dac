"""Benchmark corpora made at run time from the shared seed abstracts.

Copy k of a seed abstract gets a new id and its sentences in a shuffled
order, so the texts are realistic yet no two are identical (the readers drop
repeated ids, and identical texts would flatter any cache). Written under
/tmp, never into the project.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from pathlib import Path

SEED = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "seed-abstracts.jsonl"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(])")


def seed_rows() -> list[dict]:
    if not SEED.exists():
        sys.exit(f"benchmark: the seed corpus {SEED} is not here (it lives in ../shared)")
    return [json.loads(line) for line in SEED.read_text(encoding="utf-8").splitlines() if line.strip()]


def make_corpus(n: int, out: Path | None = None, seed: int = 0) -> Path:
    """A JSON Lines corpus of `n` abstracts: the seed ones first, then shuffled copies."""
    rows = seed_rows()
    out = out or Path(tempfile.gettempdir()) / f"kg-bench-{n}.jsonl"
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
