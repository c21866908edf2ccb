"""Craft changing hands or leaving the fleet (R-10.5, R-10.6): new carriers, stocks passing to a
new owner, and the work in progress that ends with a craft."""

from __future__ import annotations

from .ledger import Holder
from .state import Craft, Group, Static
from .world import World

EMPTY_GROUP = {"troops": 0, "ep": 0}
EMPTY_STATIC = {"pl": 0, "troops": 0, "ep": 0}


def new_carrier(world: World, ident: str, power: str, hx: str, *, static: bool,
                kind: str = "standard") -> Group | Static:  # fmt: skip
    """A new, empty group (order and status ``none``) or static at ``hx``; its figures follow
    from the craft put in it (``navy.refresh``, R-10.7)."""
    carrier: Group | Static
    if static:
        carrier = Static(ident, power, hx, True, 0, 0, EMPTY_STATIC.copy())
        world.state.statics.append(carrier)
        world.statics[carrier.id] = carrier
        world.statics_at[hx] = sorted([*world.statics_at[hx], carrier], key=lambda s: s.id)
    else:
        carrier = Group(ident, power, hx, "none", 0, EMPTY_GROUP.copy(), 0, False, "none", kind)
        world.state.groups.append(carrier)
        world.groups[carrier.id] = carrier
    return carrier


def pass_stock(world: World, holder: Holder, old: str, new: str, reason: str, rule: str) -> None:
    """R-0.4: the goods on a holder change owner, not place: a line off the old owner's holdings
    and one onto the new owner's, for each."""
    books = world.books
    for res, n in sorted(holder.store.items()):
        books.record(old, holder.where, res, -n, reason, rule)
        books.record(new, holder.where, res, n, reason, rule)


def give_craft(world: World, craft: Craft, power: str, reason: str, rule: str) -> None:
    """A craft passes to ``power`` with what it carries and stores (its crew too: the caller
    takes the crew off first when it does not stay, R-10.5a, R-10.6)."""
    for holder in (craft, craft.workshop):
        pass_stock(world, holder, craft.power, power, reason, rule)
    craft.power = power


def give_carrier(world: World, carrier: Group | Static, power: str, reason: str,
                 rule: str) -> None:  # fmt: skip
    """A group or static passes to ``power`` with its EP, troops and passengers, and its craft
    and the craft in orbit with its builders with it."""
    navy = world.navy
    pass_stock(world, carrier, carrier.power, power, reason, rule)
    carrier.power = power
    for craft in (*navy.members(carrier), *navy.orbiting(carrier)):
        give_craft(world, craft, power, reason, rule)


def entangled(world: World, craft: Craft) -> str | None:
    """Why a craft cannot change hands: work in progress names it (as builder or as the craft
    worked on) or craft are in orbit with it (their owner would differ from their builder's)."""
    navy = world.navy
    if navy.in_orbit.get(craft.id):
        return f"craft are in orbit with {craft.id}"
    work = next((b for b in navy.fleet.builds if craft.id in (b.craft, *b.builders)), None)
    return f"{craft.id} has work in progress ({work.id})" if work else None


def end_work(world: World, craft: Craft, why: str, rule: str) -> None:
    """R-10.6, R-10.5a: work in progress ends with the craft it is done on or at: the Ore paid
    in is lost (a ledger line); an external build only loses it from its builders, and is lost
    when none is left."""
    navy = world.navy
    books = world.books
    for work in sorted(navy.fleet.builds, key=lambda b: b.id):
        if craft.id in work.builders and work.kind == "build" and not work.inside:
            work.builders.remove(craft.id)
            if work.builders:
                continue
        elif craft.id not in (work.craft, *work.builders):
            continue
        books.change(work.power, work, "ore", -work.paid, f"{work.id} ended: {why}", rule)
        navy.remove_build(work)
        books.event("work.ended", powers=(work.power,), build=work.id, craft=craft.id, why=why)
