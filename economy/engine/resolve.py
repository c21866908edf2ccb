"""``resolve(state, orders)``: one campaign round in the fixed order of steps (R-2).

Fleet declarations and EP consumed -> Resource Phase §1-§5 (with §5.3 agreements) -> Support
Phase §1 (with repair, rebuild and refit, §1.2, §1.5, and loans, transfers and design study,
§1.6), §2 restock, §3, §4, §5, §6, §7 in the seed's order (R-2c) -> UN Meeting (R-6.3, R-6.4).
Confirmed battle records (R-10.6), then the admin's outcomes of diplomatic missions (R-8.4a)
apply first, with the fleet declarations.
"""

from __future__ import annotations

import gc
import hashlib
import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from . import (
    agreements,
    battles,
    bubbles,
    construction,
    crew,
    diplomats,
    distribution,
    fleet,
    guild,
    hub_setup,
    hubs,
    lending,
    loyalty,
    market,
    missions,
    officers,
    primaries,
    production,
    projects,
    research,
    restock,
    shipments,
    supply,
    tidy,
    troops,
    un,
)
from .ledger import Event, Line, Rejection
from .state import State
from .validate import check_orders
from .world import World

STEPS = (
    ("fleet.battles", battles.apply_records),  # with the fleet declarations
    ("round.start", diplomats.outcomes),  # R-8.4a: the admin's outcomes of earlier missions
    ("fleet.immunity", diplomats.immunity),  # R-2a, Support §4.4.1
    ("fleet", fleet.declare_groups),
    ("fleet.ep", supply.consume),
    ("resource.1", loyalty.resolve_loyalty),
    ("resource.2.0", hubs.lose_nodes),
    ("resource.2.1", hubs.pool_and_contest),
    ("resource.2.2-2.4", production.produce),
    ("resource.3", shipments.arrive),
    ("resource.4", market.trade),
    ("resource.5", distribution.trade_out),
    ("resource.5.3", agreements.dispatch),
    ("support.1", construction.construction),
    ("support.1 aboard", diplomats.stranded),
    ("support.1.6", lending.hand_over),  # loans, transfers, design study
    ("support.2", restock.restock),
    ("support.3.1", troops.secondary),
    ("support.3.2", crew.crew),
    ("support.3.3", missions.researchers),
    ("support.3.4", supply.supply),
    ("support.4.1.1", hub_setup.setup),
    ("support.4.1.2", hub_setup.maintain),
    ("support.4.2", guild.guild),
    ("support.4 primaries", primaries.primaries),
    ("support.5.1 pay", officers.pay_officers),  # right after Primary upkeep
    ("support.4.3.1", research.research),
    ("support.4.3.2", missions.research_missions),
    ("support.4.4", diplomats.diplomats),
    ("support.5.1", officers.officers),
    ("support.5.2", bubbles.bubbles),
    ("support.6", projects.projects),
    ("support.7", tidy.tidy),
    ("end of support", hub_setup.drop_unpaid),
    ("loans end", lending.end_loans),  # R-10.5a
    ("agreements closed", agreements.close),
    ("un", un.meeting),
)


@dataclass(frozen=True, slots=True)
class Result:
    """The next round's state, the ledger, the orders not applied, and what happened;
    ``un_meeting`` holds the decided motions and the market report (R-6.3, R-6.4)."""

    state: State
    ledger: tuple[Line, ...]
    rejected: tuple[Rejection, ...]
    events: tuple[Event, ...]
    un_meeting: dict[str, Any] = field(default_factory=dict)


def round_rng(seed: int, round_number: int) -> random.Random:
    """R-0.3: a ``random.Random`` seeded from sha256(seed, round), stable across runs."""
    digest = hashlib.sha256(f"{seed}:{round_number}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def resolve(
    state: State,
    orders: Iterable[tuple[str, int, Any]],
    rng: random.Random | None = None,
) -> Result:
    """Resolve one round. ``orders`` are (power, index, raw order dict); nothing is mutated."""
    with _no_cycle_collection():
        return _resolve(state, orders, rng)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """A round allocates a few objects per system, craft, order and ledger line and keeps most
    of them; the cycle collector's passes over that growing heap found nothing to free and cost
    a third of a 9,000-system round (bench/engine.py). Paused for the round, as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _resolve(
    state: State, orders: Iterable[tuple[str, int, Any]], rng: random.Random | None
) -> Result:
    work = state.copy()
    accepted, refused = check_orders(work, orders)
    world = World(work, accepted, rng or round_rng(state.seed, state.round))
    for power, index, error in refused:
        world.books.reject(power, index, error)
    for _, step in STEPS:
        step(world)
    world.finish()
    work.round += 1
    rejected = sorted(world.books.rejected, key=lambda r: (r.power, r.index))
    return Result(
        work,
        tuple(world.books.lines),
        tuple(rejected),
        tuple(world.books.events),
        world.un_meeting,
    )
