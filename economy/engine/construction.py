"""Support §1: designs registered, then build, unbuild and make at the builders, then groups
formed from the craft in orbit with them (§1.0, §1.1, §1.3, §1.4; R-10.0, R-10.1, R-10.1a,
R-10.3, R-10.4, R-10.7, R-2b)."""

from __future__ import annotations

from . import building, unbuild
from .codec import parse_design
from .make import make
from .state import Group, Static
from .world import World
from .yard import Yard

EMPTY_GROUP = {"troops": 0, "ep": 0}
EMPTY_STATIC = {"pl": 0, "troops": 0, "ep": 0}


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
        carrier: Group | Static
        if "static" in mobility:
            # its civilian status and capacities follow from its craft (navy.refresh)
            carrier = Static(order["id"], order.power, hx, True, 0, 0, EMPTY_STATIC.copy())
            world.state.statics.append(carrier)
            world.statics[carrier.id] = carrier
            world.statics_at[hx] = sorted([*world.statics_at[hx], carrier], key=lambda s: s.id)
        else:
            carrier = Group(
                order["id"], order.power, hx, "none", 0, EMPTY_GROUP.copy(), 0, False, "none", kind
            )
            world.state.groups.append(carrier)
            world.groups[carrier.id] = carrier
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


NEW_WORK = {"build": building.start_build, "unbuild": unbuild.start_unbuild, "make": make}


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
        if work.kind == "unbuild":
            world.books.step = "support.1.3"
            unbuild.advance_unbuild(yard, work)
        else:
            building.advance(yard, work, ore.get(work.id))
    new = sorted(
        (o for t in ("build", "unbuild", "make") for o in world.orders.get(t, ())),
        key=lambda o: (o.power, o.index),
    )
    for order in new:
        NEW_WORK[order.type](yard, order)
    building.gantries(world, set_up=True)
    navy.reindex()  # finished craft are in orbit with their builders (R-7.4a)
    navy.refresh_all()
    form_groups(world, yard)
