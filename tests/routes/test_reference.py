"""The vectorised mapper against a slow, plain reading of T-2 ... T-7 on random small maps and
on a real sector (read from the directory in FTCAMP_SECTORS; without it that test skips).

The reference below shares nothing with the product but the input rows: it computes every
world's WTN and trade codes from the UWP with the seed's tables, every pair's WTCM and BTN
(T-5a: cap, then distance), enumerates every pair (no pruning), finds paths with tuple-keyed
Dijkstras that count waypoints literally (T-6a's P0 and P1, T-6c on the jump-3 graph) and
applies the jump-3 rule (T-6, T-6b) as written. Pair BTN, distance and jumps do not depend on
how ties are broken, and neither does the total trade x jumps summed over all legs, so those
are compared exactly.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import TypedDict
from unittest.mock import patch

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from economy.engine.hexgrid import Hex, distance
from tests.sectors import real_sectors
from trade.routes import PlacedWorld, Placement, RouteSettings, World, map_worlds, native, paths
from trade.routes.allegiance import AllegianceTable
from trade.routes.mapper import place
from trade.routes.sectors import read_sector

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
    "D788899-C",
    "A7A9A99-F",
]
EHEX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"

# Seed 002 tables, typed again here from the seed (not imported from the product).
GURPS_TL = [2, 4, 5, 5, 5, 6, 6, 7, 8, 9, 9, 9, 10, 10, 11, 12]  # Traveller TL 0..15; 16+ -> 13
PORT_CLASS = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1, "X": 0}
PORT_TABLE = {  # UWTN row (its lower bound) -> modifier for class V, IV, III, II, I, 0
    F(7): ["0", "-1", "-1.5", "-2", "-2.5", "-5"],
    F(6): ["0", "-0.5", "-1", "-1.5", "-2", "-4.5"],
    F(5): ["0", "0", "-0.5", "-1", "-1.5", "-4"],
    F(4): ["0.5", "0", "0", "-0.5", "-1", "-3.5"],
    F(3): ["0.5", "0.5", "0", "0", "-0.5", "-3"],
    F(2): ["1", "0.5", "0.5", "0", "0", "-2.5"],
    F(1): ["1", "1", "0.5", "0.5", "0", "0"],
    F(-99): ["1.5", "1", "1", "0.5", "0.5", "0"],
}
DISTANCE = [(1, "0"), (2, "-0.5"), (5, "-1"), (9, "-1.5"), (19, "-2"), (29, "-2.5"), (59, "-3")]
DISTANCE += [(99, "-3.5"), (199, "-4"), (299, "-4.5"), (599, "-5"), (999, "-5.5")]


def ref_wtn(uwp: str) -> F:
    tl = EHEX.index(uwp[8])
    gurps = 13 if tl >= 16 else GURPS_TL[tl]
    tl_mod = F(-1, 2) if gurps <= 2 else 0 if gurps <= 5 else F(1, 2) if gurps <= 8 else 1
    if gurps >= 12:
        tl_mod = F(3, 2)
    uwtn = tl_mod + F(EHEX.index(uwp[4]), 2)
    row = max(low for low in PORT_TABLE if uwtn >= low)
    column = 5 - PORT_CLASS.get(uwp[0], 0)
    return uwtn + F(PORT_TABLE[row][column])


def ref_codes(uwp: str) -> set[str]:
    size, atm, hyd, pop = (EHEX.index(c) for c in uwp[1:5])
    codes = set()
    if 4 <= atm <= 9 and 4 <= hyd <= 8 and 5 <= pop <= 7:
        codes.add("Ag")
    if size == 0 or atm <= 1 or atm >= 10:
        codes.add("Ex")
    if atm in (0, 1, 2, 4, 7, 9) and pop >= 9:
        codes.add("In")
    if atm <= 3 and hyd <= 3 and pop >= 6:
        codes.add("Na")
    if pop <= 6:
        codes.add("Ni")
    return codes


class Node(TypedDict):
    """A world as the plain reading sees it."""

    wtn: F
    codes: set[str]
    polity: str | None
    bad: bool
    id: str


Coord = tuple[int, int]
Key = tuple[int, int, int]


def ref_btn(a: Node, b: Node, parsecs: int, cap: str) -> F:
    m = F(0)
    if ("Ag" in a["codes"] and b["codes"] & {"Ex", "Na"}) or (
        "Ag" in b["codes"] and a["codes"] & {"Ex", "Na"}
    ):
        m += F(1, 2)
    if ("In" in a["codes"] and "Ni" in b["codes"]) or ("In" in b["codes"] and "Ni" in a["codes"]):
        m += F(1, 2)
    if a["polity"] is None or a["polity"] != b["polity"]:
        m -= F(1, 2)
    total = a["wtn"] + b["wtn"] + m
    low = min(a["wtn"], b["wtn"])
    limit = {"2wtn+1": 2 * low + 1, "wtn+5": low + 5, "none": total}[cap]
    dm = next((F(mod) for top, mod in DISTANCE if parsecs <= top), F(-6))
    return min(total, limit) + dm  # T-5a: the cap first


def _world(col: int, row: int, uwp: str, zone: str, alleg: str) -> PlacedWorld:
    digits = [EHEX.index(c) for c in uwp[1:7]]
    w = World(
        sector="R",
        hex=f"{col:02d}{row:02d}",
        name=f"w{col}.{row}",
        uwp=uwp,
        starport=uwp[0],
        size=digits[0],
        atmosphere=digits[1],
        hydrographics=digits[2],
        population=digits[3],
        government=digits[4],
        law=digits[5],
        tech_level=EHEX.index(uwp[8]),
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
    max_size=24,
    unique_by=lambda t: (t[0], t[1]),
)


def _links(
    nodes: dict[Coord, Node], xboat: set[frozenset[Coord]], reach: int
) -> dict[Coord, list[tuple[Coord, int]]]:
    """Each world's jumps: every other world up to ``reach`` parsecs away, and its X-boat links
    of any length, with their parsecs."""
    links: dict[Coord, list[tuple[Coord, int]]] = {u: [] for u in nodes}
    for u in nodes:
        for v in nodes:
            d = distance(Hex(*u), Hex(*v))
            if v != u and (d <= reach or frozenset((u, v)) in xboat):
                links[u].append((v, d))
    return links


def _search(
    nodes: dict[Coord, Node],
    links: dict[Coord, list[tuple[Coord, int]]],
    src: Coord,
    jumps_first: bool,
    avoid: bool,
) -> dict[Coord, Key]:
    """Dijkstra with tuple keys from ``src``: (parsecs, jumps, bad waypoints) or, with
    ``jumps_first``, (jumps, parsecs, bad waypoints), over the ``links``. A waypoint is a world
    a path goes through (neither end); with ``avoid`` a path never goes through a bad one (T-6a
    P1)."""
    best: dict[Coord, Key] = {src: (0, 0, 0)}
    heap: list[tuple[Key, Coord]] = [((0, 0, 0), src)]
    while heap:
        key, u = heapq.heappop(heap)
        if best.get(u) != key:
            continue
        through_bad = u != src and nodes[u]["bad"]
        if avoid and through_bad:
            continue
        for v, d in links[u]:
            jumps, parsecs, bad = (
                (key[0], key[1], key[2]) if jumps_first else (key[1], key[0], key[2])
            )
            jumps, parsecs, bad = jumps + 1, parsecs + d, bad + int(through_bad)
            cand = (jumps, parsecs, bad) if jumps_first else (parsecs, jumps, bad)
            if v not in best or cand < best[v]:
                best[v] = cand
                heapq.heappush(heap, (cand, v))
    return best


def reference(
    placed: list[PlacedWorld],
    xboat: set[frozenset[Coord]],
    min_btn: F,
    cap: str,
    polity: Callable[[str], str | None] | None = None,
) -> dict[tuple[str, ...], tuple[F, int, int]]:
    """Every pair that trades at ``min_btn`` or better: its BTN, parsecs and jumps. A world's
    polity is ``polity(allegiance)``, by default the code's first two letters (``Na..``: none)."""
    nodes: dict[Coord, Node] = {}
    for p in placed:
        if p.world.zone == "R":
            continue  # T-6: never a waypoint nor an end
        uwp = p.world.uwp
        alleg = p.world.allegiance
        nodes[(p.x, p.y)] = {
            "wtn": ref_wtn(uwp),
            "codes": ref_codes(uwp),
            "polity": polity(alleg) if polity else None if alleg.startswith("Na") else alleg[:2],
            "bad": p.world.zone == "A" or PORT_CLASS.get(uwp[0], 0) <= 2,
            "id": p.world.id,
        }
    feeder = F(9)
    pairs: dict[tuple[str, ...], tuple[F, int, int]] = {}
    keys = sorted(nodes)
    jump2, jump3 = _links(nodes, xboat, 2), _links(nodes, xboat, 3)
    for i, a in enumerate(keys):
        p0 = _search(nodes, jump2, a, jumps_first=False, avoid=False)  # T-6a P0
        p1 = _search(nodes, jump2, a, jumps_first=False, avoid=True)  # T-6a P1
        p3 = _search(nodes, jump3, a, jumps_first=True, avoid=False)  # T-6c
        for b in keys[i + 1 :]:
            na, nb = nodes[a], nodes[b]
            value = None
            if b in p0:
                parsecs, jumps = p0[b][0], p0[b][1]
                if b in p1 and p1[b][1] <= jumps:  # P1 when it has no more jumps
                    parsecs, jumps = p1[b][0], p1[b][1]
                value = ref_btn(na, nb, parsecs, cap)
                if value >= feeder and b in p3 and p3[b][0] < jumps:  # T-6: jump-3 saves a jump
                    jumps, parsecs = p3[b][0], p3[b][1]
                    value = ref_btn(na, nb, parsecs, cap)
            elif b in p3:  # T-6b: only jump-3 legs join them
                jumps, parsecs = p3[b][0], p3[b][1]
                value = ref_btn(na, nb, parsecs, cap)
                if value < feeder:
                    value = None
            if value is not None and value >= min_btn:
                pairs[tuple(sorted((na["id"], nb["id"])))] = (value, parsecs, jumps)
    return pairs


def ref_trade(value: F) -> int:
    """T-7: 10^floor(b), x5 for a half step; 0 below 0.5."""
    if value < F(1, 2):
        return 0
    whole = int(value)
    trade: int = 10**whole * (5 if value - whole else 1)  # (int ** int may be a float)
    return trade


# T-6a beyond a source's reach: 0203 and 0206 (WTN 3.5 each, WTCM 0: 7, cap 8) have P0 of 5 pc
# in 3 jumps through the Amber 0306 (7 - 1 = 6, it would trade), but P1 is 6 pc in 3 jumps, so
# the pair takes it: 7 - 1.5 = 5.5, no trade. A WTN-3.5 source's trade reaches only 5 pc, so the
# mapper must search past its reach to see that P1 (batch._clean_choice).
FAR_CLEAN_PATH = [
    (4, 1, "C769777-3", "", "ImDd"),
    (3, 1, "C769777-3", "A", "ImDd"),
    (4, 4, "A000000-0", "", "ImDd"),
    (1, 4, "A000000-0", "A", "ImDd"),
    (2, 3, "C769777-3", "A", "ImDd"),
    (3, 6, "C769777-3", "A", "ImDd"),
    (4, 6, "A000000-0", "", "ImDd"),
    (2, 6, "C769777-3", "", "ImDd"),
]


@settings(max_examples=80, deadline=None)
@example(FAR_CLEAN_PATH, set(), ("2wtn+1", 6))
@given(
    maps,
    st.sets(st.tuples(st.integers(0, 23), st.integers(0, 23)), max_size=4),
    st.sampled_from([("2wtn+1", 6), ("none", 6), ("wtn+5", 8), ("2wtn+1", 4), ("2wtn+1", 10)]),
)
def test_mapper_matches_plain_reading(
    spec: list[tuple[int, int, str, str, str]],
    links: set[tuple[int, int]],
    variant: tuple[str, int],
) -> None:
    placed = [_world(*t) for t in spec]
    coords = [(p.x, p.y) for p in placed]
    valid = [(i, j) for i, j in links if i < len(placed) and j < len(placed) and i != j]
    ids = [(placed[i].world.id, placed[j].world.id) for i, j in valid]
    xboat_pairs = {(min(a, b), max(a, b)) for a, b in ids}
    xboat_coords = {frozenset((coords[i], coords[j])) for i, j in valid}
    cap, min_btn = variant
    cfg = RouteSettings(chunk=3, btn_cap=cap, min_btn=min_btn)  # several batches on tiny maps
    result = map_worlds(Placement(tuple(placed), tuple(sorted(xboat_pairs))), cfg)
    expected = reference(placed, xboat_coords, F(min_btn), cap)
    assert result.counted_pairs == len(expected)
    listed = {(p.a, p.b): (F(p.btn_h, 2), p.distance, p.jumps) for p in result.pairs}
    assert listed == {k: v for k, v in expected.items() if v[0] >= 8}
    # The WTNs the reference computed agree with the product's (T-3).
    by_id = {w.id: F(w.wtn_h, 2) for w in result.worlds}
    assert all(by_id[p.world.id] == ref_wtn(p.world.uwp) for p in placed)
    # T-6 "results never depend on processing order": batching sources differently changes
    # nothing, legs included; nor does searching with scipy's dijkstra and walking the trees
    # in numpy instead of in C (trade/routes/native.py).
    with patch.object(native, "available", lambda: False), patch.object(paths, "SMALL_MAP", 0):
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
        ref_trade(v[0]) * v[2] for v in expected.values()
    )


@pytest.fixture
def folder() -> Path:
    return real_sectors("the plain reading compared with the mapper on a real sector")


def test_mapper_matches_plain_reading_on_a_real_sector(folder: Path) -> None:
    """The same comparison on a real sector the other tests do not read: Tuglikki (375 worlds,
    61 X-boat routes), read and placed by the product's reader, polities from its allegiance
    table (both tested on their own); every world's WTN, every pair counted down to BTN 6, and
    every pair of BTN 8 or more with its BTN, parsecs and jumps. (Checked the same way once, not
    in the suite for time: Vland, Gvurrdon, the five sectors around Spinward Marches, the four
    of Dagudashaag, Gushemege, Zarushagar and Ilelish, and the whole 16-sector block: 934,815
    pairs counted, 59,403 of BTN 8 or more, 15 minutes; 0 differences.)"""
    sector = read_sector(folder / "Tuglikki.tab")
    placement = place([sector])
    table = AllegianceTable.load(folder / "allegiance_codes.tab")
    result = map_worlds(placement, RouteSettings(), allegiances=table)
    at = {p.world.id: (p.x, p.y) for p in placement.worlds}
    xboat = {frozenset((at[a], at[b])) for a, b in placement.xboat}
    expected = reference(list(placement.worlds), xboat, F(6), "2wtn+1", table.polity)
    assert len(placement.xboat) > 50 and len(expected) > 10_000  # a real test of both
    assert result.counted_pairs == len(expected)
    listed = {(p.a, p.b): (F(p.btn_h, 2), p.distance, p.jumps) for p in result.pairs}
    assert listed == {k: v for k, v in expected.items() if v[0] >= 8}
    assert all(F(w.wtn_h, 2) == ref_wtn(w.uwp) for w in result.worlds)
