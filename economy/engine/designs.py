"""Support §1, R-10.0-R-10.3, R-7.2, R-7.4: what follows from a design — capacities, the cost
of building and the Ore reclaimed by unbuilding, crew and EP figures."""

from __future__ import annotations

from collections.abc import Iterable

from .rules import ceil_div
from .state import Consumable, Craft, Design, DesignSystem

MILITARY_CF_PL = 5  # Support §3.2, R-7.2: 5 PL = 1 military CF
CIVILIAN_CF_PL = 2  # 2 PL = 1 civilian CF


def working(system: DesignSystem, craft: Craft | None) -> int:
    """R-10.0, R-10.6: units of a system that work (destroyed and disabled ones give nothing)."""
    if craft is None:
        return system.count
    broken = craft.destroyed.get(system.id, 0) + craft.disabled.get(system.id, 0)
    return max(0, system.count - broken)


def capacity(design: Design, kind: str, craft: Craft | None = None) -> int:
    """R-10.0: a capacity (construction rating, workshop space, EP storage, …) of a design, or of
    one craft of it: the sum over its working system units."""
    return sum(s.capacity.get(kind, 0) * working(s, craft) for s in design.systems)


def system_points(systems: Iterable[DesignSystem]) -> int:
    """R-10.0: the point cost of a design's systems."""
    return sum(s.points * s.count for s in systems)


def npv_problem(npv: int, systems: Iterable[DesignSystem]) -> str | None:
    """R-10.0: NPV >= the sum of the systems' point costs (the rest is hull and drives)."""
    points = system_points(systems)
    return f"NPV {npv} is below its systems' point cost {points} (R-10.0)" if npv < points else None


def surcharge(npv: int) -> int:
    """Support §1.1, R-10.1: a design with no completed craft costs +10 % of its NPV, rounded
    up (R-0.1)."""
    return ceil_div(npv, 10)


def loadout_cost(design: Design, catalogue: dict[str, Consumable]) -> int:
    """Support §1.4, R-10.1: the consumables a craft is built with, at the catalogue's cost."""
    return sum(catalogue[kind].ore * n for kind, n in sorted(design.loadout.items()))


def build_cost(
    design: Design, catalogue: dict[str, Consumable], new_design: bool
) -> tuple[int, int]:
    """R-10.1: (the Ore a build costs, of which surcharge): NPV, +10 % while no craft of the
    design is completed, and the loadout (fighters and drones are extra)."""
    extra = surcharge(design.npv) if new_design else 0
    return design.npv + extra + loadout_cost(design, catalogue), extra


def fatigue_cost(npv: int, fatigue: int) -> int:
    """Support §1.2: ½ × fatigue / 100 × NPV, rounded up (R-0.1)."""
    return ceil_div(fatigue * npv, 200)


def reclaim(design: Design, craft: Craft) -> int:
    """Support §1.3, R-10.3: NPV less the fatigue cost, never below 0; a captured craft gives
    floor(NPV / 2), its fatigue ignored (R-10.7)."""
    if craft.captured:
        return design.npv // 2
    return max(0, design.npv - fatigue_cost(design.npv, craft.fatigue))


def pl_per_cf(design: Design) -> int:
    """Support §3.2, R-7.2: 5 PL per military CF, 2 PL per civilian CF."""
    return MILITARY_CF_PL if design.cls == "military" else CIVILIAN_CF_PL


def ep_need(points: int) -> int:
    """Support §3.4, R-7.4: 1 EP supports 100 points of craft (rounded up)."""
    return ceil_div(points, 100)
