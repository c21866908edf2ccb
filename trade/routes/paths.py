"""The jump graphs and path choice (T-6, T-6a, T-6c), vectorised with numpy and scipy's csgraph.

Each path choice is lexicographic, written as one integer edge weight on the directed edge
u -> v (:class:`Metric`): ``parsec * parsecs + jump * 1 + bad * bad(v)``. Every weight is an
integer far below 2**53, so the float64 sums inside ``scipy.sparse.csgraph.dijkstra`` stay exact
and decode back into the three counts.

- T-6a P0 (:data:`FEWEST_PARSECS`): fewest parsecs, then fewest jumps, then fewest Amber-zone or
  class II-or-worse waypoints, on the jump-1/2 and X-boat graph.
- T-6a P1 (:data:`CLEAN`): fewest parsecs, then fewest jumps, on the same graph without such
  waypoints (:func:`build_graph` with ``clean=True``: a bad world is a sink, entered only as an
  end, and a bad source starts from a copy that only leaves).
- T-6c (:data:`FEWEST_JUMPS`): fewest jumps, then fewest parsecs, then fewest such waypoints, on
  the graph with jump-3 legs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Metric:
    """Edge weight per parsec, per jump and per bad world entered (the spec's integer weights).

    Exact while the lower components of a path stay below the next weight up (e.g. P0: fewer
    than 10^3 jumps and 10^3 bad waypoints)."""

    parsec: int
    jump: int
    bad: int

    def limit(self, parsecs: int | None = None, jumps: int | None = None) -> float:
        """The largest path weight with at most ``parsecs`` (or ``jumps``) on the leading count."""
        if parsecs is None and jumps is None:
            return np.inf
        if parsecs is not None:
            return float((parsecs + 1) * self.parsec - 1)
        assert jumps is not None
        return float((jumps + 1) * self.jump - 1)

    def decode(self, weights: FloatArray) -> tuple[IntArray, IntArray, IntArray]:
        """Finite path weights -> (parsecs, jumps, bad worlds entered)."""
        w = weights.astype(np.int64)
        if self.parsec > self.jump:
            parsecs, rest = np.divmod(w, self.parsec)
            jumps, bad = np.divmod(rest, self.jump)
        else:
            jumps, rest = np.divmod(w, self.jump)
            parsecs, bad = np.divmod(rest, self.parsec)
        return parsecs, jumps, bad // self.bad if self.bad else np.zeros_like(w)


FEWEST_PARSECS = Metric(parsec=10**6, jump=10**3, bad=1)  # T-6a P0
CLEAN = Metric(parsec=10**3, jump=1, bad=0)  # T-6a P1 (bad waypoints are not edges at all)
FEWEST_JUMPS = Metric(parsec=10**4, jump=10**8, bad=1)  # T-6c


def cube(x: IntArray, y: IntArray) -> tuple[IntArray, IntArray]:
    """T-1 odd-q absolute hex (x = column, y = row) -> cube (q, r); the third axis is -q-r.

    Column 1 is an "up" column and even columns sit half a hex lower, as in economy.engine.hexgrid;
    ``& 1`` on numpy ints is two's complement, so negative sector coordinates work.
    """
    c = x - 1
    return c, (y - 1) - (c - (c & 1)) // 2


def hex_distance(x1: IntArray, y1: IntArray, x2: IntArray, y2: IntArray) -> IntArray:
    """T-1: cube distance in parsecs between absolute hexes (vectorised)."""
    q1, r1 = cube(x1, y1)
    q2, r2 = cube(x2, y2)
    dq, dr = q1 - q2, r1 - r2
    return cast(IntArray, np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)))


def near_pairs(x: IntArray, y: IntArray, max_parsecs: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every unordered pair of hexes 1..max_parsecs apart: arrays (u, v, parsecs), u != v.

    Each world looks up the few hexes around it in a sorted array of hex keys, so neither an
    all-pairs distance matrix nor a grid over a sparse map's bounding box is ever built.
    """
    n = len(x)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    span = 1 << 24  # hex keys: (x, y) -> x * span + y, exact for |coordinates| < 2**22
    keys = x * span + y
    order = np.argsort(keys)
    sorted_keys = keys[order]
    us, vs, ds = [], [], []
    for dx in range(0, max_parsecs + 1):
        for dy in range(-max_parsecs - 1, max_parsecs + 2):
            if dx == 0 and dy <= 0:
                continue  # each unordered pair once
            want = keys + dx * span + dy
            at = np.minimum(np.searchsorted(sorted_keys, want), n - 1)
            hit = sorted_keys[at] == want
            src, dst = np.flatnonzero(hit), order[at[hit]]
            d = hex_distance(x[src], y[src], x[dst], y[dst])
            keep = (d >= 1) & (d <= max_parsecs)
            us.append(src[keep])
            vs.append(dst[keep])
            ds.append(d[keep])
    return np.concatenate(us), np.concatenate(vs), np.concatenate(ds)


@dataclass(frozen=True, slots=True)
class JumpGraph:
    """A directed jump graph over the routing worlds (every non-Red world, T-6).

    Graph nodes ``0 .. worlds - 1`` are the worlds; a clean graph (T-6a P1) adds one
    "leaving" copy per bad world after them (``node_of`` maps every node to its world, ``start``
    each world to the node its searches start from). ``matrix`` holds the metric's weights;
    ``incoming`` is its transpose (row v lists the u -> v edges), whose entries also index the
    T-7 edge flows.
    """

    metric: Metric
    worlds: int
    n: int
    matrix: csr_matrix
    incoming: csr_matrix
    components: IntArray
    node_of: IntArray
    start: IntArray
    longest: int  # the longest edge in parsecs
    tie: IntArray  # T-6 tie order of each node (its world id's place in sorted order)
    incoming_rows: IntArray  # the v of each ``incoming`` entry
    pad_u: IntArray  # row v: the u of each edge u -> v, padded to the largest in-degree
    pad_w: FloatArray  # their weights (inf in the padding)
    pad_e: IntArray  # their entry in ``incoming``


def build_graph(
    x: IntArray,
    y: IntArray,
    bad: NDArray[np.bool_],
    max_jump: int,
    extra: tuple[IntArray, IntArray],
    tie: IntArray | None = None,
    *,
    metric: Metric = FEWEST_PARSECS,
    clean: bool = False,
) -> JumpGraph:
    """T-6 edges: jumps of 1..``max_jump`` parsecs plus the communication routes ``extra``
    (any length), weighted by ``metric``; ``clean`` keeps bad worlds off every path's inside
    (T-6a P1)."""
    worlds = len(x)
    u, v, d = near_pairs(x, y, max_jump)
    eu, ev = extra
    if len(eu):
        ed = hex_distance(x[eu], y[eu], x[ev], y[ev])
        u, v, d = np.concatenate([u, eu]), np.concatenate([v, ev]), np.concatenate([d, ed])
    src = np.concatenate([u, v])
    dst = np.concatenate([v, u])
    par = np.concatenate([d, d])
    _, first = np.unique(src * worlds + dst, return_index=True)  # a route may repeat a jump
    src, dst, par = src[first], dst[first], par[first]
    node_of = np.arange(worlds, dtype=np.int64)
    start = np.arange(worlds, dtype=np.int64)
    if clean:
        copies = np.flatnonzero(bad)
        start[copies] = worlds + np.arange(len(copies))
        node_of = np.concatenate([node_of, copies])
        leaving = bad[src]  # a bad world's own edges move to its leaving copy
        src = np.where(leaving, start[src], src)
    n = len(node_of)
    weight = (metric.parsec * par + metric.jump + metric.bad * bad[dst].astype(np.int64)).astype(
        np.float64
    )
    matrix = csr_matrix((weight, (src, dst)), shape=(n, n))
    matrix.sort_indices()
    _, comp = connected_components(matrix, directed=False)
    order = np.arange(worlds, dtype=np.int64) if tie is None else tie
    incoming = matrix.T.tocsr()
    incoming.sort_indices()
    degree = np.diff(incoming.indptr)
    rows = np.repeat(np.arange(n, dtype=np.int64), degree)
    slot = np.arange(len(rows)) - incoming.indptr[rows]
    width = int(degree.max()) if n and len(rows) else 1
    pad_u = np.zeros((n, width), dtype=np.int64)
    pad_w = np.full((n, width), np.inf)
    pad_e = np.zeros((n, width), dtype=np.int64)
    pad_u[rows, slot] = incoming.indices
    pad_w[rows, slot] = incoming.data
    pad_e[rows, slot] = np.arange(len(rows))
    return JumpGraph(
        metric=metric,
        worlds=worlds,
        n=n,
        matrix=matrix,
        incoming=incoming,
        components=comp.astype(np.int64)[:worlds],
        node_of=node_of,
        start=start,
        longest=int(par.max()) if len(par) else 0,
        tie=order[node_of],
        incoming_rows=rows,
        pad_u=pad_u,
        pad_w=pad_w,
        pad_e=pad_e,
    )


def shortest(graph: JumpGraph, sources: IntArray, limit: float) -> FloatArray:
    """Bounded Dijkstra from the worlds ``sources`` (T-6): path weights, one row per source
    and one column per graph node (``inf`` = not reached within ``limit``; every finite value is
    an exact integer). Column ``t < graph.worlds`` is world t as the path's end."""
    return dijkstra(  # type: ignore[no-any-return]
        graph.matrix, directed=True, indices=graph.start[sources], limit=limit
    )


def best_parents(graph: JumpGraph, dist: FloatArray, nodes: IntArray) -> tuple[IntArray, IntArray]:
    """T-6 ties: for each reached ``nodes`` entry (flat ``row * n + v`` into ``dist``), the
    node u first in ``graph.tie`` order (sorted ids) with ``dist[row, u] + w(u, v) ==
    dist[row, v]``; returns those u and the index of the edge u -> v in ``graph.incoming``.

    Reading paths back this way makes them independent of the heap order inside Dijkstra, of
    the search limits and of how sources are batched: the same input gives the same paths.
    """
    n = graph.n
    rows, v = np.divmod(nodes, n)
    flat = dist.reshape(-1)
    cand = graph.pad_u[v]  # incoming neighbours, padded with node 0 at an infinite weight
    on_path = flat[(rows * n)[:, None] + cand] + graph.pad_w[v] == flat[nodes][:, None]
    if not on_path.any(axis=1).all():
        raise ValueError("a reached world has no predecessor on a best path")
    pick = np.argmin(np.where(on_path, graph.tie[cand], n), axis=1)
    edge = graph.pad_e[v, pick]
    return cand[np.arange(len(nodes)), pick], edge


def max_jumps(parsecs: int | None, reach: int) -> int | None:
    """The most jumps a fewest-jumps path (T-6c) of at most ``parsecs`` can have on a graph of
    jumps up to ``reach`` parsecs (None: unbounded).

    A path with the fewest jumps never has two consecutive hops u -> v -> w with u and w within
    one jump of each other (it would jump u -> w), so every two consecutive hops cover at least
    ``reach + 1`` parsecs: j jumps need ``P >= (reach + 1) * (j - 1) / 2 + 1``.
    """
    if parsecs is None:
        return None
    if parsecs < 1:
        return 0
    return 2 * (parsecs - 1) // (reach + 1) + 1
