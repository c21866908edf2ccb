"""Resource §3 (trades in) and §5.2 (shipments between own hubs), R-5.4, R-5.4a."""

from __future__ import annotations

from .rules import hex_distance, trade_cost, trade_cost_pct, travel_rounds
from .state import Hub, Order, Shipment
from .world import World


def lose_shipment(world: World, shipment: Shipment, reason: str, rule: str) -> None:
    """R-5.3: a shipment that can no longer be delivered is lost, with a ledger line."""
    world.books.change(shipment.power, shipment, shipment.resource, -shipment.amount, reason, rule)
    world.remove_shipment(shipment)
    world.books.event(
        "shipment.lost", powers=(shipment.power, shipment.sender), shipment=shipment.id, why=reason
    )


def _receiver(world: World, shipment: Shipment) -> Hub | None:
    """R-5.4a: for a shipment whose hub is gone, the receiver's guild hub active this round
    that holds one of the old hub's members (ties: lowest hub id)."""
    wanted = set(shipment.waiting_for)
    found = [
        hub
        for hub in world.state.hubs
        if hub.power == shipment.power
        and hub.guild
        and hub.id not in world.new_hubs
        and world.member_active(hub, hub.centre)
        and wanted.intersection(hub.members())
    ]
    return min(found, key=lambda h: h.id) if found else None


def arrive(world: World) -> None:
    """Resource §3, R-5.4, R-5.4a: due shipments reach the destination centre, contested or
    not; one whose centre is lost, or whose hub is gone, waits."""
    books = world.books
    books.step = "resource.3"
    for shipment in sorted(world.shipments.values(), key=lambda s: s.id):
        if shipment.arrives > world.round:
            continue
        if shipment.to_hub is None:
            hub = _receiver(world, shipment)
        else:
            hub = world.hubs[shipment.to_hub]
            if not world.member_active(hub, hub.centre):
                if not shipment.waiting:
                    books.event(
                        "shipment.waits",
                        powers=(shipment.power, shipment.sender),
                        shipment=shipment.id,
                        hub=hub.id,
                    )
                shipment.waiting = True
                shipment.waiting_for = hub.members()
                continue
        if hub is None:
            continue  # R-5.4a: still waiting; it was told when its hub went
        if not hub.guild:
            lose_shipment(world, shipment, f"{hub.id} is no longer a guild member", "R-5.3")
            continue
        books.move(
            shipment.power,
            shipment,
            hub,
            shipment.resource,
            shipment.amount,
            f"shipment {shipment.id} arrives at {hub.id}",
            "R-5.4a" if shipment.to_hub is None else "R-5.4",
        )
        world.remove_shipment(shipment)


def ship(world: World, order: Order) -> None:
    """Resource §5.2, R-5.4: both centres guild members; cost on top, paid at dispatch."""
    books = world.books
    source = world.hubs.get(order["from_hub"])
    dest = world.hubs.get(order["to_hub"])
    if source is None or dest is None:
        return world.reject(order, "hub no longer exists")
    for hub in (source, dest):
        if hub.id in world.new_hubs:
            return world.reject(order, f"hub {hub.id} is not active until next round")
        if not hub.guild:
            return world.reject(order, f"hub {hub.id} centre is not a guild member (Resource §5.2)")
        if not world.member_active(hub, hub.centre):
            return world.reject(order, f"hub {hub.id} has lost its centre")
    res: str = order["resource"]
    amount: int = order["amount"]
    d = hex_distance(source.centre, dest.centre)
    cost = trade_cost(amount, d)
    payer_end = dest if order.get("payer", "sender") == "receiver" else source
    payer = world.powers[order.power] if res == "pl" else payer_end
    cost_res = "gal" if res == "pl" else res
    need_from_source = amount + (cost if payer is source else 0)
    if source.store[res] < need_from_source:
        return world.reject(
            order, f"hub {source.id} has {source.store[res]} {res}, order needs {need_from_source}"
        )
    if payer is not source and payer.store[cost_res] < cost:
        return world.reject(
            order, f"{payer.where} has {payer.store[cost_res]} {cost_res}, cost is {cost}"
        )
    shipment = Shipment(
        world.next_shipment_id(order.power),
        order.power,
        order.power,
        source.id,
        dest.id,
        res,
        {res: 0},
        world.round + travel_rounds(d),
    )
    world.add_shipment(shipment)
    books.step = "resource.5.2"
    books.move(order.power, source, shipment, res, amount, f"ship to {dest.id}", "R-5.4")
    books.change(
        order.power,
        payer,
        cost_res,
        -cost,
        f"shipping cost {trade_cost_pct(d)}% of {amount} {res} over {d} hexes",
        "R-5.4",
    )
    books.event(
        "shipment.sent",
        powers=(shipment.power, shipment.sender),
        shipment=shipment.id,
        amount=amount,
        resource=res,
        source=source.id,
        dest=dest.id,
        arrives=shipment.arrives,
    )
    return None
