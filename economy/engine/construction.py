"""Support §1: designs registered, then build, unbuild and make at the builders, then groups
formed from the craft in orbit with them (§1.0, §1.1, §1.3, §1.4; R-10.0, R-10.1, R-10.1a,
R-10.3, R-10.4, R-10.7, R-2b)."""

from __future__ import annotations

from collections.abc import Callable

from . import building, refit, repair, unbuild
from .codec import parse_design
from .make import make
from .owners import new_carrier
from .state import Build, Group, Order
from .world import World
from .yard import Yard


def register(world: World, yard: Yard) -> None:
    """R-10.0: designs are registered at the start of §1 (so they can be built the same round)
    for the campaign's TP per design, from the bank."""
    books = world.books
    books.step = "support.1"
    navy = world.navy
    for order in world.orders.get("register_design", ()):
        bank = world.powers[order.power]
        cost = navy.fleet.design_tp
        if not yard.unused(order):
            continue
        if bank.store["tp"] < cost:
            world.reject(order, f"bank has {bank.store['tp']} tp, a design costs {cost} (R-10.0)")
            continue
        yard.claim(order["id"])
        design = parse_design(order.fields, order.power, navy.fleet.catalogue)
        books.change(order.power, bank, "tp", -cost, f"design {design.id} registered", "R-10.0")
        navy.fleet.designs.append(design)
        navy.designs[design.id] = design
        yard.new_designs.add(design.id)
        books.event(
            "design.registered",
            powers=(order.power,),
            design=design.id,
            design_name=design.name,
        )


def form_groups(world: World, yard: Yard) -> None:
    """Support §1.1, R-2b, R-10.7: after all of §1's building, craft in orbit with builders in
    one hex form a new group (mobile designs) or static (static designs); a group must keep
    within the campaign's limit for its kind, if it sets one."""
    books = world.books
    books.step = "support.1.1"
    navy = world.navy
    for order in world.orders.get("form_group", ()):
        craft = [navy.craft.get(cid) for cid in order["craft"]]
        members = [c for c in craft if c is not None and c.power == order.power and c.orbit]
        if len(members) < len(craft):
            world.reject(
                order, f"craft: each must be a craft of {order.power} in orbit with a builder"
            )
            continue
        hexes = {navy.hex_of(c) for c in members}
        mobility = {navy.design(c).mobility for c in members}
        kind = order.get("kind", "standard")
        limit = navy.fleet.group_limits.get(kind)
        points = navy.npv(members)
        why = (
            "craft: they are in orbit at different hexes"
            if len(hexes) > 1
            else "craft: mobile and static craft cannot form one group"
            if len(mobility) > 1
            else f"craft: {points} points exceed the {kind} group limit {limit.points} (R-2b)"
            if limit and limit.points is not None and points > limit.points and "mobile" in mobility
            else None
        )
        if why:
            world.reject(order, why)
            continue
        if not yard.unused(order):
            continue
        yard.claim(order["id"])
        old = {o.id: o for c in members if (o := navy.carrier(c)) is not None}
        hx = hexes.pop()
        static = "static" in mobility
        carrier = new_carrier(world, order["id"], order.power, hx, static=static, kind=kind)
        for c in members:
            c.orbit = None
            if isinstance(carrier, Group):
                c.group = carrier.id
            else:
                c.static = carrier.id
        navy.reindex()
        for oid in sorted(old):
            navy.refresh(old[oid])
        navy.refresh(carrier)
        books.event(
            "fleet.formed",
            powers=(order.power,),
            carrier=carrier.id,
            hex=hx,
            craft=[c.id for c in members],
        )
    world.reindex_groups()


NEW_WORK = {
    "build": building.start_build,
    "unbuild": unbuild.start_unbuild,
    "make": make,
    "repair": repair.start_repair,  # Support 1.2, R-10.2
    "rebuild": repair.start_rebuild,
    "refit": refit.start_refit,  # Support 1.5
}
#: R-10.7: work in progress of each kind, advanced oldest first (an unbuild takes no Ore order)
ADVANCE: dict[str, Callable[[Yard, Build, Order | None], None]] = {
    "build": building.advance,
    "unbuild": unbuild.advance_unbuild,
    "repair": repair.advance,
    "rebuild": repair.advance,
    "refit": refit.advance_refit,
}


def construction(world: World) -> None:
    """Support §1 in the order of R-10.7: designs registered; orders on work in progress;
    gantries lost by moving; work in progress (oldest first), then new build, unbuild and make
    orders in listed order; gantries set up; groups formed."""
    yard = Yard(world)
    register(world, yard)
    ore = building.adjust(yard)
    building.gantries(world, set_up=False)
    navy = world.navy
    for work in sorted(navy.fleet.builds, key=lambda b: (b.started, b.id)):
        ADVANCE[work.kind](yard, work, ore.get(work.id))
    new = sorted(
        (o for t in NEW_WORK for o in world.orders.get(t, ())),
        key=lambda o: (o.power, o.index),
    )
    for order in new:
        NEW_WORK[order.type](yard, order)
    building.gantries(world, set_up=True)
    navy.reindex()  # finished craft are in orbit with their builders (R-7.4a)
    navy.refresh_all()
    form_groups(world, yard)
