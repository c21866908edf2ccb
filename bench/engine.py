"""Benchmark the pure round engine: ``.venv/bin/python bench/engine.py``.

A synthetic campaign of 20 powers, 200 hubs, 2,000 groups and 10,000 orders is resolved with
500, 5,000 and 50,000 systems; the best of three runs is printed for each, with the growth ratio.
Target (issue 3): under 1 s at 5,000 systems on one core; 10x the systems at most ~11x the time.

The contract map holds at most 99 x 99 = 9,801 hexes, so at 50,000 systems several systems share
a hex; the engine's work per system is the same, which is what the scaling figure measures.
"""

from __future__ import annotations

import random
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools

from economy.engine.resolve import resolve
from economy.engine.state import (
    EDGES,
    Group,
    Hub,
    Invasion,
    Market,
    Power,
    Project,
    Shipment,
    State,
    Static,
    System,
)

POWERS = 20
HUBS = 200
GROUPS = 2_000
ORDERS = 10_000


def hex_code(i: int) -> str:
    return f"{i % 99 + 1:02d}{(i // 99) % 99 + 1:02d}"


def build(n_systems: int, seed: int = 1) -> tuple[State, list[tuple[str, int, Any]]]:
    """A deterministic synthetic campaign and its order sheets."""
    rng = random.Random(seed)
    powers = [Power(f"p{i:02d}", {"gal": 5_000, "tp": 0}) for i in range(POWERS)]
    systems: list[System] = []
    own: dict[str, list[System]] = {p.id: [] for p in powers}
    for i in range(n_systems):
        # powers hold runs of neighbouring hexes, so their hubs are compact
        holder = powers[(i // 25) % POWERS].id if rng.random() < 0.8 else None
        pl = rng.randint(0, 30)
        kind = "standard" if pl >= 15 else "basic"
        if holder and not own[holder]:
            kind = "homeworld"
        elif holder and pl >= 15 and rng.random() < 0.1:
            kind = "primary"
        project = Project("ore", "gal", 25) if rng.random() < 0.05 else None
        s = System(
            f"s{i:05d}",
            f"S{i}",
            hex_code(i),
            kind,
            holder,
            rng.randint(2, 30) if holder else 0,
            {
                "ore": rng.randint(0, 40),
                "gal": rng.randint(0, 20),
                "bio": rng.randint(0, 20),
                "pl": pl,
            },
            {"ore": rng.randint(0, 50), "bio": 0, "pl": 0},
            project,
        )
        systems.append(s)
        if holder:
            own[holder].append(s)
    hubs: list[Hub] = []
    in_hub: set[str] = set()
    for p in powers:
        mine = own[p.id]
        per_hub = max(1, min(5, len(mine) // (HUBS // POWERS)))
        for k in range(HUBS // POWERS):
            members = mine[k * per_hub : (k + 1) * per_hub]
            if not members:
                break
            hexes = [m.hex for m in members]
            in_hub.update(m.id for m in members)
            hubs.append(
                Hub(
                    f"h-{p.id}-{k}",
                    p.id,
                    hexes[0],
                    hexes[1:],
                    list(itertools.pairwise(hexes)),
                    k % 2 == 0,
                    {"ore": rng.randint(0, 500), "bio": rng.randint(0, 200), "pl": 0},
                )
            )
    held = [s for s in systems if s.holder]
    groups = []
    for n in range(GROUPS):
        at = rng.choice(held)
        power = at.holder if rng.random() < 0.7 else powers[rng.randrange(POWERS)].id
        troops = rng.randint(0, 60)
        groups.append(
            Group(
                f"g{n:05d}",
                str(power),
                at.hex,
                rng.choice(["maintain_orbit", "none"]),
                300,
                5,
                {"troops": troops},
                100,
                False,
                "none",
            )
        )
    statics = [
        Static(
            f"st{i:05d}",
            str(s.holder),
            s.hex,
            True,
            100,
            20,
            {"pl": rng.randint(0, 100), "troops": 0},
        )
        for i, s in enumerate(held)
        if i % 2 == 0
    ]
    invasions = []
    for s in held[:: max(1, len(held) // max(1, n_systems // 100))]:
        enemy = powers[(int(s.id[1:]) // 25 + 1) % POWERS].id
        invasions.append(Invasion(s.id, enemy, {"troops": rng.randint(1, 80)}))
    shipments = [
        Shipment(f"sh{i}", h.power, h.power, None, h.id, "ore", {"ore": 10}, rng.randint(1, 2))
        for i, h in enumerate(hubs)
        if h.guild
    ]
    market = Market({e: Decimal("1.1") for e in EDGES}, {e: Decimal("0.05") for e in EDGES})
    state = State(1, seed, {}, powers, systems, hubs, groups, statics, invasions, market,
                  shipments, [])  # fmt: skip

    hubs_of: dict[str, list[Hub]] = {p.id: [] for p in powers}
    for h in hubs:
        hubs_of[h.power].append(h)
    groups_of: dict[str, list[Group]] = {p.id: [] for p in powers}
    for g in groups:
        groups_of[g.power].append(g)
    loose = {p.id: [s for s in own[p.id] if s.id not in in_hub] or own[p.id] for p in powers}
    sheets: list[tuple[str, int, Any]] = []
    for p in powers:
        mine, my_hubs, my_groups = own[p.id], hubs_of[p.id], groups_of[p.id] or groups[:1]
        guild = [h for h in my_hubs if h.guild] or my_hubs
        for index in range(ORDERS // POWERS):
            roll = rng.random()
            if roll < 0.1:
                g = rng.choice(my_groups)
                order: dict[str, Any] = {"type": "declare_group", "group": g.id,
                                         "order": "maintain_orbit"}  # fmt: skip
            elif roll < 0.25:
                order = {"type": "market_sell", "resource": "ore", "amount": rng.randint(1, 40),
                         "from": rng.choice(my_hubs).id}  # fmt: skip
            elif roll < 0.3:
                order = {"type": "market_sell", "resource": "gal", "amount": rng.randint(1, 40),
                         "to": rng.choice(loose[p.id]).id}  # fmt: skip
            elif roll < 0.4:
                to = powers[rng.randrange(POWERS)].id
                order = {"type": "gal_transfer", "to": to if to != p.id else "p00",
                         "amount": rng.randint(1, 50)}  # fmt: skip
            elif roll < 0.5:
                order = {"type": "conscript", "system": rng.choice(mine).id, "loyalty": 1}
            elif roll < 0.55:
                order = {"type": "send_troops", "group": rng.choice(my_groups).id,
                         "troops": rng.randint(1, 30)}  # fmt: skip
            elif roll < 0.65:
                a, b = rng.choice(guild), rng.choice(guild)
                order = {"type": "ship", "from_hub": a.id, "to_hub": b.id, "resource": "ore",
                         "amount": rng.randint(1, 30)}  # fmt: skip
            elif roll < 0.7:
                order = {"type": "research_project", "gal": 2 * rng.randint(1, 20)}
            elif roll < 0.8:
                g = rng.choice(my_groups)
                place = next((s.id for s in mine if s.hex == g.hex), mine[0].id)
                order = {"type": "recruit_troops", "at": place, "troops": rng.randint(1, 10),
                         "into": g.id}  # fmt: skip
            elif roll < 0.9:
                order = {"type": "planetary_project", "system": rng.choice(mine).id,
                         "source": "ore", "target": "bio", "pct": 25}  # fmt: skip
            elif roll < 0.95:
                order = {"type": "hub_maintain", "hub": rng.choice(my_hubs).id}
            else:
                order = {"type": rng.choice(["guild_join", "guild_leave"]),
                         "hub": rng.choice(my_hubs).id}  # fmt: skip
            sheets.append((p.id, index, order))
    return state, sheets


def measure(n_systems: int, repeats: int = 3) -> tuple[float, int, int, int]:
    state, orders = build(n_systems)
    best = float("inf")
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = resolve(state, orders)
        best = min(best, time.perf_counter() - start)
    assert result is not None
    return best, len(orders), len(result.ledger), len(result.rejected)


def main() -> None:
    print(f"{POWERS} powers, {HUBS} hubs, {GROUPS} groups, {ORDERS} orders; best of 3")
    times = {}
    for n in (500, 5_000, 50_000):
        seconds, n_orders, lines, rejected = measure(n)
        times[n] = seconds
        print(
            f"{n:>6} systems: {seconds:7.3f} s  ({n_orders} orders, {lines} ledger lines,"
            f" {rejected} rejected)"
        )
    print(f"growth 500 -> 5,000 systems: x{times[5_000] / times[500]:.2f}")
    print(f"growth 5,000 -> 50,000 systems: x{times[50_000] / times[5_000]:.2f} (target <= ~11)")
    verdict = "meets" if times[5_000] < 1.0 and times[50_000] / times[5_000] <= 11 else "misses"
    print(f"target (5,000 systems < 1 s, linear growth): {verdict}")


if __name__ == "__main__":
    main()
