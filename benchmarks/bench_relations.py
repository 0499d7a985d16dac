"""What the relation component costs, against spaCy's bare tokenizer.

    python3 benchmarks/bench_relations.py [--repeat 3]

Runs over the shared seed abstracts (../shared/corpus). Prints seconds for the
bare English tokenizer, for the kg pipeline without and with kg_relations,
and the ratios to the tokenizer (the budget for the whole extraction is 8x).
Each figure is CPU time of this process (time.process_time), the best of
--repeat runs, so that other load on the machine counts as little as it can.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import spacy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_corpus import seed_rows  # noqa: E402
from kg.pipeline import extraction_pipeline  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    texts = [row.get("abstract") or row.get("text") or "" for row in seed_rows()]
    bare = spacy.blank("en")
    nlp = extraction_pipeline()
    rel = nlp.get_pipe("kg_relations")
    docs = []

    def tokenizer() -> None:
        for t in texts:
            bare.tokenizer(t)

    def without() -> None:
        docs.clear()
        docs.extend(nlp.pipe(texts, disable=["kg_relations"]))

    def relations_only() -> None:
        for d in docs:
            rel(d)

    t_tok = best(tokenizer, args.repeat)
    t_without = best(without, args.repeat)
    t_rel = best(relations_only, args.repeat)
    n_rel = sum(len(d._.kg_relations or []) for d in docs)
    chars = sum(map(len, texts))
    print(f"abstracts: {len(texts)}, characters: {chars}")
    print(f"bare tokenizer:            {t_tok:7.3f} s")
    print(f"pipeline without relations:{t_without:7.3f} s  ({t_without / t_tok:5.2f}x tokenizer)")
    print(f"kg_relations alone:        {t_rel:7.3f} s  ({t_rel / t_tok:5.2f}x tokenizer, {n_rel} relations)")
    print(f"whole pipeline:            {t_without + t_rel:7.3f} s  ({(t_without + t_rel) / t_tok:5.2f}x tokenizer; budget 8x)")


if __name__ == "__main__":
    main()
