"""Which part of the graph a view shows: a neighbourhood, some entity types,
or, for a graph too large to open, a summary of its best-connected entities."""

from __future__ import annotations

import difflib

import networkx as nx

from kg.graph.iris import fold
from kg.view.graphdata import NODE_CLASS, ViewGraph

# Above this many nodes a page gets slow to open and to pan; the view then
# shows a summary instead (kg view --max-nodes raises it).
DEFAULT_MAX_NODES = 4000
SUMMARY_NODES = 500


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


def select(vg: ViewGraph, *, focus: str | None = None, hops: int = 1, types: list[str] | None = None,
           max_nodes: int = DEFAULT_MAX_NODES) -> ViewGraph:
    """The part of `vg` to draw, with notes saying what was left out and why."""
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
    if max_nodes and graph.number_of_nodes() > max_nodes:
        shown = min(SUMMARY_NODES, max_nodes)
        notes.append(f"This graph has {graph.number_of_nodes():,} entities, more than the view's limit of "
                     f"{max_nodes:,}: showing a summary of the {shown:,} best-connected. Use kg view --focus NAME "
                     f"or --types to see a part, or --max-nodes to raise the limit.")
        graph = graph.subgraph(top_by_degree(graph, shown))
    return ViewGraph(graph=nx.MultiDiGraph(graph), papers=vg.papers, sentences=vg.sentences,
                     results=vg.results, notes=notes, total_nodes=vg.total_nodes, paper_count=vg.paper_count,
                     entities=vg.entities)
