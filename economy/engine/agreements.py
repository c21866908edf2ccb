"""Resource §5.3 (external trading) and Resource §3.2, R-5.5: trade agreements between powers.

An accepted agreement names a deposit hex H and a delivery round N. Each leg is dispatched
automatically in its sender's dispatch round ``N - max(1, ceil(d/20))`` (d = the sender's
sending centre to H), paying the R-5.4 cost rate for its own d in the sent resource (Gal for
PL). The goods travel as a shipment that arrives at the receiver's centre in Resource §3 of
round N (``shipments.arrive``). A leg that cannot be dispatched fails alone: both parties get
an event and nothing of it moves.
"""

from __future__ import annotations

from .rules import hex_distance, trade_cost, trade_cost_pct, travel_rounds
from .state import Agreement, Hub, Leg, Shipment
from .world import World

STEP = "resource.5.3"


def dispatch_round(delivery: int, d: int) -> int:
    """R-5.5: the sender dispatches ``max(1, ceil(d/20))`` rounds before delivery."""
    return delivery - travel_rounds(d)


def _fail(world: World, agreement: Agreement, leg: Leg, why: str) -> None:
    """R-5.5: the leg fails alone; both parties are told (an event names both)."""
    leg.status = "failed"
    leg.note = why
    receiver = agreement.other(leg.sender)
    world.books.event(
        "agreement.leg_failed",
        step=STEP,
        powers=(agreement.a, agreement.b),
        agreement=agreement.id,
        sender=leg.sender,
        receiver=receiver,
        amount=leg.amount,
        resource=leg.resource,
        why=why,
    )


def _unusable(world: World, hub: Hub, owner: str, role: str) -> str | None:
    """Why the hub cannot be used at dispatch (R-5.3 guild, R-5.4 centre held), or None."""
    if hub.power != owner:
        return f"{role} hub {hub.id} is not {owner}'s"
    if hub.id in world.new_hubs:
        return f"{role} hub {hub.id} is not active until next round"
    if not hub.guild:
        return f"{role} hub {hub.id} centre is not a guild member (Resource §5.3)"
    if role == "sending" and not world.member_active(hub, hub.centre):
        return f"{role} hub {hub.id} has lost its centre"
    return None


def _dispatch_leg(world: World, agreement: Agreement, leg: Leg) -> None:
    books = world.books
    receiver = agreement.other(leg.sender)
    source_id = agreement.hubs[leg.sender]["send"]
    source = world.hubs.get(source_id) if source_id else None
    if source is None:
        # Without a sending hub the dispatch round is unknown; the latest possible one is N-1.
        if world.round >= agreement.delivery - 1:
            missing = (
                f"{leg.sender} named no sending hub"
                if source_id is None
                else (f"sending hub {source_id} no longer exists")
            )
            _fail(world, agreement, leg, missing)
        return None
    d = hex_distance(source.centre, agreement.deposit)
    due = dispatch_round(agreement.delivery, d)
    if due > world.round:
        return None  # not yet: stays pending
    if due < world.round:
        return _fail(world, agreement, leg, f"its dispatch round {due} has passed")
    why = _unusable(world, source, leg.sender, "sending")
    if why:
        return _fail(world, agreement, leg, why)
    dest_id = agreement.hubs[receiver]["receive"]
    dest = world.hubs.get(dest_id) if dest_id else None
    if dest is None:
        return _fail(world, agreement, leg, f"{receiver} named no receiving hub")
    why = _unusable(world, dest, receiver, "receiving")
    if why:
        return _fail(world, agreement, leg, why)
    res = leg.resource
    cost = trade_cost(leg.amount, d)
    cost_res = "gal" if res == "pl" else res
    bank = world.powers[leg.sender]
    need = leg.amount + (0 if res == "pl" else cost)
    if source.store[res] < need:
        why = f"hub {source.id} has {source.store[res]} {res}, the leg needs {need}"
        return _fail(world, agreement, leg, why)
    if res == "pl" and bank.store["gal"] < cost:
        return _fail(world, agreement, leg, f"bank has {bank.store['gal']} gal, cost is {cost}")
    shipment = Shipment(
        world.next_shipment_id(leg.sender),
        receiver,
        leg.sender,
        source.id,
        dest.id,
        res,
        {res: 0},
        agreement.delivery,
    )
    world.add_shipment(shipment)
    books.step = STEP
    books.move(
        leg.sender,
        source,
        shipment,
        res,
        leg.amount,
        f"agreement {agreement.id} to {receiver} via {agreement.deposit}",
        "R-5.5",
        target_power=receiver,
    )
    books.change(
        leg.sender,
        bank if res == "pl" else source,
        cost_res,
        -cost,
        f"agreement {agreement.id} cost {trade_cost_pct(d)}% of {leg.amount} {res} over {d} hexes",
        "R-5.5",
    )
    leg.status = "dispatched"
    leg.shipment = shipment.id
    books.event(
        "agreement.leg_dispatched",
        step=STEP,
        powers=(agreement.a, agreement.b),
        agreement=agreement.id,
        shipment=shipment.id,
        amount=leg.amount,
        resource=res,
        sender=leg.sender,
        receiver=receiver,
        arrives=agreement.delivery,
    )
    return None


def dispatch(world: World) -> None:
    """Resource §5.3: every pending leg due this round, agreements by id, legs by sender."""
    world.books.step = STEP
    for agreement in sorted(world.state.agreements, key=lambda a: a.id):
        for leg in sorted(agreement.legs, key=lambda g: g.sender):
            if leg.status == "pending":
                _dispatch_leg(world, agreement, leg)


def close(world: World) -> None:
    """After the round: agreements delivered this round (or earlier) leave the state; hub
    choices naming a hub that no longer exists are cleared, so the state stays consistent."""
    kept = []
    for agreement in world.state.agreements:
        if agreement.delivery <= world.round:
            for leg in agreement.legs:
                if leg.status == "pending":
                    _fail(world, agreement, leg, "the delivery round has come")
            continue
        for choice in agreement.hubs.values():
            for end, hub in choice.items():
                if hub is not None and hub not in world.hubs:
                    choice[end] = None
        kept.append(agreement)
    world.state.agreements = kept
