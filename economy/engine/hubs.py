"""Resource §2.0-§2.1: trade hub node loss, pooling and contested nodes (R-4.5, R-4.6, R-5.1,
R-5.2a, R-5.7)."""

from __future__ import annotations

from collections import Counter, defaultdict

from .hub_setup import dissolve
from .rules import hex_distance
from .state import Hub, System
from .world import World


def _captor(world: World, hub: Hub, hx: str) -> str | None:
    """R-4.6: the invader with most troops there, then most groups on Maintain Orbit, then id.

    Off the systems (R-5.2a) it is the power with the most groups, then statics, there."""
    system = world.system_at.get(hx)
    if system is None:
        groups = Counter(g.power for g in world.groups_at.get(hx, ()))
        statics = Counter(s.power for s in world.statics_at.get(hx, ()))
        others = (set(groups) | set(statics)) - {hub.power}
        return min(others, key=lambda p: (-groups[p], -statics[p], p)) if others else None
    troops: dict[str, int] = defaultdict(int)
    orbit: dict[str, int] = defaultdict(int)
    candidates: set[str] = set()
    for power, invasion in world.invasions.get(system.id, {}).items():
        troops[power] += invasion.troops
        candidates.add(power)
    if system.holder is not None:
        candidates.add(system.holder)
    for g in world.groups_at.get(hx, ()):
        if g.order == "maintain_orbit":
            orbit[g.power] += 1
            candidates.add(g.power)
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


def centre_destroyed(world: World, hub: Hub) -> bool:
    """R-5.2a, Support §4.1.1: a centre off the systems needs a civilian static of the power."""
    if hub.centre in world.system_at:
        return False
    return not any(
        s.power == hub.power and s.civilian for s in world.statics_at.get(hub.centre, ())
    )


def _capture(
    world: World,
    hub: Hub,
    hx: str,
    shares: dict[str, int],
    held: dict[str, list[System]],
    destroyed: bool,
) -> None:
    """R-4.6: the member's share goes to its captor's nearest hub or held system, else is lost;
    R-5.2a: the share of a destroyed centre with no captor stays in the pool."""
    books = world.books
    captor = _captor(world, hub, hx)
    if captor is None and destroyed and hx == hub.centre:
        return
    target = _destination(world, captor, hx, held) if captor else None
    for res, amount in shares.items():
        if amount == 0:
            continue
        books.change(hub.power, hub, res, -amount, f"node {hx} lost", "R-4.6")
        if target is not None and captor is not None:
            books.change(captor, target, res, amount, f"captured at {hx} from {hub.power}", "R-4.6")
    where = target.where if target is not None else "nowhere (lost)"
    books.event(
        "hub.node_lost",
        powers=(hub.power, captor),  # reported to both exactly
        hub=hub.id,
        hex=hx,
        ore=shares["ore"],
        bio=shares["bio"],
        captor=captor,
        where=where,
    )


def lose_nodes(world: World) -> None:
    """Resource §2.0, R-4.6a: each member newly lost (inactive and not in ``lost``) gives its
    equal share of Ore and Bio to its captor once and joins ``lost``; a member in ``lost`` that
    is active again leaves it. Shares divide the pool, before any capture, by the members not
    in ``lost`` at the start of the step. R-5.2a: a hub whose centre static is gone is destroyed.
    """
    books = world.books
    books.step = "resource.2.0"
    held: dict[str, list[System]] | None = None
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        counted = [hx for hx in hub.members() if hx not in hub.lost]
        destroyed = centre_destroyed(world, hub)
        newly = [
            hx
            for hx in counted
            if not world.member_active(hub, hx) or (destroyed and hx == hub.centre)
        ]
        back = [hx for hx in hub.lost if world.member_active(hub, hx)]
        if back:
            books.event("hub.back_in_hand", powers=(hub.power,), hub=hub.id, members=back)
        hub.lost = [
            hx for hx in hub.members() if hx in newly or (hx in hub.lost and hx not in back)
        ]
        if newly:
            shares = {res: hub.store[res] // len(counted) for res in ("ore", "bio")}
            held = world.held_map() if held is None else held
            for hx in newly:
                _capture(world, hub, hx, shares, held, destroyed)
        if destroyed:
            dissolve(world, hub, "its centre static is gone", "R-5.2a")


def pool_and_contest(world: World) -> None:
    """Resource §2.1, R-5.1, R-4.5: held stockpiles join their hub; contested nodes are marked."""
    books = world.books
    books.step = "resource.2.1"
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        for hx in hub.members():
            if not world.holds_share(hub, hx):
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


def equal_shares(world: World, hub: Hub) -> dict[str, dict[str, int]]:
    """Support §7.2, R-5.7: the pool split equally over the members holding shares, remainder
    at the first of them (the centre when it holds one)."""
    active = [hx for hx in hub.members() if world.holds_share(hub, hx)] or [hub.centre]
    out = {}
    for hx in active:
        out[hx] = {res: hub.store[res] // len(active) for res in ("ore", "bio")}
    for res in ("ore", "bio"):
        out[active[0]][res] += hub.store[res] % len(active)
    return out


def reach(world: World, hub: Hub, hx: str, res: str) -> int:
    """R-4.5a: what may reach member ``hx`` in one step: for PL, this round's PL produced into
    the pool at it and at the members directly linked to it; for Ore and Bio, their equal
    shares (R-5.7)."""
    near = linked(hub, hx)
    if res == "pl":
        return sum(world.pl_added.get(h, 0) for h in near if world.holds_share(hub, h))
    shares = equal_shares(world, hub)
    return sum(shares[h][res] for h in near if h in shares)


def usable_at(world: World, place: Hub | System, hx: str, res: str, step: str) -> int:
    """R-4.5, R-4.5a: what orders in ``step`` may still take from a pool or stockpile for use
    at ``hx``: all of it, except at a contested member of a hub: what may reach it less what
    this step's orders took there already, never more than the pool holds."""
    if not isinstance(place, Hub) or hx not in world.contested:
        return place.store[res]
    key = (step, place.id, hx, res)
    if key not in world.reach:  # fixed at the step's first use: the shares move as it takes
        world.reach[key] = reach(world, place, hx, res)
    return max(0, min(place.store[res], world.reach[key] - world.taken[key]))


def short_of(
    world: World, place: Hub | System, hx: str, res: str, need: int, step: str
) -> str | None:
    """R-0.2, R-4.5a: why ``need`` of ``res`` cannot be taken for use at ``hx`` in ``step``, or
    ``None`` when it can; at a contested member the error names what is left."""
    have = usable_at(world, place, hx, res, step)
    if need <= have:
        return None
    if isinstance(place, Hub) and hx in world.contested:
        return (
            f"{place.where} has {have} {res} left that may reach contested {hx} this step,"
            f" not {need} (R-4.5a)"
        )
    return f"{place.where} has {have} {res} usable at {hx}, not {need}"


def take(
    world: World,
    power: str,
    place: Hub | System,
    hx: str,
    res: str,
    amount: int,
    reason: str,
    rule: str,
    step: str,
) -> None:
    """Take ``amount`` of ``res`` used at ``hx`` from a pool or stockpile (R-0.4), counting it
    against the contested-node limit of ``step`` (R-4.5a)."""
    world.books.change(power, place, res, -amount, reason, rule)
    if isinstance(place, Hub) and hx in world.contested:
        world.taken[(step, place.id, hx, res)] += amount
