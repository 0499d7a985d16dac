"""graph.ttl written while a build streams: the union of the papers' triples,
each once, in Turtle with prefixes, without reading the store back.

Reading a large store back costs ~5 us of CPU per quad (every IRI and text
is a look-up in RocksDB), so a fresh build writes graph.ttl from the quads it
makes, a paper at a time, in three parts:

1. While papers stream in, each triple whose subject belongs to the paper
   (its node, or an IRI under it: sentences, facts, results, the extraction
   run) and whose object is no entity is final: no other paper can state it,
   and the canonical pass never renames it. It is written at once, by
   pyoxigraph's Turtle serializer.
2. A triple whose object is an entity (`mlkg:mentions`, `rdf:subject`, ...)
   is also this paper's alone, but the canonical pass may rename that entity.
   Such triples wait in an N-Quads file next to the outputs and are written
   after the pass, renamed.
3. A triple about a node that is not the paper's (an entity, the extractor)
   may recur in many papers. These wait in the same file; after the pass they
   are renamed, joined with the entities graph, and written once each, grouped
   by subject. They describe the vocabulary (entities, their names, the
   relations between them), so their number grows with the vocabulary, not
   with the corpus.

Parts 2 and 3 need only the spool and the finished resolver, and the renames
in the store need only the same two, so a large build writes them in a second
process (kg.graph.union_worker) while it renames in the store and writes the
view (`UnionWriter.rename`, then `wait`). The renames read back from the spool
only the papers they change: an index next to it gives each paper's place in
it and its entity nodes with their names, which is all the resolver needs to
tell whether a node is renamed (a sixth of the papers have one on passages).

`kg build --update`, `kg remove` and `kg export` read the union from the store
instead (KGStore.dump), which gives the same triples.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterator

import pyoxigraph as ox

from kg.graph import iris
from kg.graph.canonical import Resolver
from kg.graph.entities import (
    CanonicalReport,
    Renames,
    entity_quads,
    renamed_nodes,
    write_entities,
)
from kg.graph.turtle import turtle_body, turtle_header
from kg.timing import StageClock

if TYPE_CHECKING:
    from kg.graph.paper_output import PaperOutput


class UnionWriter:
    """Writes the union of the papers' triples to `out` and runs the canonical
    pass on `db` on the way (see the module doc).

    Feed each paper (kg.graph.paper_output) to `add_paper` while its quads
    are loaded into `db`; once all are loaded, `finish` renames the entities
    the resolver joins, in `db` and in the file, writes the entities graph to
    both and closes the file. `resolver` is fed here (pass 1) and finished in
    `finish`.

    `finish` is `rename` then `wait`: a build that has more to do once the
    store is final (the view) calls them apart, and the rest of the file is
    written meanwhile, by a second process when the waiting triples are many
    (`separate_bytes` of them or more in the spool), which then uses the core
    that extraction used (kg.graph.union_worker). Both passes read the
    spool; neither needs the other."""

    # Below this the rest of the file takes less than starting a process (~0.3 s).
    SEPARATE_BYTES = 8 << 20

    def __init__(self, out: str | os.PathLike, spool: str | os.PathLike, resolver: Resolver,
                 separate_bytes: int = SEPARATE_BYTES):
        self.out_path = out
        self.spool_path = spool
        self.resolver = resolver
        self.separate_bytes = separate_bytes
        self._out: BinaryIO = open(out, "wb")
        self._out.write(turtle_header())
        self._spool: BinaryIO = open(spool, "wb")
        self._spooled = 0  # bytes in the spool so far
        # Where each paper's quads sit in the spool, with its entity nodes and
        # their namings: enough for the resolver to tell which papers have a
        # node renamed (a sixth of them on passages), so that only those are
        # read back as quads (`rename`, `write_waiting`).
        self._index: BinaryIO = open(_index_path(spool), "wb")
        self._entries: list[tuple] = []  # written a batch at a time: a pickle per paper costs more
        self._writer: subprocess.Popen | None = None

    def add_paper(self, paper: PaperOutput) -> None:
        """Take in one paper, made ready by kg.graph.paper_output: its final
        Turtle is written now, its waiting quads go to the spool, and its
        namings to the resolver."""
        for naming in paper.namings:
            self.resolver.add(*naming)
        self._out.write(paper.turtle)
        own, shared = paper.own_waiting, paper.shared
        self._entries.append((paper.id, self._spooled, len(own), len(own) + len(shared), paper.nodes, paper.namings))
        if len(self._entries) >= _INDEX_BATCH:
            self._write_entries()
        self._spool.write(own)
        self._spool.write(shared)
        self._spooled += len(own) + len(shared)

    def finish(self, db: ox.Store, clock: StageClock | None = None) -> CanonicalReport:
        """After the last paper is loaded into `db`: the canonical pass on `db`,
        and the rest of the file."""
        report = self.rename(db, clock)
        self.wait(clock)
        return report

    def rename(self, db: ox.Store, clock: StageClock | None = None) -> CanonicalReport:
        """After the last paper is loaded into `db`: the canonical pass on `db`
        (its entities graph, and the renamed nodes in the paper graphs). The
        rest of the file is being written when it returns; `wait` for it."""
        clock = clock or StageClock()
        report = CanonicalReport()
        with clock.stage("canonicalise"):
            self.resolver.finish()
            write_entities(db, self.resolver, report)
        with clock.stage("export"):
            self._out.close()
            self._spool.close()
            self._write_entries()
            self._index.close()
            if os.path.getsize(self.spool_path) >= self.separate_bytes:
                self._writer = _start_writer(self.out_path, self.spool_path, self.resolver)
            else:
                write_waiting(str(self.out_path), str(self.spool_path), self.resolver)
            batch = Renames(db)
            with open(_index_path(self.spool_path), "rb") as index, open(self.spool_path, "rb") as spool:
                for paper_id, offset, _, size, nodes, namings in _entries(index):
                    changed = renamed_nodes(self.resolver, zip(nodes, namings))
                    if changed:
                        # every quad that holds an entity waits in the spool, so the
                        # paper's quads there are all the renamed ones of its graph
                        spool.seek(offset)
                        quads = list(ox.parse(spool.read(size), format=ox.RdfFormat.N_QUADS))
                        batch.add(ox.NamedNode(str(iris.paper_graph_iri(paper_id))), changed, quads)
                        report.renamed += len(changed)
            batch.flush()
        return report

    def wait(self, clock: StageClock | None = None) -> None:
        """Until the rest of the file is written (after `rename`)."""
        clock = clock or StageClock()
        with clock.stage("export"):
            if self._writer is not None:
                code, self._writer = self._writer.wait(), None
                Path(_resolver_path(self.spool_path)).unlink(missing_ok=True)
                if code != 0:
                    raise RuntimeError(f"writing graph.ttl failed (its process ended with code {code})")
            os.unlink(self.spool_path)
            os.unlink(_index_path(self.spool_path))

    def _write_entries(self) -> None:
        pickle.dump(self._entries, self._index, protocol=pickle.HIGHEST_PROTOCOL)
        self._entries = []

    def close(self) -> None:
        """Close the files and stop the writer (after `finish`, or to give up)."""
        if self._writer is not None:
            self._writer.kill()
            self._writer.wait()
            self._writer = None
        for fh in (self._out, self._spool, self._index):
            fh.close()


_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def _resolver_path(spool: str | os.PathLike) -> str:
    return f"{spool}.resolver"


def _index_path(spool: str | os.PathLike) -> str:
    return f"{spool}.index"


_INDEX_BATCH = 1000


def _entries(index: BinaryIO) -> Iterator[tuple]:
    """The spool index's entries, in the spool's order: (paper id, offset,
    own, size, nodes, namings) for each paper, whose quads are `size` bytes
    at `offset` in the spool, the first `own` bytes those about its own nodes
    (kg.graph.paper_output), and whose entity nodes are `nodes`, one per
    naming of `namings`."""
    while True:
        try:
            yield from pickle.load(index)
        except EOFError:
            return


def _start_writer(out: str | os.PathLike, spool: str | os.PathLike, resolver: Resolver) -> subprocess.Popen:
    """`write_waiting` in a process of its own (kg.graph.union_worker)."""
    with open(_resolver_path(spool), "wb") as fh:
        pickle.dump(resolver, fh, protocol=pickle.HIGHEST_PROTOCOL)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [_PACKAGE_ROOT, env.get("PYTHONPATH")]))
    # Run from this kg's folder: `python -m` puts the current folder first on
    # the path, and another checkout of kg there would write graph.ttl instead.
    return subprocess.Popen([sys.executable, "-m", "kg.graph.union_worker", os.path.abspath(out),
                             os.path.abspath(spool), os.path.abspath(_resolver_path(spool))],
                            stdin=subprocess.DEVNULL, env=env, cwd=_PACKAGE_ROOT)


def write_waiting(out: str, spool: str, resolver: Resolver) -> None:
    """Appends the waiting triples of `spool`, renamed by the finished
    `resolver`, to the Turtle file `out`: each paper's own ones, then the
    shared ones (the entities graph's among them) once each."""
    shared = dict.fromkeys(q.triple for entity in resolver.entities() for q in entity_quads(entity))
    # The shared triples of the papers without a renamed node, as N-Triples
    # lines: they repeat from paper to paper, and comparing lines costs far
    # less than making a triple of each (5/6 of the papers on passages).
    shared_lines: set[bytes] = set()
    with open(out, "ab") as fh, open(spool, "rb") as spooled, open(_index_path(spool), "rb") as index:
        for paper_id, _, own_size, size, nodes, namings in _entries(index):
            data = spooled.read(size)
            changed = renamed_nodes(resolver, zip(nodes, namings))
            if not changed:
                shared_lines.update(_triple_lines(data[own_size:], str(iris.paper_graph_iri(paper_id))))
                fh.write(turtle_body(q.triple for q in ox.parse(data[:own_size], format=ox.RdfFormat.N_QUADS)))
                continue
            node = str(iris.paper_iri(paper_id))
            under = node + "/"
            own = []
            # dict.fromkeys: two entities of a paper renamed to one make two triples one
            for triple in dict.fromkeys(_renamed_triple(q, changed)
                                        for q in ox.parse(data, format=ox.RdfFormat.N_QUADS)):
                subject = triple.subject.value
                if subject == node or subject.startswith(under):
                    own.append(triple)
                else:
                    shared[triple] = None
            fh.write(turtle_body(own))
        shared.update(dict.fromkeys(q.triple for q in ox.parse(b"".join(shared_lines), format=ox.RdfFormat.N_TRIPLES)))
        # Grouped by subject, so Turtle states each entity in one block.
        fh.write(turtle_body(sorted(shared, key=_subject_order)))


def _triple_lines(nquads: bytes, graph: str) -> list[bytes]:
    """The quads of graph `graph`, as pyoxigraph's N-Quads serializer wrote
    them (a quad a line, the graph name last), as N-Triples lines: the same
    lines without the graph name. (A line break inside a literal is written
    escaped, so the graph name and the dot end every line and nothing else.)"""
    in_graph = f" <{graph}> .\n".encode()
    if nquads.count(in_graph) != nquads.count(b"\n"):
        raise ValueError(f"not the quads of {graph} as pyoxigraph writes N-Quads: {nquads[:200]!r}")
    return nquads.replace(in_graph, b" .\n").splitlines(keepends=True)


def _renamed_triple(quad: ox.Quad, changed: dict[ox.NamedNode, ox.NamedNode]) -> ox.Triple:
    if not changed:
        return quad.triple
    s, o = quad.subject, quad.object
    return ox.Triple(changed.get(s, s), quad.predicate, changed.get(o, o) if isinstance(o, ox.NamedNode) else o)


def _subject_order(triple: ox.Triple) -> tuple[str, str, str]:
    return triple.subject.value, triple.predicate.value, str(triple.object)
