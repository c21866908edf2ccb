"""Support §1.2: repair and rebuild of damaged craft, and the work on a craft they share with
refits (§1.5): started by an order at a repairer or builder in the craft's hex, paid at its
rating across rounds, applied when complete (R-10.2, R-10.7)."""

from __future__ import annotations

from collections.abc import Callable

from .building import Payment, pay_in, settle
from .designs import fatigue_cost
from .rules import ceil_div
from .state import Build, Craft, Design, Order
from .world import World
from .yard import Yard, idle

#: kind -> (the worker's order field, its Hold-Special order, the ledger step)
WORK = {
    "repair": ("repairer", "hold_repair", "support.1.2"),
    "rebuild": ("builder", "hold_build", "support.1.2"),
    "refit": ("builder", "hold_build", "support.1.5"),
}
RULE = {"repair": "R-10.2", "rebuild": "R-10.2", "refit": "R-10.5a"}


def rating_kind(world: World, worker: Craft, kind: str) -> str:
    """R-10.2: a repair proceeds at the repairer's rating (a builder without one repairs at its
    construction rating); a rebuild or refit at the builder's construction rating."""
    if kind == "repair" and world.navy.capacity(worker, "repair"):
        return "repair"
    return "construction"


def worker_problem(yard: Yard, order: Order, craft: Craft | None) -> str | None:
    """Why the order's repairer or builder cannot work on ``craft`` this round."""
    world = yard.world
    navy = world.navy
    field, hold, _ = WORK[order.type]
    worker = navy.craft.get(order[field])
    if craft is None or craft.power != order.power:
        return f"craft: no craft {order['craft']} of {order.power}"
    if worker is None or worker.power != order.power:
        return f"{field}: no craft {order[field]} of {order.power}"
    able = navy.capacity(worker, "construction") or (
        order.type == "repair" and navy.capacity(worker, "repair")
    )
    what = "repair or construction" if order.type == "repair" else "construction"
    return (
        f"{field}: {worker.id} has no working {what} system"
        if not able
        else f"{field}: {reason}"
        if (reason := idle(world, worker, (hold,)))
        else f"{field}: {worker.id} unbuilds this round (Support §1.3)"
        if yard.mode.get(worker.id) == "unbuild"
        else f"craft: {craft.id} is the {field}"
        if craft is worker
        else f"craft: {craft.id} is not at {worker.id}'s hex"
        if navy.hex_of(craft) != navy.hex_of(worker)
        else f"craft: {craft.id} is already being worked on"
        if any(b.craft == craft.id for b in navy.fleet.builds)
        else None
    )


Finish = Callable[[Yard, Build], None]


def begin(
    yard: Yard,
    order: Order,
    craft: Craft,
    cost: int,
    finish: Finish,
    systems: dict[str, int] | None = None,
    fatigue: int = 0,
) -> None:
    """A new piece of work on ``craft``: its cost is fixed now (with the destroyed ``systems``
    it restores and the ``fatigue`` a rebuild removes); it takes Ore this round."""
    world = yard.world
    field, _, step = WORK[order.type]
    if not yard.unused(order):
        return
    work = Build(
        order["id"], order.power, order.type, order.get("design") or craft.design,
        [order[field]], False, None, cost, 0, world.round, {"ore": 0}, craft.id, 0,
        dict(systems or {}), fatigue,
    )  # fmt: skip
    pay = _payment(yard, work, order.get("ore"))
    if isinstance(pay, str):
        return world.reject(order, pay)
    yard.claim(work.id)
    world.navy.add_build(work)
    world.books.event(
        "work.started", powers=(order.power,), step=step, build=work.id, work=work.kind,
        craft=craft.id, cost=cost,
    )  # fmt: skip
    if pay_in(yard, work, pay, step, RULE[work.kind]):
        finish(yard, work)
    return None


def _payment(yard: Yard, work: Build, wanted: int | None) -> Payment | str:
    """This round's Ore at the worker's rating, when it acts in the craft's hex."""
    world = yard.world
    navy = world.navy
    worker = navy.craft[work.builders[0]]
    hx = navy.hex_of(worker)
    _, hold, _ = WORK[work.kind]
    acting = idle(world, worker, (hold,)) is None and yard.mode.get(worker.id) != "unbuild"
    here = navy.hex_of(navy.craft[str(work.craft)]) == hx
    hands = [worker] if acting and here else []
    return settle(yard, work, wanted, hx, hands, rating_kind(world, worker, work.kind))


def advance(yard: Yard, work: Build, order: Order | None, finish: Finish | None = None) -> None:
    """R-10.2, R-10.7: work on a craft goes on without an order while its worker acts in the
    craft's hex; an order may name this round's Ore (refused when it cannot be met)."""
    world = yard.world
    world.books.step = WORK[work.kind][2]
    pay = _payment(yard, work, order.get("ore") if order else None)
    if isinstance(pay, str):
        if order is not None:
            world.reject(order, pay)
        return
    if not pay.hands:
        world.books.event("work.waits", powers=(work.power,), build=work.id, craft=work.craft)
        return
    if pay_in(yard, work, pay, WORK[work.kind][2], RULE[work.kind]):
        (finish or _finish_repair)(yard, work)


def start_repair(yard: Yard, order: Order) -> None:
    """Support §1.2, R-10.2: a repairer (or builder) on Hold-Repair in the craft's hex replaces
    its destroyed systems at their point cost; disabled ones are fixed free."""
    craft = yard.world.navy.craft.get(order["craft"])
    problem = worker_problem(yard, order, craft)
    if problem is None and craft is not None and not (craft.destroyed or craft.disabled):
        problem = f"craft: {craft.id} has no destroyed or disabled system to repair"
    if problem or craft is None:
        return yard.world.reject(order, problem or "craft: unknown")
    cost = _points(yard.world, craft)
    return begin(yard, order, craft, cost, _finish_repair, craft.destroyed)


def start_rebuild(yard: Yard, order: Order) -> None:
    """Support §1.2, R-10.2, R-10.7: a builder on Hold-Build replaces destroyed systems like a
    repair, adds no fatigue, and with ``remove_fatigue`` removes it for
    ceil(½ × fatigue/100 × NPV) Ore more."""
    world = yard.world
    craft = world.navy.craft.get(order["craft"])
    problem = worker_problem(yard, order, craft)
    if problem or craft is None:
        return world.reject(order, problem or "craft: unknown")
    fatigue = craft.fatigue if order.get("remove_fatigue") else 0
    if not (craft.destroyed or craft.disabled or fatigue):
        return world.reject(order, f"craft: {craft.id} has no damage or fatigue to rebuild")
    npv = world.navy.design(craft).npv
    cost = _points(world, craft) + fatigue_cost(npv, fatigue)
    return begin(yard, order, craft, cost, _finish_repair, craft.destroyed, fatigue)


def _points(world: World, craft: Craft) -> int:
    return destroyed_points(world.navy.design(craft), craft)


def destroyed_points(design: Design, craft: Craft) -> int:
    """Support §1.2: destroyed systems cost their point cost (a Class 1 beam: 3 Ore)."""
    return sum(s.points * craft.destroyed.get(s.id, 0) for s in design.systems)


def repair_fatigue(points: int, npv: int) -> int:
    """Support §1.2, R-10.2: the percentage of the craft repaired, rounded up, at least 1."""
    return max(1, ceil_div(100 * points, npv))


def close(yard: Yard, work: Build, rule: str) -> Craft:
    """The work's Ore leaves the ledger as it becomes part of the craft; the work is done."""
    world = yard.world
    navy = world.navy
    world.books.step = WORK[work.kind][2]
    reason = f"{work.id} completed"
    world.books.change(work.power, work, "ore", -work.paid, reason, rule)
    navy.remove_build(work)
    return navy.craft[str(work.craft)]


def _finish_repair(yard: Yard, work: Build) -> None:
    """R-10.2, R-10.7: the systems are restored when the order completes, the disabled ones
    free; a repair adds its fatigue once, for everything it repaired (none for disabled
    systems only); a rebuild adds none and removes what it paid for."""
    world = yard.world
    craft = close(yard, work, RULE[work.kind])
    for sid, n in work.systems.items():
        left = craft.destroyed.get(sid, 0) - n
        craft.destroyed.pop(sid, None)
        if left > 0:
            craft.destroyed[sid] = left
    craft.disabled.clear()
    before = craft.fatigue
    points = work.cost - fatigue_cost(world.navy.design(craft).npv, work.fatigue)
    if work.kind == "repair" and points:
        craft.fatigue += repair_fatigue(points, world.navy.design(craft).npv)
    craft.fatigue = max(0, craft.fatigue - work.fatigue)
    carrier = world.navy.carrier(craft)
    if carrier is not None:
        world.navy.refresh(carrier)
    world.books.event(
        "work.completed", powers=(work.power,), build=work.id, work=work.kind, craft=craft.id,
        fatigue_before=before, fatigue=craft.fatigue,
    )  # fmt: skip
