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

`kg build --update`, `kg remove` and `kg export` read the union from the store
instead (KGStore.dump), which gives the same triples.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, BinaryIO, Iterable, Iterator

import pyoxigraph as ox

from kg.graph import iris
from kg.graph.canonical import Resolver
from kg.graph.entities import CanonicalReport, Renames, quad_namings, renames, write_entities
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
    `finish`."""

    def __init__(self, out: str | os.PathLike, spool: str | os.PathLike, resolver: Resolver):
        self.spool_path = spool
        self.resolver = resolver
        self._out: BinaryIO = open(out, "wb")
        self._out.write(turtle_header())
        self._spool: BinaryIO = open(spool, "wb")

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
        clock = clock or StageClock()
        report = CanonicalReport()
        with clock.stage("canonicalise"):
            self.resolver.finish()
            shared = dict.fromkeys(q.triple for q in write_entities(db, self.resolver, report))
        with clock.stage("export"):
            self._spool.close()
            batch = Renames(db)
            for graph, quads in _by_graph(ox.parse(path=str(self.spool_path), format=ox.RdfFormat.N_QUADS)):
                changed = renames(self.resolver, quad_namings(quads))
                if changed:
                    batch.add(graph, changed)
                    report.renamed += len(changed)
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
                self._out.write(turtle_body(own))
            batch.flush()
            # Grouped by subject, so Turtle states each entity in one block.
            self._out.write(turtle_body(sorted(shared, key=_subject_order)))
            self._out.close()
            os.unlink(self.spool_path)
        return report

    def close(self) -> None:
        """Close the files (after `finish`, or to give up)."""
        for fh in (self._out, self._spool):
            fh.close()


_ENTITY_PREFIXES = tuple(str(ID[f"{segment}/"]) for segment in SEGMENT_TYPE)


def _is_entity(term) -> bool:
    return isinstance(term, ox.NamedNode) and term.value.startswith(_ENTITY_PREFIXES)


def _by_graph(quads: Iterator[ox.Quad]) -> Iterator[tuple[ox.NamedNode, list[ox.Quad]]]:
    """The spool's quads, a paper at a time (each paper's quads were written together)."""
    graph, group = None, []
    for quad in quads:
        if quad.graph_name != graph:
            if group:
                yield graph, group
            graph, group = quad.graph_name, []
        group.append(quad)
    if group:
        yield graph, group


def _renamed_triple(quad: ox.Quad, changed: dict[ox.NamedNode, ox.NamedNode]) -> ox.Triple:
    if not changed:
        return quad.triple
    s, o = quad.subject, quad.object
    return ox.Triple(changed.get(s, s), quad.predicate, changed.get(o, o) if isinstance(o, ox.NamedNode) else o)


def _subject_order(triple: ox.Triple) -> tuple[str, str, str]:
    return triple.subject.value, triple.predicate.value, str(triple.object)
