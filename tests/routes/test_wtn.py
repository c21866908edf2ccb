"""T-2 conversions and T-3 World Trade Number, from seed 002 steps 1-3 (half-units: 9 = 4.5)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from trade.routes.uwp import control_rating, gurps_port, gurps_tl
from trade.routes.wtn import port_modifier, tl_modifier, uwtn, wtn


def h(text: str) -> int:
    """A seed number such as "-1.5" or "+0.5" as half-units."""
    value = Fraction(text) * 2
    assert value.denominator == 1
    return int(value)


def test_seed_world_a_uwtn_5_and_wtn_4_5() -> None:
    # Seed 002 step 1: "World A has a TL of 8 and a PR of 9 ... 0.5 + 4.5 ... UWTN of 5".
    assert uwtn(8, 9) == h("5")
    # Step 3: "World A has a Class III port ... deduct 0.5 ... WTN of 4.5".
    assert wtn(h("5"), 3) == h("4.5")


@pytest.mark.parametrize(
    ("tl", "modifier"),
    [
        (0, "-0.5"),
        (2, "-0.5"),
        (3, "0"),
        (5, "0"),
        (6, "0.5"),
        (8, "0.5"),
        (9, "1"),
        (11, "1"),
        (12, "1.5"),
        (13, "1.5"),
    ],
)
def test_tl_modifier_table(tl: int, modifier: str) -> None:
    # Seed 002 "TL Modifier Table" (T-3), both ends of every band.
    assert tl_modifier(tl) == h(modifier)


@pytest.mark.parametrize("pr", range(11))
def test_population_modifier_is_pr_over_2(pr: int) -> None:
    # Seed 002 "Population Modifier Table": PR / 2 (TL 3 adds nothing).
    assert uwtn(3, pr) == pr  # pr half-units == pr / 2


# Seed 002 "Port Modifier Table", copied row by row: UWTN band -> V, IV, III, II, I, 0.
PORT_TABLE = {
    ("7", "9"): ["0", "-1", "-1.5", "-2", "-2.5", "-5"],
    ("6", "6.5"): ["0", "-0.5", "-1", "-1.5", "-2", "-4.5"],
    ("5", "5.5"): ["0", "0", "-0.5", "-1", "-1.5", "-4"],
    ("4", "4.5"): ["+0.5", "0", "0", "-0.5", "-1", "-3.5"],
    ("3", "3.5"): ["+0.5", "+0.5", "0", "0", "-0.5", "-3"],
    ("2", "2.5"): ["+1", "+0.5", "+0.5", "0", "0", "-2.5"],
    ("1", "1.5"): ["+1", "+1", "+0.5", "+0.5", "0", "0"],
    ("-0.5", "0.5"): ["+1.5", "+1", "+1", "+0.5", "+0.5", "0"],
}


@pytest.mark.parametrize(("band", "mods"), list(PORT_TABLE.items()))
@pytest.mark.parametrize("end", [0, 1])
def test_port_modifier_table_every_cell(band: tuple[str, str], mods: list[str], end: int) -> None:
    u = h(band[end])
    for port, mod in zip((5, 4, 3, 2, 1, 0), mods, strict=True):
        assert port_modifier(u, port) == h(mod), (band[end], port)
        assert wtn(u, port) == u + h(mod)  # T-3: WTN = UWTN + port modifier, no clamping


def test_wtn_is_not_clamped() -> None:
    # T-3 "No clamping": UWTN 7 with a class 0 port gives 2.
    assert wtn(h("7"), 0) == h("2")
    assert wtn(h("-0.5"), 0) == h("-0.5")


@pytest.mark.parametrize(
    ("port", "gurps"), [("A", 5), ("B", 4), ("C", 3), ("D", 2), ("E", 1), ("X", 0), ("Y", 0)]
)
def test_t2_starport(port: str, gurps: int) -> None:
    assert gurps_port(port) == gurps


@pytest.mark.parametrize(
    ("tl", "gurps"),
    [
        (0, 2),
        (1, 4),
        (2, 5),
        (4, 5),
        (5, 6),
        (6, 6),
        (7, 7),
        (8, 8),
        (9, 9),
        (11, 9),
        (12, 10),
        (13, 10),
        (14, 11),
        (15, 12),
        (16, 13),
        (20, 13),
    ],
)
def test_t2_tech_level(tl: int, gurps: int) -> None:
    assert gurps_tl(tl) == gurps


@pytest.mark.parametrize(
    ("law", "cr"),
    [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 5), (10, 5), (11, 6), (15, 6)],
)
def test_t2_control_rating(law: int, cr: int) -> None:
    # T-2: CR = ceil(law / 2), at most 6.
    assert control_rating(law) == cr
