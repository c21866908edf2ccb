"""The jump graphs and path choice (T-6, T-6a, T-6c), vectorised with numpy.

Each path choice is lexicographic, written as one integer edge weight on the directed edge
u -> v (:class:`Metric`): ``parsec * parsecs + jump * 1 + bad * bad(v)``. Every weight is an
integer far below 2**53, so the float64 sums of a shortest-path search stay exact and decode
back into the three counts. The searches (:func:`shortest`) run in C (:mod:`.native`) where it
is built, else with ``scipy.sparse.csgraph.dijkstra`` on large maps and a numpy search level by
level on small ones (importing scipy alone takes longer than mapping a whole sector); all give
the same weights, to the bit.

- T-6a P0 (:data:`FEWEST_PARSECS`): fewest parsecs, then fewest jumps, then fewest Amber-zone or
  class II-or-worse waypoints, on the jump-1/2 and X-boat graph.
- T-6a P1 (:data:`CLEAN`): fewest parsecs, then fewest jumps, on the same graph without such
  waypoints (:func:`build_graph` with ``clean=True``: a bad world is a sink, entered only as an
  end, and a bad source starts from a copy that only leaves).
- T-6c (:data:`FEWEST_JUMPS`): fewest jumps, then fewest parsecs, then fewest such waypoints, on
  the graph with jump-3 legs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from . import native

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

    @property
    def unit(self) -> int:
        """The leading count's weight: every edge adds a whole number of these, at least one."""
        return max(self.parsec, self.jump)

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
class Csr:
    """Compressed rows: row r's entries are ``indptr[r]:indptr[r + 1]`` of ``indices`` (the
    other end of each edge) and ``data`` (its weight)."""

    indptr: IntArray
    indices: IntArray
    data: FloatArray

    @classmethod
    def of(cls, n: int, rows: IntArray, cols: IntArray, data: FloatArray) -> tuple[Csr, IntArray]:
        """The entries (rows, cols, data) as CSR, sorted by row then column; also returns the
        entries' order (position -> index into the arguments)."""
        order = np.argsort(rows * max(n, 1) + cols, kind="stable")  # = lexsort((cols, rows))
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
        return cls(indptr, cols[order], data[order]), order


@dataclass(frozen=True, slots=True)
class JumpGraph:
    """A directed jump graph over the routing worlds (every non-Red world, T-6).

    Graph nodes ``0 .. worlds - 1`` are the worlds; a clean graph (T-6a P1) adds one
    "leaving" copy per bad world after them (``node_of`` maps every node to its world, ``start``
    each world to the node its searches start from). ``out`` holds the metric's weights (row u:
    the edges u -> v); ``incoming`` the same edges by their end (row v), whose entries also
    index the T-7 edge flows.
    """

    metric: Metric
    worlds: int
    n: int
    out: Csr
    incoming: Csr
    components: IntArray
    node_of: IntArray
    start: IntArray
    longest: int  # the longest edge in parsecs
    tie: IntArray  # T-6 tie order of each node (its world id's place in sorted order)
    incoming_rows: IntArray  # the v of each ``incoming`` entry
    pad_u: IntArray  # row v: the u of each edge u -> v in tie order, padded to the most in-edges
    pad_w: FloatArray  # their weights (inf in the padding)
    pad_e: IntArray  # their entry in ``incoming``
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


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
    out, _ = Csr.of(n, src, dst, weight)
    incoming, by_end = Csr.of(n, dst, src, weight)
    order = np.arange(worlds, dtype=np.int64) if tie is None else tie
    degree = np.diff(incoming.indptr)
    rows = dst[by_end]
    tie_of = order[node_of]
    # Row v lists its in-neighbours u in T-6 tie order, so the first one on a best path is the
    # parent (best_parents); the padding (weight inf) is never on a path.
    entry = np.argsort(rows * max(n, 1) + tie_of[incoming.indices], kind="stable")
    slot = np.arange(len(rows)) - incoming.indptr[rows]
    width = int(degree.max()) if n and len(rows) else 1
    pad_u = np.zeros((n, width), dtype=np.int64)
    pad_w = np.full((n, width), np.inf)
    pad_e = np.zeros((n, width), dtype=np.int64)
    pad_u[rows, slot] = incoming.indices[entry]
    pad_w[rows, slot] = incoming.data[entry]
    pad_e[rows, slot] = entry
    return JumpGraph(
        metric=metric,
        worlds=worlds,
        n=n,
        out=out,
        incoming=incoming,
        components=components(n, src, dst)[:worlds],
        node_of=node_of,
        start=start,
        longest=int(par.max()) if len(par) else 0,
        tie=tie_of,
        incoming_rows=rows,
        pad_u=pad_u,
        pad_w=pad_w,
        pad_e=pad_e,
    )


def components(n: int, u: IntArray, v: IntArray) -> IntArray:
    """Connected components of the undirected graph on nodes ``0 .. n - 1`` with edges (u, v):
    labels 0, 1, ... in the order of each component's lowest node (as scipy's
    ``connected_components`` numbers them).

    Each node keeps the lowest node it has heard of: every round passes labels across the
    edges, then jumps each label to its own label (pointer jumping), which keeps the rounds
    few even across a long component.
    """
    label = np.arange(n, dtype=np.int64)
    while True:
        before = label.copy()
        np.minimum.at(label, u, label[v])
        np.minimum.at(label, v, label[u])
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(label, before):
            return cast(IntArray, np.unique(label, return_inverse=True)[1].reshape(-1))


def clean_touch(graph: JumpGraph, bad: NDArray[np.bool_]) -> IntArray:
    """T-6a P1: which parts of the graph a path with no bad waypoint can use at each end.

    The good worlds (no Amber zone, class III or better) and the edges between them split into
    components. A P1 from s to t (not neighbours) leaves s into a good neighbour, or s itself
    when good, and reaches t the same way, so it exists only if the two ends touch a common
    component. Returns per world the components it touches (its own when good, its good
    neighbours' when bad), padded with -1.
    """
    worlds = graph.worlds
    u = np.repeat(np.arange(graph.n, dtype=np.int64), np.diff(graph.out.indptr))
    v = graph.out.indices
    inside = (u < worlds) & (v < worlds)
    u, v = u[inside], v[inside]
    between_good = ~bad[u] & ~bad[v]
    comp = components(worlds, u[between_good], v[between_good])
    leave = bad[u] & ~bad[v]
    goods = np.flatnonzero(~bad)
    key = np.unique(
        np.concatenate([goods * worlds + comp[goods], u[leave] * worlds + comp[v[leave]]])
    )
    node, label = np.divmod(key, worlds)
    counts = np.bincount(node, minlength=worlds)
    touch = np.full((worlds, max(1, int(counts.max(initial=0)))), -1, dtype=np.int64)
    touch[node, np.arange(len(node)) - (np.cumsum(counts) - counts)[node]] = label
    return touch


def touching(touch: IntArray, s: IntArray, t: IntArray) -> NDArray[np.bool_]:
    """For pairs (s, t): do their :func:`clean_touch` components meet?"""
    first = touch[s, 0]
    meet = (first == touch[t, 0]) & (first >= 0)
    if touch.shape[1] > 1:  # most worlds touch one component: only the others need a full look
        more = np.flatnonzero(~meet & ((touch[s, 1] >= 0) | (touch[t, 1] >= 0)))
        a, b = touch[s[more]][:, :, None], touch[t[more]][:, None, :]
        meet[more] = ((a == b) & (a >= 0)).any(axis=(1, 2))
    return cast(NDArray[np.bool_], meet)


SMALL_MAP = 2000  # worlds (about five sectors): up to this many, searches run in numpy


def shortest(graph: JumpGraph, sources: IntArray, limit: float) -> FloatArray:
    """Bounded Dijkstra from the worlds ``sources`` (T-6): path weights, one row per source
    and one column per graph node (``inf`` = not reached within ``limit``; every finite value is
    an exact integer). Column ``t < graph.worlds`` is world t as the path's end.

    The C search (:mod:`.native`) when it is built; else scipy's dijkstra on a large map and a
    numpy search (:func:`level_search`) on a small one, which costs less than importing scipy
    at all (0.16 s on the development machine): ``python -m trade.routes`` on five real
    sectors took 0.57 s this way against 0.66 s with scipy, on seven 1.25 s against 1.13 s.
    All three give the same weights, to the bit.
    """
    if native.available():
        out, unit = graph.out, graph.metric.unit
        weights = prepare(graph)
        return native.search(
            graph.n, out.indptr, out.indices, weights, unit, graph.start[sources], limit
        )
    if graph.worlds <= SMALL_MAP:
        return level_search(graph, sources, limit)
    from scipy.sparse.csgraph import dijkstra  # large maps only (see above)

    matrix = prepare(graph)
    dist: FloatArray = dijkstra(matrix, directed=True, indices=graph.start[sources], limit=limit)
    return dist


def prepare(graph: JumpGraph) -> Any:
    """What :func:`shortest` builds once per graph, built now (and cached on the graph): the C
    search's integer weights, or the scipy matrix of a large map, or the numpy search's edge
    arrays of a small one. A worker process forked afterwards (trade/routes/parallel.py) shares
    them instead of building and importing them again."""
    if native.available():
        weights = graph.cache.get("native")
        if weights is None:
            weights = graph.cache["native"] = graph.out.data.astype(np.int64)
        return weights
    if graph.worlds <= SMALL_MAP:
        return _edges(graph)
    matrix = graph.cache.get("scipy")
    if matrix is None:
        from scipy.sparse import csr_matrix  # large maps only (see shortest)

        out = graph.out
        matrix = csr_matrix((out.data, out.indices, out.indptr), shape=(graph.n, graph.n))
        graph.cache["scipy"] = matrix
    return matrix


def level_search(graph: JumpGraph, sources: IntArray, limit: float) -> FloatArray:
    """:func:`shortest` with numpy: Dijkstra for all ``sources`` at once, level by level.

    Every edge adds at least one unit of the metric's leading count (a parsec, or a jump for
    T-6c) and the lower counts of a path never carry into it (:class:`Metric`), so a path's
    level, its weight // that unit, grows along the path: a node's best in-edges all come from
    lower levels. So levels are settled in order, each node taking the least weight its
    in-edges offer at its level; the weights are the same exact integers Dijkstra finds.
    Each settled node's out-edges wait in the bucket of the level they lead to.
    """
    n, k = graph.n, len(sources)
    dist = np.full(k * n, np.inf)
    frontier = np.arange(k, dtype=np.int64) * n + graph.start[sources]
    dist[frontier] = 0.0
    slot = np.empty(k * n, dtype=np.int64)  # scratch: drop repeats without sorting
    waiting: dict[int, list[tuple[IntArray, FloatArray]]] = {}
    level = 0
    while True:
        _push(graph, waiting, level, frontier, dist, limit)
        if not waiting:
            break
        level = min(waiting)
        parts = waiting.pop(level)
        to = np.concatenate([p[0] for p in parts])
        weights = np.concatenate([p[1] for p in parts])
        to, weights = _unsettled(to, weights, dist)
        np.minimum.at(dist, to, weights)
        slot[to] = np.arange(len(to))
        frontier = to[slot[to] == np.arange(len(to))]
    return dist.reshape(k, n)


def _unsettled(to: IntArray, weights: FloatArray, dist: FloatArray) -> tuple[IntArray, FloatArray]:
    """The candidates whose end has no weight yet (settled ends got theirs at a lower level)."""
    keep = np.flatnonzero(np.isinf(dist[to]))
    return to[keep], weights[keep]


def _push(
    graph: JumpGraph,
    waiting: dict[int, list[tuple[IntArray, FloatArray]]],
    level: int,
    frontier: IntArray,
    dist: FloatArray,
    limit: float,
) -> None:
    """Put the out-edges of the ``frontier`` entries (flat ``row * n + node``, just settled at
    ``level``) in the buckets of the levels they lead to, as (end, candidate weight); ends that
    are settled already, or beyond ``limit``, are left out."""
    indptr = graph.out.indptr
    delta, weight, step, unit, steps = _edges(graph)
    nodes = frontier % graph.n
    lo = indptr[nodes]
    count = indptr[nodes + 1] - lo
    ends = np.cumsum(count)
    total = int(ends[-1]) if len(ends) else 0
    if not total:
        return
    src = np.repeat(frontier, count)
    edge = np.arange(total) + np.repeat(lo - (ends - count), count)
    to = src + delta[edge]
    fresh = np.flatnonzero(np.isinf(dist[to]))  # ends settled already are done with
    edge = edge[fresh]
    to, weights, by_step = to[fresh], dist[src[fresh]] + weight[edge], step[edge]
    if (level + steps[-1] + 1) * unit - 1 > limit:  # near the limit: drop what lies beyond
        near = np.flatnonzero(weights <= limit)
        to, weights, by_step = to[near], weights[near], by_step[near]
    for value in steps:
        part = np.flatnonzero(by_step == value) if len(steps) > 1 else slice(None)
        waiting.setdefault(level + value, []).append((to[part], weights[part]))


def _edges(graph: JumpGraph) -> tuple[IntArray, FloatArray, IntArray, int, list[int]]:
    """Per out-edge (``graph.out`` order): v - u, its weight and how many units of the metric's
    leading count it adds; that unit; and the distinct numbers of units, sorted (cached on the
    graph)."""
    edges = graph.cache.get("edges")
    if edges is None:
        out = graph.out
        unit = graph.metric.unit
        u = np.repeat(np.arange(graph.n, dtype=np.int64), np.diff(out.indptr))
        step = (out.data // unit).astype(np.int64)
        edges = (out.indices - u, out.data, step, unit, np.unique(step).tolist())
        graph.cache["edges"] = edges
    return cast(tuple[IntArray, FloatArray, IntArray, int, list[int]], edges)


def best_parents(
    graph: JumpGraph, flat: FloatArray, base: IntArray, v: IntArray
) -> tuple[IntArray, IntArray]:
    """T-6 ties: for each reached node ``v`` of the row starting at ``base`` in the flat path
    weights ``flat`` (row-major, ``graph.n`` per row), the node u first in ``graph.tie`` order
    (sorted ids) with ``weight(u) + w(u, v) == weight(v)``; returns those u and the index of the
    edge u -> v in ``graph.incoming``.

    Reading paths back this way makes them independent of the heap order inside Dijkstra, of
    the search limits and of how sources are batched: the same input gives the same paths.
    """
    width = graph.pad_u.shape[1]
    at = np.take(graph.pad_u, v, axis=0)  # in-neighbours in tie order, padded at weight inf
    at += base[:, None]  # ... as places in ``flat``
    need = np.take(graph.pad_w, v, axis=0)  # u is on a best path when weight(u) == need
    np.subtract(np.take(flat, base + v)[:, None], need, out=need)
    on_path = np.take(flat, at) == need
    pick = on_path.argmax(axis=1)  # the first on a best path
    first = np.arange(len(v)) * width + pick
    if not np.take(on_path, first).all():
        raise ValueError("a reached world has no predecessor on a best path")
    return np.take(at, first) - base, np.take(graph.pad_e, v * width + pick)


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
