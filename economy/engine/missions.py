"""Support §3.3, §4.3.2: researchers put aboard craft, research missions, and the Areas of
Special Interest (R-8.1, R-8.1a, R-10.7)."""

from __future__ import annotations

from .command_state import SpecialInterest
from .reach import Purse
from .troops import STEP
from .world import World

RULE = "R-8.1"
#: Support §4.3.2: the factor by hex type (an active Area of Special Interest gives 5).
FACTOR = {"system": 0, "outer_system": 0, "deep_space": 1, "dust_cloud": 2, "special_interest": 5}
ACTING = ("none", "stood_off")  # an engaged, engaging or retreating group is interrupted


def researchers(world: World) -> None:
    """Support §3.3: ``researchers`` puts PL reaching a grouped craft's hex (as for crew) into
    its free passenger space, exactly the amount ordered or nothing (R-10.7); they stay aboard
    (R-1.3: PL in passenger space is not lost at tidy up)."""
    books = world.books
    books.step = "support.3.3"
    purse = Purse(world, STEP)
    navy = world.navy
    for order in world.orders.get("researchers", ()):
        craft = navy.craft.get(order["craft"])
        if craft is None or craft.group is None:
            world.reject(order, f"craft: {order['craft']} is not a craft in a group this round")
            continue
        pl: int = order["pl"]
        free = navy.capacity(craft, "passenger") - craft.store.get("pl", 0)
        if pl > free:
            world.reject(order, f"pl: {craft.id} has passenger space for {free} more, not {pl}")
            continue
        hx = navy.hex_of(craft)
        place = purse.place(order.power, hx)
        problem = purse.short(place, hx, "pl", pl)
        if place is None or problem is not None:
            world.reject(order, f"pl: {problem}")
            continue
        purse.take(
            order.power, place, hx, "pl", pl, f"researchers aboard {craft.id}", "Support 3.3", craft
        )


def hex_factor(hex_type: str, special: bool) -> int:
    """Support §4.3.2: by hex type; an active Area of Special Interest's 5 replaces the dust
    cloud's 2 (R-10.7)."""
    return FACTOR["special_interest"] if special else FACTOR.get(hex_type, 0)


def mission_tp(capacity: int, researchers: int, factor: int) -> int:
    """R-8.1: floor(research capacity / 10) x floor(researchers / 25) x the hex's factor."""
    return (capacity // 10) * (researchers // 25) * factor


def factor(world: World, hx: str) -> int:
    si = world.state.command.special_interest
    special = si is not None and si.hex == hx and si.active(world.round)
    return hex_factor(world.state.hexes.get(hx, "deep_space"), special)


def research_missions(world: World) -> None:
    """R-8.1: a craft with research capacity and researchers aboard, its group on Hold-Research,
    not interrupted and in supply, makes floor(capacity / 10) x floor(researchers / 25) x
    factor TP; groups by id, craft by id. Then the Area of Special Interest is drawn."""
    books = world.books
    books.step = "support.4.3.2"
    command = world.state.command
    si = command.special_interest
    if si is not None and si.ends < world.round:
        command.special_interest = None
        books.event("special_interest.ended", public=True, hex=si.hex, round=si.ends)
    navy = world.navy
    for group in sorted(world.state.groups, key=lambda g: g.id):
        if group.order != "hold_research" or group.status not in ACTING or group.out_of_supply:
            continue
        f = factor(world, group.hex)
        for craft in navy.members(group):
            capacity = navy.capacity(craft, "research")
            staff = craft.store.get("pl", 0)
            if not capacity or not staff:
                continue
            tp = mission_tp(capacity, staff, f)
            books.change(
                group.power,
                world.powers[group.power],
                "tp",
                tp,
                f"research mission {craft.id}",
                RULE,
            )
            books.event(
                "research.mission",
                powers=(group.power,),
                craft=craft.id,
                hex=group.hex,
                capacity=capacity,
                researchers=staff,
                factor=f,
                tp=tp,
            )
    draw_special_interest(world)


def draw_special_interest(world: World) -> None:
    """R-8.1a, R-10.7: with none announced or active and a campaign chance, the round's RNG
    draws, in this order: "yes" (a d100 below the chance), then the hex (uniform over the dust
    clouds sorted by hex), then d6 (rounds until it is active) and d6 (rounds it lasts). With
    no dust cloud nothing is drawn. The announcement is public."""
    command = world.state.command
    clouds = sorted(h for h, t in world.state.hexes.items() if t == "dust_cloud")
    if command.special_interest is not None or not command.special_interest_chance or not clouds:
        return
    rng = world.rng
    if rng.randrange(100) >= command.special_interest_chance:
        return
    hx = clouds[rng.randrange(len(clouds))]
    wait, lasts = rng.randint(1, 6), rng.randint(1, 6)
    starts = world.round + wait
    si = SpecialInterest(hx, world.round, starts, starts + lasts - 1)
    command.special_interest = si
    world.books.event(
        "special_interest.announced", public=True, hex=hx, starts=si.starts, ends=si.ends
    )
