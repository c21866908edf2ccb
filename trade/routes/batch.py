"""One batch of sources (T-5 ... T-7): searches, the T-6a path choice, pair BTNs, the jump-3 rule
(T-6, T-6b, T-6c) and leg flows.

:func:`trade.routes.mapper.map_worlds` sets up a :class:`BatchContext` and calls
:func:`run_batch` for each batch of sources in node order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import numpy as np
from numpy.typing import NDArray

from .btn import FEEDER, MINOR
from .legs import add_tree_flows
from .paths import JumpGraph, hex_distance, max_jumps, shortest

IntArray = NDArray[np.int64]
Found = tuple[IntArray, IntArray, IntArray, IntArray, IntArray]  # rows, targets, btn, pc, jumps


@dataclass(frozen=True, slots=True)
class BatchContext:
    """Per-world arrays and lookup tables shared by every batch of sources."""

    g0: JumpGraph  # T-6a P0: fewest parsecs on jump-1/2 and X-boat edges
    g1: JumpGraph  # T-6a P1: the same without Amber / class II-or-worse waypoints
    g3: JumpGraph  # T-6c: fewest jumps with jump-3 legs
    w: IntArray
    ag: NDArray[np.bool_]
    exna: NDArray[np.bool_]
    ind: NDArray[np.bool_]
    ni: NDArray[np.bool_]
    pol: IntArray
    x: IntArray
    y: IntArray
    bad: NDArray[np.bool_]
    cap_w: IntArray  # per world: the T-5 cap it imposes as the smaller world (half-units)
    gwp_w: IntArray  # per world: the T-8 variant's BTN limit (a large number without it)
    n_elig: int  # nodes 0 .. n_elig - 1 can trade; a source's partners are the nodes after it
    split: NDArray[np.bool_]  # the world's jump-3 component holds more than one jump-2 one
    best_wtcm: IntArray
    bound_low: int  # the lowest index of ``weight_cap``
    weight_cap: NDArray[np.float64]  # by a pair's bound before distance: P0 weights below trade
    dm_lut: IntArray
    trade_lut: IntArray
    min_h: int
    search_h: int  # min(min_btn, Feeder): a jump-2 BTN this high may still gain on jump-3 legs
    base: int  # 1, or 10^9 when trade is summed as two digits (low first)
    unit: int  # trade is counted in units of the smallest trade counted (T-7)
    flows: dict[str, list[IntArray]] = field(default_factory=dict)  # T-7 per graph edge

    def graphs(self) -> tuple[tuple[str, JumpGraph], ...]:
        """The three graphs by the name of their flows."""
        return (("g0", self.g0), ("g1", self.g1), ("g3", self.g3))

    def btn(self, s: IntArray, t: IntArray, parsecs: IntArray) -> IntArray:
        """T-5a BTN (half-units) for pairs (s, t) along paths of ``parsecs``: the vectorised form
        of :func:`btn.btn` (min(WTN1 + WTN2 + WTCM, cap) + distance modifier), then the T-8
        variant's limit."""
        ag, exna, ind, ni = self.ag, self.exna, self.ind, self.ni
        m = ((ag[s] & exna[t]) | (ag[t] & exna[s])).astype(np.int64)
        m += (ind[s] & ni[t]) | (ind[t] & ni[s])
        m -= self.pol[s] != self.pol[t]
        capped = np.minimum(self.w[s] + self.w[t] + m, np.minimum(self.cap_w[s], self.cap_w[t]))
        value = capped + self.dm_lut[np.minimum(parsecs, len(self.dm_lut) - 1)]
        return cast(IntArray, np.minimum(value, np.minimum(self.gwp_w[s], self.gwp_w[t])))


def _add_flows(
    ctx: BatchContext,
    name: str,
    graph: JumpGraph,
    dist: NDArray[np.float64],
    rows: IntArray,
    targets: IntArray,
    btn_h: IntArray,
) -> None:
    """T-7: put each pair's trade (in units) on its tree and add it to the graph's edge flows,
    digit by digit when the sums need more than int64."""
    if not len(rows):
        return
    units = ctx.trade_lut[np.maximum(btn_h, 0)]
    demand = np.zeros(dist.shape, dtype=np.int64)
    for digit, flow in enumerate(ctx.flows[name]):
        if digit:
            demand.fill(0)  # add_tree_flows leaves subtree sums behind
        demand[rows, targets] = units if ctx.base == 1 else (units // ctx.base**digit) % ctx.base
        add_tree_flows(graph, dist, demand, flow)


def _clean_choice(
    ctx: BatchContext,
    src: IntArray,
    reach: int | None,
    ri: IntArray,
    ti: IntArray,
    j0: IntArray,
    dirty: NDArray[np.bool_],
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], IntArray, IntArray, NDArray[np.float64], IntArray]:
    """T-6a for the pairs whose P0 has a bad waypoint (``dirty``): is there a P1 with no more
    jumps? Returns (take P1, drop: a P1 too long to trade, its parsecs, jumps, the P1 rows'
    weights and each pair's row in them)."""
    g1 = ctx.g1
    k = len(ri)
    take = np.zeros(k, dtype=bool)
    drop = np.zeros(k, dtype=bool)
    p1 = np.zeros(k, dtype=np.int64)
    j1 = np.zeros(k, dtype=np.int64)
    idx = np.flatnonzero(dirty)
    rows = np.unique(ri[idx])
    pos = np.full(len(src), -1, dtype=np.int64)
    pos[rows] = np.arange(len(rows))
    dist1 = shortest(g1, src[rows], g1.metric.limit(parsecs=reach))
    d1 = dist1[pos[ri[idx]], ti[idx]]
    found = np.isfinite(d1)
    pp, jj, _ = g1.metric.decode(np.where(found, d1, 0))
    p1[idx], j1[idx] = pp, jj
    take[idx] = found & (jj <= j0[idx])
    # Not found within the reach: a P1 may still exist further out. With j1 <= j0 jumps it is at
    # most j0 x the longest edge long; if it exists the pair takes it and is too far to trade.
    if reach is not None:
        far = idx[~found & (j0[idx] * g1.longest > reach)]
        if len(far):
            far_rows = np.unique(ri[far])
            fpos = np.full(len(src), -1, dtype=np.int64)
            fpos[far_rows] = np.arange(len(far_rows))
            longest = int(j0[far].max()) * g1.longest
            wide = shortest(g1, src[far_rows], g1.metric.limit(parsecs=longest))
            dw = wide[fpos[ri[far]], ti[far]]
            ok = np.isfinite(dw)
            _, jw, _ = g1.metric.decode(np.where(ok, dw, 0))
            drop[far] = ok & (jw <= j0[far])
    return take, drop, p1, j1, dist1, pos[ri]


def run_batch(
    ctx: BatchContext, src: IntArray, reach: int | None
) -> tuple[list[tuple[int, int, int, int, int, bool]], int]:
    """One batch of sources (``reach``: the most parsecs any of their trade can travel): T-6a
    paths on the jump-2 graph, the jump-3 alternative for Feeder+ routes (T-6, T-6c), pairs
    joined only by jump-3 legs (T-6b), T-5a BTNs, and the T-7 trade added to the edge flows."""
    g0, g3 = ctx.g0, ctx.g3
    k = len(src)
    dist0 = shortest(g0, src, g0.metric.limit(parsecs=reach))
    # Partners are later trading nodes: a column window, as a view. A cheap T-5a bound (the
    # source's best WTCM, the caps) drops almost every entry before anything is decoded.
    lo, hi = int(src.min()) + 1, ctx.n_elig
    part = np.arange(lo, hi)
    bound = np.minimum(
        (ctx.w[src] + ctx.best_wtcm[src])[:, None] + ctx.w[None, lo:hi],
        np.minimum(ctx.cap_w[src][:, None], ctx.cap_w[None, lo:hi]),
    )
    window = dist0[:, lo:hi]
    ri, ti = np.nonzero(window < ctx.weight_cap[bound - ctx.bound_low])
    ti = ti + lo
    ok = ti > src[ri]
    ri, ti = ri[ok], ti[ok]
    si = src[ri]
    p0, j0, b0 = g0.metric.decode(dist0[ri, ti])
    b2 = ctx.btn(si, ti, p0)  # P1 is never shorter: below this already, it never trades
    keep = b2 >= ctx.search_h
    ri, ti, si, p0, j0, b0 = ri[keep], ti[keep], si[keep], p0[keep], j0[keep], b0[keep]

    # T-6a: P1 (no bad waypoint) when it has no more jumps than P0. With no bad waypoint on P0,
    # P1 is P0 (same parsecs, jumps and, read back the same way, the same path).
    dirty = (b0 - ctx.bad[ti]) > 0
    take1 = np.zeros(len(ri), dtype=bool)
    drop = np.zeros(len(ri), dtype=bool)
    dist1 = np.zeros((0, ctx.g1.n))
    row1 = np.zeros(len(ri), dtype=np.int64)
    p2, j2 = p0, j0
    if dirty.any():
        take1, drop, p1, j1, dist1, row1 = _clean_choice(ctx, src, reach, ri, ti, j0, dirty)
        p2, j2 = np.where(take1, p1, p0), np.where(take1, j1, j0)
    b2 = ctx.btn(si, ti, p2)
    sel = np.flatnonzero(~drop & (b2 >= ctx.search_h))
    ri, ti, si, p2, j2, row1, b2 = ri[sel], ti[sel], si[sel], p2[sel], j2[sel], row1[sel], b2[sel]
    take1 = take1[sel]

    # T-6: Feeder or better on its jump-2 path, and jump-3 legs could save a jump (T-6c path).
    feeder = (b2 >= FEEDER) & (j2 >= 2)
    # T-6b: pairs with no jump-2 path at all, joined only by jump-3 legs.
    comp2, comp3 = g0.components, g3.components
    split = np.flatnonzero(ctx.split[src])  # only these sources have such partners at all
    lone = (
        (comp2[None, lo:hi] != comp2[src[split]][:, None])
        & (comp3[None, lo:hi] == comp3[src[split]][:, None])
        & (part[None, :] > src[split][:, None])
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
    found3: list[Found] = []
    dist3 = np.zeros((0, g3.n))
    pos3 = np.full(k, -1, dtype=np.int64)
    if len(rows3):
        pos3[rows3] = np.arange(len(rows3))
        feeder_j3 = int(j2[feeder].max()) - 1 if feeder.any() else 0
        max_j3: int | None = feeder_j3
        if len(lr):
            lone_j = max_jumps(reach, 3)
            max_j3 = None if lone_j is None else max(feeder_j3, lone_j)
        dist3 = shortest(g3, src[rows3], g3.metric.limit(jumps=max_j3))
        fi = np.flatnonzero(feeder)
        wf = dist3[pos3[ri[fi]], ti[fi]]
        reached = np.isfinite(wf)
        p3, j3, _ = g3.metric.decode(np.where(reached, wf, 0))
        better = reached & (j3 < j2[fi])
        fi, j3, p3 = fi[better], j3[better], p3[better]
        use3[fi] = True
        found3.append((ri[fi], ti[fi], ctx.btn(si[fi], ti[fi], p3), p3, j3))
        if len(lr):
            wl = dist3[pos3[lr], lt]
            ok = np.isfinite(wl)
            pl, jl, _ = g3.metric.decode(np.where(ok, wl, 0))
            bl = ctx.btn(src[lr], lt, pl)
            ok &= bl >= FEEDER
            found3.append((lr[ok], lt[ok], bl[ok], pl[ok], jl[ok]))

    out: list[tuple[int, int, int, int, int, bool]] = []
    stay = ~use3 & (b2 >= ctx.min_h)
    counted = int(stay.sum())
    on0, on1 = stay & ~take1, stay & take1
    _add_flows(ctx, "g0", g0, dist0, ri[on0], ti[on0], b2[on0])
    _add_flows(ctx, "g1", ctx.g1, dist1, row1[on1], ti[on1], b2[on1])
    _collect(out, src, ri[stay], ti[stay], b2[stay], p2[stay], j2[stay], jump3=False)
    if found3:
        r3, t3, b3, p3, j3 = (np.concatenate([f[i] for f in found3]) for i in range(5))
        on = b3 >= ctx.min_h
        r3, t3, b3, p3, j3 = r3[on], t3[on], b3[on], p3[on], j3[on]
        counted += len(r3)
        _add_flows(ctx, "g3", g3, dist3, pos3[r3], t3, b3)
        _collect(out, src, r3, t3, b3, p3, j3, jump3=True)
    return out, counted


def _collect(
    out: list[tuple[int, int, int, int, int, bool]],
    src: IntArray,
    rows: IntArray,
    targets: IntArray,
    btn_h: IntArray,
    parsecs: IntArray,
    jumps: IntArray,
    *,
    jump3: bool,
) -> None:
    """The pairs that reach Minor (contracts §2 lists them)."""
    minor = btn_h >= MINOR
    out.extend(
        zip(
            src[rows[minor]].tolist(),
            targets[minor].tolist(),
            btn_h[minor].tolist(),
            parsecs[minor].tolist(),
            jumps[minor].tolist(),
            [jump3] * int(minor.sum()),
            strict=True,
        )
    )
