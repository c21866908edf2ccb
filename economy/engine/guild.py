"""Support §4.2: guild membership of a hub's centre (R-5.3)."""

from __future__ import annotations

from .rules import GUILD_FEE
from .shipments import lose_shipment
from .world import World


def guild(world: World) -> None:
    """R-5.3: leavers first, then fees by hub id (from the round after joining), then joins."""
    books = world.books
    books.step = "support.4.2"
    for order in world.orders.get("guild_leave", ()):
        hub = world.hubs.get(order["hub"])
        if hub is None:
            world.reject(order, f"hub {order['hub']} no longer exists")
        elif not hub.guild:
            world.reject(order, f"hub {hub.id} is not a guild member")
        elif world.shipments_to[hub.id]:
            world.reject(order, f"hub {hub.id} has shipments in transit to it (Support §4.2)")
        else:
            hub.guild = False
            books.event(f"hub {hub.id} leaves the guild", powers=(hub.power,))
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        if not hub.guild:
            continue
        bank = world.powers[hub.power]
        if bank.store["gal"] < GUILD_FEE:
            hub.guild = False
            books.event(
                f"hub {hub.id}: guild fee unpaid, membership ends (R-5.3)", powers=(hub.power,)
            )
            for shipment in [s for s in world.shipments.values() if s.to_hub == hub.id]:
                lose_shipment(world, shipment, f"{hub.id} left the guild", "R-5.3")
            continue
        books.change(hub.power, bank, "gal", -GUILD_FEE, f"guild fee hub {hub.id}", "R-5.3")
    for order in world.orders.get("guild_join", ()):
        hub = world.hubs.get(order["hub"])
        if hub is None:
            world.reject(order, f"hub {order['hub']} no longer exists")
        elif hub.guild:
            world.reject(order, f"hub {hub.id} is already a guild member")
        else:
            hub.guild = True
            books.event(
                f"hub {hub.id} joins the guild: fee due from round {world.round + 1}",
                powers=(hub.power,),
            )
