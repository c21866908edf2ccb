"""Leg totals (T-7): every pair's trade summed over the jump legs of its path.

A pair's path is the branch of its source's shortest-path tree (T-6, read back with
:func:`paths.best_parents`), so the trade crossing the tree edge ``parent(v) -> v`` is the sum of
the trade of the chosen targets in the subtree under ``v``. Summing subtrees level by level
(deepest first) touches each tree node that carries trade once, however many pairs share it,
instead of walking every pair's path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import native
from .paths import IntArray, JumpGraph, best_parents


class Scratch:
    """The work arrays of :func:`add_tree_flows`, kept from call to call (fresh ones of a few
    MB each cost page faults every time): ``acc`` is all zeros between calls; ``slot`` holds
    anything."""

    def __init__(self) -> None:
        self.acc = np.zeros(0, dtype=np.int64)
        self.slot = np.zeros(0, dtype=np.int64)

    def arrays(self, size: int) -> tuple[IntArray, IntArray]:
        if len(self.acc) < size:
            self.acc = np.zeros(size, dtype=np.int64)
            self.slot = np.empty(size, dtype=np.int64)
        return self.acc[:size], self.slot[:size]


def add_tree_flows(
    graph: JumpGraph,
    dist: NDArray[np.float64],
    at: NDArray[np.int64],
    amount: NDArray[np.int64],
    flow: NDArray[np.int64],
    scratch: Scratch,
) -> None:
    """Add to ``flow`` (one slot per entry of ``graph.incoming``) the trade of every pair
    searched on ``graph``: ``dist`` holds the rows' path weights, ``at`` each pair's end as a
    flat index into it (one entry per pair) and ``amount`` its trade (in units).

    Only tree nodes that carry trade are visited: the deepest level first, each node passing its
    subtree's total to its T-6 parent (:func:`best_parents`).
    """
    n = dist.shape[1]
    start = at[amount != 0]
    if not len(start):
        return
    acc, slot = scratch.arrays(dist.size)  # acc: the trade under each tree node so far
    if native.available():  # the same walk in C
        m = graph.metric
        per = m.parsec // m.jump if m.parsec > m.jump else 0
        pads = (graph.pad_u, graph.pad_w, graph.pad_e)
        native.tree_flows(dist, at, amount, pads, m.jump, per, acc, flow)
        return
    acc[at] = amount
    flat = dist.reshape(-1)
    _, d0, _ = graph.metric.decode(flat[start])  # jumps: a parent has one fewer
    order = np.argsort(d0.astype(np.int16), kind="stable")  # jumps < 1000 (Metric): radix sort
    start, d0 = start[order], d0[order]
    top = int(d0[-1])
    bounds = np.searchsorted(d0, np.arange(top + 2))
    pushed = np.zeros(0, dtype=np.int64)
    for level in range(top, 0, -1):
        here = start[bounds[level] : bounds[level + 1]]
        nodes = np.concatenate([here, pushed]) if len(pushed) else here
        if len(pushed):  # drop repeats (siblings share a parent) without sorting
            slot[nodes] = np.arange(len(nodes))
            nodes = nodes[slot[nodes] == np.arange(len(nodes))]
        vals = acc[nodes]
        acc[nodes] = 0  # done with: nothing deeper is left to add to them
        base, v = np.divmod(nodes, n)
        base *= n
        up, edges = best_parents(graph, flat, base, v)
        pushed = base + up
        np.add.at(acc, pushed, vals)
        np.add.at(flow, edges, vals)
    acc[pushed] = 0  # the sources ...
    acc[start[: bounds[1]]] = 0  # ... and any end at no jumps: acc is all zeros again


def collect_legs(
    flows: list[tuple[JumpGraph, list[NDArray[np.int64]]]],
    rank: IntArray,
    unit: int,
    base: int = 1,
) -> tuple[IntArray, IntArray, list[int]]:
    """T-7: add up every graph's edge flows per leg (both directions). Returns the legs' ends
    as ``rank`` values (a < b), sorted, and each leg's total trade in credits (exact ints);
    flows may come as several digits of ``base`` (lowest first)."""
    keys: list[IntArray] = []
    amounts: list[NDArray[Any]] = []
    n = len(rank)
    for graph, digits in flows:
        for power, flow in enumerate(digits):
            used = np.flatnonzero(flow)
            u = rank[graph.node_of[graph.incoming.indices[used]]]  # a leaving copy is its world
            v = rank[graph.node_of[graph.incoming_rows[used]]]
            keys.append(np.minimum(u, v) * n + np.maximum(u, v))
            amounts.append(flow[used].astype(object) * base**power if power else flow[used])
    key = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
    if not len(key):
        return key, key, []
    amount = np.concatenate(amounts)
    order = np.argsort(key, kind="stable")
    key, amount = key[order], amount[order]
    uniq, start = np.unique(key, return_index=True)
    if amount.dtype == object:  # several digits: Python ints
        totals = [sum(part.tolist()) * unit for part in np.split(amount, start[1:])]
    else:  # int64 sums cannot overflow (INT64_SAFE); the unit may, so it is applied as ints
        totals = [t * unit for t in np.add.reduceat(amount, start).tolist()]
    lo, hi = np.divmod(uniq, n)
    return lo, hi, totals
