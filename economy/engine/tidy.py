"""Support §7: tidy up (R-1.3, R-11)."""

from __future__ import annotations

from .hubs import short_of, take
from .state import Group, Static
from .troops import pl_source
from .world import World


def embark(world: World) -> None:
    """Resource §2.4, §5.1, Support §7.1: PL put into a static's free Passenger space is kept.

    Only what fits is moved; the rest stays PL (and is lost below). Passengers add PL at the
    next production (R-4.3).
    """
    books = world.books
    for order in world.orders.get("embark", ()):
        static = world.statics[order["into"]]
        place = pl_source(world, order, static)
        if place is None:
            continue
        space = static.passenger_space - static.store["pl"]
        if space <= 0:
            world.reject(order, f"into: {static.id} has no free passenger space")
            continue
        made = min(order["pl"], space)
        short = short_of(world, place, static.hex, "pl", made, "support.7")
        if short:
            world.reject(order, short)
            continue
        reason = f"embarked on {static.id}"
        take(world, order.power, place, static.hex, "pl", made, reason, "R-1.3", "support.7")
        books.change(order.power, static, "pl", made, reason, "R-1.3")


def tidy(world: World) -> None:
    """R-1.3, R-11: after ``embark`` orders, PL outside Passenger space and troops outside Troop
    space are lost.

    Invading troops stay (R-1.3). Gal and TP stay in the banks. A neutral system's stockpile
    belongs to nobody and is kept for its next holder (R-1.5). Hub pools stay one total per hub;
    the equal per-node split is worked out when a node is lost (R-5.7).
    """
    books = world.books
    books.step = "support.7"
    embark(world)
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        books.change(hub.power, hub, "pl", -hub.store["pl"], "excess PL lost", "R-1.3")
    for system in world.systems_sorted:
        if system.holder is not None:
            books.change(
                system.holder, system, "pl", -system.store["pl"], "excess PL lost", "R-1.3"
            )
    carriers: list[Group | Static] = [*world.state.groups, *world.state.statics]
    for carrier in sorted(carriers, key=lambda c: c.id):
        excess = carrier.store["troops"] - carrier.troop_space
        if excess > 0:
            books.change(carrier.power, carrier, "troops", -excess, "no troop space", "R-1.3")
    for static in sorted(world.state.statics, key=lambda s: s.id):
        excess = static.store["pl"] - static.passenger_space
        if excess > 0:
            books.change(static.power, static, "pl", -excess, "no passenger space", "R-1.3")
