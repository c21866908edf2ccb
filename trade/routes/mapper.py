"""The entry points: read and place sector files (T-1), then map every route (T-3 ... T-7).

``map_routes(files, settings, progress=...)`` is what the command, a Celery task or a campaign
page call; ``map_worlds`` takes already placed worlds (e.g. a campaign's star systems).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from . import btn as btn_rules
from .allegiance import AllegianceTable
from .batch import BatchContext, Pairs
from .btn import (
    FEEDER,
    btn_for_trade,
    distance_modifier,
    max_parsecs,
    route_class,
    trade_credits,
)
from .legs import collect_legs
from .parallel import run_batches, shares
from .paths import CLEAN, FEWEST_JUMPS, FEWEST_PARSECS, IntArray, build_graph, clean_touch
from .sectors import (
    SECTOR_COLS,
    SECTOR_ROWS,
    SectorFile,
    SectorFormatError,
    SkippedLine,
    World,
    read_sector,
)
from .settings import RouteSettings
from .uwp import Uwp, classify_remarks, classify_uwp, gurps_port, gurps_tl, sorted_codes
from .wtn import gwp, uwtn, wtn

Progress = Callable[[int, int], None]
INT64_SAFE = 2**62  # leg sums below this cannot overflow int64


@dataclass(frozen=True, slots=True)
class PlacedWorld:
    """A world at its absolute hex (T-1: x = col + 32 SectorX, y = row + 40 SectorY)."""

    world: World
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Placement:
    """Worlds placed side by side, the X-boat routes between them (world ids) and what was
    skipped: anomalies, malformed lines and worlds whose hex was already taken."""

    worlds: tuple[PlacedWorld, ...]
    xboat: tuple[tuple[str, str], ...] = ()
    anomalies: tuple[SkippedLine, ...] = ()
    malformed: tuple[SkippedLine, ...] = ()


@dataclass(frozen=True, slots=True)
class WorldTrade:
    """T-3/T-4/T-8 figures of one world (trade numbers in half-units)."""

    id: str
    name: str
    uwp: str
    x: int
    y: int
    zone: str
    allegiance: str
    uwtn_h: int
    wtn_h: int
    gwp: int
    codes: tuple[str, ...]


class Pair(NamedTuple):
    """A pair whose BTN reaches Minor (contracts §2): ids a < b, BTN in half-units, the
    parsecs and jumps of its path (T-6), and whether that path uses jump-3 legs.

    Pairs and legs are named tuples, not dataclasses: a large map makes tens of thousands of
    them, and a tuple is made in a third of the time of a frozen dataclass."""

    a: str
    b: str
    btn_h: int
    distance: int
    jumps: int
    jump3: bool = False


class RouteLeg(NamedTuple):
    """A jump leg carrying trade (T-7): ids a < b, total credits, BTN (half-units), class."""

    a: str
    b: str
    trade: int
    btn_h: int
    route_class: str | None


@dataclass(frozen=True, slots=True)
class RouteMap:
    """Everything the mapper found; ``to_json`` and ``to_svg`` render it."""

    settings: RouteSettings
    worlds: tuple[WorldTrade, ...]
    pairs: tuple[Pair, ...]
    legs: tuple[RouteLeg, ...]
    xboat: tuple[tuple[str, str], ...] = ()
    counted_pairs: int = 0
    anomalies: tuple[SkippedLine, ...] = ()
    malformed: tuple[SkippedLine, ...] = ()
    sectors: tuple[tuple[str, int, int], ...] = field(default_factory=tuple)
    subsectors: tuple[tuple[int, int, str, str], ...] = ()  # sector X, Y, letter A-P, name

    def legs_by_class(self) -> dict[str, int]:
        """Route legs per class (minor ... super) for summaries."""
        counts = dict.fromkeys(btn_rules.CLASS_NAMES, 0)
        for leg in self.legs:
            if leg.route_class:
                counts[leg.route_class] += 1
        return counts


# --- reading and placing ----------------------------------------------------------------------


def load_sectors(
    paths: Sequence[str | Path], at: Sequence[tuple[int, int] | None] | None = None
) -> list[SectorFile]:
    """T-1: read each file (and its ``.xml``); ``at[i]`` overrides file i's sector X, Y."""
    if at is not None and len(at) != len(paths):
        raise ValueError("give one --at per file or none")
    return [read_sector(p, at=at[i] if at else None) for i, p in enumerate(paths)]


def place(files: Sequence[SectorFile]) -> Placement:
    """T-1: put several sectors side by side by their X, Y; a lone file without a position sits
    at 0, 0. A second world on an occupied hex is reported and skipped."""
    if len(files) > 1 and any(f.position is None for f in files):
        missing = next(f.path for f in files if f.position is None)
        raise SectorFormatError(f"{missing}: no sector position in its metadata; give --at X,Y")
    placed: list[PlacedWorld] = []
    taken: dict[tuple[int, int], str] = {}
    used_ids: set[str] = set()
    skipped: list[SkippedLine] = []
    anomalies: list[SkippedLine] = []
    malformed: list[SkippedLine] = []
    for f in files:
        sx, sy = f.position or (0, 0)
        anomalies.extend(f.anomalies)
        malformed.extend(f.malformed)
        for w in f.worlds:
            xy = (w.col + SECTOR_COLS * sx, w.row + SECTOR_ROWS * sy)
            if xy in taken or w.id in used_ids:
                held = taken.get(xy) or w.id
                reason = f"hex {w.hex} already holds {held} (a sector given twice?)"
                skipped.append(SkippedLine(f.path, w.line_no, reason))
                continue
            taken[xy] = w.id
            used_ids.add(w.id)
            placed.append(PlacedWorld(w, *xy))
    xboat: set[tuple[str, str]] = set()
    for f in files:
        sx, sy = f.position or (0, 0)
        for r in f.routes:
            ends = []
            for code, (ox, oy) in ((r.start, r.start_offset), (r.end, r.end_offset)):
                col, row = int(code[:2]), int(code[2:])
                ends.append(
                    taken.get((col + SECTOR_COLS * (sx + ox), row + SECTOR_ROWS * (sy + oy)))
                )
            a, b = ends
            if a and b and a != b:
                xboat.add((min(a, b), max(a, b)))
    return Placement(
        worlds=tuple(placed),
        xboat=tuple(sorted(xboat)),
        anomalies=tuple(anomalies),
        malformed=tuple(malformed + skipped),
    )


def _find_allegiances(files: Sequence[SectorFile]) -> AllegianceTable:
    for f in files:
        candidate = Path(f.path).parent / "allegiance_codes.tab"
        if candidate.is_file():
            return AllegianceTable.load(candidate)
    return AllegianceTable()


def map_routes(
    inputs: Sequence[str | Path | SectorFile],
    settings: RouteSettings | None = None,
    *,
    at: Sequence[tuple[int, int] | None] | None = None,
    allegiances: AllegianceTable | None = None,
    progress: Progress | None = None,
) -> RouteMap:
    """Read, place and map sector files. ``allegiances`` defaults to an ``allegiance_codes.tab``
    beside the first file that has one, else the built-in fallback (see AllegianceTable)."""
    if at is not None and len(at) != len(inputs):
        raise ValueError("give one --at per file or none")
    files = [
        i if isinstance(i, SectorFile) else read_sector(i, at=at[n] if at else None)
        for n, i in enumerate(inputs)
    ]
    placement = place(files)
    table = allegiances if allegiances is not None else _find_allegiances(files)
    result = map_worlds(placement, settings, allegiances=table, progress=progress)
    sectors = tuple((f.name, *(f.position or (0, 0))) for f in files)
    subsectors = tuple(
        (*(f.position or (0, 0)), letter, name)
        for f in files
        for letter, name in sorted(f.subsectors.items())
        if len(letter) == 1 and "A" <= letter <= "P" and name
    )
    return replace(result, sectors=sectors, subsectors=subsectors)


# --- mapping ----------------------------------------------------------------------------------


def world_trade(w: World, x: int, y: int, classifications: str = "uwp") -> WorldTrade:
    """T-2/T-3/T-4/T-8 for one world."""
    uwp = Uwp(
        w.starport,
        w.size,
        w.atmosphere,
        w.hydrographics,
        w.population,
        w.government,
        w.law,
        w.tech_level,
    )
    codes = classify_remarks(w.remarks) if classifications == "remarks" else classify_uwp(uwp)
    tl = gurps_tl(w.tech_level)
    u = uwtn(tl, w.population)
    return WorldTrade(
        id=w.id,
        name=w.name,
        uwp=w.uwp,
        x=x,
        y=y,
        zone=w.zone,
        allegiance=w.allegiance,
        uwtn_h=u,
        wtn_h=wtn(u, gurps_port(w.starport)),
        gwp=gwp(tl, w.population, w.pbg, codes),
        codes=tuple(sorted_codes(codes)),
    )


def _gwp_max_btn(g: int) -> int:
    """T-8 variant: the highest BTN (half-units) whose trade is <= 10 x this GWP."""
    h = 0
    while trade_credits(h + 1) <= 10 * g:
        h += 1
    return h


def map_worlds(
    placement: Placement | Iterable[PlacedWorld],
    settings: RouteSettings | None = None,
    *,
    allegiances: AllegianceTable | None = None,
    progress: Progress | None = None,
) -> RouteMap:
    """T-3 ... T-7 on placed worlds: pairs down to ``min_btn``, their paths and the legs."""
    cfg = settings or RouteSettings()
    if not isinstance(placement, Placement):
        placement = Placement(worlds=tuple(placement))
    table = allegiances or AllegianceTable()
    placed = sorted(placement.worlds, key=lambda p: p.world.id)
    trades = tuple(world_trade(p.world, p.x, p.y, cfg.classifications) for p in placed)
    ctx, ids, order, reach = _context(placement, placed, trades, cfg, table)

    total = len(order)
    if progress:
        progress(0, total)
    # A batch holds a few (sources x worlds) arrays: cap it near 4 million cells so memory
    # stays linear in worlds on maps of any size. Two processes take half as many sources a
    # batch, so that the batches in flight hold as many cells as one process's.
    step = min(cfg.chunk, max(8, 4_000_000 // max(ctx.g1.n, 1)))
    if shares(cfg.workers, total, ctx.g0.n, step):
        step = max(1, step // 2)
    batches = []
    for start in range(0, total, step):
        chunk = order[start : start + step]
        lims = [reach[k] for k in chunk]
        batch_reach = None if None in lims else max(v for v in lims if v is not None)
        batches.append((np.array(chunk, dtype=np.int64), batch_reach))
    done = (lambda sources: progress(sources, total)) if progress else None
    found, counted = run_batches(ctx, batches, cfg.workers, done)

    # Output order is by world id: node -> its id's place in sorted order, and back.
    rank = ctx.g0.tie[: len(ids)]
    by_rank = [ids[k] for k in np.argsort(rank).tolist()]
    flows = [(g, ctx.flows[name]) for name, g in ctx.graphs()]
    leg_a, leg_b, leg_trade = collect_legs(flows, rank, ctx.unit, ctx.base)
    route_legs = tuple(
        _route_leg(by_rank[a], by_rank[b], trade)
        for a, b, trade in zip(leg_a.tolist(), leg_b.tolist(), leg_trade, strict=True)
    )
    return RouteMap(
        settings=cfg,
        worlds=trades,
        pairs=_sorted_pairs(found, rank, by_rank),
        legs=route_legs,
        xboat=placement.xboat,
        counted_pairs=counted,
        anomalies=placement.anomalies,
        malformed=placement.malformed,
    )


def _route_leg(a: str, b: str, trade: int) -> RouteLeg:
    """T-7: a leg's BTN is the highest table value whose lower bound is <= its total trade."""
    btn_h = btn_for_trade(trade)
    return RouteLeg(a, b, trade, btn_h, route_class(btn_h))


def _sorted_pairs(found: list[Pairs], rank: IntArray, by_rank: list[str]) -> tuple[Pair, ...]:
    """contracts §2: the Minor-or-better pairs with ids a < b, sorted by (a, b)."""
    if not found:
        return ()
    s, t, btn_h, parsecs, jumps, jump3 = (
        np.concatenate(column) for column in zip(*found, strict=True)
    )
    lo, hi = np.minimum(rank[s], rank[t]), np.maximum(rank[s], rank[t])
    order = np.lexsort((hi, lo))
    columns = (lo, hi, btn_h, parsecs, jumps, jump3)
    return tuple(
        Pair(by_rank[a], by_rank[b], h, d, j, j3)
        for a, b, h, d, j, j3 in zip(*(c[order].tolist() for c in columns), strict=True)
    )


def _context(
    placement: Placement,
    placed: list[PlacedWorld],
    trades: tuple[WorldTrade, ...],
    cfg: RouteSettings,
    table: AllegianceTable,
) -> tuple[BatchContext, list[str], list[int], dict[int, int | None]]:
    """The routing nodes in search order, their arrays and graphs, and each source's reach."""
    routing = [i for i, p in enumerate(placed) if p.world.zone != "R"]  # T-6: no Red zones
    min_h = cfg.min_btn_h
    search_h = min(min_h, FEEDER)
    big = 10**4  # above any BTN a world can reach
    cap_of = {"2wtn+1": lambda v: 2 * v + 2, "wtn+5": lambda v: v + 10}.get(cfg.btn_cap)
    cap = {i: cap_of(trades[i].wtn_h) if cap_of else big for i in routing}
    gwp_limit = {i: _gwp_max_btn(trades[i].gwp) if cfg.gwp_cap else big for i in routing}
    by_code = {c: table.polity(c) for c in {placed[i].world.allegiance for i in routing}}
    polity = {i: by_code[placed[i].world.allegiance] for i in routing}

    def best_wtcm(i: int) -> int:
        """The best WTCM this world can get (T-5): +0.5 needs Ag, Ex or Na; +0.5 needs In or
        Ni; a non-aligned world always takes the -0.5."""
        c = set(trades[i].codes)
        return bool(c & {"Ag", "Ex", "Na"}) + bool(c & {"In", "Ni"}) - (polity[i] is None)

    # No pair with world i can beat bound[i] before distance (T-5a: the sum with its best
    # WTCM against a partner no bigger in this order, and its cap).
    pot = {i: 2 * trades[i].wtn_h + best_wtcm(i) for i in routing}
    bound = {i: min(pot[i], cap[i]) for i in routing}
    trades_at_all = {i: min(cap[i], gwp_limit[i]) >= max(min_h, 1) for i in routing}
    # Node order: worlds that can trade first, by potential from the highest, then by id. Each
    # pair is mapped from its earlier node, so for a source s and any partner t, WTN_s + WTN_t +
    # WTCM <= potential(s) (WTCM is at most either world's best): that bounds how far its trade
    # can reach (T-5 prune), keeps the many low-WTN worlds to short searches, and its partners
    # are exactly the trading nodes after it.
    id_rank = {i: r for r, i in enumerate(routing)}  # T-6 ties: by sorted world ids
    nodes = sorted(routing, key=lambda i: (not trades_at_all[i], -pot[i], id_rank[i]))
    ids = [trades[i].id for i in nodes]
    index = {wid: k for k, wid in enumerate(ids)}
    n = len(nodes)

    def arr(values: Iterable[int]) -> IntArray:
        return np.fromiter(values, dtype=np.int64, count=n)

    x = arr(placed[i].x for i in nodes)
    y = arr(placed[i].y for i in nodes)
    w = arr(trades[i].wtn_h for i in nodes)
    n_elig = sum(trades_at_all[i] for i in nodes)
    id_order = arr(id_rank[i] for i in nodes)
    codes = [set(trades[i].codes) for i in nodes]
    pol = np.empty(n, dtype=np.int64)
    polities: dict[str, int] = {}
    for k, i in enumerate(nodes):
        p = polity[i]
        pol[k] = -(k + 1) if p is None else polities.setdefault(p, len(polities))
    # T-6 waypoints to avoid: Amber zones and GURPS class II-or-worse starports.
    bad = np.array(
        [placed[i].world.zone == "A" or gurps_port(placed[i].world.starport) <= 2 for i in nodes],
        dtype=bool,
    )
    xb = [(index[a], index[b]) for a, b in placement.xboat if a in index and b in index]
    extra = (
        np.array([e[0] for e in xb], dtype=np.int64),
        np.array([e[1] for e in xb], dtype=np.int64),
    )
    g0 = build_graph(x, y, bad, 2, extra, id_order, metric=FEWEST_PARSECS)
    g1 = build_graph(x, y, bad, 2, extra, id_order, metric=CLEAN, clean=True)
    g3 = build_graph(x, y, bad, 3, extra, id_order, metric=FEWEST_JUMPS)

    top_h = max(0, int(w.max()) * 2 + 4) if n else 0
    unit = 10 ** max(0, min_h // 2) if min_h >= 2 else 1
    trade_lut = np.array([trade_credits(h) // unit for h in range(top_h + 1)], dtype=np.int64)
    # T-7 sums are exact int64 in units of the smallest trade counted. If every pair at its
    # largest trade could overflow them, trade is split into digits of base 10^9 summed apart.
    pairs_max = n_elig * (n_elig - 1) // 2
    base = 1 if int(trade_lut.max(initial=0)) * pairs_max < INT64_SAFE else 10**9

    far_by_bound = {b: max_parsecs(search_h - b) for b in set(bound.values())}
    reach: dict[int, int | None] = {}
    for k in range(n_elig - 1):
        far = far_by_bound[bound[nodes[k]]]
        if far != -1:
            reach[k] = far
    bound_low = min(2 * int(w.min()) - 1, *cap.values()) if n else 0
    bound_high = max(2 * int(w.max()) + 3 if n else 1, 1)
    weight_cap = np.array(
        [_weight_cap(search_h - v) for v in range(bound_low, bound_high + 1)], dtype=np.float64
    )
    # A jump-3 component made of several jump-2 components holds pairs with no jump-2 path.
    pieces = np.unique(np.stack([g3.components, g0.components]), axis=1)[0]
    split = np.bincount(pieces, minlength=n)[g3.components] > 1 if n else np.zeros(0, dtype=bool)
    main2 = _main_pieces(g3.components, g0.components)
    n_digits = 2 if base > 1 else 1
    ctx = BatchContext(
        g0=g0,
        g1=g1,
        g3=g3,
        w=w,
        ag=np.array([("Ag" in c) for c in codes], dtype=bool),
        exna=np.array([bool(c & {"Ex", "Na"}) for c in codes], dtype=bool),
        ind=np.array([("In" in c) for c in codes], dtype=bool),
        ni=np.array([("Ni" in c) for c in codes], dtype=bool),
        pol=pol,
        x=x,
        y=y,
        bad=bad,
        cap_w=np.minimum(arr(cap[i] for i in nodes), bound_high),
        gwp_w=arr(gwp_limit[i] for i in nodes),
        n_elig=n_elig,
        split=split,
        main2=main2,
        clean_touch=clean_touch(g0, bad),
        best_wtcm=arr(pot[i] for i in nodes) - 2 * w,
        bound_low=bound_low,
        weight_cap=weight_cap,
        dm_lut=np.array([distance_modifier(p) for p in range(1001)], dtype=np.int64),
        trade_lut=trade_lut,
        min_h=min_h,
        search_h=search_h,
        base=base,
        unit=unit,
        flows={
            name: [np.zeros(len(g.incoming.indices), dtype=np.int64) for _ in range(n_digits)]
            for name, g in (("g0", g0), ("g1", g1), ("g3", g3))
        },
    )
    return ctx, ids, sorted(reach), reach


def _main_pieces(comp3: IntArray, comp2: IntArray) -> NDArray[np.bool_]:
    """Per world: is its jump-2 component the biggest inside its jump-3 component (ties: the
    lowest label)?"""
    n = len(comp2)
    key = comp3 * max(n, 1) + comp2
    pieces, inverse, size = np.unique(key, return_inverse=True, return_counts=True)
    owner = pieces // max(n, 1)
    order = np.lexsort((pieces, -size, owner))  # per jump-3 component, biggest piece first
    first = order[np.r_[True, owner[order][1:] != owner[order][:-1]]] if len(order) else order
    main = np.zeros(len(pieces), dtype=bool)
    main[first] = True
    return cast(NDArray[np.bool_], main[inverse.reshape(-1)])


def _weight_cap(need_h: int) -> float:
    """P0 path weights (T-6a) below this may have a distance modifier >= need_h (T-5)."""
    far = max_parsecs(need_h)
    return 0.0 if far == -1 else FEWEST_PARSECS.limit(parsecs=far) + 1
