"""Support §6: planetary projects (R-9.1, R-4.1)."""

from __future__ import annotations

from .hubs import short_of, take
from .rules import max_shift_pct, with_bonus
from .state import Project
from .world import World


def setup_cost(base_source: int, lr: int, pct: int) -> int:
    """R-9.1: twice the amount shifted at setup, floor(bonus-adjusted source x pct / 100)."""
    return 2 * (with_bonus(base_source, lr) * pct // 100)


def projects(world: World) -> None:
    """Support §6.1: start (pay in the target resource) or stop (pct 0) a system's project."""
    books = world.books
    books.step = "support.6"
    for order in world.orders.get("planetary_project", ()):
        system = world.systems[order["system"]]
        pct: int = order["pct"]
        lr = world.effective_loyalty(system)
        if system.holder != order.power or lr == 0:
            world.reject(order, f"{system.id} is not held by {order.power} this round")
            continue
        if pct == 0:
            if system.project is None:
                world.reject(order, f"{system.id} has no planetary project to stop")
            else:
                system.project = None
                books.event("project.stopped", powers=(order.power,), system=system.id)
            continue
        if system.project is not None:
            world.reject(order, f"{system.id} already has a project: stop it first (pct 0)")
            continue
        cap = max_shift_pct(lr)
        if pct > cap:
            world.reject(order, f"pct: {pct}% exceeds the {cap}% allowed at LR {lr} (R-3.3)")
            continue
        source: str = order["source"]
        target: str = order["target"]
        cost = setup_cost(system.rates[source], lr, pct)
        reason = f"planetary project {system.id}"
        if target == "gal":
            bank = world.powers[order.power]
            if bank.store["gal"] < cost:
                world.reject(order, f"bank has {bank.store['gal']} gal, needs {cost}")
                continue
            books.change(order.power, bank, "gal", -cost, reason, "R-9.1")
        else:
            place = world.place_of(system)
            short = short_of(world, place, system.hex, target, cost, "support.6")
            if short:
                world.reject(order, short)
                continue
            take(world, order.power, place, system.hex, target, cost, reason, "R-9.1", "support.6")
        system.project = Project(source, target, pct)
        books.event(
            "project.started",
            powers=(order.power,),
            system=system.id,
            pct=pct,
            source=source,
            target=target,
        )
