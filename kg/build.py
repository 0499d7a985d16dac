"""The build: read -> extract -> records -> graph -> store -> outputs.

Records stream from the readers through the extractor into the store; nothing
holds the whole corpus. Every output is written to a temporary name and moved
into place, so an interrupted build leaves the previous outputs usable.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable

from kg.extract import Extractor
from kg.graph import record_quads
from kg.io import ReadReport, read_inputs
from kg.io.atomic import atomic_write
from kg.store import STORE_DIRNAME, KGStore

RECORDS = "records.jsonl"
GRAPH_TTL = "graph.ttl"
GRAPH_HTML = "graph.html"


def demo_corpus() -> Path:
    """The illustrative demo corpus shipped inside the package."""
    return Path(str(resources.files("kg.data") / "demo" / "abstracts.jsonl"))


@dataclass
class BuildSummary:
    out_dir: Path
    read: int = 0
    skipped: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    entities: Counter = field(default_factory=Counter)
    relations: Counter = field(default_factory=Counter)
    triples: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        out = [f"abstracts read: {self.read}", f"skipped: {len(self.skipped)}"]
        out += [f"  {s}" for s in self.skipped]
        out += [f"warning: {w}" for w in self.warnings]
        out.append("entities: " + (", ".join(f"{k} {v}" for k, v in sorted(self.entities.items())) or "none"))
        out.append("relations: " + (", ".join(f"{k} {v}" for k, v in sorted(self.relations.items())) or "none"))
        out.append(f"triples: {self.triples}")
        out.append(f"seconds: {self.seconds:.1f}")
        out.append(f"outputs: {self.out_dir / RECORDS}, {self.out_dir / GRAPH_TTL}, {self.out_dir / GRAPH_HTML}, "
                   f"store {self.out_dir / STORE_DIRNAME}")
        return out


def build(inputs: Iterable[str | os.PathLike], out_dir: str | os.PathLike, *, fmt: str | None = None,
          gazetteers: Iterable[str | os.PathLike] = (), view: bool = True) -> BuildSummary:
    """A fresh build of `inputs` into `out_dir`, replacing earlier outputs as a whole."""
    t0 = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = BuildSummary(out_dir=out)
    report = ReadReport()
    extractor = Extractor(gazetteers)

    # The new store is built beside the old one and swapped in at the end.
    tmp_store = Path(tempfile.mkdtemp(prefix=".store.", dir=out))
    try:
        store = KGStore(tmp_store)
        batch: list = []
        with atomic_write(out / RECORDS) as rec_out:
            for abstract, record in extractor.records(read_inputs(inputs, report, fmt)):
                rec_out.write(json.dumps(record, ensure_ascii=False) + "\n")
                for etype, ents in record["entities"].items():
                    summary.entities[etype] += len(ents)
                for rel in record["relations"]:
                    summary.relations[rel["p"]] += 1
                batch.extend(record_quads(abstract, record))
                if len(batch) >= 200_000:
                    store.bulk_load(batch)
                    batch = []
            store.bulk_load(batch)
            store.flush()
            summary.triples = len(store)
            del store
        final = out / STORE_DIRNAME
        old = None
        if final.exists():
            old = out / f".store.old.{os.getpid()}"
            os.replace(final, old)
        os.replace(tmp_store, final)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp_store.exists():
            shutil.rmtree(tmp_store, ignore_errors=True)

    store = KGStore.at(out, read_only=True)
    with atomic_write(out / GRAPH_TTL, "wb", encoding=None) as fh:
        store.dump(fh, "ttl")
    if view:
        from kg.view import write_view
        write_view(store, out / GRAPH_HTML)
    summary.read = report.read
    summary.skipped = report.skipped
    summary.warnings = report.warnings
    summary.seconds = time.perf_counter() - t0
    return summary
