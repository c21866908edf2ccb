"""One power's part of a state: what can change that power's books in a round where only it
gives orders (the projected statement, issue 13).

``focus(state, power, orders)`` keeps, of a whole campaign, what the round's steps read when
they write lines, rejections, events or loyalty of ``power``, and leaves out the rest, so that
``resolve`` on it gives that power exactly the statement ``resolve`` on the whole state gives
(``tests/engine/test_focus.py`` and ``tests/web/test_projection_focus.py`` check it on every
case, the demo and generated campaigns, for every power). What is kept:

- everything small and campaign-wide: the map's hexes, every power's bank, the market, the
  UN's motions, designs, the consumables catalogue and group limits, the command (officers,
  diplomats, missions, special interest), bubbles, agreements and the pacts (battle records,
  loans, transfers);
- every entity of the *linked* powers: the power itself and every power named by a bubble,
  agreement, pact or the command (their books feed each other's: an agreement's leg leaves
  the sender's hub, a loan's craft serve the borrower, R-5.5, R-10.5);
- of the other powers, whatever stands on a *hot* hex — one where a linked power holds a
  system or a hub's member, has a group, static, invasion or shipment end, or which the orders
  name: systems there (R-3.4 loyalty and R-4.5 contest are decided per hex), groups and
  statics there with their craft (R-3.4 Maintain Orbit, R-7.4 supply at the hex), invasions of
  kept systems (R-4.3), and any hub with a member there, with all its members (R-4.6: what
  a captor takes from a pool depends on every member's output) — to a fixed point, since a
  kept hub's members make their hexes hot in turn;
- R-4.6, where a linked power's hub member may be lost this round (not held with more LR than
  Resource §1 can take): for each power that may capture it, its hubs by nearness up to the
  first whose centre it surely keeps, else its held (or claimable) systems by nearness up to
  the first it surely keeps;
- R-8.4: the Homeworld and Primary systems of a power the orders name (a mission's quota).

Nothing in the engine reads a far system of an unlinked power when only ``power`` orders: its
loyalty, production and upkeep write its holder's books alone, and the round's one random
draw (R-8.1a special interest) reads only the map and the command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any

from .rules import hex_distance
from .state import Build, Craft, Group, Hub, Invasion, Shipment, State, Static, System


def _strings(value: Any) -> Iterator[str]:
    """Every string inside ``value``: dataclasses, dicts, lists and tuples, recursively."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            yield from _strings(v)


def linked_powers(state: State, power: str) -> set[str]:
    """``power`` and every power named by a bubble, agreement, pact or the command."""
    powers = {p.id for p in state.powers}
    linked = {power}
    shared: list[Any] = [
        state.bubbles,
        state.agreements,
        state.fleet.battles,
        state.fleet.loans,
        state.fleet.transfers,
        state.command.officers,
        state.command.diplomats,
        state.command.missions,
    ]
    linked.update(s for s in _strings(shared) if s in powers)
    return linked


def named(orders: Iterable[Any]) -> set[str]:
    """Every string an order sheet names (ids, hexes, and the rest, which match nothing)."""
    return set(_strings(list(orders)))


def ids_of(state: State) -> set[str]:
    """Every string of ``state`` that ``focus`` looks for in the orders: hexes, powers and the
    ids of systems, hubs, groups, statics and craft (an order's other strings change nothing)."""
    out = set(state.hexes) | {p.id for p in state.powers}
    out.update(s.id for s in state.systems)
    out.update(s.hex for s in state.systems)
    out.update(h.id for h in state.hubs)
    out.update(g.id for g in state.groups)
    out.update(s.id for s in state.statics)
    out.update(c.id for c in state.fleet.craft)
    return out


def focus(state: State, power: str, orders: Iterable[Any] = ()) -> State:
    """``state`` narrowed to what can change ``power``'s books in a round where only it gives
    ``orders`` (raw order dicts); the input is not changed, and the kept objects are shared
    with it (``resolve`` copies its input)."""
    linked = linked_powers(state, power)
    names = named(orders)
    fleet = state.fleet
    hot: set[str] = {h for h in names if h in state.hexes}
    for bubble in state.bubbles:
        hot.add(bubble.hq)
        hot.update(o.hex for o in bubble.outposts)
    systems = {s.id: s for s in state.systems}
    groups = {g.id: g for g in state.groups}
    statics = {s.id: s for s in state.statics}
    hubs = {h.id: h for h in state.hubs}
    craft = {c.id: c for c in fleet.craft}

    keep_groups = {g.id for g in state.groups if g.power in linked or g.id in names}
    keep_statics = {s.id for s in state.statics if s.power in linked or s.id in names}
    keep_hubs = {h.id for h in state.hubs if h.power in linked or h.id in names}
    keep_craft = {c.id for c in fleet.craft if c.power in linked or c.id in names}
    keep_systems = {s.id for s in state.systems if s.holder in linked or s.id in names}
    # a mission's quota counts its target's Homeworld and Primary systems
    keep_systems.update(
        s.id for s in state.systems if s.holder in names and s.type in ("homeworld", "primary")
    )
    # a lost member's share goes to its captor's nearest active hub, else its nearest
    # held system: every power that could capture a member of a linked power's hub
    at_risk = _captors(state, [h for h in state.hubs if h.power in linked], power, names)
    for captor, hexes in at_risk.items():
        if captor not in linked:
            hubs_kept, systems_kept = _destinations(state, captor, hexes, power, names)
            keep_hubs.update(hubs_kept)
            keep_systems.update(systems_kept)
    for inv in state.invasions:
        if inv.power in linked:
            keep_systems.add(inv.system)
    for sh in state.shipments:
        if sh.power in linked or sh.sender in linked:
            keep_hubs.update(h for h in (sh.from_hub, sh.to_hub) if h is not None)

    def sizes() -> tuple[int, ...]:
        sets = (hot, keep_groups, keep_statics, keep_hubs, keep_craft, keep_systems)
        return tuple(len(kept) for kept in sets)

    while True:  # until nothing more is drawn in
        before = sizes()
        hot.update(systems[s].hex for s in keep_systems if s in systems)
        hot.update(groups[g].hex for g in keep_groups if g in groups)
        hot.update(statics[s].hex for s in keep_statics if s in statics)
        for hid in list(keep_hubs):
            hub = hubs.get(hid)
            if hub is not None:
                hot.update(hub.members())
        keep_systems.update(s.id for s in state.systems if s.hex in hot)
        keep_groups.update(g.id for g in state.groups if g.hex in hot)
        keep_statics.update(s.id for s in state.statics if s.hex in hot)
        keep_hubs.update(h.id for h in state.hubs if any(m in hot for m in h.members()))
        for sh in state.shipments:
            if sh.from_hub in keep_hubs or sh.to_hub in keep_hubs:
                keep_hubs.update(h for h in (sh.from_hub, sh.to_hub) if h is not None)
        for one in fleet.craft:
            if (
                one.group in keep_groups
                or one.static in keep_statics
                or one.orbit in keep_craft
                or one.gantry in keep_craft
            ):
                keep_craft.add(one.id)
        for work in fleet.builds:
            if _build_touches(work, linked, keep_craft, hot):
                keep_craft.update(work.builders)
                if work.craft is not None:
                    keep_craft.add(work.craft)
        for cid in list(keep_craft):
            kept = craft.get(cid)
            if kept is None:
                continue
            for ref in (kept.orbit, kept.gantry):
                if ref is not None:
                    keep_craft.add(ref)
            if kept.group is not None:
                keep_groups.add(kept.group)
            if kept.static is not None:
                keep_statics.add(kept.static)
        if sizes() == before:
            break

    kept_systems: list[System] = [s for s in state.systems if s.id in keep_systems]
    kept_hubs: list[Hub] = [h for h in state.hubs if h.id in keep_hubs]
    kept_groups: list[Group] = [g for g in state.groups if g.id in keep_groups]
    kept_statics: list[Static] = [s for s in state.statics if s.id in keep_statics]
    kept_invasions: list[Invasion] = [i for i in state.invasions if i.system in keep_systems]
    kept_shipments: list[Shipment] = [
        sh
        for sh in state.shipments
        if sh.power in linked
        or sh.sender in linked
        or sh.from_hub in keep_hubs
        or sh.to_hub in keep_hubs
    ]
    kept_craft: list[Craft] = [c for c in fleet.craft if c.id in keep_craft]
    kept_builds: list[Build] = [
        b for b in fleet.builds if _build_touches(b, linked, keep_craft, hot)
    ]
    return dataclasses.replace(
        state,
        systems=kept_systems,
        hubs=kept_hubs,
        groups=kept_groups,
        statics=kept_statics,
        invasions=kept_invasions,
        shipments=kept_shipments,
        fleet=dataclasses.replace(fleet, craft=kept_craft, builds=kept_builds),
    )


def _captors(state: State, hubs: list[Hub], power: str, names: set[str]) -> dict[str, set[str]]:
    """Who may capture a member of these hubs this round (``hubs._captor``, R-4.6), with the
    members each may capture: at each member that may be lost, its holder, its invaders and
    every power with a group there (or a static, off the systems)."""
    systems_at = {s.hex: s for s in state.systems}
    groups_at = _powers_by_hex(state)
    invaded = {i.system for i in state.invasions}
    unsettled = _unsettled(state)
    out: dict[str, set[str]] = {}
    for hub in hubs:
        for hx in hub.members():
            system = systems_at.get(hx)
            if (
                system is not None
                and not unsettled
                and _kept_this_round(
                    system, hub.power, groups_at.get(hx, set()), invaded, power, names
                )
            ):
                continue
            who = set(groups_at.get(hx, ()))
            if system is not None and system.holder is not None:
                who.add(system.holder)
            who.update(i.power for i in state.invasions if system and i.system == system.id)
            who.update(s.power for s in state.statics if s.hex == hx)
            for captor in who:
                out.setdefault(captor, set()).add(hx)
    return out


def _powers_by_hex(state: State) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for g in state.groups:
        out.setdefault(g.hex, set()).add(g.power)
    return out


def _unsettled(state: State) -> bool:
    """Whether something before Resource §2.0 may change holders beyond what Resource §1 does:
    a confirmed battle record (R-10.6) or a diplomatic mission's outcome (R-8.4a)."""
    return bool(state.fleet.battles or state.command.missions)


def _destinations(
    state: State, captor: str, hexes: set[str], power: str, names: set[str]
) -> tuple[set[str], set[str]]:
    """The hubs and systems ``hubs._destination`` may choose for a share ``captor`` takes at
    one of ``hexes`` (R-4.6: its active hub with the nearest centre, else its nearest held
    system): for each hex, in that order of nearness, every candidate up to the first one
    certain to qualify (a centre or system the captor holds with more LR than Resource §1 can
    take), and no system at all once a hub is certain. Systems the captor may claim in
    Resource §1 (neutral, with its group there) are candidates too."""
    groups_at = _powers_by_hex(state)
    invaded = {i.system for i in state.invasions}
    unsettled = _unsettled(state)
    systems_at = {s.hex: s for s in state.systems}

    def certain(system: System | None) -> bool:
        return (
            system is not None
            and not unsettled
            and _kept_this_round(
                system, captor, groups_at.get(system.hex, set()), invaded, power, names
            )
        )

    mine = [h for h in state.hubs if h.power == captor]
    held = [
        s
        for s in state.systems
        if s.holder == captor or (s.holder is None and captor in groups_at.get(s.hex, ()))
    ]
    hubs: set[str] = set()
    systems: set[str] = set()
    for hx in hexes:
        sure_hub = False
        for hub in sorted(mine, key=lambda h: (hex_distance(h.centre, hx), h.id)):
            hubs.add(hub.id)
            if certain(systems_at.get(hub.centre)):
                sure_hub = True
                break
        if sure_hub:
            continue
        for system in sorted(held, key=lambda s: (hex_distance(s.hex, hx), s.id)):
            systems.add(system.id)
            if certain(system):
                break
    return hubs, systems


def _kept_this_round(
    system: System, owner: str, groups: set[str], invaded: set[str], power: str, names: set[str]
) -> bool:
    """True when a hub member on ``system`` cannot be lost in Resource §2.0 of a round where
    only ``power`` gives orders: held by the hub's power, not invaded (R-3.4 effective LR), not
    named by an order, and with more LR than Resource §1 can take (R-3.4: -1 abandoned, -1 for
    each other power that can hold Maintain Orbit there)."""
    if system.holder != owner or system.id in invaded or system.id in names or system.hex in names:
        return False
    others = (groups | {power}) - {owner}
    return system.loyalty - 1 - len(others) > 0


def _build_touches(build: Build, linked: set[str], craft: set[str], hot: set[str]) -> bool:
    return (
        build.power in linked
        or any(b in craft for b in build.builders)
        or (build.craft is not None and build.craft in craft)
        or (build.hex is not None and build.hex in hot)
    )


def power_part(start: State, result: Any, power: str) -> dict[str, Any]:
    """What a power's projected statement shows of a round's ``result`` (``resolve`` on
    ``start``): its ledger lines, its rejected orders, its own events (public ones come at
    resolution) and the holder and LR of every system it held before or after."""
    mine = {s.id for s in start.systems if s.holder == power}
    mine.update(s.id for s in result.state.systems if s.holder == power)
    return {
        "lines": [line.as_json() for line in result.ledger if line.power == power],
        "rejected": [r.as_json() for r in result.rejected if r.power == power],
        "events": [e.as_json() for e in result.events if not e.public and power in e.powers],
        "systems": sorted(
            (s.id, s.holder, s.loyalty) for s in result.state.systems if s.id in mine
        ),
    }
