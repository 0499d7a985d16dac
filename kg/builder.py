"""The build: read -> extract -> records -> graph -> store -> outputs.

Records stream from the readers through the extractor into the store; nothing
holds the whole corpus. Every output is written to a temporary name and moved
into place, so an interrupted build leaves the previous outputs usable.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable

from kg.extraction.stream import paper_stream
from kg.graph.canonical import entity_resolver
from kg.graph.union import UnionWriter
from kg.graph.vocab import ENTITIES_GRAPH, ENTITY_CLASS, MLKG, MLS, RELATION
from kg.io import ReadReport, read_inputs
from kg.io.fields import FieldMap
from kg.io.outputs import OutputSet
from kg.io.readers import NothingRead
from kg.model import ExtractOptions
from kg.progress import estimate_abstracts, track
from kg.progress import wanted as progress_wanted
from kg.store import STORE_DIRNAME, KGStore, Optimize
from kg.timing import StageClock
from kg.view import write_view
from kg.view.graphdata import MEASURED_BY

RECORDS = "records.jsonl"
# Quads in the first files handed to the store's loader, and the most in
# one: files grow with what is loaded (kg.store.BackgroundLoad), since a few
# large files cost Oxigraph's bulk loader less than many small ones; the
# ceiling bounds the last one, loaded after extraction ends.
_LOAD_BATCH = 50_000
_LOAD_CEILING = 500_000
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
    entities: Counter = field(default_factory=Counter)   # mentions: once per paper that names the entity
    relations: Counter = field(default_factory=Counter)  # as read, once per paper that states it
    distinct_entities: Counter = field(default_factory=Counter)   # nodes in the graph, by type
    distinct_relations: Counter = field(default_factory=Counter)  # (subject, relation, object) in the graph
    triples: int = 0
    seconds: float = 0.0
    stages: dict = field(default_factory=dict)  # seconds per stage (kg.timing)

    def lines(self) -> list[str]:
        out = [f"abstracts read: {self.read}", f"skipped: {len(self.skipped)}"]
        out += [f"  {s}" for s in self.skipped]
        out += [f"warning: {w}" for w in self.warnings]
        def counts(c: Counter) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "none"
        out.append(f"entity mentions (once per paper that names the entity): {counts(self.entities)}")
        out.append(f"distinct entities in the graph (as in the view): {counts(self.distinct_entities)}")
        out.append(f"relations read (once per paper that states them): {counts(self.relations)}")
        out.append(f"distinct relations in the graph (as in the view): {counts(self.distinct_relations)}")
        out.append(f"quads: {self.triples} (statements in the papers' and the entities' named graphs)")
        out.append(f"seconds: {self.seconds:.1f}")
        if self.stages:
            out.append("seconds by stage: " + ", ".join(f"{k} {v:.1f}" for k, v in self.stages.items()))
        out.append(f"outputs: {self.out_dir / RECORDS}, {self.out_dir / GRAPH_TTL}, {self.out_dir / GRAPH_HTML}, "
                   f"store {self.out_dir / STORE_DIRNAME}")
        return out


_DISTINCT_ENTITIES = """
SELECT ?type (COUNT(?e) AS ?n) WHERE { GRAPH <%s> { ?e a ?type } FILTER(?type != <%s>) } GROUP BY ?type
"""
_DISTINCT_RELATIONS = """
SELECT ?p (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { VALUES ?p { %s } ?s ?p ?o } } GROUP BY ?p
"""
# The view's measuredBy edges: a method and the metric of one of its results.
_DISTINCT_MEASURED = f"""
SELECT (COUNT(*) AS ?n) WHERE {{ SELECT DISTINCT ?m ?x WHERE {{ GRAPH ?g {{
  ?r <{MLS.specifiedBy}> ?x ; <{MLKG.method}> ?m }} }} }}
"""


def distinct_counts(store: KGStore) -> tuple[Counter, Counter]:
    """Distinct entities by type and distinct relations (subject, relation,
    object) in the graph: what the view counts, against the summary's per-paper counts."""
    type_of = {str(iri): etype for etype, iri in ENTITY_CLASS.items()}
    rel_of = {str(iri): name for name, iri in RELATION.items()}
    entities, relations = Counter(), Counter()
    for row in store.query(_DISTINCT_ENTITIES % (ENTITIES_GRAPH, MLKG.Entity)):
        if row["type"].value in type_of:
            entities[type_of[row["type"].value]] = int(row["n"].value)
    for row in store.query(_DISTINCT_RELATIONS % " ".join(f"<{iri}>" for iri in rel_of)):
        relations[rel_of[row["p"].value]] = int(row["n"].value)
    measured = int(next(iter(store.query(_DISTINCT_MEASURED)))["n"].value)
    if measured:
        relations[MEASURED_BY] = measured
    return entities, relations


def finish_outputs(store: KGStore, staged: OutputSet, *, view: bool, clock: StageClock | None = None,
                   exported: bool = False, union: UnionWriter | None = None,
                   optimize: Optimize | None = None) -> None:
    """graph.ttl (unless `exported`: written already, or by `union`, which is
    waited for once the view is written) and graph.html from the finished
    store, then the whole staged set (records, store, graph files) made
    current in one commit, once `optimize` (the store's compaction) is done."""
    clock = clock or StageClock()
    if not exported and union is None:
        with clock.stage("export"), open(staged.path(GRAPH_TTL), "wb") as fh:
            store.dump(fh, "ttl")
    if view:
        with clock.stage("view"):
            write_view(store, staged.path(GRAPH_HTML))
    else:
        staged.drop(GRAPH_HTML)  # a view of the previous graph would mislead
    if union is not None:
        union.wait(clock)
    if optimize is not None:
        with clock.stage("store"):
            optimize.wait()
    store.close()
    with clock.stage("commit"):
        staged.commit()


def build(inputs: Iterable[str | os.PathLike], out_dir: str | os.PathLike, *, fmt: str | None = None,
          options: ExtractOptions = ExtractOptions(), view: bool = True, workers: int = 1,
          dask=None, progress: bool = False, clock: StageClock | None = None,
          fields: FieldMap | None = None) -> BuildSummary:
    """A fresh build of `inputs` into `out_dir`, replacing earlier outputs as a whole.
    `options` holds the user's gazetteer and rules files for extraction.
    Extraction runs in `workers` local processes, or on the Dask cluster `dask`
    (a scheduler address or a distributed.Client); `progress` draws a bar on
    stderr when it is a terminal. `clock` may be passed to watch the stages
    from another thread (the benchmarks sample memory per stage). `fields`
    is the user's --map (kg.io.fields). Raises NothingRead, leaving the
    previous outputs as they were, when not one abstract could be read."""
    # Imported here: the extractor loads spaCy, which the graph side of kg
    # (entity_resolver, finish_outputs, `kg remove`) does not need.

    t0 = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = BuildSummary(out_dir=out)
    report = ReadReport()
    clock = clock or StageClock()
    abstracts = clock.iterate("read", read_inputs(inputs, report, fmt, fields))
    # Each paper comes ready to append (kg.graph.paper_output): with several
    # workers they make it; with one, the worker process extracts while this
    # process makes it, so that extraction and writing overlap (kg.extraction.stream).
    papers = paper_stream(abstracts, options, workers=workers, dask=dask)
    if progress and progress_wanted():
        papers = track(papers, total=estimate_abstracts(inputs, fmt), desc="build")
    # The canonical resolver; the engines build their own from the same
    # gazetteers for the papers' local IRIs.
    resolver = entity_resolver(options.gazetteers)

    # Every output is staged and committed together (kg.io.outputs): a build
    # killed at any moment leaves the previous set, complete and consistent.
    # The store is loaded in a second thread while extraction goes on, and
    # graph.ttl is written from the quads as they are made (kg.graph.union).
    with OutputSet(out) as staged:
        store = KGStore(staged.path(STORE_DIRNAME))
        union = UnionWriter(staged.path(GRAPH_TTL), staged.scratch("union.nq"), resolver)
        try:
            with (store.loader(staged.stage, _LOAD_BATCH, _LOAD_CEILING) as loader,
                  open(staged.path(RECORDS), "w", encoding="utf-8") as rec_out):
                for paper in clock.iterate("extract", papers):
                    with clock.stage("records"):
                        rec_out.write(paper.record_line)
                    summary.entities.update(paper.entities)
                    summary.relations.update(paper.relations)
                    with clock.stage("store"):
                        loader.add(paper.nquads, paper.quads)
                    with clock.stage("export"):
                        union.add_paper(paper)
                with clock.stage("store"):
                    loader.close()  # waits for the last batch
            if report.read == 0:  # an empty graph must not replace the previous one
                store.close()
                raise NothingRead(report)
            # One node per entity across papers, canonical labels. The rest of
            # graph.ttl is written meanwhile (in a second process for a large
            # build), while the store is read for the counts and the view.
            union.rename(store.db, clock)
            # The bulk loader leaves the store in many files, which slow its
            # queries; they are compacted while the counts and the view are made.
            with store.optimize() as optimize:
                with clock.stage("store"):
                    store.flush()
                    summary.triples = len(store)
                    summary.distinct_entities, summary.distinct_relations = distinct_counts(store)
                finish_outputs(store, staged, view=view, clock=clock, union=union, optimize=optimize)
        finally:
            union.close()
    summary.read = report.read
    summary.skipped = report.skipped
    summary.warnings = report.warnings
    summary.seconds = time.perf_counter() - t0
    summary.stages = dict(clock.seconds)
    return summary
