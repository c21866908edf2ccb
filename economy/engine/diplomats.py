"""Support §4.4: diplomats: diplomatic immunity in the declarations (R-2a), appointments,
recalls, missions with their costs and quota (R-8.4), and the admin's outcomes, applied as the
next round starts (R-8.4a). Only the sender and, once the admin resolves it, the target learn
of a mission."""

from __future__ import annotations

from .command_state import Diplomat, Mission, Move
from .rules import max_loyalty
from .state import Hub, Order, State, System
from .world import World

RULE = "R-8.4"
ORDERS = ("appoint_diplomat", "recall_diplomat", "diplomatic_mission")


def flag_groups(state: State) -> None:
    """Support §4.4.1: a group with craft carries a diplomat when one is aboard one of its craft
    (a group given without craft keeps its ``diplomat`` flag)."""
    group_of = {c.id: c.group for c in state.fleet.craft}
    with_craft = {g for g in group_of.values() if g is not None}
    carrying = {group_of.get(d.craft) for d in state.command.diplomats}
    for g in state.groups:
        if g.id in with_craft:
            g.diplomat = g.id in carrying


def immunity(world: World) -> None:
    """Support §4.4.1, R-2a: a group carrying a diplomat may not declare ``engages`` unless it is
    ``defending``; such a declaration is refused whole, before any is applied."""
    allowed = []
    for order in world.orders.get("declare_group", ()):
        group = world.groups[order["group"]]
        engages = order.get("engages", group.engages)
        if group.diplomat and engages and not order.get("defending", group.defending):
            world.reject(
                order,
                "engages: a group carrying a diplomat may not engage unless defending "
                "(Support 4.4.1, R-2a)",
            )
        else:
            allowed.append(order)
    world.orders["declare_group"] = allowed


def outcomes(world: World) -> None:
    """R-8.4a: each mission with the admin's outcome, by id: facts revealed to the sender,
    resource moves (what the source has, at most), loyalty changes within the system type's
    range; the target and the sender are told. The mission then leaves the state."""
    books = world.books
    books.step = "round.start"
    command = world.state.command
    for mission in sorted(command.missions, key=lambda m: m.id):
        outcome = mission.outcome
        if outcome is None:
            continue
        books.event(
            "mission.resolved",
            powers=(mission.power, mission.target),
            mission=mission.id,
            sender=mission.power,
            target=mission.target,
            mission_kind=mission.kind,
            outcome=outcome.text,
        )
        if outcome.reveal:
            books.event(
                "mission.revealed",
                powers=(mission.power,),
                mission=mission.id,
                facts=list(outcome.reveal),
            )
        for move in outcome.moves:
            _move(world, mission, move)
        for sid, change in outcome.loyalty:
            _loyalty(world, mission, world.systems[sid], change)
        command.missions.remove(mission)


def _place(world: World, ident: str) -> tuple[str | None, Hub | System]:
    place = world.hub_or_system(ident)
    assert place is not None, ident  # checked when the state was read
    return (place.power if isinstance(place, Hub) else place.holder), place


def _move(world: World, mission: Mission, move: Move) -> None:
    books = world.books
    reason = f"mission {mission.id}"
    if move.resource in ("gal", "tp"):
        source, dest = world.powers[move.source], world.powers[move.dest]
        amount = min(move.amount, source.store[move.resource])
        books.change(source.id, source, move.resource, -amount, reason, "R-8.4a")
        books.change(dest.id, dest, move.resource, amount, reason, "R-8.4a")
        owners = (source.id, dest.id)
    else:
        src_owner, src = _place(world, move.source)
        dst_owner, dst = _place(world, move.dest)
        amount = min(move.amount, src.store[move.resource]) if src_owner and dst_owner else 0
        if src_owner and dst_owner:
            books.change(src_owner, src, move.resource, -amount, reason, "R-8.4a")
            books.change(dst_owner, dst, move.resource, amount, reason, "R-8.4a")
        owners = (src_owner or mission.power, dst_owner or mission.target)
    books.event(
        "mission.moved",
        powers=(mission.power, mission.target, *owners),
        mission=mission.id,
        resource=move.resource,
        amount=amount,
        wanted=move.amount,
    )


def _loyalty(world: World, mission: Mission, system: System, change: int) -> None:
    """R-8.4a: an LR change is an event; at LR 0 the system is neutral (R-3.1)."""
    before = system.loyalty
    system.loyalty = max(0, min(max_loyalty(system.type), before + change))
    holder = system.holder
    if system.loyalty == 0:
        system.holder = None
    world.books.event(
        "mission.loyalty",
        powers=(mission.power, mission.target, holder),
        mission=mission.id,
        system=system.id,
        before=before,
        after=system.loyalty,
    )


def diplomats(world: World) -> None:
    """Support §4.4, R-2c: appointments, recalls and missions by power, in listed order."""
    world.books.step = "support.4.4"
    orders = sorted(
        (o for kind in ORDERS for o in world.orders.get(kind, ())), key=lambda o: (o.power, o.index)
    )
    tasked: dict[tuple[str, str], int] = {}
    busy: set[str] = set()
    command = world.state.command
    for order in orders:
        if order.type == "appoint_diplomat":
            if order["craft"] not in world.navy.craft:
                world.reject(order, f"craft: {order['craft']} is not a finished craft this round")
                continue
            name = order.get("name") or order["id"]
            command.diplomats.append(Diplomat(order["id"], order.power, name, order["craft"]))
            world.books.event(
                "diplomat.appointed",
                powers=(order.power,),
                diplomat=order["id"],
                craft=order["craft"],
            )
        elif order.type == "recall_diplomat":
            found = _diplomat(world, order)
            if found is not None:
                command.diplomats.remove(found)
                world.books.event("diplomat.recalled", powers=(order.power,), diplomat=found.id)
        else:
            _mission(world, order, tasked, busy)
    flag_groups(world.state)


def _diplomat(world: World, order: Order) -> Diplomat | None:
    found = next((d for d in world.state.command.diplomats if d.id == order["diplomat"]), None)
    if found is None:
        world.reject(order, f"diplomat: {order['diplomat']} no longer serves")
    return found


def quota(world: World, target: str) -> int:
    """Support §4.4.1, R-8.4: one diplomat per Homeworld and Primary system of the target."""
    return sum(
        1 for s in world.systems_sorted if s.holder == target and s.type in ("homeworld", "primary")
    )


def _mission(
    world: World, order: Order, tasked: dict[tuple[str, str], int], busy: set[str]
) -> None:
    """R-8.4, R-10.7: a diplomat aboard a craft at a system of the target, one mission each a
    round, within the quota; its Gal and TP come from the bank and its PL from the craft's
    passengers, charged now."""
    diplomat = _diplomat(world, order)
    if diplomat is None:
        return
    target: str = order["target"]
    craft = world.navy.craft[diplomat.craft]
    hx = world.navy.hex_of(craft)
    system = world.system_at.get(hx)
    if system is None or system.holder != target:
        world.reject(order, f"diplomat: {diplomat.id} is not at a system of {target} ({hx})")
        return
    if diplomat.id in busy:
        world.reject(order, f"diplomat: {diplomat.id} already has a mission this round")
        return
    limit = quota(world, target)
    if tasked.get((order.power, target), 0) >= limit:
        world.reject(
            order,
            f"target: quota: {target} has {limit} Homeworld and Primary systems, so "
            f"{limit} missions a round (Support 4.4.1)",
        )
        return
    bank = world.powers[order.power]
    spend = {k: n for k in ("gal", "tp", "pl") if (n := order.get(k, 0))}
    for res, need in spend.items():
        holder_has = craft.store.get("pl", 0) if res == "pl" else bank.store[res]
        if holder_has < need:
            where = f"{craft.id} carries" if res == "pl" else "bank has"
            world.reject(order, f"{res}: {where} {holder_has} {res}, mission needs {need}")
            return
    reason = f"mission {order['id']}"
    for res, need in spend.items():
        world.books.change(order.power, craft if res == "pl" else bank, res, -need, reason, RULE)
    world.state.command.missions.append(
        Mission(
            order["id"],
            order.power,
            diplomat.id,
            target,
            order["kind"],
            world.round,
            spend,
            order.get("system"),
        )
    )
    tasked[(order.power, target)] = tasked.get((order.power, target), 0) + 1
    busy.add(diplomat.id)
    world.books.event(
        "mission.declared",
        powers=(order.power,),
        mission=order["id"],
        target=target,
        mission_kind=order["kind"],
    )


def stranded(world: World) -> None:
    """Characters aboard a craft that left the state in §1 (unbuilt): an officer goes to the
    reserve, a diplomat goes home (recalled); diplomat flags follow (Support §4.4.1, §5.1.3)."""
    craft = world.navy.craft
    command = world.state.command
    for officer in command.officers:
        if officer.craft is not None and officer.craft not in craft:
            world.books.event(
                "officer.reserve",
                step="support.1",
                powers=(officer.power,),
                officer=officer.id,
                left=officer.craft,
            )
            officer.craft = None
    for diplomat in list(command.diplomats):
        if diplomat.craft not in craft:
            command.diplomats.remove(diplomat)
            world.books.event(
                "diplomat.recalled",
                step="support.1",
                powers=(diplomat.power,),
                diplomat=diplomat.id,
            )
    flag_groups(world.state)
