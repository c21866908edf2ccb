"""Resource §2.0-§2.1: trade hub node loss, pooling and contested nodes (R-4.5, R-4.6, R-5.1)."""

from __future__ import annotations

from collections import defaultdict

from .rules import hex_distance
from .state import Hub, System
from .world import World


def mark_start(world: World) -> None:
    """R-4.6: which hub members were already lost before this round's loyalty changes."""
    world.lost_at_start = {
        (hub.id, hx)
        for hub in world.state.hubs
        for hx in hub.members()
        if not world.member_active(hub, hx)
    }


def _captor(world: World, hub: Hub, hx: str) -> str | None:
    """R-4.6: the invader with most troops there, then most groups on Maintain Orbit, then id."""
    troops: dict[str, int] = defaultdict(int)
    orbit: dict[str, int] = defaultdict(int)
    system = world.system_at.get(hx)
    candidates: set[str] = set()
    if system is not None:
        for power, invasion in world.invasions.get(system.id, {}).items():
            troops[power] += invasion.troops
            candidates.add(power)
        if system.holder is not None:
            candidates.add(system.holder)
        for g in world.groups_at.get(hx, ()):
            if g.order == "maintain_orbit":
                orbit[g.power] += 1
                candidates.add(g.power)
    else:
        candidates.update(g.power for g in world.groups_at.get(hx, ()))
        candidates.update(s.power for s in world.statics_at.get(hx, ()))
    candidates.discard(hub.power)
    if not candidates:
        return None
    return min(candidates, key=lambda p: (-troops[p], -orbit[p], p))


def _destination(
    world: World, power: str, hx: str, held: dict[str, list[System]]
) -> Hub | System | None:
    """R-4.6: the captor's hub with the nearest centre, else its nearest held system."""
    hubs = [
        h
        for h in world.state.hubs
        if h.power == power and h.id not in world.new_hubs and world.member_active(h, h.centre)
    ]
    if hubs:
        return min(hubs, key=lambda h: (hex_distance(h.centre, hx), h.id))
    systems = held.get(power, [])
    if systems:
        nearest = min(systems, key=lambda s: (hex_distance(s.hex, hx), s.id))
        return world.place_of(nearest)
    return None


def lose_nodes(world: World) -> None:
    """Resource §2.0, R-4.6: a newly lost node's equal share of Ore and Bio goes to the invader."""
    books = world.books
    books.step = "resource.2.0"
    held: dict[str, list[System]] | None = None
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        active = [hx for hx in hub.members() if (hub.id, hx) not in world.lost_at_start]
        newly = [hx for hx in active if not world.member_active(hub, hx)]
        if not newly:
            continue
        shares = {res: hub.store[res] // len(active) for res in ("ore", "bio")}
        for hx in newly:
            captor = _captor(world, hub, hx)
            if held is None:
                held = world.held_map()
            target = _destination(world, captor, hx, held) if captor else None
            for res, amount in shares.items():
                if amount == 0:
                    continue
                books.change(hub.power, hub, res, -amount, f"node {hx} lost", "R-4.6")
                if target is not None and captor is not None:
                    books.change(
                        captor, target, res, amount, f"captured at {hx} from {hub.power}", "R-4.6"
                    )
            where = target.where if target is not None else "nowhere (lost)"
            books.event(
                f"hub {hub.id} loses node {hx}: {shares['ore']} ore, {shares['bio']} bio"
                f" captured by {captor or 'nobody'} -> {where}",
                powers=(hub.power, captor),  # reported to both exactly
            )


def pool_and_contest(world: World) -> None:
    """Resource §2.1, R-5.1, R-4.5: held stockpiles join their hub; contested nodes are marked."""
    books = world.books
    books.step = "resource.2.1"
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        for hx in hub.members():
            if (hub.id, hx) in world.lost_at_start or not world.member_active(hub, hx):
                continue
            system = world.system_at.get(hx)
            if system is not None:
                orbit = world.maintain_orbit_powers(hx)
                if any(p != hub.power for p in orbit):
                    world.contested.add(hx)
                for res in ("ore", "bio", "pl"):
                    books.move(
                        hub.power,
                        system,
                        hub,
                        res,
                        system.store[res],
                        f"{system.id} joins",
                        "R-5.1",
                    )
            elif any(g.power != hub.power for g in world.groups_at.get(hx, ())) or any(
                s.power != hub.power for s in world.statics_at.get(hx, ())
            ):
                world.contested.add(hx)


def linked(hub: Hub, hx: str) -> set[str]:
    """The member itself and the members directly linked to it (R-4.5)."""
    out = {hx}
    for a, b in hub.links:
        if a == hx:
            out.add(b)
        elif b == hx:
            out.add(a)
    return out


def pl_reachable(world: World, hub: Hub, hx: str) -> int:
    """R-4.5: PL a member can use; a contested one only gets what its linked members produced."""
    if hx not in world.contested:
        return hub.store["pl"]
    near = sum(world.pl_added.get(h, 0) for h in linked(hub, hx))
    return min(hub.store["pl"], near)
