"""The canonical pass over a store: one node per entity across all papers.

Reads the names each paper graph uses for its entities (`mlkg:surfaceName`,
`mlkg:surfaceAlias`), resolves them all at once (kg.graph.canonical), renames
entity nodes inside the paper graphs where another paper showed two names to
be one entity, and rewrites the entities graph: classes, the one canonical
`skos:prefLabel`, every other name as `skos:altLabel`, `skos:exactMatch`,
and the names' lowercase forms as `skos:hiddenLabel`.

It streams paper graph by paper graph and keeps only the distinct namings in
memory, so it scales with the vocabulary, not the corpus. Running it twice
gives the same store; its result does not depend on the order papers were
added in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

import pyoxigraph as ox

from kg.graph import vocab
from kg.graph.canonical import Entity, Resolver
from kg.graph.nodes import MLKG, RDF, SKOS, as_node
from kg.graph.vocab import ENTITY_CLASS, SEGMENT_TYPE

_ENTITIES = ox.NamedNode(str(vocab.ENTITIES_GRAPH))
_PAPER_GRAPH_PREFIX = str(vocab.GRAPH["paper/"])
_ID = str(vocab.ID)


@dataclass
class CanonicalReport:
    entities: int = 0
    renamed: int = 0  # entity nodes renamed inside some paper graph


def paper_graphs(db: ox.Store) -> Iterator[ox.NamedNode]:
    for g in db.named_graphs():
        if isinstance(g, ox.NamedNode) and g.value.startswith(_PAPER_GRAPH_PREFIX):
            yield g


def entity_type(iri: str) -> str | None:
    """The record type of an entity IRI (id:dataset/... -> Dataset)."""
    if not iri.startswith(_ID):
        return None
    return SEGMENT_TYPE.get(iri[len(_ID):].split("/", 1)[0])


def namings(db: ox.Store, g: ox.NamedNode) -> dict[ox.NamedNode, tuple[list[str], list[str]]]:
    """Each entity node of paper graph `g` with the names and aliases the paper uses."""
    out: dict[ox.NamedNode, tuple[list[str], list[str]]] = {}
    for quad in db.quads_for_pattern(None, MLKG.surfaceName, None, g):
        out.setdefault(quad.subject, ([], []))[0].append(quad.object.value)
    for quad in db.quads_for_pattern(None, MLKG.surfaceAlias, None, g):
        out.setdefault(quad.subject, ([], []))[1].append(quad.object.value)
    return out


def quad_namings(quads: Iterable[ox.Quad]) -> dict[ox.NamedNode, tuple[list[str], list[str]]]:
    """`namings` of one paper read from its quads instead of the store."""
    out: dict[ox.NamedNode, tuple[list[str], list[str]]] = {}
    for quad in quads:
        if quad.predicate == MLKG.surfaceName:
            out.setdefault(quad.subject, ([], []))[0].append(quad.object.value)
        elif quad.predicate == MLKG.surfaceAlias:
            out.setdefault(quad.subject, ([], []))[1].append(quad.object.value)
    return out


def typed_namings(found: dict[ox.NamedNode, tuple[list[str], list[str]]]) -> Iterator[tuple[str, list[str], list[str]]]:
    """(entity type, names, aliases) of each entity node of `found` that the resolver takes."""
    for _, naming in node_namings(found):
        yield naming


def node_namings(found: dict[ox.NamedNode, tuple[list[str], list[str]]]) -> Iterator[tuple[str, tuple[str, list[str], list[str]]]]:
    """(node IRI, (entity type, names, aliases)) of each entity node of `found` that the resolver takes."""
    for node, (names, aliases) in found.items():
        etype = entity_type(node.value)
        if etype and names:
            yield node.value, (etype, names, aliases)


def add_namings(resolver: Resolver, found: dict[ox.NamedNode, tuple[list[str], list[str]]]) -> None:
    """Pass 1 of the resolver: one paper's namings."""
    for etype, names, aliases in typed_namings(found):
        resolver.add(etype, names, aliases)


def renames(resolver: Resolver, found: dict[ox.NamedNode, tuple[list[str], list[str]]]) -> dict[ox.NamedNode, ox.NamedNode]:
    """Pass 2: the entity nodes of one paper whose canonical IRI differs from their own."""
    return renamed_nodes(resolver, node_namings(found))


def renamed_nodes(resolver: Resolver, namings: Iterable[tuple[str, tuple[str, list[str], list[str]]]]) -> dict[ox.NamedNode, ox.NamedNode]:
    """`renames` from (node IRI, (entity type, names, aliases)) pairs (`node_namings`)."""
    out: dict[ox.NamedNode, ox.NamedNode] = {}
    for node, (etype, names, aliases) in namings:
        iri = resolver.iri_of(etype, names, aliases)
        if iri != node:
            out[ox.NamedNode(node)] = ox.NamedNode(iri)
    return out


def renamed_quads(db: ox.Store, g: ox.NamedNode, changed: dict[ox.NamedNode, ox.NamedNode],
                  quads: Iterable[ox.Quad] | None = None) -> tuple[list[ox.Quad], list[ox.Quad]]:
    """The quads of graph `g` that hold a node `old` of `changed`, and the same
    quads with each such node replaced by `changed[old]`. They are read from
    `db`, or picked from `quads` when given (which must hold all of them:
    a build has them at hand, and reading them back costs more).

    All at once: when one node is renamed to the IRI another node of the same
    paper leaves, the first node's quads stay at the IRI it was given."""
    found: dict[ox.Quad, None] = {}
    if quads is not None:
        found.update(dict.fromkeys(q for q in quads if q.subject in changed or q.object in changed))
    else:
        for old in changed:
            found.update(dict.fromkeys(db.quads_for_pattern(old, None, None, g)))
            found.update(dict.fromkeys(db.quads_for_pattern(None, None, old, g)))
    new = []
    for q in found:
        s, o = q.subject, q.object
        new.append(ox.Quad(changed.get(s, s), q.predicate, changed.get(o, o) if isinstance(o, ox.NamedNode) else o, g))
    return list(found), new


class Renames:
    """Renames of many paper graphs, written to the store together: one SPARQL
    DELETE DATA for the quads that go and one `extend` for those that come,
    each one transaction, every `batch` quads (and at `flush`), instead of a
    transaction per quad. Graphs are independent, so a graph can be read
    while the renames of others wait."""

    # A batch is held twice (as it was and renamed) and as DELETE DATA text:
    # batches of 50,000 quads add ~60 MiB to the export's peak at 50k
    # abstracts; 10,000 keeps the transactions few.
    def __init__(self, db: ox.Store, batch: int = 10_000):
        self.db = db
        self.batch = batch
        self._old: list[ox.Quad] = []
        self._new: list[ox.Quad] = []

    def add(self, g: ox.NamedNode, changed: dict[ox.NamedNode, ox.NamedNode],
            quads: Iterable[ox.Quad] | None = None) -> None:
        """Rename the nodes `changed` in graph `g` (see `renamed_quads` for `quads`)."""
        old, new = renamed_quads(self.db, g, changed, quads)
        self._old += old
        self._new += new
        if len(self._old) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if self._old:
            remove_quads(self.db, self._old)
            self.db.extend(self._new)
        self._old, self._new = [], []


def remove_quads(db: ox.Store, quads: list[ox.Quad]) -> None:
    """Removes `quads` from `db` in one transaction (pyoxigraph removes one quad
    per call, and per transaction, otherwise)."""
    # DELETE DATA takes no blank nodes; kg's graphs have none, but a store
    # loaded from elsewhere might.
    plain, blank = [], []
    for q in quads:
        (blank if any(isinstance(t, ox.BlankNode) for t in (q.subject, q.object, q.graph_name)) else plain).append(q)
    if plain:
        db.update("DELETE DATA { " + " ".join(f"GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }}"
                                              for q in plain) + " }")
    for q in blank:
        db.remove(q)


def entity_quads(entity: Entity) -> Iterator[ox.Quad]:
    node = ox.NamedNode(entity.iri)
    yield ox.Quad(node, RDF.type, as_node(ENTITY_CLASS[entity.etype]), _ENTITIES)
    yield ox.Quad(node, RDF.type, MLKG.Entity, _ENTITIES)
    yield ox.Quad(node, SKOS.prefLabel, ox.Literal(entity.pref_label), _ENTITIES)
    for alt in entity.alt_labels:
        yield ox.Quad(node, SKOS.altLabel, ox.Literal(alt), _ENTITIES)
    for key in hidden_labels([entity.pref_label, *entity.alt_labels]):
        yield ox.Quad(node, SKOS.hiddenLabel, ox.Literal(key), _ENTITIES)
    for iri in entity.exact_match:
        try:
            target = ox.NamedNode(iri)
        except ValueError:
            continue  # a gazetteer id that is no IRI links nothing
        yield ox.Quad(node, SKOS.exactMatch, target, _ENTITIES)


def hidden_labels(names: list[str]) -> list[str]:
    """The lowercase forms of `names` that are not names already: stored as
    skos:hiddenLabel, so that finding a name in any case (kg.sparql.ready) is one
    indexed lookup instead of a scan of every label."""
    return sorted({n.lower() for n in names} - set(names))


def write_entities(db: ox.Store, resolver: Resolver, report: CanonicalReport) -> list[ox.Quad]:
    """Replace the entities graph by the finished resolver's entities; returns its quads
    (one per fact about an entity, a few per entity: the size of the vocabulary)."""
    if db.contains_named_graph(_ENTITIES):
        db.remove_graph(_ENTITIES)
    quads: list[ox.Quad] = []
    for entity in resolver.entities():
        report.entities += 1
        quads.extend(entity_quads(entity))
    db.bulk_extend(quads)
    return quads


def canonicalise(db: ox.Store, resolver: Resolver) -> CanonicalReport:
    """Resolve the entities of every paper graph of `db` and rewrite the entities graph."""
    report = CanonicalReport()
    resolver = resolver.fresh()
    for g in paper_graphs(db):
        add_namings(resolver, namings(db, g))
    resolver.finish()
    # Listed first: Oxigraph's in-memory store blocks writes while an iterator is open.
    batch = Renames(db)
    for g in list(paper_graphs(db)):
        changed = renames(resolver, namings(db, g))
        if changed:
            batch.add(g, changed)
            report.renamed += len(changed)
    batch.flush()
    write_entities(db, resolver, report)
    return report


def orphans(db: ox.Store) -> list[str]:
    """Entities in the entities graph that no paper mentions (always none after `canonicalise`)."""
    q = f"""SELECT DISTINCT ?e WHERE {{
      GRAPH <{vocab.ENTITIES_GRAPH}> {{ ?e a <{vocab.MLKG.Entity}> }}
      FILTER NOT EXISTS {{ GRAPH ?g {{ ?p <{vocab.MLKG.mentions}> ?e }} FILTER(?g != <{vocab.ENTITIES_GRAPH}>) }}
    }} ORDER BY ?e"""
    return [row["e"].value for row in db.query(q)]
