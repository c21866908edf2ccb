"""Support §1.5: refits — a craft at a builder becomes a variant design: the systems changed are
unbuilt without reclaiming their Ore, the new ones built at their point cost through the
builder's rating (R-10.5a: the variant is registered like any design)."""

from __future__ import annotations

from .designs import system_points
from .owners import entangled
from .repair import advance, begin, close, worker_problem
from .state import Build, Craft, Design, DesignSystem, Order
from .yard import Yard


def _same(a: DesignSystem, b: DesignSystem) -> bool:
    return a.points == b.points and a.capacity == b.capacity


def kept_units(old: Design, new: Design) -> dict[str, int]:
    """Units of each system the refit keeps: a system of the same id, points and capacities
    keeps up to its old count; any other is unbuilt and built anew."""
    before = {s.id: s for s in old.systems}
    return {
        s.id: min(s.count, before[s.id].count)
        for s in new.systems
        if s.id in before and _same(s, before[s.id])
    }


def refit_cost(old: Design, new: Design) -> int:
    """Support §1.5: the point cost of the new systems (units not kept), plus any rise in the
    rest of the NPV (hull and drives, R-10.0), which is built like a system."""
    kept = kept_units(old, new)
    systems = sum(s.points * (s.count - kept.get(s.id, 0)) for s in new.systems)
    rest_old = old.npv - system_points(old.systems)
    rest_new = new.npv - system_points(new.systems)
    return systems + max(0, rest_new - rest_old)


def start_refit(yard: Yard, order: Order) -> None:
    """Support §1.5: at a builder on Hold-Build in the craft's hex, into a variant design of
    the power with the craft's mobility."""
    world = yard.world
    navy = world.navy
    craft = navy.craft.get(order["craft"])
    new = navy.designs.get(order["design"])
    problem = worker_problem(yard, order, craft)
    if problem is None and craft is not None:
        old = navy.design(craft)
        problem = (
            f"design: no design {order['design']} of {order.power}"
            if new is None or new.power != order.power
            else f"design: {craft.id} is already a {new.id}"
            if new.id == old.id
            else f"design: a {old.mobility} craft cannot become a {new.mobility} design"
            if new.mobility != old.mobility
            else f"craft: {reason}"
            if (reason := entangled(world, craft))
            else None
        )
    if problem or craft is None or new is None:
        return world.reject(order, problem or "craft: unknown")
    return begin(yard, order, craft, refit_cost(navy.design(craft), new), finish)


def advance_refit(yard: Yard, work: Build, order: Order | None) -> None:
    advance(yard, work, order, finish)


def finish(yard: Yard, work: Build) -> None:
    """Support §1.5: the craft is of the variant design. Units unbuilt take their damage with
    them, destroyed units first, then disabled ones; the units built new are whole."""
    world = yard.world
    navy = world.navy
    craft: Craft = close(yard, work, "R-10.5a")
    old, new = navy.design(craft), navy.designs[work.design]
    kept = kept_units(old, new)
    counts = {s.id: s.count for s in old.systems}
    destroyed: dict[str, int] = {}
    disabled: dict[str, int] = {}
    for sid, keep in kept.items():
        gone = counts[sid] - keep
        hit = craft.destroyed.get(sid, 0)
        out = min(gone, hit)
        if hit - out:
            destroyed[sid] = hit - out
        down = craft.disabled.get(sid, 0) - min(gone - out, craft.disabled.get(sid, 0))
        if down:
            disabled[sid] = down
    craft.destroyed, craft.disabled = destroyed, disabled
    craft.design = new.id
    carrier = navy.carrier(craft)
    if carrier is not None:
        navy.refresh(carrier)
    world.books.event(
        "work.refitted", powers=(work.power,), build=work.id, craft=craft.id, design=new.id,
        design_name=new.name,
    )  # fmt: skip
