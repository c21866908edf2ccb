"""Support §4.3.1: research projects, 2 Gal = 1 TP, only with a Homeworld (R-8.1)."""

from __future__ import annotations

from .world import World


def research(world: World) -> None:
    """R-8.1: fund projects in listed order; a power without a Homeworld cannot."""
    books = world.books
    books.step = "support.4.3.1"
    homeworlds = {s.holder for s in world.systems_sorted if s.type == "homeworld" and s.holder}
    for order in world.orders.get("research_project", ()):
        gal: int = order["gal"]
        bank = world.powers[order.power]
        if order.power not in homeworlds:
            world.reject(order, f"{order.power} has no Homeworld (Support §4.3.1)")
        elif bank.store["gal"] < gal:
            world.reject(order, f"bank has {bank.store['gal']} gal, project needs {gal}")
        else:
            books.change(bank.id, bank, "gal", -gal, "research project", "R-8.1")
            books.change(bank.id, bank, "tp", gal // 2, "research project", "R-8.1")
