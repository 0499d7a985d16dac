"""The map: which entities the first screen of a whole graph shows, in which clusters.

A knowledge graph of a thousand abstracts holds thousands of entities, most
of them named by one paper, half of them with no relation at all and many in
pairs that touch nothing else. Drawn whole, it is a hairball beside a strip
of confetti. The map keeps the best-connected part, as bibliometric maps do:

1. Entities with no relation, pairs that touch nothing else and other
   pieces smaller than PIECE_SHARE of the largest are left out: like
   VOSviewer's "largest set of connected items", the map is the large
   connected part of the graph, not a scatter of islands around it.
2. While the rest is over the budget, the weakest leaf goes: an entity with
   one neighbour, weighed by the papers that name it plus the papers behind
   its relations. A piece pruned down to MIN_PIECE goes whole when its
   strongest member is the weakest thing left. Taking leaves never splits a
   piece, so the entities most papers name stay tied to the rest.
3. Only if leaves alone cannot bring it under the budget (a dense core, at
   the scale of a hundred thousand abstracts) does the weakest of all go,
   and the pieces that falls apart into are weighed again as in 1.
4. An entity among the ANCHOR_TOP that most papers name, left out with its
   small piece (a pair, typically, whose other end is a stray extraction),
   is put back alone beside the map entity most often named in the same
   papers: the weightiest names belong on the map even when their relations
   do not reach it. Its piece stays out.
5. The map is split into communities (Louvain, on the papers behind each
   edge), which kg.view.layout draws apart from each other.

Everything left out stays in the page, hidden: search and the side panel
still reach it.
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import networkx as nx

# Entities on the map at most: enough for the clusters of a large build, few
# enough that the weightiest names can be read on one screen.
MAP_NODES = 400
MIN_PIECE = 3  # a pair is two entities that only name each other: not a part of the map
PIECE_SHARE = 0.1  # a piece of the map has at least this share of the largest piece's entities
ANCHOR_TOP = 20  # how many of the most-named entities are put on the map in any case
ANCHOR_MIN_PAPERS = 3


@dataclass
class Overview:
    """The map's entities and communities, and what was left out of it, by reason."""

    nodes: set[str]
    communities: list[list[str]]          # largest first; each sorted
    unrelated: int = 0                    # entities with no relation
    pairs: int = 0                        # pairs that touch nothing else
    trimmed: int = 0                      # related entities left out to keep the map readable
    weight: dict[str, float] = field(default_factory=dict)  # of every entity, as the map weighs them
    # entity put back beside another -> (that entity, papers naming both)
    anchors: dict[str, tuple[str, int]] = field(default_factory=dict)

    def line(self) -> str:
        """What the map shows and leaves out, in one sentence for the page."""
        shown = (f"The map shows the {len(self.nodes):,} best-connected entities in "
                 f"{len(self.communities):,} cluster{'s' if len(self.communities) != 1 else ''}")
        parts = []
        if self.unrelated:
            parts.append(f"{self.unrelated:,} with no relation")
        if self.pairs:
            parts.append(f"{self.pairs:,} isolated pair{'s' if self.pairs != 1 else ''}")
        if self.trimmed:
            parts.append(f"{self.trimmed:,} less connected")
        if not parts:
            return shown + "."
        listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
        return f"{shown}; left out: {listed}."


def weighted(graph: nx.MultiDiGraph) -> nx.Graph:
    """The relations as an undirected graph, one edge per pair of entities,
    weighed by the papers behind all relations between the two."""
    simple = nx.Graph()
    simple.add_nodes_from(graph.nodes)
    for s, o, d in graph.edges(data=True):
        if s == o:
            continue
        w = d.get("weight", 1)
        if simple.has_edge(s, o):
            simple[s][o]["weight"] += w
        else:
            simple.add_edge(s, o, weight=w)
    return simple


def node_weights(graph: nx.MultiDiGraph, simple: nx.Graph) -> dict[str, float]:
    """Papers naming the entity plus the papers behind its relations."""
    return {n: graph.nodes[n].get("n_papers", 0) + simple.degree(n, weight="weight") for n in simple}


def _prune(simple: nx.Graph, keep: set[str], weight: dict[str, float], budget: int) -> set[str]:
    """`keep` less its weakest leaves (and weakest small pieces) until it fits `budget`."""
    sub = nx.Graph(simple.subgraph(keep))
    piece_of: dict[str, int] = {}
    size: Counter = Counter()
    for i, piece in enumerate(nx.connected_components(sub)):
        for n in piece:
            piece_of[n] = i
        size[i] = len(piece)
    members: dict[int, list[str]] = {}
    for n, i in piece_of.items():
        members.setdefault(i, []).append(n)
    heap: list[tuple[float, str, int, str]] = []  # (weight, name, 0 leaf / 1 piece, id)

    def push_piece(i: int) -> None:
        alive = [n for n in members[i] if n in sub]
        heapq.heappush(heap, (max(weight[n] for n in alive), min(alive), 1, str(i)))

    for i, n in size.items():
        if n <= MIN_PIECE:
            push_piece(i)
    for n in sub:
        if sub.degree(n) == 1 and size[piece_of[n]] > MIN_PIECE:
            heapq.heappush(heap, (weight[n], n, 0, n))
    while sub.number_of_nodes() > budget and heap:
        _, _, kind, key = heapq.heappop(heap)
        if kind == 1:
            gone = [n for n in members[int(key)] if n in sub]
            sub.remove_nodes_from(gone)
            continue
        n = key
        if n not in sub or sub.degree(n) != 1 or size[piece_of[n]] <= MIN_PIECE:
            continue  # stale: taken already, or no longer a leaf of a large piece
        (hub,) = sub[n]
        sub.remove_node(n)
        i = piece_of[n]
        size[i] -= 1
        if size[i] == MIN_PIECE:
            push_piece(i)
        elif sub.degree(hub) == 1:
            heapq.heappush(heap, (weight[hub], hub, 0, hub))
    return set(sub)


def _pieces_at_least(simple: nx.Graph, nodes: set[str], least: int) -> set[str]:
    sub = simple.subgraph(nodes)
    return {n for piece in nx.connected_components(sub) if len(piece) >= least for n in piece}


def overview(graph: nx.MultiDiGraph, budget: int = MAP_NODES, seed: int = 7,
             named_with: Callable[[list[str]], dict[str, list[tuple[str, int]]]] | None = None) -> Overview:
    """The map of `graph` (kg.view.graphdata's nodes and edges): at most `budget`
    entities, and the most-named related ones. `named_with(entities)` gives, for
    each, the entities named in the same papers, most papers first (kg.view.graphdata)."""
    simple = weighted(graph)
    weight = node_weights(graph, simple)
    unrelated = sum(1 for n in simple if simple.degree(n) == 0)
    pieces = list(nx.connected_components(simple))
    pairs = sum(1 for p in pieces if len(p) == 2)
    largest = max((len(p) for p in pieces), default=0)
    keep = {n for p in pieces if len(p) >= max(MIN_PIECE, PIECE_SHARE * largest) for n in p}
    keep = _prune(simple, keep, weight, budget)
    if len(keep) > budget:
        keep = set(sorted(keep, key=lambda n: (-weight[n], n))[:budget])
        keep = _pieces_at_least(simple, keep, MIN_PIECE)
    trimmed = graph.number_of_nodes() - unrelated - 2 * pairs - len(keep)
    communities = _communities(simple, keep, seed)
    anchors = _anchors(graph, simple, keep, named_with) if keep and named_with else {}
    if anchors:
        index = {n: i for i, c in enumerate(communities) for n in c}
        for n, (anchor, _) in anchors.items():
            communities[index[anchor]].append(n)
        communities = [sorted(c) for c in communities]
        keep = keep | set(anchors)
        pairs = sum(1 for p in pieces if len(p) == 2 and not p & keep)
        trimmed = graph.number_of_nodes() - unrelated - 2 * pairs - len(keep)
    return Overview(nodes=keep, communities=communities, unrelated=unrelated, pairs=pairs, trimmed=trimmed,
                    weight=weight, anchors=anchors)


def _communities(simple: nx.Graph, keep: set[str], seed: int) -> list[list[str]]:
    """Louvain communities of the map, largest first. Run on the entities' ranks
    in name order, edges sorted: Louvain's result depends on the order it meets
    nodes and edges, which for names in sets changes with each interpreter's
    string hashing, and so did the map."""
    names = sorted(keep)
    rank = {n: i for i, n in enumerate(names)}
    ranked = nx.Graph()
    ranked.add_nodes_from(range(len(names)))
    # (a subgraph's nodes, and so each edge's ends, come in the order of the set it was made from)
    ranked.add_weighted_edges_from(sorted((min(rank[a], rank[b]), max(rank[a], rank[b]), d["weight"])
                                          for a, b, d in simple.subgraph(keep).edges(data=True)))
    found = nx.community.louvain_communities(ranked, weight="weight", seed=seed) if names else []
    return sorted((sorted(names[i] for i in c) for c in found), key=lambda c: (-len(c), c[0]))


def _anchors(graph: nx.MultiDiGraph, simple: nx.Graph, keep: set[str],
             named_with: Callable[[list[str]], dict[str, list[tuple[str, int]]]]) -> dict[str, tuple[str, int]]:
    """The most-named related entities left off the map, each with the map entity
    most often named in the same papers."""
    papers = {n: graph.nodes[n].get("n_papers", 0) for n in graph}
    top = sorted(graph.nodes, key=lambda n: (-papers[n], n))[:ANCHOR_TOP]
    wanted = [n for n in top if n not in keep and simple.degree(n) > 0 and papers[n] >= ANCHOR_MIN_PAPERS]
    if not wanted:
        return {}
    found = named_with(wanted)
    out = {}
    for n in wanted:
        for other, count in found.get(n, []):
            if other in keep:
                out[n] = (other, count)
                break
    return out
