"""Support §3.2: crew factors from PL (R-7.2, R-7.5)."""

from __future__ import annotations

from .designs import pl_per_cf
from .reach import Purse
from .state import Craft, Order
from .troops import STEP
from .world import World


def _plan(world: World, craft: list[Craft], cf: int | None, pl: int) -> list[tuple[Craft, int]]:
    """CF per craft short of crew, in id order: ``cf`` of them, or as many as ``pl`` pays for."""
    navy = world.navy
    plan = []
    left = cf
    budget = pl
    for c in craft:
        design = navy.design(c)
        short = design.crew - c.crew
        if short <= 0:
            continue
        n = short if left is None else min(short, left)
        if cf is None:  # without an amount, what the PL pays for
            n = min(n, budget // pl_per_cf(design))
            budget -= n * pl_per_cf(design)
        else:
            left = (left or 0) - n
        if n:
            plan.append((c, n))
    return plan


def crew(world: World) -> None:
    """Support §3.2, R-7.2, R-7.5: 5 PL -> 1 military CF, 2 PL -> 1 civilian CF, from PL
    reaching the hex of the group (or of the craft) as for EP; only the CF its craft lack are
    made. A finished craft can be crewed in the Support Phase it was built (R-10.1a)."""
    books = world.books
    books.step = "support.3.2"
    purse = Purse(world, STEP)  # R-4.5a: §3 is one step
    navy = world.navy
    for order in world.orders.get("crew", ()):
        targets = _targets(world, order)
        if targets is None:
            continue
        hx = navy.hex_of(targets[0])
        place = purse.place(order.power, hx)
        have = 0 if place is None else purse.usable(place, hx, "pl")
        wanted: int | None = order.get("cf")
        short = [c for c in targets if navy.design(c).crew > c.crew]
        if not short:
            world.reject(order, f"{order.get('group') or order.get('craft')} lacks no crew")
            continue
        plan = _plan(world, short, wanted, have)
        cost = sum(n * pl_per_cf(navy.design(c)) for c, n in plan)
        price = cost if plan else pl_per_cf(navy.design(short[0]))  # a plan, or one CF
        if place is None or not plan or cost > have:
            world.reject(order, f"cf: {purse.short(place, hx, 'pl', price)}")
            continue
        for c, n in plan:
            reason = f"{n} CF for {c.id}"
            purse.take(order.power, place, hx, "pl", n * pl_per_cf(navy.design(c)), reason, "R-7.2")
            books.change(order.power, c, "cf", n, reason, "R-7.2")
        made = sum(n for _, n in plan)
        if wanted is not None and made < wanted:
            books.event("crew.short", powers=(order.power,), made=made, wanted=wanted)


def _targets(world: World, order: Order) -> list[Craft] | None:
    """The craft a crew order names: a group's (in id order) or one craft, finished by now."""
    navy = world.navy
    if "group" in order.fields:
        group = world.groups.get(order["group"])
        if group is None or group.power != order.power:  # a transfer not made (Support 1.6.2)
            world.reject(order, f"group: no group {order['group']} of yours this round")
            return None
        craft = navy.members(group)
        if not craft:
            world.reject(order, f"group: {group.id} has no craft to crew")
            return None
        return craft
    one = navy.craft.get(order["craft"])
    if one is None or one.power != order.power:
        world.reject(order, f"craft: {order['craft']} is not a finished craft this round")
        return None
    return [one]
