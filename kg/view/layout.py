"""Node positions, computed here so the browser never simulates physics on a
large graph.

Each connected component is laid out on its own: leaves (entities with one
relation, most of a knowledge graph) are set in a fan around their hub, and
only the remaining core goes through a force-directed layout, which keeps the
quadratic part small. Components are then packed in rows, largest first,
and entities with no relation fill a grid below them, grouped by type.

The map of a whole graph (kg.view.overview) is drawn by `map_layout`: each
community laid out as above, as a disc of its own, and the discs placed apart
from each other, near the communities they have most relations with.
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


# -- the map: communities apart ------------------------------------------------------
DISC_GAP = 1.2      # space between two communities' discs, in edge lengths


def _piece_positions(sub: nx.Graph, seed: int) -> list[tuple[list, np.ndarray, np.ndarray]]:
    """Each connected piece of `sub` laid out and centred: (nodes, points, half-size)."""
    placed = []
    for piece in sorted((sorted(c, key=str) for c in nx.connected_components(sub)), key=lambda c: (-len(c), str(c[0]))):
        pos = component_layout(sub.subgraph(piece), seed=seed)
        pts = np.array([pos[n] for n in piece], dtype=float)
        pts -= (pts.max(axis=0) + pts.min(axis=0)) / 2
        placed.append((piece, pts, pts.max(axis=0) + 0.8))
    return placed


def _cluster_layout(sub: nx.Graph, seed: int) -> dict:
    """Positions of one community, centred on the origin (in edge lengths); the
    rare community in several pieces has them side by side."""
    placed = _piece_positions(sub, seed)
    if len(placed) == 1:
        nodes, pts, _ = placed[0]
        return dict(zip(nodes, pts))
    out, x = {}, 0.0
    for nodes, pts, half in placed:
        for n, p in zip(nodes, pts):
            out[n] = np.array([x + half[0] + p[0], p[1]])
        x += 2 * float(half[0])
    shift = np.array([x / 2, 0.0])
    return {n: p - shift for n, p in out.items()}


def place_discs(radii: np.ndarray, links: dict[tuple[int, int], float], seed: int = 7,
                iterations: int = 400) -> np.ndarray:
    """Centres for discs of the given radii that do not overlap, linked discs
    drawn towards each other (the stronger the link, the closer), the whole
    about ASPECT times as wide as it is high."""
    k = len(radii)
    if k == 1:
        return np.zeros((1, 2))
    # Start where a force layout of the communities' own graph puts them, spread
    # over the area the discs need, so that linked communities start close.
    meta = nx.Graph()
    meta.add_nodes_from(range(k))
    meta.add_weighted_edges_from((i, j, w) for (i, j), w in links.items())
    start = nx.spring_layout(meta, weight="weight", seed=seed)
    pos = np.array([start[i] for i in range(k)], dtype=float)
    pos -= pos.mean(axis=0)
    span = float(np.abs(pos).max()) or 1.0
    reach = math.sqrt(float(np.sum((radii + DISC_GAP) ** 2)))  # the side of a square holding the discs
    pos *= reach / span * np.array([math.sqrt(ASPECT), 1 / math.sqrt(ASPECT)])
    strongest = max(links.values(), default=1.0)
    pairs = [(i, j, math.sqrt(w / strongest)) for (i, j), w in sorted(links.items())]  # moves add up in order
    need = radii[:, None] + radii[None, :] + DISC_GAP
    np.fill_diagonal(need, 0.0)
    squash = np.array([1.0, ASPECT])  # pulls harder up and down than sideways
    for step in range(iterations):
        pull = 0.15 * (1 - step / iterations)
        for i, j, w in pairs:
            d = pos[j] - pos[i]
            dist = float(np.hypot(*d)) or 1e-9
            excess = dist - need[i, j]
            if excess > 0:
                move = d / dist * excess * pull * w / 2
                pos[i] += move
                pos[j] -= move
        pos -= pos * 0.02 * squash * (1 - step / iterations)
        for _ in range(3):  # overlaps are undone fully, a few rounds per step
            d = pos[:, None, :] - pos[None, :, :]
            dist = np.hypot(d[..., 0], d[..., 1])
            np.fill_diagonal(dist, np.inf)
            overlap = np.maximum(need - dist, 0.0)
            if not overlap.any():
                break
            unit = d / np.maximum(dist, 1e-9)[..., None]
            unit[dist == np.inf] = 0.0
            share = radii[None, :] / (radii[:, None] + radii[None, :])  # the smaller disc moves more
            pos += (unit * (overlap * share)[..., None]).sum(axis=1) * 0.5
    return pos - (pos.max(axis=0) + pos.min(axis=0)) / 2


def map_layout(graph: nx.Graph, communities: list[list], anchors: dict | None = None,
               group_of: dict | None = None, labels: dict | None = None,
               seed: int = 7) -> dict[str, tuple[float, float]]:
    """Screen positions for every node of `graph`, with the map (the nodes of
    `communities`) drawn community by community, each a disc of its own apart
    from the others and near those it has most relations with. `anchors` ties
    a map node that has no relation on the map to the node it is placed beside.

    Nodes off the map get places too, for when search or the checkbox shows
    them: those related to the map beside the map entity they hang on, the
    rest below the map as `layout` draws them."""
    simple = nx.Graph(graph)
    simple.remove_edges_from(nx.selfloop_edges(simple))
    anchors = anchors or {}
    community_of = {n: i for i, c in enumerate(communities) for n in c}

    local, radii = [], []
    for comm in communities:
        sub = nx.Graph(simple.subgraph(comm))
        sub.add_edges_from((n, anchors[n][0]) for n in comm if n in anchors and anchors[n][0] in sub)
        pos = _cluster_layout(sub, seed)
        local.append(pos)
        radii.append(max(float(np.hypot(*p)) for p in pos.values()) + 0.9)
    links: dict[tuple[int, int], float] = {}
    for a, b, d in simple.edges(data=True):
        i, j = community_of.get(a), community_of.get(b)
        if i is not None and j is not None and i != j:
            key = (min(i, j), max(i, j))
            links[key] = links.get(key, 0.0) + d.get("weight", 1)
    centres = place_discs(np.array(radii), links, seed=seed) if communities else np.zeros((0, 2))

    out: dict = {}
    for pos, centre in zip(local, centres):
        for n, p in pos.items():
            out[n] = centre + p
    # Off the map but tied to it: fanned around the node they hang on, outwards.
    frontier = sorted(out, key=str)
    middle = np.mean(list(out.values()), axis=0) if out else np.zeros(2)
    while frontier:
        children: dict = {}
        for n in frontier:
            for m in sorted(simple[n], key=str):
                if m not in out and not any(m in c for c in children.values()):
                    children.setdefault(n, []).append(m)
        frontier = []
        for hub, kids in children.items():
            fan = _fan(out[hub], out[hub] - middle, len(kids))
            for kid, p in zip(kids, fan):
                out[kid] = p
                frontier.append(kid)

    scaled = {n: (float(p[0]) * EDGE_PX, float(p[1]) * EDGE_PX) for n, p in out.items()}
    rest = [n for n in simple if n not in scaled]
    if rest:
        below = layout(simple.subgraph(rest), group_of=group_of, labels=labels, seed=seed)
        top = max((p[1] for p in scaled.values()), default=0.0) + 3 * GRID_PX
        left = min((p[0] for p in scaled.values()), default=0.0)
        for n, (x, y) in below.items():
            scaled[n] = (left + x, top + y)
    return {n: (round(px, 1), round(py, 1)) for n, (px, py) in scaled.items()}
