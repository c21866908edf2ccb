"""One batch of sources (T-5 ... T-7): searches, pair BTNs, the jump-3 rule and leg flows.

:func:`trade.routes.mapper.map_worlds` sets up a :class:`BatchContext` and calls
:func:`run_batch` for each batch of sources in node order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np

from .btn import FEEDER, MINOR
from .legs import add_tree_flows
from .paths import JumpGraph, decode, hex_distance, max_jumps, shortest


@dataclass(frozen=True, slots=True)
class BatchContext:
    """Per-world arrays and lookup tables shared by every batch of sources."""

    g2: JumpGraph
    g3: JumpGraph
    w: np.ndarray
    ag: np.ndarray
    exna: np.ndarray
    ind: np.ndarray
    ni: np.ndarray
    pol: np.ndarray
    limit_w: np.ndarray  # per world: the cap and the GWP limit (T-5, T-8)
    x: np.ndarray
    y: np.ndarray
    n_elig: int  # nodes 0 .. n_elig - 1 can trade; a source's partners are the nodes after it
    w16: np.ndarray  # WTN as int16, for the dense bound lookups
    split: np.ndarray  # the world's jump-3 component holds more than one jump-2 component
    best_wtcm: np.ndarray
    sum_low: int
    weight_cap: np.ndarray  # by WTN1 + WTN2 + WTCM - sum_low: path weights that may still trade
    dm_lut: np.ndarray
    trade_lut: np.ndarray
    min_h: int
    base: int  # 1, or 10^9 when trade is summed as two digits (low first)
    flow2: list[np.ndarray]  # T-7 trade per jump-2 graph edge (``g2.incoming`` order), in units
    flow3: list[np.ndarray]  # the same for paths on the jump-3 graph

    def btn(self, s: np.ndarray, t: np.ndarray, parsecs: np.ndarray) -> np.ndarray:
        """T-5 BTN (half-units) for pairs (s, t) along paths of ``parsecs``: the vectorised form
        of :func:`btn.btn` with :func:`btn.wtcm` (tests/routes/test_reference.py checks one
        against the other)."""
        ag, exna, ind, ni = self.ag, self.exna, self.ind, self.ni
        m = ((ag[s] & exna[t]) | (ag[t] & exna[s])).astype(np.int64)
        m += (ind[s] & ni[t]) | (ind[t] & ni[s])
        m -= self.pol[s] != self.pol[t]
        raw = self.w[s] + self.w[t] + m + self.dm_lut[np.minimum(parsecs, 1000)]
        return cast(np.ndarray, np.minimum(raw, np.minimum(self.limit_w[s], self.limit_w[t])))


def _add_flows(
    ctx: BatchContext,
    graph: JumpGraph,
    dist: np.ndarray,
    demand: np.ndarray,
    rows: np.ndarray,
    targets: np.ndarray,
    btn_h: np.ndarray,
    flows: list[np.ndarray],
) -> None:
    """T-7: put each pair's trade (in units) on its tree and add it to the edge flows, digit by
    digit when the sums need more than int64."""
    units = ctx.trade_lut[np.maximum(btn_h, 0)]
    for digit, flow in enumerate(flows):
        if digit:
            demand.fill(0)  # add_tree_flows leaves subtree sums behind
        demand[rows, targets] = units if ctx.base == 1 else (units // ctx.base**digit) % ctx.base
        add_tree_flows(graph, dist, demand, flow)


def run_batch(
    ctx: BatchContext,
    src: np.ndarray,
    max_j: int | None,  # the batch's reach in parsecs
) -> tuple[list[tuple[int, int, int, int, int, bool]], int]:
    """One batch of sources: T-6 paths on the jump-2 graph, the jump-3 alternative for Feeder+
    routes, T-5 BTNs, and the T-7 trade added to the context's edge flows."""
    n = ctx.g2.n
    k = len(src)
    dist2 = shortest(ctx.g2, src, max_jumps(max_j, 2))
    # Partners are later trading nodes: a column window, as a view. A cheap T-5 bound (a path of
    # p parsecs has at most max_jumps(p, 2) jumps; unreached targets are inf) drops almost every
    # entry before anything is decoded; the pair direction is checked on the survivors only.
    lo, hi = int(src.min()) + 1, ctx.n_elig
    bound = (ctx.w16[src] + ctx.best_wtcm[src] - ctx.sum_low).astype(np.int16)
    window = dist2[:, lo:hi]
    ri, ti = np.nonzero(window < ctx.weight_cap[bound[:, None] + ctx.w16[None, lo:hi]])
    ti += lo
    ok = ti > src[ri]
    ri, ti = ri[ok], ti[ok]
    si = src[ri]
    j2, _, p2 = decode(dist2[ri, ti])
    b2 = ctx.btn(si, ti, p2)
    keep = b2 >= ctx.min_h
    ri, ti, si, j2, p2, b2 = ri[keep], ti[keep], si[keep], j2[keep], p2[keep], b2[keep]

    # T-6 jump-3: Feeder or better on the jump-2 path, and jump-3 could save a jump.
    feeder = (b2 >= FEEDER) & (j2 >= 2)
    # Pairs with no jump-2 path at all: joined only by jump-3 legs (docs: T-6 reading).
    comp2, comp3 = ctx.g2.components, ctx.g3.components
    split = np.flatnonzero(ctx.split[src])  # only these sources have such partners at all
    lone = (
        (comp2[None, lo:hi] != comp2[src[split]][:, None])
        & (comp3[None, lo:hi] == comp3[src[split]][:, None])
        & (np.arange(lo, hi)[None, :] > src[split][:, None])
    )
    lr, lt = np.nonzero(lone)
    lr, lt = split[lr], lt + lo
    if len(lr):
        ls = src[lr]
        straight = hex_distance(ctx.x[ls], ctx.y[ls], ctx.x[lt], ctx.y[lt])
        hopeful = ctx.btn(ls, lt, straight) >= FEEDER  # a path is never shorter than this
        lr, lt = lr[hopeful], lt[hopeful]
    rows3 = np.unique(np.concatenate([ri[feeder], lr]))
    use3 = np.zeros(len(ri), dtype=bool)
    found3: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    if len(rows3):
        pos = np.full(k, -1, dtype=np.int64)
        pos[rows3] = np.arange(len(rows3))
        feeder_j3 = int(j2[feeder].max()) - 1 if feeder.any() else 0
        max_j3: int | None = feeder_j3
        if len(lr):
            lone_j = max_jumps(max_j, 3)
            max_j3 = None if lone_j is None else max(feeder_j3, lone_j)
        dist3 = shortest(ctx.g3, src[rows3], max_j3)
        fi = np.flatnonzero(feeder)
        wf = dist3[pos[ri[fi]], ti[fi]]
        reached = np.isfinite(wf)
        j3, _, p3 = decode(np.where(reached, wf, 0))
        better = reached & (j3 < j2[fi])
        fi, j3, p3 = fi[better], j3[better], p3[better]
        use3[fi] = True
        b3 = ctx.btn(si[fi], ti[fi], p3)
        found3.append((ri[fi], ti[fi], b3, p3, j3))
        if len(lr):
            wl = dist3[pos[lr], lt]
            ok = np.isfinite(wl)
            jl, _, pl = decode(np.where(ok, wl, 0))
            bl = ctx.btn(src[lr], lt, pl)
            ok &= bl >= FEEDER
            found3.append((lr[ok], lt[ok], bl[ok], pl[ok], jl[ok]))
    out: list[tuple[int, int, int, int, int, bool]] = []
    counted = 0
    stay = ~use3
    r2, t2, bb2 = ri[stay], ti[stay], b2[stay]
    counted += len(r2)
    demand = np.zeros((k, n), dtype=np.int64)
    _add_flows(ctx, ctx.g2, dist2, demand, r2, t2, bb2, ctx.flow2)
    minor = bb2 >= MINOR
    out.extend(
        zip(
            src[r2[minor]].tolist(),
            t2[minor].tolist(),
            bb2[minor].tolist(),
            p2[stay][minor].tolist(),
            j2[stay][minor].tolist(),
            [False] * int(minor.sum()),
            strict=True,
        )
    )
    if found3:
        r3 = np.concatenate([f[0] for f in found3])
        t3 = np.concatenate([f[1] for f in found3])
        b3 = np.concatenate([f[2] for f in found3])
        p3 = np.concatenate([f[3] for f in found3])
        j3 = np.concatenate([f[4] for f in found3])
        on = b3 >= ctx.min_h
        r3, t3, b3, p3, j3 = r3[on], t3[on], b3[on], p3[on], j3[on]
        counted += len(r3)
        demand3 = np.zeros((len(rows3), n), dtype=np.int64)
        _add_flows(ctx, ctx.g3, dist3, demand3, pos[r3], t3, b3, ctx.flow3)
        minor = b3 >= MINOR
        out.extend(
            zip(
                src[r3[minor]].tolist(),
                t3[minor].tolist(),
                b3[minor].tolist(),
                p3[minor].tolist(),
                j3[minor].tolist(),
                [True] * int(minor.sum()),
                strict=True,
            )
        )
    return out, counted
