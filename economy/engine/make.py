"""Support §1.4: Make — consumables at the catalogue's cost (R-10.1a, R-10.7)."""

from __future__ import annotations

from .state import Order
from .yard import MAKE_ORDERS, Yard, free_workshop, idle


def make(yard: Yard, order: Order) -> None:
    """Support §1.4, R-10.1a, R-10.7: consumables made at a builder or repairer on Hold-Build or
    Hold-Repair (a static always), at the catalogue's Ore cost, counted against the rating in
    use, and stored in its free workshop space."""
    world = yard.world
    navy = world.navy
    builder = navy.craft.get(order["builder"])
    consumable = navy.fleet.catalogue[order["kind"]]
    count: int = order["count"]
    if builder is None or builder.power != order.power:
        return world.reject(order, f"builder: no craft {order['builder']} of {order.power}")
    group = world.groups.get(builder.group or "")
    repairing = group is not None and group.order == "hold_repair"
    kind = "repair" if repairing or not navy.capacity(builder, "construction") else "construction"
    cost = consumable.ore * count
    hx = navy.hex_of(builder)
    place = yard.purse.place(order.power, hx)
    why = (
        f"builder: {reason}"
        if (reason := idle(world, builder, MAKE_ORDERS))
        else f"builder: {builder.id} unbuilds this round (Support §1.3)"
        if yard.mode.get(builder.id) == "unbuild"
        else f"count: {builder.id} has {yard.rating(builder, kind)} of its {kind} rating left,"
        f" making costs {cost}"
        if cost > yard.rating(builder, kind)
        else f"count: {builder.id} has {free_workshop(world, builder)} workshop space free,"
        f" {count} {consumable.kind} need {consumable.mass * count}"
        if consumable.mass * count > free_workshop(world, builder)
        else yard.purse.short(place, hx, "ore", cost)
    )
    if why or place is None:
        return world.reject(order, why or "no ore")
    world.books.step = "support.1.4"
    yard.use(builder, cost, "build", kind)
    reason = f"made {count} {consumable.kind} at {builder.id}"
    yard.purse.take(order.power, place, hx, "ore", cost, reason, "R-10.1a")
    world.books.change(order.power, builder.workshop, consumable.kind, count, reason, "R-10.1a")
    return None
