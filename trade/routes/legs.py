"""Leg totals (T-7): every pair's trade summed over the jump legs of its path.

A pair's path is the branch of its source's shortest-path tree (T-6, read back with
:func:`paths.best_parents`), so the trade crossing the tree edge ``parent(v) -> v`` is the sum of
the trade of the chosen targets in the subtree under ``v``. Summing subtrees level by level
(deepest first) touches each tree node that carries trade once, however many pairs share it,
instead of walking every pair's path.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .btn import btn_for_trade, route_class
from .paths import JumpGraph, best_parents


def add_tree_flows(
    graph: JumpGraph,
    dist: NDArray[np.float64],
    demand: NDArray[np.int64],
    flow: NDArray[np.int64],
) -> None:
    """Add to ``flow`` (one slot per entry of ``graph.incoming``) the trade of every pair
    searched on ``graph``: ``demand[r, t]`` is the trade (in units) from row ``r``'s source to
    ``t`` and ``dist`` the rows' path weights.

    Only tree nodes that carry trade are visited: the deepest level first, each node passing its
    subtree's total to its T-6 parent (:func:`best_parents`).
    """
    n = demand.shape[1]
    acc = demand.reshape(-1)
    start = np.flatnonzero(acc)
    if not len(start):
        return
    _, d0, _ = graph.metric.decode(dist.reshape(-1)[start])  # jumps: a parent has one fewer
    order = np.argsort(d0, kind="stable")
    start, d0 = start[order], d0[order]
    top = int(d0[-1])
    bounds = np.searchsorted(d0, np.arange(top + 2))
    pushed = np.zeros(0, dtype=np.int64)
    slot = np.empty(acc.shape, dtype=np.int64)  # scratch: drop repeats without sorting
    for level in range(top, 0, -1):
        here = start[bounds[level] : bounds[level + 1]]
        nodes = np.concatenate([here, pushed]) if len(pushed) else here
        if len(pushed):
            slot[nodes] = np.arange(len(nodes))
            nodes = nodes[slot[nodes] == np.arange(len(nodes))]
        vals = acc[nodes]
        up, edges = best_parents(graph, dist, nodes)
        pushed = (nodes // n) * n + up
        np.add.at(acc, pushed, vals)
        np.add.at(flow, edges, vals)


@dataclass(frozen=True, slots=True)
class Leg:
    """T-7: one jump leg (node indices a < b) with its total trade, BTN (half-units) and class."""

    a: int
    b: int
    trade: int
    btn_h: int

    @property
    def route_class(self) -> str | None:
        return route_class(self.btn_h)


def collect_legs(
    flows: list[tuple[JumpGraph, list[NDArray[np.int64]]]], unit: int, base: int = 1
) -> list[Leg]:
    """T-7: add up every graph's edge flows per leg (both directions); a leg's BTN is the
    highest table value whose lower bound is <= its total trade. Totals are exact ints; flows
    may come as several digits of ``base`` (lowest first)."""
    keys: list[NDArray[np.int64]] = []
    amounts: list[NDArray[np.int64]] = []
    for graph, digits in flows:
        for power, flow in enumerate(digits):
            used = np.flatnonzero(flow)
            u = graph.node_of[graph.incoming.indices[used]]  # a leaving copy is its world
            v = graph.node_of[graph.incoming_rows[used]]
            keys.append(np.minimum(u, v) * graph.worlds + np.maximum(u, v))
            amounts.append(flow[used].astype(object) * base**power if power else flow[used])
    key = np.concatenate(keys)
    amount = np.concatenate(amounts)
    if not len(key):
        return []
    order = np.argsort(key, kind="stable")
    key, amount = key[order], amount[order]
    uniq, start = np.unique(key, return_index=True)
    ends = [*start[1:].tolist(), len(key)]
    legs = []
    n = flows[0][0].worlds
    for k, a, b in zip(uniq.tolist(), start.tolist(), ends, strict=True):
        total = sum(amount[a:b].tolist()) * unit
        lo, hi = divmod(k, n)
        legs.append(Leg(lo, hi, total, btn_for_trade(total)))
    return legs
