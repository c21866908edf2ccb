"""Support §1.3: unbuilding at a builder's rating, reclaiming Ore on completion (R-10.3,
R-10.7)."""

from __future__ import annotations

from .designs import pl_per_cf, reclaim
from .state import Build, Craft, Order
from .yard import Yard, idle


def start_unbuild(yard: Yard, order: Order) -> None:
    """Support §1.3, R-10.3, R-10.7: unbuild a craft at a builder in its hex, at the builder's
    rating in NPV per round; a builder that unbuilds does not build that round."""
    world = yard.world
    navy = world.navy
    craft = navy.craft.get(order["craft"])
    builder = navy.craft.get(order["builder"])
    if builder is None:
        return world.reject(order, f"builder: no craft {order['builder']}")
    why = (
        f"craft: no craft {order['craft']} of {order.power}"
        if craft is None or craft.power != order.power
        else f"builder: {builder.id} has no working construction system"
        if not navy.capacity(builder, "construction")
        else f"builder: {reason}"
        if (reason := idle(world, builder))
        else f"builder: {builder.id} builds this round (Support §1.3)"
        if yard.mode.get(builder.id) == "build"
        else f"craft: {craft.id} is the builder"
        if craft is builder
        else f"craft: {craft.id} is not at {builder.id}'s hex"
        if navy.hex_of(craft) != navy.hex_of(builder)
        else f"craft: {craft.id} is already being unbuilt, repaired, rebuilt or refitted"
        if any(b.craft == craft.id for b in navy.fleet.builds)
        else f"craft: {craft.id} has work or craft in orbit with it"
        if navy.in_orbit.get(craft.id) or any(craft.id in b.builders for b in navy.fleet.builds)
        else None
    )
    if why or craft is None:
        return world.reject(order, why or "craft: unknown")
    if not yard.unused(order):
        return None
    yard.claim(order["id"])
    design = navy.design(craft)
    work = Build(
        order["id"], order.power, "unbuild", design.id, [builder.id], False, None,
        design.npv, 0, world.round, {"ore": 0}, craft.id,
    )  # fmt: skip
    navy.add_build(work)
    advance_unbuild(yard, work)
    return None


def advance_unbuild(yard: Yard, work: Build, _: Order | None = None) -> None:
    """R-10.3, R-10.7: an unbuild advances by the builder's rating in NPV while the craft is
    in its hex; the Ore comes back when it completes (it takes no Ore order)."""
    world = yard.world
    world.books.step = "support.1.3"
    navy = world.navy
    builder = navy.craft.get(work.builders[0])
    craft = navy.craft.get(str(work.craft))
    if craft is None:
        navy.remove_build(work)
        world.books.event("unbuild.gone", powers=(work.power,), build=work.id, craft=work.craft)
        return
    if (
        builder is None
        or idle(world, builder) is not None
        or yard.mode.get(builder.id) == "build"
        or navy.hex_of(builder) != navy.hex_of(craft)
    ):
        world.books.event("unbuild.waits", powers=(work.power,), build=work.id, craft=craft.id)
        return
    amount = min(yard.rating(builder), work.cost - work.worked)
    yard.use(builder, amount, "unbuild")
    work.worked += amount
    if work.worked == work.cost:
        _dismantle(yard, work, craft, builder)


def _dismantle(yard: Yard, work: Build, craft: Craft, builder: Craft) -> None:
    """Support §1.3, R-10.3, R-10.7: the Ore comes back where the builder's hex gets its Ore
    (R-1.4), the crew returns there as PL (5 per military CF, 2 per civilian, R-10.5a), and
    the consumables aboard or in its workshop are lost with it."""
    world = yard.world
    navy = world.navy
    books = world.books
    books.step = "support.1.3"
    design = navy.design(craft)
    hx = navy.hex_of(craft)
    place = yard.purse.place(craft.power, hx)
    carrier = navy.carrier(craft)
    for holder in (craft, craft.workshop):
        for kind, n in sorted(holder.store.items()):
            if kind != "cf":
                books.change(craft.power, holder, kind, -n, f"lost with {craft.id}", "R-10.3")
    crew = craft.crew
    books.change(craft.power, craft, "cf", -crew, f"{craft.id} unbuilt", "R-10.7")
    ore = reclaim(design, craft)
    if place is not None:
        books.change(
            craft.power, place, "pl", crew * pl_per_cf(design), f"crew of {craft.id}", "R-10.7"
        )
        books.change(craft.power, place, "ore", ore, f"{craft.id} unbuilt", "R-10.3")
    navy.remove_craft(craft)
    navy.remove_build(work)
    navy.reindex()
    if carrier is not None:  # its group (or its builder's) no longer counts it
        navy.refresh(carrier)
    books.event(
        "unbuild.done",
        powers=(craft.power,),
        craft=craft.id,
        builder=builder.id,
        ore=ore,
        where=place.where if place else None,
        hex=hx,
    )
