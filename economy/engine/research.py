"""Support §4.3.1: research projects, 2 Gal = 1 TP, only with a Homeworld (R-8.1)."""

from __future__ import annotations

from .world import World


def research(world: World) -> None:
    """R-8.1: fund projects in listed order; a power needs its Homeworld held with effective
    LR > 0 this round (at effective LR 0 it is lost to its holder for the round, R-3.4)."""
    books = world.books
    books.step = "support.4.3.1"
    homeworld = {s.holder: s for s in world.systems_sorted if s.type == "homeworld" and s.holder}
    for order in world.orders.get("research_project", ()):
        gal: int = order["gal"]
        bank = world.powers[order.power]
        home = homeworld.get(order.power)
        if home is None:
            world.reject(order, f"{order.power} has no Homeworld (Support §4.3.1)")
        elif world.effective_loyalty(home) == 0:
            world.reject(order, f"Homeworld {home.id} is at effective LR 0 this round (R-8.1)")
        elif bank.store["gal"] < gal:
            world.reject(order, f"bank has {bank.store['gal']} gal, project needs {gal}")
        else:
            books.change(bank.id, bank, "gal", -gal, "research project", "R-8.1")
            books.change(bank.id, bank, "tp", gal // 2, "research project", "R-8.1")
