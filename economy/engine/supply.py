"""Endurance Points: consumed at the start of every round (Support §3.4, R-7.4, R-7.4a) and
supplied from Bio in the Support Phase (§3.4)."""

from __future__ import annotations

from collections import defaultdict

from .designs import ep_need
from .reach import Purse
from .state import Group, Static
from .troops import STEP
from .world import World


def consume(world: World) -> None:
    """R-7.4, R-7.4a: each group (with the craft in orbit with its builders), and each static
    with craft in orbit with it or standing in deep space, needs ceil(points / 100) EP at the
    start of the round, after the fleet declarations. A held system's free EP serve the power's
    groups and statics at its hex in id order; the rest comes from the EP they store. One short
    is out of supply for the round, the EP it has spent first."""
    books = world.books
    books.step = "fleet.ep"
    navy = world.navy
    free: dict[str, int] = defaultdict(int)
    for system in world.systems_sorted:
        if system.free_ep and system.holder and world.effective_loyalty(system) > 0:
            free[system.hex] = system.free_ep
    units: list[Group | Static] = sorted(
        [*world.state.groups, *world.state.statics], key=lambda u: u.id
    )
    for unit in units:
        need = ep_need(navy.ep_points(unit, deep_space=unit.hex not in world.system_at))
        here = world.system_at.get(unit.hex)
        served = 0
        if here is not None and here.holder == unit.power:
            served = min(need, free[unit.hex])
            free[unit.hex] -= served
        spent = min(need - served, unit.store["ep"])
        books.change(unit.power, unit, "ep", -spent, f"EP consumed ({need} needed)", "R-7.4")
        unit.out_of_supply = served + spent < need
        if unit.out_of_supply:
            books.event(
                "supply.out",
                powers=(unit.power,),
                carrier=unit.id,
                hex=unit.hex,
                need=need,
                free=served,
                stored=spent,
            )


def supply(world: World) -> None:
    """Support §3.4, R-7.4, R-10.7: 1 Bio -> 1 EP into a group or static, from Bio reaching its
    hex; EP beyond its storage are not taken."""
    books = world.books
    books.step = "support.3.4"
    purse = Purse(world, STEP)  # R-4.5a: §3 is one step
    navy = world.navy
    for order in world.orders.get("supply_ep", ()):
        carrier = world.groups.get(order["into"]) or world.statics.get(order["into"])
        if carrier is None or carrier.power != order.power:  # a transfer not made (§1.6.2)
            world.reject(order, f"into: no group or static {order['into']} of yours this round")
            continue
        storage = navy.ep_storage(carrier)
        wanted: int = order["ep"]
        taken = wanted if storage is None else min(wanted, storage - carrier.store["ep"])
        if taken <= 0:
            world.reject(order, f"into: {carrier.id} has no free EP storage ({storage})")
            continue
        place = purse.place(order.power, carrier.hex)
        short = purse.short(place, carrier.hex, "bio", taken)
        if place is None or short:
            world.reject(order, f"ep: {short}")
            continue
        reason = f"EP supplied to {carrier.id}"
        purse.take(order.power, place, carrier.hex, "bio", taken, reason, "R-7.4")
        books.change(order.power, carrier, "ep", taken, reason, "R-7.4")
        if taken < wanted:
            books.event(
                "supply.full",
                powers=(order.power,),
                carrier=carrier.id,
                storage=storage,
                rest=wanted - taken,
            )
