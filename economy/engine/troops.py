"""Support §3.1: recruiting troops and home defence (R-7.1)."""

from __future__ import annotations

from .hubs import short_of, take
from .loyalty import destroy_invaders
from .state import Group, Hub, Order, Static, System
from .world import World

STEP = "support.3"  # R-4.5a: recruiting and home defence are one step (R-2c §3)


def pl_source(world: World, order: Order, carrier: Group | Static) -> Hub | System | None:
    """R-7.1, R-1.2: the PL of the hub or held system named in ``at``, which must reach the
    carrier's hex; rejects the order and gives ``None`` otherwise."""
    named = world.hub_or_system(order["at"])
    if named is None:
        world.reject(order, f"at: hub {order['at']} no longer exists")
        return None
    if isinstance(named, Hub):
        hub = named
        if hub.id in world.new_hubs:
            world.reject(order, f"at: hub {hub.id} is not active until next round")
            return None
        if carrier.hex not in hub.members() or carrier.hex in world.new_members:
            world.reject(order, f"into: {carrier.id} at {carrier.hex} is not in hub {hub.id}")
            return None
        return hub
    system = named
    if system.holder != order.power or world.effective_loyalty(system) == 0:
        world.reject(order, f"at: {system.id} is not held by {order.power} this round")
        return None
    if carrier.hex != system.hex:
        world.reject(order, f"into: {carrier.id} is not at {system.id}")
        return None
    return world.place_of(system)


def recruit(world: World, order: Order) -> None:
    """Support §3.1.1, R-7.1: 1 PL -> 1 troop, only into free Troop space in the hex or hub."""
    troops: int = order["troops"]
    carrier: Group | Static = world.groups.get(order["into"]) or world.statics[order["into"]]
    place = pl_source(world, order, carrier)
    if place is None:
        return None
    space = carrier.troop_space - carrier.store["troops"]
    if space <= 0:
        return world.reject(order, f"into: {carrier.id} has no free troop space")
    # PL become troops only into Troop space; the rest of the PL is not converted.
    made = min(troops, space)
    short = short_of(world, place, carrier.hex, "pl", made, STEP)
    if short:
        return world.reject(order, short)
    books = world.books
    books.step = "support.3.1.1"
    take(
        world,
        order.power,
        place,
        carrier.hex,
        "pl",
        made,
        f"recruited into {carrier.id}",
        "R-7.1",
        STEP,
    )
    books.change(order.power, carrier, "troops", made, f"recruited at {order['at']}", "R-7.1")
    if made < troops:
        books.event(
            "troops.partly_recruited",
            powers=(order.power,),
            carrier=carrier.id,
            made=made,
            rest=troops - made,
        )
    return None


def defend(world: World, order: Order) -> None:
    """Support §3.1.2, R-7.1: PL at an invaded system become troops that kill invaders 1:1."""
    system = world.systems[order["system"]]
    troops: int = order["troops"]
    if system.holder != order.power or world.effective_loyalty(system) == 0:
        return world.reject(order, f"{system.id} is lost this round: no home defence (R-7.1)")
    wanted = order.get("invader")
    invaders = [
        inv
        for who, inv in sorted(world.invasions.get(system.id, {}).items())
        if who != order.power and (wanted is None or who == wanted)
    ]
    present = sum(inv.troops for inv in invaders)
    if troops > present:
        return world.reject(order, f"{system.id} has {present} invading troops, not {troops}")
    place = world.place_of(system)
    short = short_of(world, place, system.hex, "pl", troops, STEP)
    if short:
        return world.reject(order, short)
    books = world.books
    books.step = "support.3.1.2"
    take(
        world,
        order.power,
        place,
        system.hex,
        "pl",
        troops,
        f"home defence of {system.id}",
        "R-7.1",
        STEP,
    )
    destroy_invaders(world, invaders, troops, f"destroyed defending {system.id}", "R-7.1")
    books.event(
        "troops.home_defence",
        powers=(order.power, *(inv.power for inv in invaders)),
        power=order.power,
        troops=troops,
        system=system.id,
    )
    return None


def secondary(world: World) -> None:
    """Support §3.1: recruiting and home defence, in each power's listed order (R-0.3)."""
    orders = sorted(
        [*world.orders.get("recruit_troops", ()), *world.orders.get("home_defense", ())],
        key=lambda o: (o.power, o.index),
    )
    for order in orders:
        if order.type == "recruit_troops":
            recruit(world, order)
        else:
            defend(world, order)
