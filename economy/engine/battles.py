"""Battle records (R-2, R-10.6): the battles fought after the last Support Phase, confirmed by
every power in them (or the admin), applied at the start of the resolution, with the fleet
declarations. The declared ``status`` (R-2a), not the record, decides interruptions."""

from __future__ import annotations

from .owners import end_work, give_craft, new_carrier
from .pacts import Battle, BattleCraft
from .state import Craft, Group, Static
from .world import World

RULE = "R-10.6"


def apply_records(world: World) -> None:
    """R-10.6: each record in id order, its craft in listed order; the public learns only that
    a battle was fought at the hex, the powers in it what it did. Restocked systems readied
    for the battle (Support §2.0) are ready again once it is over."""
    books = world.books
    books.step = "fleet.battles"
    navy = world.navy
    for craft in navy.fleet.craft:
        craft.unready.clear()
    touched: dict[str, Group | Static] = {}
    for record in sorted(navy.fleet.battles, key=lambda b: b.id):
        books.event("battle.fought", public=True, hex=record.hex)
        for entry in record.craft:
            _apply(world, record, entry, touched)
    navy.fleet.battles = []
    navy.reindex()
    for ident in sorted(touched):
        navy.refresh(touched[ident])


def _apply(
    world: World, record: Battle, entry: BattleCraft, touched: dict[str, Group | Static]
) -> None:
    navy = world.navy
    books = world.books
    craft = navy.craft.get(entry.craft)
    why = (
        "it is gone"
        if craft is None
        else f"it belongs to {craft.power} now"
        if craft.power not in record.powers
        else "it is not at the battle's hex"
        if navy.hex_of(craft) != record.hex
        else None
    )
    if why or craft is None:
        books.event(
            "battle.entry_skipped", powers=record.powers, battle=record.id, craft=entry.craft,
            why=why,
        )  # fmt: skip
        return
    _touch(world, craft, touched)
    if entry.destroyed:
        destroy(world, craft, f"destroyed in battle {record.id}")
        books.event("battle.destroyed", powers=record.powers, battle=record.id, craft=craft.id)
        return
    if entry.damage:  # the systems as the craft's sheet shows them when the battle ended
        craft.destroyed = dict(entry.systems_destroyed)
        craft.disabled = dict(entry.systems_disabled)
    lost = min(entry.cf_lost, craft.crew)
    books.change(craft.power, craft, "cf", -lost, f"CF lost in battle {record.id}", RULE)
    books.event(
        "battle.damaged", powers=record.powers, battle=record.id, craft=craft.id,
        destroyed=sum(craft.destroyed.values()), disabled=sum(craft.disabled.values()),
        cf_lost=lost,
    )  # fmt: skip
    if entry.captured_by is not None and entry.into is not None:
        carrier = world.groups.get(entry.into) or world.statics.get(entry.into)
        if carrier is None:
            static = navy.design(craft).mobility == "static"
            carrier = new_carrier(world, entry.into, entry.captured_by, record.hex, static=static)
        _capture(world, craft, carrier, record)
        touched[carrier.id] = carrier


def _touch(world: World, craft: Craft, touched: dict[str, Group | Static]) -> None:
    carrier = world.navy.carrier(craft)
    if carrier is not None:
        touched[carrier.id] = carrier


def destroy(world: World, craft: Craft, why: str) -> None:
    """R-10.6: a destroyed craft leaves the fleet with its crew, what it carries and stores, and
    its work in progress (ledger lines); craft in orbit with it share its fate: they had no
    other carrier (Support §1.1)."""
    navy = world.navy
    books = world.books
    for other in list(navy.in_orbit.get(craft.id, ())):
        destroy(world, other, why)
    end_work(world, craft, why, RULE)
    for holder in (craft, craft.workshop):
        for kind, n in sorted(holder.store.items()):
            books.change(craft.power, holder, kind, -n, f"{craft.id} {why}", RULE)
    navy.remove_craft(craft)
    navy.reindex()


def _capture(world: World, craft: Craft, carrier: Group | Static, record: Battle) -> None:
    """R-10.6, Support 1.3: a captured craft changes owner into the captor's carrier, with what
    it carries and stores; its crew is lost (the captor crews it, R-7.5); its work in progress
    ends; craft in orbit with it are captured with it and stay in orbit."""
    navy = world.navy
    books = world.books
    why = f"captured in battle {record.id}"
    taken = [craft, *navy.in_orbit.get(craft.id, ())]
    for c in taken:
        end_work(world, c, why, RULE)
        books.change(c.power, c, "cf", -c.crew, f"crew of {c.id} {why}", RULE)
        give_craft(world, c, carrier.power, why, RULE)
        c.captured = True
    craft.orbit = None
    craft.group = carrier.id if isinstance(carrier, Group) else None
    craft.static = carrier.id if isinstance(carrier, Static) else None
    navy.reindex()
    books.event(
        "battle.captured", powers=record.powers, battle=record.id, craft=craft.id,
        captor=carrier.power, carrier=carrier.id,
    )  # fmt: skip
