"""Resource §4: the Common Market cycle Ore -> Bio -> Gal -> Ore (R-6.1)."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from .ledger import Holder
from .state import Hub, Market, Order, System
from .world import World

EDGE_OF = {"ore": ("ore>bio", "bio"), "bio": ("bio>gal", "gal"), "gal": ("gal>ore", "ore")}


def received(amount: int, rate: Decimal, tax: Decimal) -> int:
    """R-6.1: floor(amount x rate x (1 - tax)), exact decimal arithmetic."""
    value = Decimal(amount) * rate * (Decimal(1) - tax)
    return int(value.to_integral_value(rounding=ROUND_FLOOR))


def tax_for(market: Market, power: str, edge: str) -> Decimal:
    """R-6.1: a per-power tax, where set, replaces the edge's tax."""
    return market.power_tax.get(power, {}).get(edge, market.tax[edge])


def _place(world: World, order: Order, key: str) -> Hub | System | None:
    """R-6.1, R-1.4: a named own active hub, or a held system (its hub's pool if it has one)."""
    named = world.hub_or_system(order[key])
    if named is None:
        world.reject(order, f"{key}: hub {order[key]} no longer exists")
        return None
    if isinstance(named, Hub):
        if named.id in world.new_hubs:
            world.reject(order, f"{key}: hub {named.id} is not active until next round")
            return None
        return named
    system = named
    if system.holder != order.power or world.effective_loyalty(system) == 0:
        world.reject(order, f"{key}: {system.id} is not held by {order.power} this round")
        return None
    return world.place_of(system)


def sell(world: World, order: Order) -> None:
    """Resource §4.2, R-6.1: one sale at the current rate and tax."""
    books = world.books
    res: str = order["resource"]
    amount: int = order["amount"]
    edge, bought = EDGE_OF[res]
    bank = world.powers[order.power]
    if order.power in world.state.market.banned:
        return world.reject(
            order, f"market: {order.power} is banned from the Common Market by the UN (R-6.4)"
        )
    target = _place(world, order, "to" if res == "gal" else "from")
    if target is None:
        return None
    source: Holder = bank if res == "gal" else target
    have = source.store[res]
    if amount > have:
        return world.reject(order, f"{source.where} has {have} {res}, order sells {amount}")
    market = world.state.market
    gain = received(amount, market.rates[edge], tax_for(market, order.power, edge))
    books.step = "resource.4"
    books.change(order.power, source, res, -amount, f"market sale {edge}", "R-6.1")
    dest = bank if bought == "gal" else target
    books.change(order.power, dest, bought, gain, f"market purchase {edge}", "R-6.1")
    market.volume[edge] = market.volume.get(edge, 0) + amount  # for the market report, R-6.3
    books.event(
        "market.sold",
        powers=(order.power,),
        power=order.power,
        amount=amount,
        resource=res,
        gain=gain,
        bought=bought,
        round=world.round,
    )
    return None


def trade(world: World) -> None:
    """Resource §4: every market order in power order, then listed order (R-0.3)."""
    world.books.step = "resource.4"
    for order in world.orders.get("market_sell", ()):
        sell(world, order)
