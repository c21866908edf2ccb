"""Resource §5: distribution and trades out (shipments, Gal transfers).

Equal distribution (§5.1.1, R-5.7) needs no order: a hub's pool is kept as one total and the
per-node share is worked out when a node is lost (``hubs.lose_nodes``); ``distribute`` checks
and reports a manual assignment (§5.1.2).
"""

from __future__ import annotations

from .hubs import equal_shares, reach
from .shipments import ship
from .state import Order
from .world import World


def distribute(world: World, order: Order) -> None:
    """Resource §5.1.2, R-5.7, R-4.5: a manual per-node assignment of a hub's Ore and Bio.

    It must place the whole pool on active members; a contested member may hold no more than its
    equal share plus those of the members linked to it. The pool stays one total, and tidy up
    splits it equally again (R-11), so the assignment is reported, not stored.
    """
    hub = world.hubs.get(order["hub"])
    if hub is None or hub.id in world.new_hubs:
        return world.reject(order, f"hub {order['hub']} is not active")
    equal = equal_shares(world, hub)
    wanted: dict[str, dict[str, int]] = {}
    for share in order["shares"]:
        hx = share["hex"]
        if hx not in equal or hx in wanted:
            return world.reject(
                order, f"shares: {hx} is not an active member of {hub.id} (or twice)"
            )
        wanted[hx] = {res: share.get(res, 0) for res in ("ore", "bio")}
    for res in ("ore", "bio"):
        total = sum(w[res] for w in wanted.values())
        if total != hub.store[res]:
            return world.reject(
                order, f"shares: {total} {res} placed, the pool holds {hub.store[res]}"
            )
        for hx, w in wanted.items():
            if hx not in world.contested:
                continue
            limit = reach(world, hub, hx, res)
            if w[res] > limit:
                return world.reject(
                    order, f"shares: contested {hx} can receive {limit} {res}, not {w[res]} (R-4.5)"
                )
    world.books.event(
        "hub.distributed",
        step="resource.5.1",
        powers=(hub.power,),
        hub=hub.id,
        shares=[{"hex": hx, "ore": w["ore"], "bio": w["bio"]} for hx, w in sorted(wanted.items())],
    )
    return None


def transfer_gal(world: World, order: Order) -> None:
    """R-5.6: Gal moves between banks instantly and free."""
    bank = world.powers[order.power]
    amount: int = order["amount"]
    if amount > bank.store["gal"]:
        return world.reject(order, f"bank has {bank.store['gal']} gal, transfer needs {amount}")
    world.books.step = "resource.5"
    world.books.move(
        order.power,
        bank,
        world.powers[order["to"]],
        "gal",
        amount,
        f"gal transfer {order.power} -> {order['to']}",
        "R-5.6",
        target_power=order["to"],
    )
    return None


def trade_out(world: World) -> None:
    """Resource §5.2-§5.3: each power's orders in its listed order, powers by id (R-0.3)."""
    world.books.step = "resource.5"
    for order in world.orders.get("distribute", ()):
        distribute(world, order)
    orders = sorted(
        [*world.orders.get("ship", ()), *world.orders.get("gal_transfer", ())],
        key=lambda o: (o.power, o.index),
    )
    for order in orders:
        if order.type == "ship":
            ship(world, order)
        else:
            transfer_gal(world, order)
