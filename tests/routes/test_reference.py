"""The vectorised mapper against a slow, plain reading of T-5/T-6/T-7 on random small maps.

The reference below enumerates every pair (no pruning), finds paths with a tuple-keyed
Dijkstra (jumps, Amber/poor-port waypoints, parsecs) and applies the jump-3 rule literally.
Pair BTN, distance and jumps do not depend on how ties are broken, and neither does the total
trade x jumps summed over all legs, so those are compared exactly.
"""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from economy.engine.hexgrid import Hex, distance
from trade.routes import PlacedWorld, Placement, RouteSettings, World, map_worlds, world_trade
from trade.routes.allegiance import AllegianceTable
from trade.routes.btn import FEEDER, btn, same_polity, trade_credits, wtcm
from trade.routes.uwp import Uwp, gurps_port

UWPS = [
    "A788899-C",
    "B788699-C",
    "A788999-C",
    "C867773-8",
    "E430587-8",
    "A000000-0",
    "B5A7967-D",
    "D584553-6",
    "X420000-0",
    "C9C4977-A",
]


def _world(col: int, row: int, uwp: str, zone: str, alleg: str) -> PlacedWorld:
    u = Uwp.parse(uwp)
    w = World(
        sector="R",
        hex=f"{col:02d}{row:02d}",
        name=f"w{col}.{row}",
        uwp=uwp,
        starport=u.starport,
        size=u.size,
        atmosphere=u.atmosphere,
        hydrographics=u.hydrographics,
        population=u.population,
        government=u.government,
        law=u.law,
        tech_level=u.tech_level,
        zone=zone,
        pbg="503",
        allegiance=alleg,
    )
    return PlacedWorld(w, col, row)


maps = st.lists(
    st.tuples(
        st.integers(1, 8),
        st.integers(1, 10),
        st.sampled_from(UWPS),
        st.sampled_from(["", "", "", "A", "R"]),
        st.sampled_from(["ImDd", "ImDv", "ZhIN", "NaHu"]),
    ),
    min_size=2,
    max_size=22,
    unique_by=lambda t: (t[0], t[1]),
)


def _paths(nodes, xboat, max_jump, src):  # type: ignore[no-untyped-def]
    """Tuple-keyed Dijkstra: best (jumps, waypoints, parsecs) from src to every node."""
    best = {src: (0, 0, 0)}
    heap = [((0, 0, 0), src)]
    while heap:
        key, u = heapq.heappop(heap)
        if best.get(u) != key:
            continue
        for v in nodes:
            d = distance(Hex(*u), Hex(*v))
            if v == u or not (d <= max_jump or frozenset((u, v)) in xboat):
                continue
            cand = (key[0] + 1, key[1] + nodes[v]["bad"], key[2] + d)
            if v not in best or cand < best[v]:
                best[v] = cand
                heapq.heappush(heap, (cand, v))
    return best


def reference(placed: list[PlacedWorld], xboat: set[frozenset], min_h: int, cap: str):  # type: ignore[no-untyped-def]
    table = AllegianceTable()
    nodes = {}
    for p in placed:
        if p.world.zone == "R":
            continue
        t = world_trade(p.world, p.x, p.y)
        nodes[(p.x, p.y)] = {
            "wtn": t.wtn_h,
            "codes": frozenset(t.codes),
            "pol": table.polity(p.world.allegiance),
            "bad": int(p.world.zone == "A" or gurps_port(p.world.starport) <= 2),
            "id": t.id,
        }
    pairs = {}
    keys = sorted(nodes)
    p2 = {k: _paths(nodes, xboat, 2, k) for k in keys}
    p3 = {k: _paths(nodes, xboat, 3, k) for k in keys}
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            na, nb = nodes[a], nodes[b]
            m = wtcm(na["codes"], nb["codes"], same_polity(na["pol"], nb["pol"]))
            path2, path3 = p2[a].get(b), p3[a].get(b)
            if path2 is not None:
                value = btn(na["wtn"], nb["wtn"], m, path2[2], cap)
                chosen = path2
                if value >= FEEDER and path3 is not None and path3[0] < path2[0]:
                    chosen = path3
                    value = btn(na["wtn"], nb["wtn"], m, path3[2], cap)
            elif path3 is not None:
                value = btn(na["wtn"], nb["wtn"], m, path3[2], cap)
                chosen = path3
                if value < FEEDER:
                    continue
            else:
                continue
            if value >= min_h:
                pairs[tuple(sorted((na["id"], nb["id"])))] = (value, chosen[2], chosen[0])
    return pairs


@settings(max_examples=60, deadline=None)
@given(
    maps,
    st.sets(st.tuples(st.integers(0, 21), st.integers(0, 21)), max_size=4),
    st.sampled_from([("2wtn+1", 6), ("none", 6), ("wtn+5", 8), ("2wtn+1", 4)]),
)
def test_mapper_matches_plain_reading(spec, links, variant) -> None:  # type: ignore[no-untyped-def]
    placed = [_world(*t) for t in spec]
    coords = [(p.x, p.y) for p in placed]
    xboat_pairs = set()
    for i, j in links:
        if i < len(placed) and j < len(placed) and i != j:
            xboat_pairs.add(tuple(sorted((placed[i].world.id, placed[j].world.id))))
    xboat_coords = {
        frozenset((coords[i], coords[j]))
        for i, j in links
        if i < len(placed) and j < len(placed) and i != j
    }
    cap, min_btn = variant
    cfg = RouteSettings(chunk=3, btn_cap=cap, min_btn=min_btn)  # several batches on tiny maps
    result = map_worlds(Placement(tuple(placed), tuple(sorted(xboat_pairs))), cfg)
    expected = reference(placed, xboat_coords, cfg.min_btn_h, cap)
    assert result.counted_pairs == len(expected)
    listed = {(p.a, p.b): (p.btn_h, p.distance, p.jumps) for p in result.pairs}
    assert listed == {k: v for k, v in expected.items() if v[0] >= 16}
    # T-6 "results never depend on processing order": batching sources differently changes
    # nothing, legs included.
    again = map_worlds(
        Placement(tuple(placed), tuple(sorted(xboat_pairs))),
        RouteSettings(btn_cap=cap, min_btn=min_btn),
    )
    assert (again.pairs, again.legs, again.counted_pairs) == (
        result.pairs,
        result.legs,
        result.counted_pairs,
    )
    # Sum over legs of trade == sum over pairs of trade x jumps (T-7), independent of ties.
    assert sum(g.trade for g in result.legs) == sum(
        trade_credits(v[0]) * v[2] for v in expected.values()
    )
