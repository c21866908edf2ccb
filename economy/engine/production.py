"""Resource §2.2-§2.4: Gal, TP, Ore, Bio and PL production, passenger statics, conscription."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import HOMEWORLD_TP, PRIMARY_TP, max_shift_pct, with_bonus
from .state import System
from .world import World


@dataclass(frozen=True, slots=True)
class Output:
    ore: int
    gal: int
    bio: int
    pl: int
    tp: int
    static_pl: int = 0  # passenger statics add to the PL rate (not at LR 2-3)


def system_output(system: System, lr: int, static_pl: int = 0) -> Output:
    """R-4.1, R-3.3, R-4.2: bonus, then the planetary shift, then the LR band.

    ``lr`` is the effective loyalty; ``static_pl`` the passenger-static bonus added to the PL rate.
    """
    tp_full = {"homeworld": HOMEWORLD_TP, "primary": PRIMARY_TP}.get(system.type, 0)
    if lr <= 1:
        return Output(0, 0, 0, 0, 0, 0)
    out = {res: with_bonus(system.rates[res], lr) for res in ("ore", "gal", "bio")}
    project = system.project
    if project is not None:
        pct = min(project.pct, max_shift_pct(lr))  # capped at the current maximum
        moved = out[project.source] * pct // 100
        out[project.source] -= moved
        out[project.target] += moved
    if lr <= 3:
        return Output(out["ore"] // 2, out["gal"] // 2, out["bio"] // 2, 0, tp_full // 2, 0)
    return Output(out["ore"], out["gal"], out["bio"], system.rates["pl"], tp_full, static_pl)


def produce(world: World) -> None:
    """Resource §2.2-§2.4: every held system produces into the bank and its hub or stockpile."""
    books = world.books
    gal_tp: list[tuple[System, Output]] = []
    goods: list[tuple[System, Output]] = []
    for system in world.systems_sorted:
        holder = system.holder
        if holder is None:
            continue
        static_pl = sum(
            s.store["pl"] // 25
            for s in world.statics_at.get(system.hex, ())
            if s.power == holder and s.passenger_space > 0
        )
        out = system_output(system, world.effective_loyalty(system), static_pl)
        if out.gal or out.tp:
            gal_tp.append((system, out))
        if out.ore or out.bio or out.pl or out.static_pl:
            goods.append((system, out))

    books.step = "resource.2.2"
    for system, out in gal_tp:
        bank = world.powers[str(system.holder)]
        books.change(bank.id, bank, "gal", out.gal, f"production {system.id}", "R-4.1")
        books.change(bank.id, bank, "tp", out.tp, f"production {system.id}", "R-4.2")

    books.step = "resource.2.3"
    places = {}
    for system, out in goods:
        place = places[system.id] = world.place_of(system)
        books.change(str(system.holder), place, "ore", out.ore, f"production {system.id}", "R-4.1")
        books.change(str(system.holder), place, "bio", out.bio, f"production {system.id}", "R-4.1")

    books.step = "resource.2.4"
    for system, out in goods:
        place = places[system.id]
        holder = str(system.holder)
        books.change(holder, place, "pl", out.pl, f"production {system.id}", "R-4.1")
        books.change(holder, place, "pl", out.static_pl, f"passengers at {system.id}", "R-4.3")
        world.pl_added[system.hex] += out.pl + out.static_pl
    _deep_space_statics(world)
    _conscript(world)


def _deep_space_statics(world: World) -> None:
    """R-4.3: passenger statics in a deep-space hex that is an active hub node add PL there."""
    books = world.books
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        if hub.id in world.new_hubs:
            continue
        for hx in hub.members():
            if hx in world.system_at or not world.holds_share(hub, hx):
                continue
            for static in world.statics_at.get(hx, ()):
                bonus = static.store["pl"] // 25 if static.passenger_space > 0 else 0
                if static.power == hub.power and bonus:
                    books.change(hub.power, hub, "pl", bonus, f"passengers {static.id}", "R-4.3")
                    world.pl_added[hx] += bonus


def _conscript(world: World) -> None:
    """Resource §2.4, R-3.5: spend k LR for k x the base PL rate; LR may not go below 1."""
    books = world.books
    for order in world.orders.get("conscript", ()):
        system = world.systems[order["system"]]
        k: int = order["loyalty"]
        if system.holder != order.power or world.effective_loyalty(system) == 0:
            world.reject(order, f"{system.id} is not held by {order.power} this round")
            continue
        if system.loyalty - k < 1:
            world.reject(
                order, f"{system.id} has LR {system.loyalty}: conscripting {k} leaves less than 1"
            )
            continue
        gained = k * system.rates["pl"]
        place = world.place_of(system)
        books.change(order.power, place, "pl", gained, f"conscription {system.id}", "R-3.5")
        world.pl_added[system.hex] += gained
        books.event(
            "production.conscripted",
            powers=(order.power,),
            system=system.id,
            before=system.loyalty,
            after=system.loyalty - k,
        )
        system.loyalty -= k
