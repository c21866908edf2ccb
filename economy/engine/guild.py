"""Support §4.2: guild membership of a hub's centre (R-5.3, R-5.3a)."""

from __future__ import annotations

from .rules import GUILD_FEE
from .shipments import lose_shipment
from .world import World


def guild(world: World) -> None:
    """R-5.3, R-5.3a: every member pays this round's fee, by hub id (from the round after
    joining), leavers too; then leavers leave (the end of their membership); then joins."""
    books = world.books
    books.step = "support.4.2"
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        if not hub.guild:
            continue
        bank = world.powers[hub.power]
        if bank.store["gal"] < GUILD_FEE:
            hub.guild = False
            books.event("guild.fee_unpaid", powers=(hub.power,), hub=hub.id)
            for shipment in world.bound_for(hub):
                lose_shipment(world, shipment, f"{hub.id} left the guild", "R-5.3")
            continue
        books.change(hub.power, bank, "gal", -GUILD_FEE, f"guild fee hub {hub.id}", "R-5.3")
    for order in world.orders.get("guild_leave", ()):
        leaving = world.hubs.get(order["hub"])
        if leaving is None:
            world.reject(order, f"hub {order['hub']} no longer exists")
        elif not leaving.guild:
            world.reject(order, f"hub {leaving.id} is not a guild member")
        elif world.shipments_to.get(leaving.id):
            world.reject(order, f"hub {leaving.id} has shipments in transit to it (Support §4.2)")
        else:
            leaving.guild = False
            books.event("guild.left", powers=(leaving.power,), hub=leaving.id)
    for order in world.orders.get("guild_join", ()):
        joining = world.hubs.get(order["hub"])
        if joining is None:
            world.reject(order, f"hub {order['hub']} no longer exists")
        elif joining.guild:
            world.reject(order, f"hub {joining.id} is already a guild member")
        else:
            joining.guild = True
            books.event(
                "guild.joined",
                powers=(joining.power,),
                hub=joining.id,
                from_round=world.round + 1,
            )
