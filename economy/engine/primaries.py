"""Resource §1.1 in the Support Phase: Primary upkeep, designation, Homeworld nomination (R-3.2)."""

from __future__ import annotations

from .rules import STANDARD_PL, derived_type, max_loyalty, primary_upkeep
from .state import System
from .world import World


def _revert(world: World, system: System, why: str) -> None:
    """R-3.2: back to Standard/Basic; LR above the new maximum is lost."""
    system.type = derived_type("basic", system.rates["pl"])
    cap = max_loyalty(system.type)
    before = system.loyalty
    if system.loyalty > cap:
        if system.holder:  # the LR lost is a ledger line (loyalty has no store)
            world.books.record(
                system.holder,
                system.where,
                "lr",
                cap - system.loyalty,
                f"{system.id} LR above the {system.type} maximum lost",
                "R-3.2",
            )
        system.loyalty = cap
    world.books.event(
        "primary.reverted",
        powers=(system.holder,),
        system=system.id,
        type=system.type,
        why=why,
        before=before,
        after=system.loyalty,
    )


def primaries(world: World) -> None:
    """R-3.2, R-5.9: drops and nominations, then upkeep of existing Primaries by system id, then
    new designations in order; each pays 2 Gal x PL rate."""
    books = world.books
    books.step = "support.4"
    for order in world.orders.get("drop_primary", ()):
        system = world.systems[order["system"]]
        if system.holder != order.power or system.type != "primary":
            world.reject(order, f"{system.id} is not a Primary of {order.power}")
        else:
            _revert(world, system, "dropped")
    homeworld_holders = {
        s.holder for s in world.systems_sorted if s.type == "homeworld" and s.holder
    }
    for order in world.orders.get("nominate_homeworld", ()):
        system = world.systems[order["system"]]
        if system.holder != order.power or system.type != "primary":
            world.reject(order, f"{system.id} is not a Primary of {order.power} (Resource §1.1)")
        elif order.power in homeworld_holders:
            world.reject(order, f"{order.power} already has a Homeworld")
        else:
            system.type = "homeworld"
            homeworld_holders.add(order.power)
            books.event(
                "primary.homeworld", powers=(order.power,), system=system.id, power=order.power
            )
    for system in world.systems_sorted:
        if system.type != "primary" or system.holder is None:
            continue
        if system.rates["pl"] < STANDARD_PL:
            _revert(world, system, "PL rate below 15")
            continue
        bank = world.powers[system.holder]
        cost = primary_upkeep(system.rates["pl"])
        if bank.store["gal"] < cost:
            _revert(world, system, f"upkeep {cost} gal unpaid")
            continue
        books.change(bank.id, bank, "gal", -cost, f"primary upkeep {system.id}", "R-3.2")
    for order in world.orders.get("designate_primary", ()):
        system = world.systems[order["system"]]
        bank = world.powers[order.power]
        cost = primary_upkeep(system.rates["pl"])
        if system.holder != order.power or world.effective_loyalty(system) == 0:
            world.reject(order, f"{system.id} is not held by {order.power} this round")
        elif system.type != "standard":
            world.reject(order, f"{system.id} is {system.type}: only a Standard system (PL >= 15)")
        elif bank.store["gal"] < cost:
            world.reject(order, f"bank has {bank.store['gal']} gal, Primary needs {cost}")
        else:
            books.change(bank.id, bank, "gal", -cost, f"designate primary {system.id}", "R-3.2")
            system.type = "primary"
            books.event(
                "primary.designated", powers=(order.power,), system=system.id, power=order.power
            )
