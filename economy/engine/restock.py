"""Support §2: restock — consumables loaded onto a craft on Hold-Maintain from a builder on
Hold-Build (its workshop) or from a craft carrying them on Hold-Restock, with the
interruptions of §2.0 (R-10.4)."""

from __future__ import annotations

from .state import Craft, Group, Order
from .world import World
from .yard import idle

STEP = "support.2"
FAILS = ("retreated",)  # §2.0: a retreat of either fails it
ENGAGED = ("engaged", "took_engage")  # §2.0: the target's ``if_engaged`` decides


def _status(world: World, craft: Craft) -> tuple[str, Group | None]:
    """The declared status of a craft's group (a static's craft: never interrupted)."""
    carrier = world.navy.carrier(craft)
    group = carrier if isinstance(carrier, Group) else None
    return (group.status if group else "none"), group


def room(world: World, craft: Craft, extra: dict[str, int]) -> bool:
    """Support §2.1: a craft carries its design's loadout, and beyond it consumables as cargo,
    by mass, within its working cargo space."""
    navy = world.navy
    loadout = navy.design(craft).loadout
    catalogue = navy.fleet.catalogue
    cargo = sum(
        catalogue[k].mass * max(0, craft.store.get(k, 0) + extra.get(k, 0) - loadout.get(k, 0))
        for k in set(extra) | {k for k in craft.store if k != "cf"}
    )
    return cargo <= navy.capacity(craft, "cargo")


def _source(world: World, source: Craft) -> tuple[str | None, bool]:
    """(why it cannot give, whether it gives from its workshop): a builder on Hold-Build gives
    what its workshop stores (made this round too, §2); another craft on Hold-Restock what it
    carries; a static builder from its workshop, never interrupted."""
    carrier = world.navy.carrier(source)
    builder = world.navy.capacity(source, "construction") > 0
    if builder and (not isinstance(carrier, Group) or carrier.order == "hold_build"):
        why = idle(world, source)
        return (f"source: {why}" if why else None), True
    why = idle(world, source, ("hold_restock",))
    return (f"source: {why}" if why else None), False


def _items(world: World, order: Order, pool: dict[str, int], target: Craft) -> dict[str, int]:
    """``items`` as ordered, or what fills the target's loadout from what the source has."""
    if "items" in order.fields:
        return dict(order["items"])
    loadout = world.navy.design(target).loadout
    wanted = {k: min(n - target.store.get(k, 0), pool.get(k, 0)) for k, n in loadout.items()}
    return {k: n for k, n in sorted(wanted.items()) if n > 0}


def restock(world: World) -> None:
    """Support §2.0, §2.1, R-10.4, R-7.4a: each order in listed order: a retreat of source or
    target fails it; an interrupted or out-of-supply source gives nothing; a target engaged
    (or engaging) abandons it, or with ``if_engaged: disabled`` is restocked with each
    restocked system beginning the battle disabled (recorded on the craft as ``unready``)."""
    books = world.books
    books.step = STEP
    navy = world.navy
    for order in world.orders.get("restock", ()):
        source, target = navy.craft.get(order["source"]), navy.craft.get(order["target"])
        if source is None or source.power != order.power:
            world.reject(order, f"source: no craft {order['source']} of {order.power}")
            continue
        if target is None or target.power != order.power or target is source:
            world.reject(order, f"target: no other craft {order['target']} of {order.power}")
            continue
        (src_status, _), (tgt_status, group) = _status(world, source), _status(world, target)
        why, workshop = _source(world, source)
        pool = source.workshop if workshop else source
        engaged = tgt_status in ENGAGED
        mode = order.get("if_engaged", "abandon")
        items = _items(world, order, pool.store, target)
        problem = (
            f"{'source' if src_status in FAILS else 'target'} retreated: the restock fails"
            " (Support §2.0)"
            if FAILS[0] in (src_status, tgt_status)
            else why
            or (
                f"target: {target.id} is not at {source.id}'s hex"
                if navy.hex_of(target) != navy.hex_of(source)
                else f"target: its group {group.id} is on {group.order}, not hold_maintain"
                if group is not None and target.orbit is None and group.order != "hold_maintain"
                else f"target: its group {group.id} is out of supply (R-7.4a)"
                if group is not None and group.out_of_supply
                else f"target: engaged, it abandons the restock (if_engaged {mode}, Support §2.0)"
                if engaged and mode == "abandon"
                else f"items: {source.id} has nothing {target.id} lacks"
                if not items
                else f"items: {source.id} has {dict(pool.store)}, not {items}"
                if any(pool.store.get(k, 0) < n for k, n in items.items())
                else f"items: {target.id} has no room for {items} (Support §2.1: cargo by mass)"
                if not room(world, target, items)
                else None
            )
        )
        if problem:
            world.reject(order, problem)
            continue
        for kind, n in sorted(items.items()):
            books.move(order.power, pool, target, kind, n, f"restocked {target.id}", "Support 2.1")
            if engaged:
                target.unready[kind] = target.unready.get(kind, 0) + n
        books.event(
            "restock.done", powers=(order.power,), from_craft=source.id, craft=target.id,
            items=dict(sorted(items.items())), unready=engaged,
        )  # fmt: skip
