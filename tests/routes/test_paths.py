"""T-6 path choice and T-7 leg totals on small hand-drawn maps the tests write themselves.

Hex distances in the comments were counted on the odd-q grid (column 1 "up", even columns half
a hex lower) and are re-checked with economy.engine.hexgrid, an independent implementation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from economy.engine.hexgrid import Hex, distance
from trade.routes import RouteMap, RouteSettings, map_routes, mapper, paths

from .graphs import jump_graphs, needs_c, random_maps
from .helpers import BIG, STONE, row, write_sector

# WTN 4 world: TL C -> GURPS 10 (+1), PR 6 (+3) = UWTN 4, class IV port in the 4-4.5 row: 0.
# Ag and Ni (atm 8, hyd 8, PR 6) and Ri; BIG is neither Ex, Na nor In, so WTCM stays 0.
FOUR = "B788699-C"


def d(a: str, b: str) -> int:
    return distance(Hex.parse(a), Hex.parse(b))


def legs_of(result: RouteMap) -> dict[tuple[str, str], tuple[int, str | None]]:
    return {(g.a, g.b): (g.trade, g.route_class) for g in result.legs}


def pair(result: RouteMap, a: str, b: str) -> tuple[float, int, int] | None:
    for p in result.pairs:
        if (p.a, p.b) == (a, b):
            return (p.btn_h / 2, p.distance, p.jumps)
    return None


def test_hand_drawn_line_leg_totals(tmp_path: Path) -> None:
    # Four WTN-5 worlds in one column, 2 parsecs apart: A 0101, B 0103, C 0105, D 0107.
    assert (d("0101", "0103"), d("0101", "0105"), d("0101", "0107")) == (2, 4, 6)
    # Pairs (T-5, same allegiance, WTCM 0, cap 2 x 5 + 1 = 11):
    #   A-B, B-C, C-D: 5 + 5 - 0.5 (2 pc) = 9.5 -> 5e9 credits (T-7), 1 jump
    #   A-C, B-D:      5 + 5 - 1   (4 pc) = 9   -> 1e9, 2 jumps (Feeder, but no jump-3 leg
    #                  can save a jump: nothing lies 3 parsecs away)
    #   A-D:           5 + 5 - 1.5 (6 pc) = 8.5 -> 5e8, 3 jumps
    # Legs: A-B carries A-B, A-C, A-D = 5e9 + 1e9 + 5e8 = 6.5e9 -> BTN 9.5 (Feeder)
    #       B-C carries B-C, A-C, B-D, A-D = 5e9 + 1e9 + 1e9 + 5e8 = 7.5e9 -> 9.5 (Feeder)
    #       C-D carries C-D, B-D, A-D = 6.5e9 -> 9.5 (Feeder)
    rows = [row(h, n, BIG) for h, n in (("0101", "A"), ("0103", "B"), ("0105", "C"), ("0107", "D"))]
    result = map_routes([write_sector(tmp_path, "Line", rows)])
    assert pair(result, "Line 0101", "Line 0103") == (9.5, 2, 1)
    assert pair(result, "Line 0101", "Line 0105") == (9.0, 4, 2)
    assert pair(result, "Line 0101", "Line 0107") == (8.5, 6, 3)
    assert pair(result, "Line 0103", "Line 0107") == (9.0, 4, 2)
    assert len(result.pairs) == 6 and result.counted_pairs == 6
    assert legs_of(result) == {
        ("Line 0101", "Line 0103"): (6_500_000_000, "feeder"),
        ("Line 0103", "Line 0105"): (7_500_000_000, "feeder"),
        ("Line 0105", "Line 0107"): (6_500_000_000, "feeder"),
    }


def test_two_feeder_routes_add_up_to_a_main_leg(tmp_path: Path) -> None:
    # A 0101 (WTN 5.5: A788999-C, GURPS TL 10 +1, PR 9 +4.5, class V port +0), B 0103, C 0105
    # (WTN 5). T-5, WTCM 0:
    #   A-B: 5.5 + 5 - 0.5 (2 pc) = 10 -> 1e10     B-C: 5 + 5 - 0.5 = 9.5 -> 5e9
    #   A-C: 5.5 + 5 - 1 (4 pc, via B) = 9.5 -> 5e9 (cap 2 x 5 + 1 = 11)
    # T-7 legs: A-B = 1e10 + 5e9 = 1.5e10 -> 10 (Main); B-C = 5e9 + 5e9 = 1e10 -> 10 (Main):
    # two Feeder routes sharing a leg make it a Main leg (the seed's "keep track of all trade").
    rows = [row("0101", "A", "A788999-C"), row("0103", "B", BIG), row("0105", "C", BIG)]
    result = map_routes([write_sector(tmp_path, "Sum", rows)])
    assert pair(result, "Sum 0101", "Sum 0103") == (10.0, 2, 1)
    assert pair(result, "Sum 0103", "Sum 0105") == (9.5, 2, 1)
    assert pair(result, "Sum 0101", "Sum 0105") == (9.5, 4, 2)
    assert legs_of(result) == {
        ("Sum 0101", "Sum 0103"): (15_000_000_000, "main"),
        ("Sum 0103", "Sum 0105"): (10_000_000_000, "main"),
    }
    assert {g.btn_h for g in result.legs} == {20}


def test_red_zone_world_is_never_on_a_path(tmp_path: Path) -> None:
    # A 0101 and B 0105 are 4 parsecs apart; the only 2-jump stepping stone is 0103, Red.
    rows = [row("0101", "A", BIG), row("0103", "Red", BIG, zone="R"), row("0105", "B", BIG)]
    result = map_routes([write_sector(tmp_path, "Red", rows)])
    assert result.pairs == () and result.legs == ()
    assert "Red 0103" in {w.id for w in result.worlds}  # listed, but never traded through


def test_red_zone_detour(tmp_path: Path) -> None:
    # Same, plus green stones 0202 (2 from A, 3 from B) and 0204 (2 from 0202, 1 from B).
    # Jump-2 path: A-0202-0204-B, 3 jumps, 5 parsecs -> 5 + 5 - 1 = 9, Feeder; so the jump-3
    # leg 0202-B (3 pc) saves a jump (T-6): A-0202-B, 2 jumps, 5 parsecs, BTN 9 again.
    assert (d("0101", "0202"), d("0202", "0204"), d("0204", "0105")) == (2, 2, 1)
    assert d("0202", "0105") == 3
    rows = [
        row("0101", "A", BIG),
        row("0103", "Red", BIG, zone="R"),
        row("0105", "B", BIG),
        row("0202", "S1", STONE),
        row("0204", "S2", STONE),
    ]
    result = map_routes([write_sector(tmp_path, "Det", rows)])
    assert pair(result, "Det 0101", "Det 0105") == (9.0, 5, 2)
    assert set(legs_of(result)) == {("Det 0101", "Det 0202"), ("Det 0105", "Det 0202")}


def test_amber_and_poor_ports_avoided_when_it_costs_no_jump(tmp_path: Path) -> None:
    # A 0101 and B 0204 are 4 parsecs apart with two 2-jump stepping stones: 0103 and 0202.
    assert d("0101", "0204") == 4
    assert (d("0101", "0103"), d("0103", "0204"), d("0101", "0202"), d("0202", "0204")) == (
        2,
        2,
        2,
        2,
    )
    for label, bad in (
        ("Amb", row("0103", "Amber", STONE, zone="A")),
        ("Port", row("0103", "Poor", "D000000-0")),
    ):  # class II port (T-2)
        rows = [row("0101", "A", BIG), row("0204", "B", BIG), bad, row("0202", "Good", STONE)]
        result = map_routes([write_sector(tmp_path, label, rows)])
        assert pair(result, f"{label} 0101", f"{label} 0204") == (9.0, 4, 2)
        # 0103 sorts first, so only the T-6 waypoint rule can prefer 0202.
        assert set(legs_of(result)) == {
            (f"{label} 0101", f"{label} 0202"),
            (f"{label} 0202", f"{label} 0204"),
        }


def test_remaining_ties_go_to_the_lowest_id(tmp_path: Path) -> None:
    # Same map with both stones green: two equal paths (2 jumps, 4 parsecs, no bad waypoint).
    # T-6 breaks the tie by node order (sorted ids): B's step back goes to "Tie 0103".
    rows = [
        row("0101", "A", BIG),
        row("0204", "B", BIG),
        row("0202", "S2", STONE),
        row("0103", "S1", STONE),
    ]
    result = map_routes([write_sector(tmp_path, "Tie", rows)])
    assert set(legs_of(result)) == {("Tie 0101", "Tie 0103"), ("Tie 0103", "Tie 0204")}


def test_amber_used_when_avoiding_it_costs_a_jump(tmp_path: Path) -> None:
    # A 0101, B 0105 (4 pc): the only 2-jump stone is 0103 (Amber). Green stones 0102 and 0104
    # give a 3-jump path (0101-0102-0104-0105); the seed: do not avoid it at the price of a leg.
    assert (d("0101", "0104"), d("0102", "0105")) == (3, 3)
    rows = [
        row("0101", "A", BIG),
        row("0105", "B", BIG),
        row("0103", "Amber", STONE, zone="A"),
        row("0102", "G1", STONE),
        row("0104", "G2", STONE),
    ]
    result = map_routes([write_sector(tmp_path, "Cost", rows)])
    assert pair(result, "Cost 0101", "Cost 0105") == (9.0, 4, 2)
    assert set(legs_of(result)) == {("Cost 0101", "Cost 0103"), ("Cost 0103", "Cost 0105")}


def test_jump3_only_for_feeder_or_better(tmp_path: Path) -> None:
    # A 0202 and B 0105 are 3 parsecs apart; stone 0103 is 1 from A and 2 from B.
    assert (d("0202", "0105"), d("0202", "0103"), d("0103", "0105")) == (3, 1, 2)
    # Feeder: WTN 5 + 5 - 1 (3 pc on the jump-2 path) = 9 -> the jump-3 leg saves a jump.
    rows = [row("0202", "A", BIG), row("0105", "B", BIG), row("0103", "S", STONE)]
    result = map_routes([write_sector(tmp_path, "Fee", rows)])
    assert pair(result, "Fee 0105", "Fee 0202") == (9.0, 3, 1)
    assert set(legs_of(result)) == {("Fee 0105", "Fee 0202")}
    # Minor: WTN 5 + 4 - 1 = 8 (cap 2 x 4 + 1 = 9): stays on jump-2 legs through the stone.
    rows = [row("0202", "A", BIG), row("0105", "B", FOUR), row("0103", "S", STONE)]
    result = map_routes([write_sector(tmp_path, "Min", rows)])
    assert pair(result, "Min 0105", "Min 0202") == (8.0, 3, 2)
    assert set(legs_of(result)) == {("Min 0103", "Min 0202"), ("Min 0103", "Min 0105")}


def test_t6b_only_jump3_legs_feeder_or_better(tmp_path: Path) -> None:
    """T-6b: two worlds 3 parsecs apart and nothing between (no jump-2 path at all): a Minor
    pair (5 + 4 = 9, capped at 2 x 4 + 1 = 9, -1 at 3 pc = 8) does not trade; a Feeder pair
    (5 + 5 = 10 - 1 = 9) crosses on one jump-3 leg."""
    assert d("0101", "0104") == 3
    minor = map_routes(
        [write_sector(tmp_path, "M", [row("0101", "A", BIG), row("0104", "B", FOUR)])]
    )
    assert minor.pairs == () and minor.legs == ()
    feeder = map_routes(
        [write_sector(tmp_path, "F", [row("0101", "A", BIG), row("0104", "B", BIG)])]
    )
    assert pair(feeder, "F 0101", "F 0104") == (9.0, 3, 1)


def test_xboat_route_is_one_jump_of_any_length(tmp_path: Path) -> None:
    # A 0101 and B 0601 are 5 parsecs apart with nothing between; an X-boat route joins them.
    assert d("0101", "0601") == 5
    rows = [row("0101", "A", BIG), row("0601", "B", BIG)]
    lone = map_routes([write_sector(tmp_path, "NoX", rows)])
    assert lone.pairs == ()
    linked = map_routes(
        [write_sector(tmp_path, "X", rows, routes=['<Route Start="0101" End="0601"/>'])]
    )
    # 5 + 5 - 1 (5 pc) = 9 -> 1e9 credits on the single X-boat leg: BTN 9, Feeder.
    assert pair(linked, "X 0101", "X 0601") == (9.0, 5, 1)
    assert legs_of(linked) == {("X 0101", "X 0601"): (1_000_000_000, "feeder")}
    assert linked.xboat == (("X 0101", "X 0601"),)


def test_different_allegiance_costs_half(tmp_path: Path) -> None:
    # T-5: -0.5 for differing polities; ImDd and ImDv are both Im (no allegiance file here:
    # the T5 family prefix), NaHu never matches anything.
    rows = [
        row("0101", "A", BIG, allegiance="ImDd"),
        row("0102", "B", BIG, allegiance="ImDv"),
        row("0301", "C", BIG, allegiance="ZhIN"),
        row("0302", "D", BIG, allegiance="NaHu"),
        row("0303", "E", BIG, allegiance="NaHu"),
    ]
    result = map_routes([write_sector(tmp_path, "Pol", rows)])
    assert pair(result, "Pol 0101", "Pol 0102") == (10.0, 1, 1)  # 5 + 5, same polity
    assert d("0102", "0301") == 2
    assert pair(result, "Pol 0102", "Pol 0301") == (9.0, 2, 1)  # 10 - 0.5 - 0.5 (2 pc)
    assert pair(result, "Pol 0302", "Pol 0303") == (9.5, 1, 1)  # Na vs Na: never allied


def test_min_btn_pairs_feed_legs_but_are_not_listed(tmp_path: Path) -> None:
    # WTN 4 + 4 (FOUR twice) 2 pc apart: 8 - 0.5 = 7.5 -> counted (>= 6) with 5e7 credits on its
    # leg, but not a listed pair (< 8) and the leg has no class.
    rows = [row("0101", "A", FOUR), row("0103", "B", FOUR)]
    result = map_routes([write_sector(tmp_path, "Low", rows)])
    assert result.pairs == () and result.counted_pairs == 1
    assert legs_of(result) == {("Low 0101", "Low 0103"): (50_000_000, None)}
    # Variant min_btn=8 drops it entirely.
    strict = map_routes([write_sector(tmp_path, "Low", rows)], RouteSettings(min_btn=8))
    assert strict.counted_pairs == 0 and strict.legs == ()


def test_leg_sums_stay_exact_beyond_int64(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # T-7 totals are exact integers: when they could overflow int64 (a very low min_btn on a
    # big map) the mapper sums trade as two base-10^9 digits. Forcing that mode must not change
    # a single leg.
    rows = [
        row(f"{c:02d}{r:02d}", f"W{c}.{r}", BIG if (c + r) % 3 else FOUR)
        for c in range(1, 6)
        for r in range(1, 7, 2)
    ]
    path = write_sector(tmp_path, "Wide", rows)
    normal = map_routes([path], RouteSettings(min_btn=0))
    monkeypatch.setattr(mapper, "INT64_SAFE", 0)
    wide = map_routes([path], RouteSettings(min_btn=0))
    assert wide.legs == normal.legs and wide.pairs == normal.pairs
    assert sum(g.trade for g in wide.legs) > 0


def test_t6a_fewest_parsecs_not_fewest_jumps(tmp_path: Path) -> None:
    """T-6a: the seed's distance is the hex count, so the path is the one with the fewest
    parsecs even when a longer one has fewer jumps.

    A 0101 (WTN 5) and B 0106 (WTN 4, Ag Ni; A is neither Ex nor Na: WTCM 0) are 5 hexes
    apart. Stones 0102 and 0104 give 0101-0102-0104-0106: 1 + 2 + 2 = 5 parsecs in 3 jumps.
    An X-boat route 0101-0205 (5 pc) then 0205-0106 (1 pc) is 6 parsecs in 2 jumps.
    BTN = min(5 + 4, 2 x 4 + 1 = 9) = 9, then 5 pc: -1 -> 8 (Minor); on the X-boat path 6 pc:
    -1.5 -> 7.5 (no route), which the old fewest-jumps choice gave. 8 is below Feeder, so no
    jump-3 leg is tried.
    """
    assert (d("0101", "0102"), d("0102", "0104"), d("0104", "0106"), d("0101", "0106")) == (
        1, 2, 2, 5,
    )  # fmt: skip
    assert (d("0101", "0205"), d("0205", "0106"), d("0104", "0205")) == (5, 1, 2)
    rows = [
        row("0101", "A", BIG),
        row("0102", "S1", STONE),
        row("0104", "S2", STONE),
        row("0205", "Relay", STONE),
        row("0106", "B", FOUR),
    ]
    result = map_routes(
        [write_sector(tmp_path, "Fp", rows, routes=['<Route Start="0101" End="0205"/>'])]
    )
    assert pair(result, "Fp 0101", "Fp 0106") == (8.0, 5, 3)
    assert {("Fp 0101", "Fp 0102"), ("Fp 0102", "Fp 0104"), ("Fp 0104", "Fp 0106")} <= set(
        legs_of(result)
    )


def test_t6c_jump3_path_fewest_jumps_then_parsecs(tmp_path: Path) -> None:
    """T-6c: on the graph with jump-3 legs the path has the fewest jumps, then the fewest
    parsecs, and only then avoids Amber zones.

    A 0101 and B 0106 (both WTN 5: 5 + 5 = 10, cap 11) are 5 hexes apart. Jump-2 path:
    0101-0102-0104-0106, 5 pc in 3 jumps through the Amber 0104 (no clean jump-2 path: 0203
    is 3 from B), BTN 10 - 1 = 9, Feeder, so a jump-3 path with fewer jumps is taken (T-6).
    Two 2-jump paths: 0101-0104-0106 (3 + 2 = 5 pc, Amber waypoint) and 0101-0203-0106
    (3 + 3 = 6 pc, clean). T-6c takes the 5-parsec one: BTN 9, distance 5, 2 jumps; the old
    order (waypoints before parsecs) took 6 pc: 10 - 1.5 = 8.5.
    """
    assert (d("0101", "0104"), d("0104", "0106"), d("0101", "0203"), d("0203", "0106")) == (
        3, 2, 3, 3,
    )  # fmt: skip
    rows = [
        row("0101", "A", BIG),
        row("0102", "S1", STONE),
        row("0104", "Amber", STONE, zone="A"),
        row("0203", "Clean", STONE),
        row("0106", "B", BIG),
    ]
    result = map_routes([write_sector(tmp_path, "Jc", rows)])
    assert pair(result, "Jc 0101", "Jc 0106") == (9.0, 5, 2)
    assert {("Jc 0101", "Jc 0104"), ("Jc 0104", "Jc 0106")} <= set(legs_of(result))
    assert ("Jc 0106", "Jc 0203") not in legs_of(result)


@pytest.mark.parametrize("in_c", [pytest.param(True, marks=needs_c), False], ids=["c", "numpy"])
@settings(max_examples=60, deadline=None)
@given(random_maps(12, 60), st.integers(0, 40), st.data())
def test_searches_give_scipy_dijkstras_weights(  # type: ignore[no-untyped-def]
    in_c, world_map, limit_parsecs, data
) -> None:
    """The C search (paths.shortest with the native library) and paths.level_search (small maps
    without it) return exactly what scipy's dijkstra returns, on every graph the mapper builds
    (P0, the clean P1 graph with its leaving copies, jump-3), from any sources, with the limit
    anywhere (on a node's very weight too) or none."""
    search = paths.shortest if in_c else paths.level_search
    spec, links = world_map
    n = len(spec)
    graphs = jump_graphs(spec, links)
    sources = np.array(
        data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)),
        dtype=np.int64,
    )
    for graph in graphs:
        matrix = csr_matrix(
            (graph.out.data, graph.out.indices, graph.out.indptr), shape=(graph.n, graph.n)
        )
        full = dijkstra(matrix, directed=True, indices=graph.start[sources])
        weights = np.unique(full[np.isfinite(full)])
        on_a_weight = float(data.draw(st.sampled_from(weights.tolist())))
        lead = graph.metric.limit(parsecs=limit_parsecs)
        if graph.metric is paths.FEWEST_JUMPS:
            lead = graph.metric.limit(jumps=limit_parsecs // 3)
        for limit in (np.inf, lead, on_a_weight):
            expected = dijkstra(matrix, directed=True, indices=graph.start[sources], limit=limit)
            got = search(graph, sources, limit)
            assert np.array_equal(got, expected), (search.__name__, graph.metric, limit)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39))))
def test_components_number_like_scipy(n: int, edges: list[tuple[int, int]]) -> None:
    u = np.array([a for a, b in edges if a < n and b < n], dtype=np.int64)
    v = np.array([b for a, b in edges if a < n and b < n], dtype=np.int64)
    matrix = csr_matrix((np.ones(len(u)), (u, v)), shape=(n, n))
    _, expected = connected_components(matrix, directed=False)
    assert paths.components(n, u, v).tolist() == expected.tolist()
