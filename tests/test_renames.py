"""Renames collected over many paper graphs and written together
(kg.graph.entities.Renames) leave the store as renaming quad by quad would."""

from __future__ import annotations

import pyoxigraph as ox

from kg.graph.entities import Renames, remove_quads

ID = "https://w3id.org/mlkg/id/"
P = ox.NamedNode("https://w3id.org/mlkg/ontology#p")
XSD_DECIMAL = ox.NamedNode("http://www.w3.org/2001/XMLSchema#decimal")


def node(name: str) -> ox.NamedNode:
    return ox.NamedNode(ID + name)


# Texts an abstract may hold, which the DELETE DATA text must carry unchanged.
LITERALS = [ox.Literal('a "quoted" name'), ox.Literal("back\\slash and\nnew line\ttab"),
            ox.Literal("Straße, naïve, 変換"), ox.Literal("chat", language="fr"), ox.Literal("1.50", datatype=XSD_DECIMAL),
            ox.Literal("}} GRAPH <x> { <a> <b> <c> }")]


def paper_quads(g: ox.NamedNode) -> list[ox.Quad]:
    a, b, c = node("method/a"), node("method/b"), node("dataset/c")
    paper = ox.NamedNode(ID + "paper/" + g.value.rsplit("/", 1)[-1])
    out = [ox.Quad(paper, P, a, g), ox.Quad(paper, P, b, g), ox.Quad(a, P, c, g), ox.Quad(b, P, a, g),
           ox.Quad(ox.BlankNode("x"), P, a, g)]
    out += [ox.Quad(a, P, lit, g) for lit in LITERALS] + [ox.Quad(b, P, lit, g) for lit in LITERALS[:2]]
    return out


def one_by_one(db: ox.Store, g: ox.NamedNode, changed: dict) -> None:
    """The reference: every quad that holds a renamed node, removed and added back renamed, all at once."""
    found = {q for old in changed for q in [*db.quads_for_pattern(old, None, None, g),
                                             *db.quads_for_pattern(None, None, old, g)]}
    for q in found:
        db.remove(q)
    for q in found:
        s, o = q.subject, q.object
        db.add(ox.Quad(changed.get(s, s), q.predicate, changed.get(o, o) if isinstance(o, ox.NamedNode) else o, g))


def dump(db: ox.Store) -> list[str]:
    return sorted(ox.serialize(db, format=ox.RdfFormat.N_QUADS).decode().splitlines())


def test_batched_renames_leave_the_store_as_one_by_one():
    graphs = [ox.NamedNode(f"https://w3id.org/mlkg/graph/paper/p{i}") for i in range(5)]
    plans = [{node("method/a"): node("method/b"), node("method/b"): node("method/z")},  # a chain, at once
             {node("method/a"): node("method/z")},
             {},
             {node("dataset/c"): node("dataset/d"), node("method/b"): node("method/a")},
             {node("method/b"): node("method/a")}]
    batched, reference = ox.Store(), ox.Store()
    for db in (batched, reference):
        db.extend(q for g in graphs for q in paper_quads(g))
    renames = Renames(batched, batch=10)  # flushes in the middle of the run too
    for g, changed in zip(graphs, plans):
        if changed:
            renames.add(g, changed)
            one_by_one(reference, g, changed)
    renames.flush()
    assert dump(batched) == dump(reference)
    assert len(reference) > 0 and dump(batched) != sorted(
        ox.serialize([q for g in graphs for q in paper_quads(g)], format=ox.RdfFormat.N_QUADS).decode().splitlines())


def test_remove_quads_takes_any_literal_and_blank_nodes():
    g = ox.NamedNode("https://w3id.org/mlkg/graph/paper/p0")
    db = ox.Store()
    quads = paper_quads(g)
    db.extend(quads)
    keep = quads[0]
    remove_quads(db, quads[1:])
    assert list(db) == [keep]
