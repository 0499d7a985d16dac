"""The map (kg.view.overview, kg.view.layout.map_layout) on graphs made for
these tests: what it keeps, what it leaves out and says so, and how it lays
its communities out."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import networkx as nx
import numpy as np

from kg.view.layout import map_layout, place_discs
from kg.view.overview import overview


def entity_graph(edges, papers=None, loners=()):
    """A graph shaped as kg.view.graphdata reads one: entity nodes with n_papers, weighted relation edges."""
    g = nx.MultiDiGraph()
    papers = papers or {}
    for a, b, *w in edges:
        for n in (a, b):
            g.add_node(n, n_papers=papers.get(n, 1))
        g.add_edge(a, b, key="addresses", rel="addresses", weight=w[0] if w else 1)
    for n in loners:
        g.add_node(n, n_papers=papers.get(n, 1))
    return g


def two_stars_and_confetti():
    """Two hubs with fans of leaves, tied by a bridge; pairs and loners around them."""
    edges = [("hubA", f"a{i}") for i in range(30)] + [("hubB", f"b{i}") for i in range(30)]
    edges += [("hubA", "bridge", 3), ("bridge", "hubB", 3)]
    edges += [(f"p{i}", f"q{i}") for i in range(12)]                  # isolated pairs
    edges += [("t0", "t1"), ("t1", "t2")]                              # a small piece
    papers = {"hubA": 40, "hubB": 30, "a0": 9, "b0": 8, "p0": 50, "q0": 2}
    return entity_graph(edges, papers, loners=[f"l{i}" for i in range(20)])


def test_the_map_leaves_out_loners_pairs_and_small_pieces_and_says_how_many():
    g = two_stars_and_confetti()
    ov = overview(g)
    assert ov.nodes == {"hubA", "hubB", "bridge"} | {f"a{i}" for i in range(30)} | {f"b{i}" for i in range(30)}
    assert (ov.unrelated, ov.pairs, ov.trimmed) == (20, 12, 3)
    assert ov.line() == ("The map shows the 63 best-connected entities in "
                         f"{len(ov.communities)} clusters; left out: 20 with no relation, 12 isolated pairs "
                         "and 3 less connected.")
    assert sorted(n for c in ov.communities for n in c) == sorted(ov.nodes)
    assert len(ov.communities) >= 2, "the two stars are communities of their own"


def test_over_its_budget_the_map_drops_the_weakest_leaves_first_and_stays_connected():
    g = two_stars_and_confetti()
    ov = overview(g, budget=20)
    assert len(ov.nodes) <= 20
    assert {"hubA", "hubB", "bridge", "a0", "b0"} <= ov.nodes, "the weightiest stay"
    sub = nx.Graph(g.subgraph(ov.nodes))
    assert nx.is_connected(sub), "taking leaves never splits the map"
    kept_leaves = [n for n in ov.nodes if n.startswith(("a", "b")) and n != "bridge"]
    assert all(g.nodes[n]["n_papers"] >= 1 for n in kept_leaves)
    assert ov.trimmed == g.number_of_nodes() - 20 - 24 - len(ov.nodes)


def test_a_dense_core_over_the_budget_keeps_the_weightiest_pieces():
    core = nx.complete_graph(12)
    edges = [(f"c{a}", f"c{b}") for a, b in core.edges]
    papers = {f"c{i}": 20 - i for i in range(12)}
    ov = overview(entity_graph(edges, papers), budget=5)
    assert ov.nodes == {f"c{i}" for i in range(5)}


def test_a_much_named_entity_in_a_pair_is_put_beside_the_entity_named_with_it_most():
    g = two_stars_and_confetti()
    asked = []

    def named_with(iris):
        asked.append(list(iris))
        return {iri: [("q0", 7), ("hubB", 5), ("hubA", 2)] for iri in iris}

    ov = overview(g, named_with=named_with)
    assert asked == [["p0"]], "only the much-named entity off the map is looked up"
    assert ov.anchors == {"p0": ("hubB", 5)}, "beside the first entity named with it that is on the map"
    assert "p0" in ov.nodes and "q0" not in ov.nodes
    assert any({"p0", "hubB"} <= set(c) for c in ov.communities)
    assert ov.pairs == 11, "its pair is no longer counted as left out whole"


def test_nothing_tied_to_enough_is_no_map():
    ov = overview(entity_graph([("a", "b"), ("c", "d")], loners=["e"]))
    assert not ov.nodes and ov.communities == []


def test_discs_do_not_overlap_and_linked_ones_sit_closer():
    radii = np.array([5.0, 3.0, 3.0, 2.0, 1.0, 1.0])
    links = {(0, 1): 10.0, (0, 2): 1.0, (3, 4): 4.0}
    pos = place_discs(radii, links)
    for i in range(len(radii)):
        for j in range(i + 1, len(radii)):
            assert math.dist(pos[i], pos[j]) >= radii[i] + radii[j] - 1e-6, (i, j)
    gap = lambda i, j: math.dist(pos[i], pos[j]) - radii[i] - radii[j]  # noqa: E731
    assert gap(0, 1) < gap(1, 5) and gap(3, 4) < gap(4, 2)
    assert (place_discs(radii, links) == pos).all(), "the same communities get the same picture"


def test_map_layout_keeps_communities_apart_and_places_what_is_off_the_map():
    g = two_stars_and_confetti()
    ov = overview(g)
    pos = map_layout(g, ov.communities, labels={n: n for n in g})
    assert set(pos) == set(g), "off the map too: search may show any entity"
    xy = {n: np.array(p) for n, p in pos.items()}
    assert len({tuple(p) for p in pos.values()}) == len(pos)
    # within a community, closer than across
    community = {n: i for i, c in enumerate(ov.communities) for n in c}
    within = [math.dist(xy[a], xy[b]) for a in ov.nodes for b in ov.nodes if a < b and community[a] == community[b]]
    across = [math.dist(xy[a], xy[b]) for a in ov.nodes for b in ov.nodes if a < b and community[a] != community[b]]
    assert np.mean(within) < np.mean(across)
    # pieces off the map lie below it
    bottom = max(xy[n][1] for n in ov.nodes)
    assert all(xy[n][1] > bottom for n in g if n not in ov.nodes)
    assert map_layout(g, ov.communities, labels={n: n for n in g}) == pos




# A graph of a few hundred named entities with hubs, leaves and pairs, drawn as a
# page would be (the map and the page over --max-nodes), printed as the positions.
DRAW = """
import json, networkx as nx
from kg.view.graphdata import ViewGraph, no_evidence
from kg.view.payload import view_payload
from kg.view.select import select
shape = nx.barabasi_albert_graph(700, 1, seed=4)
vg = ViewGraph(graph=nx.MultiDiGraph(), total_nodes=760)
for i in range(760):
    vg.graph.add_node(f"e{i}", type=["Method", "Dataset", "Task"][i % 3], label=f"entity {i}", aliases=set(),
                      proposed_in=[], **{**no_evidence(), "n_papers": 1 + (i * 7) % 13})
for a, b in list(shape.edges) + [(700 + 2 * k, 701 + 2 * k) for k in range(30)]:
    vg.graph.add_edge(f"e{a}", f"e{b}", key="addresses", rel="addresses", weight=1 + (a + b) % 3, **no_evidence())
page = view_payload(select(vg, max_nodes=600, map_nodes=250))
print(json.dumps([[n["label"], n["x"], n["y"]] for n in page["nodes"]] + [page["labelled"]]))
"""


def test_the_same_graph_gets_the_same_page_whatever_the_string_hashing():
    """Sets of names iterate in an order that changes with PYTHONHASHSEED; the map must not."""
    pages = {subprocess.run([sys.executable, "-c", DRAW], env=dict(os.environ, PYTHONHASHSEED=seed),
                            check=True, capture_output=True, text=True).stdout for seed in ("1", "2", "3")}
    assert len(pages) == 1 and len(json.loads(pages.pop())) == 601
