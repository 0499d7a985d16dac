"""How fast records become quads, and how long the canonical pass takes.

Runs the graph stage alone (no NLP): the abstracts of INPUT are paired with
their records from RECORDS (a build's records.jsonl), each paper copied
--copies times under new ids, so the canonical pass sees a large store.

    python3 benchmarks/bench_graph.py INPUT.jsonl RECORDS.jsonl [--copies 50]

Prints records/s and quads/s of record_quads, the seconds of loading an
in-memory store, and of the canonical pass over it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyoxigraph as ox  # noqa: E402

from kg.graph.build import default_resolver, record_quads  # noqa: E402
from kg.graph.entities import canonicalise  # noqa: E402
from kg.io import ReadReport, read_inputs  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="the abstracts the records were extracted from")
    ap.add_argument("records", help="records.jsonl of a build of INPUT")
    ap.add_argument("--copies", type=int, default=50, help="copies of each paper (default: 50)")
    args = ap.parse_args()

    abstracts = {a.id: a for a in read_inputs([args.input], ReadReport())}
    records = [json.loads(line) for line in Path(args.records).read_text(encoding="utf-8").splitlines() if line.strip()]
    pairs = [(abstracts[r["id"]], r) for r in records if r["id"] in abstracts]
    resolver = default_resolver()

    db = ox.Store()
    quads = 0
    quads_s = load_s = 0.0
    for i in range(args.copies):
        t0 = time.perf_counter()
        batch = []
        for ab, rec in pairs:
            batch.extend(record_quads(ab, dict(rec, id=f"{rec['id']}-{i}"), resolver))
        t1 = time.perf_counter()
        db.bulk_extend(batch)
        quads_s += t1 - t0
        load_s += time.perf_counter() - t1
        quads += len(batch)
    papers = len(pairs) * args.copies
    t1 = time.perf_counter()
    report = canonicalise(db, resolver)
    canon_s = time.perf_counter() - t1
    print(f"papers: {papers}")
    print(f"record_quads: {quads_s:.1f} s ({papers / quads_s:.0f} records/s, {quads / quads_s:.0f} quads/s)")
    print(f"loading the in-memory store: {load_s:.1f} s")
    print(f"canonical pass: {canon_s:.1f} s ({papers / canon_s:.0f} papers/s), "
          f"{report.entities} entities, {report.renamed} nodes renamed")


if __name__ == "__main__":
    main()
