"""Resource §1: loyalty rating, Maintain Orbit, troops, abandonment and invasions (R-3)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from .rules import derived_type, max_loyalty, troop_loyalty
from .state import Invasion, Order, State, System
from .world import World

RULE = "R-3.4"
Sent = dict[str, dict[str, int]]  # system id -> power -> troops spent there this step


def change_holder(world: World, system: System, new: str | None, reason: str) -> None:
    """R-1.5: the system's stockpile passes with it; ledger lines move it between powers.

    A lost Homeworld or Primary reverts to Standard/Basic (Resource §1.1) and its planetary
    project stops (docs/rules.md).
    """
    old = system.holder
    for res in ("ore", "bio", "pl"):
        amount = system.store[res]
        if old is not None:
            world.books.record(old, system.where, res, -amount, reason, "R-1.5")
        if new is not None:
            world.books.record(new, system.where, res, amount, reason, "R-1.5")
    system.holder = new
    system.type = derived_type("basic", system.rates["pl"])
    system.project = None
    if new is None:
        system.loyalty = 0


def destroy_invaders(
    world: World, invaders: Iterable[Invasion], troops: int, reason: str, rule: str
) -> int:
    """Resource §1.2, Support §3.1.2: ``troops`` destroy invading troops one for one, in the
    order given; returns how many were destroyed."""
    left = troops
    for inv in invaders:
        if left == 0:
            break
        killed = min(left, inv.troops)
        world.books.change(inv.power, inv, "troops", -killed, reason, rule)
        left -= killed
        if inv.troops == 0:
            world.remove_invasion(inv)
    return troops - left


def _send_troops(world: World, order: Order, sent: Sent) -> None:
    """Resource §1.2: own or neutral system -> spent for LR; enemy system -> landed (invade).

    R-3.4a: on its own invaded system the holder's troops first destroy invaders one for one,
    the largest invasion first (ties: lowest power id); only the rest raise the LR.
    R-3.4c: troops sent to a neutral system are always spent (the claim is settled later).
    """
    group = world.groups[order["group"]]
    troops: int = order["troops"]
    system = world.system_at.get(group.hex)
    if system is None:
        return world.reject(order, f"group {group.id} at {group.hex} is not at a system")
    if group.id not in world.orbiting:
        return world.reject(order, f"group {group.id} is not on Maintain Orbit (Resource §1.2)")
    if troops > group.troops:
        return world.reject(order, f"group {group.id} carries {group.troops} troops, not {troops}")
    books = world.books
    if system.holder in (None, order.power):
        books.change(order.power, group, "troops", -troops, f"spent on {system.id} LR", RULE)
        landed = world.invasions.get(system.id, {}) if system.holder == order.power else {}
        invaders = sorted(
            (inv for who, inv in landed.items() if who != order.power),
            key=lambda inv: (-inv.troops, inv.power),
        )
        killed = destroy_invaders(
            world, invaders, troops, f"destroyed by {order.power} troops on {system.id}", "R-3.4a"
        )
        if killed:
            books.event(
                "troops.invaders_destroyed",
                powers=(order.power, *(inv.power for inv in invaders)),
                power=order.power,
                troops=killed,
                system=system.id,
            )
        per_power = sent.setdefault(system.id, {})
        per_power[order.power] = per_power.get(order.power, 0) + troops - killed
        return None
    invasion = world.invasions[system.id].get(order.power)
    if invasion is None:
        invasion = Invasion(system.id, order.power, {"troops": 0})
        world.add_invasion(invasion)
    books.move(order.power, group, invasion, "troops", troops, f"landed on {system.id}", RULE)
    books.event(
        "troops.landed",
        powers=(order.power, system.holder),
        power=order.power,
        troops=troops,
        system=system.id,
    )
    return None


def _recover_troops(world: World, order: Order) -> None:
    """Resource §1.2: invading troops may be taken back by transports on Maintain Orbit."""
    group = world.groups[order["group"]]
    system = world.systems[order["system"]]
    troops: int = order["troops"]
    invasion = world.invasions.get(system.id, {}).get(order.power)
    if group.hex != system.hex or group.id not in world.orbiting:  # R-3.4b
        return world.reject(order, f"group {group.id} is not on Maintain Orbit at {system.id}")
    if invasion is None or invasion.troops < troops:
        have = invasion.troops if invasion else 0
        return world.reject(order, f"{order.power} has {have} troops on {system.id}, not {troops}")
    space = group.troop_space - group.troops
    if troops > space:
        return world.reject(order, f"group {group.id} has troop space for {space}, not {troops}")
    world.books.move(
        order.power, invasion, group, "troops", troops, f"recovered from {system.id}", RULE
    )
    return None


def _conversions(world: World, start_effective: dict[str, int]) -> dict[str, Order]:
    """R-3.4: conversions allowed this step, by system (first valid order wins)."""
    chosen: dict[str, Order] = {}
    for order in world.orders.get("convert_invasion", ()):
        system = world.systems[order["system"]]
        invasion = world.invasions.get(system.id, {}).get(order.power)
        if system.holder == order.power:
            world.reject(order, f"{system.id} is already held by {order.power}")
        elif start_effective[system.id] > 0:
            world.reject(
                order, f"{system.id} effective LR was not 0 at the start of the step (R-3.4)"
            )
        elif order.power not in world.maintain_orbit_powers(system.hex):
            world.reject(order, f"no group of {order.power} on Maintain Orbit at {system.id}")
        elif invasion is None or troop_loyalty(invasion.troops) == 0:
            world.reject(order, f"fewer than 25 troops of {order.power} on {system.id}")
        elif system.id in chosen:
            world.reject(order, f"{system.id} is converted by {chosen[system.id].power} first")
        else:
            chosen[system.id] = order
    return chosen


def _apply_conversion(world: World, system: System, power: str) -> None:
    invasion = world.invasions[system.id][power]
    troops = invasion.troops
    former = system.holder
    change_holder(world, system, power, f"{system.id} converted by {power}")
    system.loyalty = min(max_loyalty(system.type), troop_loyalty(troops))
    world.books.change(power, invasion, "troops", -troops, f"converted on {system.id}", RULE)
    world.remove_invasion(invasion)
    world.books.event(
        "loyalty.converted",
        powers=(power, former),
        system=system.id,
        power=power,
        troops=troops,
        after=system.loyalty,
    )


def _delta(world: World, system: System, sent: Sent) -> tuple[int, str]:
    """R-3.4: the holder's LR change from the state at the start of the step."""
    holder = str(system.holder)
    orbit = world.maintain_orbit_powers(system.hex)
    d, why = 0, []
    if holder in orbit:
        d += 1
        why.append("+1 maintain orbit")
    spent = sent.get(system.id, {}).get(holder, 0)
    if spent:
        d += troop_loyalty(spent)
        why.append(f"+{troop_loyalty(spent)} from {spent} troops")
    if is_abandoned(world, holder, system.hex):
        d -= 1
        why.append("-1 abandoned")
    for enemy in orbit:
        if enemy != holder:
            d -= 1
            why.append(f"-1 {enemy} maintain orbit")
    return d, ", ".join(why)


def _neutral(world: World, system: System, sent: Sent) -> None:
    """R-3.4, R-3.4c: a neutral system goes to the one power acting there (a group on Maintain
    Orbit, troops sent), with LR = its gains; with several acting, nobody gains."""
    books = world.books
    orbit = world.maintain_orbit_powers(system.hex)
    spent = sent.get(system.id, {})
    acting = sorted({*orbit, *spent})
    if len(acting) > 1:
        books.event("loyalty.contested", powers=tuple(acting), system=system.id, acting=acting)
        return
    if not acting:
        return
    power = acting[0]
    gain = (1 if power in orbit else 0) + troop_loyalty(spent.get(power, 0))
    lr = min(gain, max_loyalty(system.type))
    if lr == 0:
        return
    change_holder(world, system, power, f"{system.id} claimed by {power}")
    system.loyalty = lr
    books.event("loyalty.claimed", powers=(power,), system=system.id, power=power, after=lr)


def resolve_loyalty(world: World) -> None:
    """Resource §1, R-3.4: changes computed from the start of the step, applied together."""
    books = world.books
    books.step = "resource.1"
    start_effective = {
        o["system"]: world.effective_loyalty(world.systems[o["system"]])
        for o in world.orders.get("convert_invasion", ())
    }
    sent: Sent = {}
    troop_orders = sorted(
        [*world.orders.get("send_troops", ()), *world.orders.get("recover_troops", ())],
        key=lambda o: (o.power, o.index),
    )
    for order in troop_orders:
        if order.type == "send_troops":
            _send_troops(world, order, sent)
        else:
            _recover_troops(world, order)
    converting = _conversions(world, start_effective)

    for system in world.systems_sorted:
        if system.id in converting:
            continue
        if system.holder is None:
            _neutral(world, system, sent)
            continue
        d, why = _delta(world, system, sent)
        old = system.loyalty
        new = max(0, min(old + d, max_loyalty(system.type)))
        if new == old:
            continue
        books.event(
            "loyalty.changed",
            powers=(system.holder,),
            system=system.id,
            before=old,
            after=new,
            why=why or "above maximum",
        )
        if new == 0:
            books.event(
                "loyalty.lost", powers=(system.holder,), system=system.id, holder=system.holder
            )
            change_holder(world, system, None, f"{system.id} lost (LR 0)")
        else:
            system.loyalty = new

    for sid in sorted(converting):
        _apply_conversion(world, world.systems[sid], converting[sid].power)

    for sid in sorted(world.invasions):
        for _, invasion in sorted(world.invasions[sid].items()):
            if invasion.troops == 0:
                world.remove_invasion(invasion)


def abandoned(state: State, power: str, declared: Mapping[str, str]) -> list[System]:
    """R-3.4: the power's systems that would lose 1 LR as abandoned this round, as things
    stand — no group or static of it in the hex (groups at the hexes ``declared`` for them
    this round) and not inside one of its command bubbles. For the dashboard's warning."""
    work = state.copy()
    for group in work.groups:
        if group.power == power and group.id in declared:
            group.hex = declared[group.id]
    world = World(work, [], random.Random(0))
    return [s for s in world.held_map().get(power, []) if is_abandoned(world, power, s.hex)]


def is_abandoned(world: World, power: str, hx: str) -> bool:
    """R-3.4: no craft (group or static) of ``power`` in the hex, and not inside one of its
    command bubbles (a marker or bubble prevents only this −1)."""
    return not world.present(power, hx) and (power, hx) not in world.covered
