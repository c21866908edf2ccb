"""Fleet rule functions (R-10.0-R-10.3, R-7.2, R-7.4), with the arithmetic worked by hand."""

from __future__ import annotations

from typing import Any

from economy.engine import designs
from economy.engine.state import Consumable, Craft, Design, DesignSystem

FRIGATE = Design(
    "frig", "terra", "Frigate", "military", "mobile", 30, 73, 3,
    (DesignSystem("b1", "Class 1 beam", 3, 2, {}),
     DesignSystem("yard", "Yard", 20, 2, {"construction": 25, "workshop": 10})),
    {"fighter": 4},
)  # fmt: skip
CATALOGUE = {"fighter": Consumable("fighter", 2, 7)}


def craft(**kw: Any) -> Craft:
    return Craft("c", "terra", "frig", "g", None, None, {"cf": 0}, **kw)


def test_r_10_0_capacity_counts_working_units_only() -> None:
    assert designs.capacity(FRIGATE, "construction") == 50
    assert designs.capacity(FRIGATE, "construction", craft(destroyed={"yard": 1})) == 25
    assert designs.capacity(FRIGATE, "workshop", craft(disabled={"yard": 2})) == 0
    assert designs.capacity(FRIGATE, "repair") == 0


def test_r_10_0_npv_covers_the_systems() -> None:
    assert designs.system_points(FRIGATE.systems) == 3 * 2 + 20 * 2
    assert designs.npv_problem(46, FRIGATE.systems) is None
    assert designs.npv_problem(45, FRIGATE.systems) == (
        "NPV 45 is below its systems' point cost 46 (R-10.0)"
    )


def test_r_10_1_new_design_costs_ten_percent_more_rounded_up_plus_loadout() -> None:
    assert designs.surcharge(73) == 8  # ceil(7.3)
    assert designs.surcharge(70) == 7
    assert designs.build_cost(FRIGATE, CATALOGUE, new_design=True) == (73 + 8 + 4 * 7, 8)
    assert designs.build_cost(FRIGATE, CATALOGUE, new_design=False) == (73 + 28, 0)


def test_r_10_3_unbuild_reclaims_npv_less_the_fatigue_cost() -> None:
    assert designs.fatigue_cost(73, 15) == 6  # ceil(5.475)
    assert designs.reclaim(FRIGATE, craft(fatigue=15)) == 67
    assert designs.reclaim(FRIGATE, craft(fatigue=250)) == 0  # never below 0
    assert designs.reclaim(FRIGATE, craft(fatigue=40, captured=True)) == 36  # floor(73 / 2)


def test_r_7_2_and_r_7_4_crew_and_ep() -> None:
    civilian = Design("v", "terra", "V", "civilian", "mobile", 1, 1, 1, ())
    assert (designs.pl_per_cf(FRIGATE), designs.pl_per_cf(civilian)) == (5, 2)
    assert [designs.ep_need(p) for p in (0, 1, 100, 101, 250)] == [0, 1, 1, 2, 3]
