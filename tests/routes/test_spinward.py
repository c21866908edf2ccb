"""Amended rules on real pairs of Spinward Marches (T-5a), read from ../shared/data/sectors
(never copied into the project). The arithmetic is worked by hand from the UWPs in the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from trade.routes import RouteMap, map_routes

SPIN = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sectors"


@pytest.fixture(scope="module")
def marches() -> RouteMap:
    return map_routes([SPIN / "Spinward Marches.tab"])


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
