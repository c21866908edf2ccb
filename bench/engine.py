"""Benchmark the pure round engine: ``.venv/bin/python bench/engine.py [SIZES...]
[--instructions]``.

A synthetic campaign grows as a whole with its systems (issue 13): at 5,000 systems it has 20
powers, 200 hubs, 2,000 groups of 5 craft, 200 static yards with 200 builds in progress, 50
invasions and 10,000 orders (a tenth of them fleet orders); at N systems each of these is
N / 5,000 times as many (at least 2 powers). The state stays valid at every size: the
contract's map holds at most 99 x 99 hexes and one system per hex, so the sizes are 900, 5,000
and 9,000 systems (9,801 at most); each state goes through the codec (``parse_state``) before
it is timed, and LR stays within each system type's maximum. The best of five runs, the sizes
taken in turn, is printed for each size with the share of orders the engine rejected and why
(most are cheap paths: an order the sheet's earlier orders left without the means), and the
growth from 900 to 9,000. ``--instructions`` (``make bench``) also counts one round's
instructions at the smallest and largest size with callgrind: the work, whatever the caches.
Target (issues 3, 13 and 14): under 0.5 s at 5,000 systems on one core, and time growing at
most linearly (x10 or less from 900 to 9,000 systems).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import itertools
import re
from collections import Counter
from dataclasses import dataclass

from bench.machine import describe
from economy.engine.codec import dump_state, parse_state
from economy.engine.navy import Navy
from economy.engine.resolve import Result, resolve
from economy.engine.rules import max_loyalty
from economy.engine.state import (
    EDGES,
    Build,
    Consumable,
    Craft,
    Design,
    DesignSystem,
    Fleet,
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

BASE_SYSTEMS = 5_000  # the sizes below are for this many systems, and scale with them
POWERS = 20
HUBS = 200
GROUPS = 2_000
CRAFT_PER_GROUP = 5
BUILDS = 200
ORDERS = 10_000
MAX_SYSTEMS = 99 * 99  # contracts §1: the map is at most 99 x 99, one system per hex
SIZES = (900, 5_000, 9_000)


def scaled(n: int, n_systems: int, least: int = 1) -> int:
    """``n`` (a figure at 5,000 systems) for a campaign of ``n_systems``."""
    return max(least, round(n * n_systems / BASE_SYSTEMS))


def designs_of(power: str) -> list[Design]:
    """R-10.0: a static yard, a mobile tender, a frigate and a freighter for each power."""

    def system(sid: str, points: int, **capacity: int) -> DesignSystem:
        return DesignSystem(sid, sid, points, 1, capacity)

    return [
        Design(f"{power}-yard", power, "Yard", "civilian", "static", 300, 200, 6,
               (system("cy", 40, construction=60), system("ws", 20, workshop=100),
                system("eps", 5, ep_storage=10)), completed=True),
        Design(f"{power}-tender", power, "Tender", "military", "mobile", 80, 160, 6,
               (system("cs", 30, construction=30), system("ws", 10, workshop=40),
                system("eps", 4, ep_storage=8)), completed=True),
        Design(f"{power}-frigate", power, "Frigate", "military", "mobile", 30, 73, 3,
               (system("b1", 6), system("eps", 2, ep_storage=2)), {"fighter": 2}, True),
        Design(f"{power}-freighter", power, "Freighter", "civilian", "mobile", 50, 41, 2,
               (system("hold", 5, cargo=40, troop=20), system("eps", 2, ep_storage=3)),
               completed=True),
    ]  # fmt: skip


def hex_code(i: int) -> str:
    return f"{i % 99 + 1:02d}{(i // 99) % 99 + 1:02d}"


def build(
    n_systems: int, seed: int = 1, n_powers: int = 0
) -> tuple[State, list[tuple[str, int, Any]]]:
    """A deterministic synthetic campaign and its order sheets, everything in proportion to
    ``n_systems`` (at most 9,801: one system per hex of a 99 x 99 map); ``n_powers`` instead
    of the powers in proportion (``bench/orders.py``: 20 players at any size)."""
    if not 0 < n_systems <= MAX_SYSTEMS:
        raise ValueError(f"1 to {MAX_SYSTEMS:,} systems: one per hex of a 99 x 99 map")
    rng = random.Random(seed)
    n_powers = n_powers or scaled(POWERS, n_systems, least=2)
    n_hubs, n_groups = scaled(HUBS, n_systems, n_powers), scaled(GROUPS, n_systems)
    n_orders = scaled(ORDERS, n_systems)
    powers = [Power(f"p{i:02d}", {"gal": 5_000, "tp": 0}) for i in range(n_powers)]
    systems: list[System] = []
    own: dict[str, list[System]] = {p.id: [] for p in powers}
    for i in range(n_systems):
        # powers hold runs of neighbouring hexes, so their hubs are compact
        holder = powers[(i // 25) % n_powers].id if rng.random() < 0.8 else None
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
            rng.randint(2, max_loyalty(kind)) if holder else 0,
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
        per_hub = max(1, min(5, len(mine) // (n_hubs // n_powers)))
        for k in range(n_hubs // n_powers):
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
    for n in range(n_groups):
        at = rng.choice(held)
        power = at.holder if rng.random() < 0.7 else powers[rng.randrange(n_powers)].id
        troops = rng.randint(0, 60)
        groups.append(
            Group(
                f"g{n:05d}",
                str(power),
                at.hex,
                rng.choice(["maintain_orbit", "none", "hold_build"]),
                0,  # points and troop space follow from the craft below
                {"troops": troops, "ep": rng.randint(0, 8)},
                0,
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
            {"pl": rng.randint(0, 100), "troops": 0, "ep": 0},
        )
        for i, s in enumerate(held)
        if i % 2 == 0
    ]
    invasions = []
    for s in held[:: max(1, len(held) // max(1, n_systems // 100))]:
        enemy = powers[(int(s.id[1:]) // 25 + 1) % n_powers].id
        invasions.append(Invasion(s.id, enemy, {"troops": rng.randint(1, 80)}))
    shipments = [
        Shipment(f"sh{i}", h.power, h.power, None, h.id, "ore", {"ore": 10}, rng.randint(1, 2))
        for i, h in enumerate(hubs)
        if h.guild
    ]
    market = Market({e: Decimal("1.1") for e in EDGES}, {e: Decimal("0.05") for e in EDGES})
    fleet = fleet_of(rng, powers, groups, statics, scaled(BUILDS, n_systems, n_powers))
    listed = {s.hex: "system" for s in systems}
    if len(listed) != len(systems):
        raise AssertionError("one system per hex")
    state = State(1, seed, listed, powers, systems, hubs, groups, statics, invasions, market,
                  shipments, [], map_size=(99, 99), fleet=fleet)  # fmt: skip
    Navy(state, {g.id: g for g in groups}, {s.id: s for s in statics}).refresh_all()

    hubs_of: dict[str, list[Hub]] = {p.id: [] for p in powers}
    for h in hubs:
        hubs_of[h.power].append(h)
    groups_of: dict[str, list[Group]] = {p.id: [] for p in powers}
    for g in groups:
        groups_of[g.power].append(g)
    loose = {p.id: [s for s in own[p.id] if s.id not in in_hub] or own[p.id] for p in powers}
    yards = {p.id: [c.id for c in fleet.craft if c.power == p.id and c.static] for p in powers}
    sheets: list[tuple[str, int, Any]] = []
    for p in powers:
        mine, my_hubs, my_groups = own[p.id], hubs_of[p.id], groups_of[p.id] or groups[:1]
        guild = [h for h in my_hubs if h.guild] or my_hubs
        for index in range(n_orders // n_powers):
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
                to = powers[rng.randrange(n_powers)].id
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
            elif roll < 0.85:
                order = {"type": "planetary_project", "system": rng.choice(mine).id,
                         "source": "ore", "target": "bio", "pct": 25}  # fmt: skip
            elif roll < 0.88:
                order = {"type": "hub_maintain", "hub": rng.choice(my_hubs).id}
            elif roll < 0.9:
                order = {"type": rng.choice(["guild_join", "guild_leave"]),
                         "hub": rng.choice(my_hubs).id}  # fmt: skip
            else:
                order = fleet_order(rng, p.id, index, my_groups, yards[p.id])
            sheets.append((p.id, index, order))
    return state, sheets


def fleet_of(
    rng: random.Random,
    powers: list[Power],
    groups: list[Group],
    statics: list[Static],
    n_builds: int,
) -> Fleet:
    """Every group gets a tender and four other craft; the first statics of each power are
    yards, with the builds in progress shared among them."""
    designs = [d for p in powers for d in designs_of(p.id)]
    craft: list[Craft] = []
    for g in groups:
        kinds = ["tender", "frigate", "frigate", "freighter", "freighter"][:CRAFT_PER_GROUP]
        for k, kind in enumerate(kinds):
            craft.append(
                Craft(f"{g.id}-{k}", g.power, f"{g.power}-{kind}", g.id, None, None,
                      {"cf": rng.randint(0, 3)}, gantry=g.hex if rng.random() < 0.5 else None)
            )  # fmt: skip
    yards: list[Craft] = []
    per_power = n_builds // len(powers)
    for p in powers:
        for st in [s for s in statics if s.power == p.id][:per_power]:
            yards.append(Craft(f"{st.id}-y", p.id, f"{p.id}-yard", None, st.id, None, {"cf": 6}))
    builds = []
    for i in range(n_builds):
        yard = yards[i % len(yards)]
        kind = rng.choice(["frigate", "freighter"])
        cost = 100
        builds.append(
            Build(f"b{i:04d}", yard.power, "build", f"{yard.power}-{kind}", [yard.id], True, None,
                  cost, 0, 1, {"ore": rng.randint(0, cost - 1)})
        )  # fmt: skip
    catalogue = {"fighter": Consumable("fighter", 2, 7)}
    return Fleet(designs, craft + yards, builds, catalogue)


def fleet_order(
    rng: random.Random, power: str, index: int, groups: list[Group], yards: list[str]
) -> dict[str, Any]:
    """Support §1, §3.2, §3.4: new builds and makes at yards, crew and EP for groups."""
    g = rng.choice(groups)
    roll = rng.random()
    if roll < 0.3 and yards:
        return {"type": "build", "id": f"n-{power}-{index}", "design": f"{power}-frigate",
                "builders": [rng.choice(yards)]}  # fmt: skip
    if roll < 0.4 and yards:
        return {"type": "make", "builder": rng.choice(yards), "kind": "fighter", "count": 2}
    if roll < 0.7:
        return {"type": "crew", "group": g.id}
    return {"type": "supply_ep", "into": g.id, "ep": rng.randint(1, 6)}


@dataclass(frozen=True)
class Run:
    seconds: float
    state: State
    orders: int
    lines: int
    rejected: list[str]  # why, one per rejected order


def campaign(
    n_systems: int, seed: int = 1, n_powers: int = 0
) -> tuple[State, list[tuple[str, int, Any]]]:
    """``build``'s campaign with its state through the codec's checks: a valid contract state."""
    state, orders = build(n_systems, seed, n_powers)
    return parse_state(dump_state(state)), orders


def measure(sizes: tuple[int, ...], repeats: int = 5) -> dict[int, Run]:
    """The best of ``repeats`` rounds at each size, the sizes taken in turn (900, 5,000, 9,000,
    900, ...): this machine's speed drifts by 10-25 % over a minute, and taking one size's runs
    together let that drift fall on one size and tilt the growth either way."""
    cases = {n: campaign(n) for n in sizes}
    best = dict.fromkeys(sizes, float("inf"))
    last: dict[int, Result] = {}
    for _ in range(repeats):
        for n, (state, orders) in cases.items():
            last.pop(n, None)  # this size's last result freed first, as in its first run
            gc.collect()  # every run starts from the same heap: no collection left over
            start = time.perf_counter()
            last[n] = resolve(state, orders)
            best[n] = min(best[n], time.perf_counter() - start)
    return {
        n: Run(
            best[n], state, len(orders), len(last[n].ledger), [r.error for r in last[n].rejected]
        )
        for n, (state, orders) in cases.items()
    }


def rounds(n_systems: int, count: int) -> None:
    """Build the campaign of ``n_systems`` and resolve it ``count`` times (the callgrind child)."""
    state, orders = campaign(n_systems)
    for _ in range(count):
        resolve(state, orders)


def instructions(sizes: tuple[int, ...]) -> dict[int, int] | str:
    """Instructions of one round at each size: ``valgrind --tool=callgrind`` of a process that
    builds the campaign and resolves it once, less one that only builds it (PYTHONHASHSEED=0,
    so both do the same work). Counts, unlike seconds, do not depend on the caches or on what
    else the machine runs, so the four processes run at once. Without valgrind, the reason."""
    if shutil.which("valgrind") is None:
        return "no valgrind on PATH"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    callgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    jobs = {
        (n, count): subprocess.Popen(
            [*callgrind, sys.executable, __file__, "--rounds", str(n), str(count)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in sizes
        for count in (0, 1)
    }
    errs = {key: job.communicate()[1] for key, job in jobs.items()}  # all four finish first
    collected = {}
    for (n, count), err in errs.items():
        found = re.search(r"Collected : (\d+)", err)
        if jobs[n, count].returncode or not found:
            return f"callgrind failed for {n:,} systems: {err.strip()[-300:]}"
        collected[n, count] = int(found.group(1))
    return {n: collected[n, 1] - collected[n, 0] for n in sizes}


def reasons(errors: list[str], top: int = 3) -> str:
    """The commonest reasons, without the figures that make each one unique."""
    counts = Counter(re.sub(r"[0-9]+", "N", e.split(";")[0])[:70] for e in errors)
    return "; ".join(f"{n} x {why}" for why, n in counts.most_common(top))


def main(sizes: tuple[int, ...] = SIZES, count_instructions: bool = False) -> None:
    print(describe())
    print("best of 5, the sizes in turn; everything grows with the systems (20 powers at 5,000)")
    runs = measure(sizes)
    for n, run in runs.items():
        s = run.state
        share = 100 * len(run.rejected) / max(1, run.orders)
        print(
            f"{n:>6} systems: {run.seconds:7.3f} s  ({len(s.powers)} powers, {len(s.hubs)} hubs,"
            f" {len(s.groups)} groups, {len(s.fleet.craft)} craft, {len(s.fleet.builds)} builds,"
            f" {len(s.invasions)} invasions, {run.orders} orders, {run.lines} ledger lines)"
        )
        print(f"         rejected {len(run.rejected)} ({share:.0f}%): {reasons(run.rejected)}")
    small, large = min(sizes), max(sizes)
    growth = runs[large].seconds / runs[small].seconds
    print(f"growth {small:,} -> {large:,} systems: x{growth:.2f} (linear: x{large / small:.0f})")
    at_5000 = runs[5_000].seconds if 5_000 in runs else None
    ok = (at_5000 is None or at_5000 < 0.5) and growth <= large / small
    print(f"target (5,000 systems < 0.5 s, at most linear growth): {'meets' if ok else 'misses'}")
    if count_instructions:
        counted = instructions((small, large))
        if isinstance(counted, str):
            print(f"instructions: skipped: {counted}")
        else:
            few, many = (counted[n] / 1e6 for n in (small, large))
            print(
                f"instructions of one round (callgrind): {small:,} systems {few:,.0f} M,"
                f" {large:,} systems {many:,.0f} M: growth x{many / few:.2f}"
                f" (linear: x{large / small:.0f})"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, help="systems (default 900 5000 9000)")
    parser.add_argument(
        "--instructions", action="store_true", help="also count one round's instructions"
    )
    parser.add_argument("--rounds", nargs=2, type=int, metavar=("SYSTEMS", "COUNT"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()
    if args.rounds:
        rounds(*args.rounds)
    else:
        main(tuple(args.sizes) or SIZES, args.instructions)
