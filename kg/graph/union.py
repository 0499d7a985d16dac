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
view (`UnionWriter.rename`, then `wait`).

`kg build --update`, `kg remove` and `kg export` read the union from the store
instead (KGStore.dump), which gives the same triples.
"""

from __future__ import annotations

import itertools
import operator
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterable, Iterator

import pyoxigraph as ox

from kg.graph import iris
from kg.graph.canonical import Resolver
from kg.graph.entities import CanonicalReport, Renames, entity_quads, quad_namings, renames, write_entities
from kg.graph.vocab import GRAPH, ID, PREFIXES, SEGMENT_TYPE
from kg.timing import StageClock

if TYPE_CHECKING:
    from kg.graph.paper_output import PaperOutput

_ID_PAPER = str(ID["paper/"])
_GRAPH_PAPER = str(GRAPH["paper/"])


def turtle_header() -> bytes:
    return "".join(f"@prefix {k}: <{v}> .\n" for k, v in PREFIXES.items()).encode()


def turtle_body(triples: Iterable[ox.Triple]) -> bytes:
    """Turtle for `triples` without the prefix lines the serializer puts first
    (the file states them once, at its top)."""
    data = ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=PREFIXES)
    lines = data.split(b"\n", len(PREFIXES))
    if len(lines) > len(PREFIXES) and all(line.startswith(b"@prefix ") for line in lines[:-1]):
        return lines[-1]
    return data  # repeated @prefix lines are still valid Turtle


def split_paper(paper_id: str, quads: Iterable[ox.Quad]) -> tuple[list[ox.Quad], list[ox.Quad]]:
    """One paper's quads as (final, waiting): final ones go to graph.ttl at
    once, the others wait for the canonical pass (see the module doc)."""
    node = str(iris.paper_iri(paper_id))
    under = node + "/"
    final, waiting = [], []
    for quad in quads:
        subject = quad.subject.value
        if (subject == node or subject.startswith(under)) and not _is_entity(quad.object):
            final.append(quad)
        else:
            waiting.append(quad)
    return final, waiting


def paper_node_of_graph(graph: str) -> str:
    """The paper's own IRI from its graph's IRI (graph:paper/X -> id:paper/X)."""
    return _ID_PAPER + graph.removeprefix(_GRAPH_PAPER)


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
        self._writer: subprocess.Popen | None = None

    def add_paper(self, paper: PaperOutput) -> None:
        """Take in one paper, made ready by kg.graph.paper_output: its final
        Turtle is written now, its waiting quads go to the spool, and its
        namings to the resolver."""
        for naming in paper.namings:
            self.resolver.add(*naming)
        self._out.write(paper.turtle)
        self._spool.write(paper.waiting)

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
            if os.path.getsize(self.spool_path) >= self.separate_bytes:
                self._writer = _start_writer(self.out_path, self.spool_path, self.resolver)
            else:
                write_waiting(str(self.out_path), str(self.spool_path), self.resolver)
            batch = Renames(db)
            for graph, quads in _by_graph(ox.parse(path=str(self.spool_path), format=ox.RdfFormat.N_QUADS)):
                changed = renames(self.resolver, quad_namings(quads))
                if changed:
                    # every quad that holds an entity waits in the spool, so the
                    # paper's quads there are all the renamed ones of its graph
                    batch.add(graph, changed, quads)
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

    def close(self) -> None:
        """Close the files and stop the writer (after `finish`, or to give up)."""
        if self._writer is not None:
            self._writer.kill()
            self._writer.wait()
            self._writer = None
        for fh in (self._out, self._spool):
            fh.close()


_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


def _resolver_path(spool: str | os.PathLike) -> str:
    return f"{spool}.resolver"


def _start_writer(out: str | os.PathLike, spool: str | os.PathLike, resolver: Resolver) -> subprocess.Popen:
    """`write_waiting` in a process of its own (kg.graph.union_worker)."""
    with open(_resolver_path(spool), "wb") as fh:
        pickle.dump(resolver, fh, protocol=pickle.HIGHEST_PROTOCOL)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [_PACKAGE_ROOT, env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-m", "kg.graph.union_worker", str(out), str(spool),
                             _resolver_path(spool)], stdin=subprocess.DEVNULL, env=env)


def write_waiting(out: str, spool: str, resolver: Resolver) -> None:
    """Appends the waiting triples of `spool`, renamed by the finished
    `resolver`, to the Turtle file `out`: each paper's own ones, then the
    shared ones (the entities graph's among them) once each."""
    shared = dict.fromkeys(q.triple for entity in resolver.entities() for q in entity_quads(entity))
    with open(out, "ab") as fh:
        for graph, quads in _by_graph(ox.parse(path=spool, format=ox.RdfFormat.N_QUADS)):
            changed = renames(resolver, quad_namings(quads))
            node = paper_node_of_graph(graph.value)
            under = node + "/"
            own = []
            # dict.fromkeys: two entities of a paper renamed to one make two triples one
            for triple in dict.fromkeys(_renamed_triple(q, changed) for q in quads):
                subject = triple.subject.value
                if subject == node or subject.startswith(under):
                    own.append(triple)
                else:
                    shared[triple] = None
            fh.write(turtle_body(own))
        # Grouped by subject, so Turtle states each entity in one block.
        fh.write(turtle_body(sorted(shared, key=_subject_order)))


_GRAPH_NAME = operator.attrgetter("graph_name")
_ENTITY_PREFIXES = tuple(str(ID[f"{segment}/"]) for segment in SEGMENT_TYPE)


def _is_entity(term) -> bool:
    return isinstance(term, ox.NamedNode) and term.value.startswith(_ENTITY_PREFIXES)


def _by_graph(quads: Iterator[ox.Quad]) -> Iterator[tuple[ox.NamedNode, list[ox.Quad]]]:
    """The spool's quads, a paper at a time (each paper's quads were written together)."""
    for graph, group in itertools.groupby(quads, key=_GRAPH_NAME):
        yield graph, list(group)


def _renamed_triple(quad: ox.Quad, changed: dict[ox.NamedNode, ox.NamedNode]) -> ox.Triple:
    if not changed:
        return quad.triple
    s, o = quad.subject, quad.object
    return ox.Triple(changed.get(s, s), quad.predicate, changed.get(o, o) if isinstance(o, ox.NamedNode) else o)


def _subject_order(triple: ox.Triple) -> tuple[str, str, str]:
    return triple.subject.value, triple.predicate.value, str(triple.object)
