"""Amended rules on real pairs of Spinward Marches (T-5a, T-6a, T-6c), read from the directory
in FTCAMP_SECTORS (never copied into the project; without it the tests skip). The arithmetic is
worked by hand from the rows of the file; hex distances are checked with economy.engine.hexgrid,
an independent implementation.
"Bad" is an Amber zone or a class II-or-worse (D, E, X) port; none of these paths uses an X-boat
route."""

from __future__ import annotations

from itertools import pairwise

import pytest

from economy.engine.hexgrid import Hex, distance
from tests.sectors import real_sectors
from trade.routes import RouteMap, map_routes


@pytest.fixture(scope="module")
def marches() -> RouteMap:
    folder = real_sectors("arithmetic worked by hand on named worlds of the Spinward Marches")
    return map_routes([folder / "Spinward Marches.tab"])


def _d(*hexes: str) -> list[int]:
    return [distance(Hex.parse(a), Hex.parse(b)) for a, b in pairwise(hexes)]


def _pair(result: RouteMap, a: str, b: str) -> tuple[float, int, int]:
    found = [p for p in result.pairs if (p.a, p.b) == (a, b)]
    assert found, (a, b)
    return (found[0].btn_h / 2, found[0].distance, found[0].jumps)


def test_t5a_ektron_mire(marches: RouteMap) -> None:
    """T-5a: Ektron 0326 C432652-9 and Mire 0527 A665A95-C, both DaCf, 2 parsecs apart.

    Ektron: TL 9 -> GURPS 9 (+1), PR 6 (+3): UWTN 4; class III port, row 4-4.5: 0 -> WTN 4.
    Mire: TL C -> GURPS 10 (+1), PR 10 (+5): UWTN 6; class V port, row 6-6.5: 0 -> WTN 6.
    WTCM 0 (Mire is not Ag, its atmosphere 6 is not In's; same polity). Sum 10, cap
    2 x 4 + 1 = 9: min(10, 9) - 0.5 (2 pc) = 8.5, Minor, over one jump. Capping after the
    modifier gave min(9.5, 9) = 9, Feeder.
    """
    worlds = {w.id: w for w in marches.worlds}
    assert (worlds["Spinward Marches 0326"].wtn_h, worlds["Spinward Marches 0527"].wtn_h) == (8, 12)
    assert _pair(marches, "Spinward Marches 0326", "Spinward Marches 0527") == (8.5, 2, 1)


def test_t5a_every_pair_capped_before_distance(marches: RouteMap) -> None:
    """T-5a on the default cap: no pair's BTN exceeds 2 x its smaller WTN + 1 minus its
    distance modifier band at 2+ parsecs (the cap comes first, the modifier always applies)."""
    worlds = {w.id: w.wtn_h for w in marches.worlds}
    for p in marches.pairs:
        if p.distance >= 2:
            cap = 2 * min(worlds[p.a], worlds[p.b]) + 2
            assert p.btn_h <= cap - 1, p


def test_t6a_fewest_parsecs_through_bad_worlds(marches: RouteMap) -> None:
    """T-6a: Cipango 0705 (A886865-C, ZhIN) and Quar 0808 (B532720-B, CsIm, Amber).

    Cipango: TL C -> GURPS 10 (+1), PR 8 (+4): UWTN 5, class V port: WTN 5 (Ri). Quar: TL B ->
    GURPS 9 (+1), PR 7 (+3.5): UWTN 4.5, class IV port, row 4-4.5: 0 -> 4.5 (Na Po). WTCM:
    no Ag, no In; Zh and Im differ: -0.5. min(9, 2 x 4.5 + 1) = 9.
    Every path crosses bad worlds (no P1). P0: 0705-0805-0807-0808, 1 + 2 + 1 = 4 pc in 3 jumps
    (Narval D/Amber, Plaven E). The old choice (fewest jumps, then fewest bad waypoints) took
    0705-0605-0607-0808, 1 + 2 + 2 = 5 pc (only Rasatt E). Now: distance 4, BTN 9 - 1 = 8.
    """
    assert _d("0705", "0805", "0807", "0808") == [1, 2, 1]
    assert _d("0705", "0605", "0607", "0808") == [1, 2, 2]
    assert _pair(marches, "Spinward Marches 0705", "Spinward Marches 0808") == (8.0, 4, 3)


def test_t6a_detour_that_adds_no_jump(marches: RouteMap) -> None:
    """T-6a P1: Hrunting 0921 (B563747-9, SwCf) and Vilis 1119 (A593943-A, ImDd).

    Hrunting: TL 9 -> GURPS 9 (+1), PR 7 (+3.5): UWTN 4.5, class IV: 4.5 (Ri). Vilis: TL A ->
    GURPS 9 (+1), PR 9 (+4.5): 5.5, class V: 5.5 (In). WTCM: In needs a Ni partner (PR 7 is
    not); SwCf and ImDd differ: -0.5. min(9.5, 2 x 4.5 + 1 = 10) = 9.5.
    P0: 0921-1020-1119, 1 + 2 = 3 pc in 2 jumps through Margesi (Amber). P1: 0921-1121-1119
    through Mjolnir (class IV, green), 2 + 2 = 4 pc in 2 jumps: no more jumps, so the trade
    detours: distance 4, BTN 9.5 - 1 = 8.5 (Minor, no jump-3).
    """
    assert _d("0921", "1020", "1119") == [1, 2] and _d("0921", "1121", "1119") == [2, 2]
    assert _pair(marches, "Spinward Marches 0921", "Spinward Marches 1119") == (8.5, 4, 2)


def test_t6a_no_detour_that_adds_jumps(marches: RouteMap) -> None:
    """T-6a P0: Riverland 1102 (C566A99-9, ZhIN, Amber) and Mongo 1204 (A568685-A, ImDd).

    Riverland: TL 9 -> GURPS 9 (+1), PR 10 (+5): UWTN 6, class III, row 6-6.5: -1 -> 5.
    Mongo: TL A -> GURPS 9 (+1), PR 6 (+3): UWTN 4, class V, row 4-4.5: +0.5 -> 4.5 (Ag Ni Ri).
    WTCM: Riverland is neither Ex, Na nor In; Zh and Im differ: -0.5. min(9, 10) = 9.
    P0: 1102-1103-1204, 1 + 2 = 3 pc in 2 jumps through Clan (Amber). The only clean path is
    8 pc in 4 jumps: "if avoiding one would mean more legs ... do not avoid": 9 - 1 = 8.
    """
    assert _d("1102", "1103", "1204") == [1, 2]
    assert _pair(marches, "Spinward Marches 1102", "Spinward Marches 1204") == (8.0, 3, 2)


def test_t6c_jump3_path_fewest_parsecs_before_waypoints(marches: RouteMap) -> None:
    """T-6c: Mirriam 0333 (B9998A6-A, ImDd, Amber) and Darrian 0627 (A463955-G, DaCf).

    Mirriam: TL A -> GURPS 9 (+1), PR 8 (+4): UWTN 5, class IV, row 5-5.5: 0 -> 5. Darrian:
    TL G -> GURPS 13 (+1.5), PR 9 (+4.5): 6, class V: 6. No codes that meet; Im and Da differ:
    -0.5. min(10.5, 2 x 5 + 1 = 11) = 10.5.
    Jump-2 (T-6a): P0 0333-0532-0530-0528-0627, 7 pc in 4 jumps (the clean path takes 10
    jumps): 10.5 - 1.5 = 9, Feeder, so a jump-3 path with fewer jumps is taken (T-6). Three
    jumps at best (7 hexes apart). T-6c, fewest parsecs: 0333-0430-0429-0627, 3 + 1 + 3 = 7 pc
    (Kardin E is a bad waypoint); the old order (waypoints before parsecs) took the clean
    0333-0430-0427-0627, 3 + 3 + 2 = 8 pc. Distance 7, BTN 10.5 - 1.5 = 9.
    """
    assert _d("0333", "0627") == [7]
    assert _d("0333", "0430", "0429", "0627") == [3, 1, 3]
    assert _d("0333", "0430", "0427", "0627") == [3, 3, 2]
    assert _pair(marches, "Spinward Marches 0333", "Spinward Marches 0627") == (9.0, 7, 3)
