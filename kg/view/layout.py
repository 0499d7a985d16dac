"""Node positions, computed here so the browser never simulates physics on a
large graph.

Each connected component is laid out on its own: leaves (entities with one
relation, most of a knowledge graph) are set in a fan around their hub, and
only the remaining core goes through a force-directed layout, which keeps the
quadratic part small. Components are then packed in rows, largest first,
and entities with no relation fill a grid below them, grouped by type.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

EDGE_PX = 150.0     # length of one layout unit on screen
GRID_PX = 90.0      # spacing of the unconnected entities' rows
LABEL_PX = 7.5      # width of one label character at the default font
ASPECT = 1.6        # width : height the packing aims at
_CHUNK_BYTES = 4 << 20  # pairwise blocks that stay in cache


def force_layout(n: int, edges: np.ndarray, weight: np.ndarray, iterations: int = 0,
                 seed: int = 7) -> np.ndarray:
    """Fruchterman-Reingold positions of `n` nodes (edges: int array of shape (m, 2)).

    `weight` scales each node's repulsion, so hubs that will carry a fan of
    leaves get room for it. Ideal edge length is 1.
    """
    rng = np.random.default_rng(seed)
    if n == 1:
        return np.zeros((1, 2))
    pos = rng.uniform(-0.5, 0.5, (n, 2)) * math.sqrt(n) * 1.5
    iterations = iterations or (120 if n <= 500 else 80 if n <= 1500 else 50)
    temp = max(1.0, math.sqrt(n) * 0.2)
    cool = temp / iterations
    rows = max(1, _CHUNK_BYTES // (n * 4 * 4))
    src, dst = edges[:, 0], edges[:, 1]
    w32 = weight.astype(np.float32)
    for _ in range(iterations):
        disp = np.zeros((n, 2))
        # x and y apart in float32: the pairwise part is most of the time.
        x, y = pos[:, 0].astype(np.float32), pos[:, 1].astype(np.float32)
        for a in range(0, n, rows):
            dx = x[a:a + rows, None] - x[None, :]
            dy = y[a:a + rows, None] - y[None, :]
            force = dx * dx
            force += dy * dy
            np.maximum(force, 1e-4, out=force)
            np.divide(w32[a:a + rows, None] * w32[None, :], force, out=force)
            disp[a:a + rows, 0] += np.einsum("ij,ij->i", force, dx)
            disp[a:a + rows, 1] += np.einsum("ij,ij->i", force, dy)
        if len(edges):
            delta = pos[src] - pos[dst]
            pull = delta * np.linalg.norm(delta, axis=1)[:, None]
            np.add.at(disp, src, -pull)
            np.add.at(disp, dst, pull)
        length = np.maximum(np.linalg.norm(disp, axis=1), 1e-9)
        pos += disp / length[:, None] * np.minimum(length, temp)[:, None]
        temp = max(temp - cool, 0.02)
    return pos - pos.mean(axis=0)


def _fan(centre: np.ndarray, away: np.ndarray, count: int) -> np.ndarray:
    """`count` points around `centre`, spread over an arc facing `away`."""
    arc = 2 * math.pi if count > 8 or not away.any() else min(2 * math.pi, 0.9 * count + 0.6)
    radius = max(0.8, count * 0.32 / arc)
    heading = math.atan2(away[1], away[0])
    if arc >= 2 * math.pi:
        angles = heading + np.arange(count) * arc / count
    else:
        angles = heading + (np.arange(count) - (count - 1) / 2) * arc / max(count, 1)
    return centre + radius * np.column_stack([np.cos(angles), np.sin(angles)])


def component_layout(comp: nx.Graph, seed: int = 7) -> dict:
    """Positions (in edge lengths) of one connected component."""
    nodes = sorted(comp, key=str)  # set order varies between runs; the picture must not
    if len(nodes) <= 2:
        return {n: np.array([float(i), 0.0]) for i, n in enumerate(nodes)}
    leaves: dict = {}
    for n in nodes:
        if comp.degree(n) == 1:
            hub = next(iter(comp[n]))
            if comp.degree(hub) > 1:
                leaves.setdefault(hub, []).append(n)
    leaf_set = {l for ls in leaves.values() for l in ls}
    core = [n for n in nodes if n not in leaf_set]
    index = {n: i for i, n in enumerate(core)}
    edges = np.array(sorted((min(index[a], index[b]), max(index[a], index[b])) for a, b in comp.edges()
                            if a in index and b in index and a != b), dtype=int).reshape(-1, 2)
    weight = np.array([1.0 + 0.35 * math.sqrt(len(leaves.get(n, ()))) for n in core])
    core_pos = force_layout(len(core), edges, weight, seed=seed)
    pos = {n: core_pos[index[n]] for n in core}
    centre = core_pos.mean(axis=0)
    for hub, ls in leaves.items():
        neighbours = [pos[m] for m in comp[hub] if m in index]
        away = pos[hub] - (np.mean(neighbours, axis=0) if neighbours else centre)
        for leaf, p in zip(sorted(ls, key=str), _fan(pos[hub], away, len(ls))):
            pos[leaf] = p
    return pos


def layout(graph: nx.Graph, group_of: dict | None = None, labels: dict | None = None,
           seed: int = 7) -> dict[str, tuple[float, float]]:
    """Screen positions (pixels) for every node of `graph` (directions and
    parallel edges ignored). `group_of` orders the unconnected nodes, which
    flow in rows, each as wide as its label in `labels`."""
    simple = nx.Graph(graph)
    simple.remove_edges_from(nx.selfloop_edges(simple))
    isolated = [n for n in simple if simple.degree(n) == 0]
    comps = sorted((sorted(c, key=str) for c in nx.connected_components(simple) if len(c) > 1),
                   key=lambda c: (-len(c), str(c[0])))

    placed = []
    for comp in comps:
        pos = component_layout(simple.subgraph(comp), seed=seed)
        pts = np.array(list(pos.values()))
        pts -= (pts.max(axis=0) + pts.min(axis=0)) / 2
        placed.append((list(pos), pts, pts.max(axis=0) + 0.8))
    area = sum(float(np.prod(2 * half)) for _, _, half in placed) + len(isolated) * (GRID_PX / EDGE_PX) ** 2
    # Rows about as wide as a screen is, relative to its height.
    width = max([2 * float(half[0]) for _, _, half in placed] + [math.sqrt(area * ASPECT), 4.0])

    out: dict[str, tuple[float, float]] = {}
    x = y = row_h = 0.0
    for nodes, pts, half in placed:
        w, h = 2 * float(half[0]), 2 * float(half[1])
        if x > 0 and x + w > width:
            x, y, row_h = 0.0, y + row_h, 0.0
        for n, p in zip(nodes, pts):
            out[n] = ((x + w / 2 + p[0]) * EDGE_PX, (y + h / 2 + p[1]) * EDGE_PX)
        x += w
        row_h = max(row_h, h)
    top = (y + row_h) * EDGE_PX + (GRID_PX if placed else 0)
    group_of, labels = group_of or {}, labels or {}
    isolated.sort(key=lambda n: (str(group_of.get(n, "")), str(labels.get(n, n)).casefold(), str(n)))
    x, y, right, group = 0.0, top, max(width * EDGE_PX, GRID_PX), None
    for n in isolated:
        step = max(GRID_PX, LABEL_PX * len(str(labels.get(n, ""))) + 24)
        if x > 0 and group_of.get(n) != group:   # each group starts its own rows
            x, y = 0.0, y + GRID_PX * 1.5
        elif x > 0 and x + step > right:
            x, y = 0.0, y + GRID_PX
        group = group_of.get(n)
        out[n] = (x + step / 2, y)
        x += step
    return {n: (round(px, 1), round(py, 1)) for n, (px, py) in out.items()}
