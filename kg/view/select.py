"""Which part of the graph a view shows: a neighbourhood, some entity types,
or the whole graph with its map (kg.view.overview) on the first screen; for
a graph too large to open, the map and the weightiest entities besides."""

from __future__ import annotations

import difflib
from typing import Callable

import networkx as nx

from kg.graph.iris import fold
from kg.view.graphdata import NODE_CLASS, ViewGraph
from kg.view.overview import MAP_NODES, overview

# Above this many nodes a page gets slow to open and to pan; the view then
# shows a summary instead (kg view --max-nodes raises it).
DEFAULT_MAX_NODES = 4000
SUMMARY_NODES = 1000


class ViewError(ValueError):
    """A view request that cannot be met (unknown name or type); the message says why."""


def parse_types(text: str | None) -> list[str] | None:
    """"Method,Dataset" -> ["Method", "Dataset"], case-insensitively; None keeps every type."""
    if not text:
        return None
    known = {t.lower(): t for t in NODE_CLASS}
    out = []
    for part in text.split(","):
        name = part.strip()
        if not name:
            continue
        if name.lower() not in known:
            raise ViewError(f"unknown entity type {name!r}; choose from {', '.join(NODE_CLASS)}")
        out.append(known[name.lower()])
    return out or None


def find_nodes(graph: nx.MultiDiGraph, name: str) -> list[str]:
    """Nodes whose label or an alias matches `name`, ignoring case and punctuation."""
    key = fold(name)
    exact = [n for n, d in graph.nodes(data=True)
             if key == fold(d["label"]) or any(key == fold(a) for a in d["aliases"])]
    if exact:
        return exact
    by_lower = {d["label"].casefold(): d["label"] for _, d in graph.nodes(data=True)}
    close = difflib.get_close_matches(name.casefold(), sorted(by_lower), n=5, cutoff=0.6)
    hint = f"; did you mean {', '.join(by_lower[c] for c in close)}?" if close else ""
    raise ViewError(f"no entity named {name!r} in the graph{hint}")


def neighbourhood(graph: nx.MultiDiGraph, centres: list[str], hops: int) -> set[str]:
    """The centres and every node within `hops` relations of one, in either direction."""
    if hops < 0:
        raise ViewError("--hops must be 0 or more")
    undirected = graph.to_undirected(as_view=True)
    keep: set[str] = set()
    for c in centres:
        keep.update(nx.single_source_shortest_path_length(undirected, c, cutoff=hops))
    return keep


def top_by_degree(graph: nx.MultiDiGraph, count: int) -> set[str]:
    """The `count` best-connected nodes; papers mentioning a node break ties."""
    ranked = sorted(graph.nodes, key=lambda n: (-graph.degree(n), -graph.nodes[n]["n_papers"],
                                                graph.nodes[n]["label"]))
    return set(ranked[:count])


def _in_name_order(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy with nodes and edges in name order. A subgraph iterates in the
    order of the set it was made from, which changes with each interpreter's
    string hashing, and the layout would change with it."""
    out = nx.MultiDiGraph()
    out.add_nodes_from(sorted(graph.nodes(data=True), key=lambda item: item[0]))
    out.add_edges_from(sorted(graph.edges(keys=True, data=True), key=lambda edge: edge[:3]))
    return out


def select(vg: ViewGraph, *, focus: str | None = None, hops: int = 1, types: list[str] | None = None,
           max_nodes: int = DEFAULT_MAX_NODES, map_nodes: int = MAP_NODES,
           named_with: Callable[[list[str]], dict[str, list[tuple[str, int]]]] | None = None) -> ViewGraph:
    """The part of `vg` to draw, with notes saying what was left out and why.
    A view of the whole graph gets its map (`overview`, at most `map_nodes`
    entities; `named_with` as kg.view.overview.overview takes it)."""
    graph = vg.graph
    notes = list(vg.notes)
    if types:
        graph = graph.subgraph([n for n, d in graph.nodes(data=True) if d["type"] in types])
        notes.append(f"Showing only {', '.join(types)}.")
    if focus:
        centres = find_nodes(graph, focus)
        graph = graph.subgraph(neighbourhood(graph, centres, hops))
        labels = ", ".join(sorted({graph.nodes[c]["label"] for c in centres}))
        notes.append(f"Showing {labels} and what lies within {hops} relation{'s' if hops != 1 else ''}.")
    if vg.graph.number_of_nodes() == 0:
        notes.append("This build holds no entities: no method, dataset, task or metric was found in its abstracts.")
    the_map = None
    if not types and not focus and graph.number_of_nodes():
        the_map = overview(graph, budget=min(map_nodes, max_nodes or map_nodes), named_with=named_with)
        if not the_map.nodes:  # nothing is tied to enough else: draw it all
            the_map = None
    if max_nodes and graph.number_of_nodes() > max_nodes:
        shown = min(SUMMARY_NODES, max_nodes)
        notes.append(f"This graph has {graph.number_of_nodes():,} entities, more than the view's limit of "
                     f"{max_nodes:,}: the page holds the {max(shown, len(the_map.nodes) if the_map else 0):,} "
                     f"weightiest. Use kg view --focus NAME or --types to see a part, or --max-nodes to raise the "
                     f"limit.")
        if the_map:
            rest = sorted((n for n in graph if n not in the_map.nodes), key=lambda n: (-the_map.weight[n], n))
            graph = graph.subgraph(the_map.nodes | set(rest[:max(0, shown - len(the_map.nodes))]))
        else:
            graph = graph.subgraph(top_by_degree(graph, shown))
    return ViewGraph(graph=_in_name_order(graph), papers=vg.papers, sentences=vg.sentences,
                     results=vg.results, notes=notes, total_nodes=vg.total_nodes, paper_count=vg.paper_count,
                     entities=vg.entities, overview=the_map)
