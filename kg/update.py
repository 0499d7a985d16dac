"""Incremental builds: add or replace abstracts in an existing build, or take
papers out, without rebuilding the rest.

A paper's named graph is the unit of change. `update` skips an abstract the
store already holds with the same title, text and metadata (so running it twice
changes nothing), replaces the graph of a known id whose text or metadata changed, and
adds the others. `remove` drops papers' graphs. Either way the canonical
pass then recomputes the entities graph, so entities no paper mentions any
more disappear, and records.jsonl, graph.ttl and graph.html are rewritten
to match. The changed store is a copy of the old one (hard links where the
file system allows), committed with the other outputs at once
(kg.io.outputs): a run killed part-way leaves the previous build intact.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg.builder import RECORDS, finish_outputs
from kg.extraction.stream import record_stream
from kg.graph import record_quads
from kg.graph.build import paper_facts
from kg.graph.canonical import entity_resolver
from kg.io import ReadReport, read_inputs
from kg.io.outputs import OutputSet
from kg.model import Abstract, ExtractOptions
from kg.store import STORE_DIRNAME, KGStore, StoreError, store_path


@dataclass
class UpdateSummary:
    out_dir: Path
    read: int = 0
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    skipped: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    papers: int = 0
    entities: int = 0
    triples: int = 0
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.replaced or self.removed)

    def lines(self) -> list[str]:
        out = []
        if self.read or not (self.removed or self.not_found):
            out += [f"abstracts read: {self.read}", f"added: {len(self.added)}", f"replaced: {len(self.replaced)}",
                    f"unchanged: {self.unchanged}", f"skipped: {len(self.skipped)}"]
            out += [f"  {s}" for s in self.skipped]
        if self.removed or self.not_found:
            out.append(f"removed: {len(self.removed)}")
            out += [f"not in the store: {pid}" for pid in self.not_found]
        out += [f"warning: {w}" for w in self.warnings]
        if self.changed:
            out += [f"papers: {self.papers}", f"entities: {self.entities}", f"quads: {self.triples}"]
        else:
            out.append("nothing changed; outputs left as they were")
        out.append(f"seconds: {self.seconds:.1f}")
        return out


def update(inputs: Iterable[str | os.PathLike], out_dir: str | os.PathLike, *, fmt: str | None = None,
           options: ExtractOptions = ExtractOptions(), view: bool = True, workers: int = 1,
           dask=None, fields=None) -> UpdateSummary:
    """Add the abstracts of `inputs` to the build in `out_dir` (see the module
    doc). Extraction runs as in a build, with the user's files in `options`:
    in this process, in `workers` local processes, or on the Dask cluster `dask`.
    `fields` is the user's --map (kg.io.fields.FieldMap)."""

    t0 = time.perf_counter()
    summary = UpdateSummary(out_dir=Path(out_dir))
    report = ReadReport()
    resolver = entity_resolver(options.gazetteers)

    def change(store: KGStore) -> dict[str, dict | None]:
        changes: dict[str, dict | None] = {}

        def new_or_changed(abstracts: Iterable[Abstract]) -> Iterator[Abstract]:
            for ab in abstracts:
                # same title and text, and every fact of its metadata already stored
                if store.paper_text(ab.id) == (ab.title or "", ab.text) and ab.id not in changes \
                        and all(q in store.db for q in paper_facts(ab)):
                    summary.unchanged += 1
                    continue
                yield ab

        pending = new_or_changed(read_inputs(inputs, report, fmt, fields))
        first = next(pending, None)
        if first is None:
            return changes  # nothing new: no need to load the pipeline
        # The stream pulls abstracts in this thread, between the writes below, so the
        # store is never read and written at once.
        for abstract, record in record_stream(itertools.chain([first], pending), options,
                                              workers=workers, dask=dask):
            pid = record["id"]
            if pid in changes or store.paper_text(pid) is not None:
                if pid not in summary.replaced and pid not in summary.added:
                    summary.replaced.append(pid)
            else:
                summary.added.append(pid)
            store.replace_paper(pid, record_quads(abstract, record, resolver))
            changes[pid] = record
        return changes

    _apply(summary, change, resolver, view)
    summary.read = report.read
    summary.skipped = report.skipped
    summary.warnings = report.warnings
    summary.seconds = time.perf_counter() - t0
    return summary


def remove(paper_ids: Iterable[str], out_dir: str | os.PathLike, *, gazetteers: Iterable[str | os.PathLike] = (),
           view: bool = True) -> UpdateSummary:
    """Take papers out of the build in `out_dir`, with all their facts."""
    t0 = time.perf_counter()
    summary = UpdateSummary(out_dir=Path(out_dir))
    resolver = entity_resolver(gazetteers)

    def change(store: KGStore) -> dict[str, dict | None]:
        changes: dict[str, dict | None] = {}
        for pid in dict.fromkeys(paper_ids):
            if store.remove_paper(pid):
                summary.removed.append(pid)
                changes[pid] = None
            else:
                summary.not_found.append(pid)
        return changes

    _apply(summary, change, resolver, view)
    summary.seconds = time.perf_counter() - t0
    return summary


def _apply(summary: UpdateSummary, change: Callable[[KGStore], dict[str, dict | None]], resolver, view: bool) -> None:
    """Run `change` on a copy of the build's store; if it changed anything,
    recompute the entities, rewrite the outputs and commit them together."""
    out = summary.out_dir
    if not (store_path(out) / "CURRENT").exists():
        raise StoreError(f"no store in {out}; build one first with `kg build INPUT -o {out}`")
    with OutputSet(out) as staged:
        old = KGStore.at(out, read_only=True)
        old.backup(staged.path(STORE_DIRNAME))
        old.close()
        store = KGStore(staged.path(STORE_DIRNAME))
        changes = change(store)
        if not changes:
            store.close()
            return  # leaving without commit discards the copy
        report = store.canonicalise(resolver)
        store.flush()
        summary.papers = len(store.papers())
        summary.entities = report.entities
        summary.triples = len(store)
        _rewrite_records(out / RECORDS, staged.path(RECORDS), changes)
        finish_outputs(store, staged, view=view)


def _rewrite_records(old: Path, new: Path, changes: dict[str, dict | None]) -> None:
    """records.jsonl with each changed record in its old place (or appended),
    removed ones left out; streamed, so its size does not matter."""
    written: set[str] = set()
    with open(new, "w", encoding="utf-8") as fh:
        if old.exists():
            with open(old, encoding="utf-8") as src:
                for line in src:
                    if not line.strip():
                        continue
                    try:
                        pid = json.loads(line).get("id")
                    except (json.JSONDecodeError, AttributeError):
                        pid = None
                    if pid in changes:
                        if changes[pid] is not None and pid not in written:
                            fh.write(json.dumps(changes[pid], ensure_ascii=False) + "\n")
                            written.add(pid)
                        continue
                    fh.write(line if line.endswith("\n") else line + "\n")
        for pid, record in changes.items():
            if record is not None and pid not in written:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
