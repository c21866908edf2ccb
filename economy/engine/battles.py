"""Battle records (R-2, R-10.6): the battles fought after the last Support Phase, confirmed by
every power in them (or the admin), applied at the start of the resolution, with the fleet
declarations. The declared ``status`` (R-2a), not the record, decides interruptions. A record
is applied whole or not at all (docs/rules.md): ``problems`` is its one check against the
fleet as it stands, made at entry by the shell and again here."""

from __future__ import annotations

from collections.abc import Mapping

from .navy import Navy
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
        found = problems(navy, world.groups, world.statics, record)
        if found:  # an earlier record changed the fleet under it: none of it applies
            books.event(
                "battle.not_applied", powers=record.powers, battle=record.id, hex=record.hex,
                why="; ".join(found),
            )  # fmt: skip
            continue
        for entry in record.craft:
            _apply(world, record, entry, touched)
    navy.fleet.battles = []
    navy.reindex()
    for ident in sorted(touched):
        navy.refresh(touched[ident])


def problems(
    navy: Navy, groups: Mapping[str, Group], statics: Mapping[str, Static], record: Battle
) -> list[str]:
    """R-10.6: what keeps ``record`` from applying to the fleet as it stands, each naming its
    craft: every craft listed is one of the record's powers' at the record's hex, loses at most
    the CF aboard, and a captured one goes into a carrier of its captor at the hex (or a new
    one). A craft elsewhere and no craft at all read alike, so a record tells nothing of other
    fleets. The codec has checked the rest (systems of its design, their counts, the captor)."""
    found: list[str] = []
    for entry in record.craft:
        craft = navy.craft.get(entry.craft)
        if craft is None or craft.power not in record.powers or navy.hex_of(craft) != record.hex:
            found.append(f"{entry.craft}: no such craft of {_or(record.powers)} at {record.hex}")
            continue
        if entry.cf_lost > craft.crew:
            found.append(f"{craft.id}: {entry.cf_lost} CF lost, but it has {craft.crew} aboard")
        into = entry.into
        carrier = groups.get(into) or statics.get(into) if into is not None else None
        if carrier is not None and carrier.hex != record.hex:
            found.append(f"{craft.id}: captured into {into}, which is not at {record.hex}")
    return found


def _or(powers: tuple[str, ...]) -> str:
    return ", ".join(powers[:-1]) + f" or {powers[-1]}" if len(powers) > 1 else powers[0]


def _apply(
    world: World, record: Battle, entry: BattleCraft, touched: dict[str, Group | Static]
) -> None:
    navy = world.navy
    books = world.books
    craft = navy.craft.get(entry.craft)
    if craft is None:  # gone with a craft listed before it (it was in orbit with that one)
        return
    _touch(world, craft, touched)
    if entry.destroyed:
        destroy(world, craft, f"destroyed in battle {record.id}")
        books.event("battle.destroyed", powers=record.powers, battle=record.id, craft=craft.id)
        return
    if entry.damage:  # the systems as the craft's sheet shows them when the battle ended
        craft.destroyed = dict(entry.systems_destroyed)
        craft.disabled = dict(entry.systems_disabled)
    lost = entry.cf_lost  # at most the CF aboard (``problems``)
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
