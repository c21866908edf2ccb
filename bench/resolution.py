"""Benchmark the Django shell around the engine: ``.venv/bin/python bench/resolution.py [SIZES]``.

For each size (900 and 5,000 systems by default) builds the engine benchmark's synthetic campaign
(at 5,000 systems: 20 powers, 200 hubs, 2,000 groups of 5 craft, 200 builds, 10,000 orders; in
proportion at other sizes) in PostgreSQL, enters the orders as submitted sheets, and resolves the
round through the same service the Celery task calls. Prints the time and query count of loading
the state, resolving, and saving the result, then both sizes' query counts side by side: they
must be equal (issue 4, 13). Uses the database ``ftcamp_bench`` (dropped and created for each
size) unless DATABASE_URL is set.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ftcamp_bench")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.engine import build  # noqa: E402
from campaigns import services as power_services  # noqa: E402
from economy import services  # noqa: E402
from economy.engine.codec import dump_state, parse_state  # noqa: E402
from economy.engine.rules import max_loyalty  # noqa: E402
from economy.models import Order, OrderSheet, Round  # noqa: E402
from economy.snapshot import load_state, save_state  # noqa: E402
from powers.models import Campaign, Power  # noqa: E402


def setup_database() -> None:
    from django.db import connections

    connections.close_all()  # the last size's session: a database in use cannot be dropped
    name = connections["default"].settings_dict["NAME"]
    with connections["default"]._nodb_cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cur.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


T = TypeVar("T")


QUERIES: dict[str, int] = {}  # label -> queries, of the size measured last


def timed(label: str, fn: Callable[[], T]) -> T:
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        out = fn()
        seconds = time.perf_counter() - start
    QUERIES[label] = len(ctx.captured_queries)
    print(f"  {label:<28} {seconds:7.2f} s  {len(ctx.captured_queries):5d} queries")
    return out


def storable(state: dict[str, Any]) -> dict[str, Any]:
    """The engine benchmark's random state, bent to what the database accepts: LR within the
    type's maximum, one homeworld per power, a hex in one hub only (its links dropped too)."""
    homeworld_of: set[str] = set()
    for s in state["systems"]:
        if s["type"] == "homeworld":
            if s["holder"] in homeworld_of or s["holder"] is None:
                s["type"] = "primary"
            else:
                homeworld_of.add(s["holder"])
        s["loyalty"] = min(s["loyalty"], max_loyalty(s["type"])) if s["holder"] else 0
    taken: set[str] = set()
    for hub in state["hubs"]:
        hub["nodes"] = [n for n in hub["nodes"] if n not in taken and n != hub["centre"]]
        members = {hub["centre"], *hub["nodes"]}
        taken |= members
        hub["links"] = [link for link in hub["links"] if set(link) <= members]
    return state


def measure(n_systems: int) -> dict[str, int]:
    """Resolve a campaign of ``n_systems``; the query count of each part."""
    QUERIES.clear()
    setup_database()
    state, sheets = build(n_systems)
    state = parse_state(storable(dump_state(state)))
    print(
        f"{n_systems} systems, {len(state.hubs)} hubs, {len(state.groups)} groups, "
        f"{len(sheets)} orders"
    )
    with transaction.atomic():
        campaign = Campaign.objects.create(name="bench", seed=state.seed)
        save_state(campaign, state)
        power_services.setup_campaign(campaign=campaign)
        rnd = Round.objects.get(campaign=campaign, status="open")
        powers = {p.key: p for p in Power.objects.filter(campaign=campaign)}
        sheet_of = {
            key: OrderSheet.objects.create(round=rnd, power=p, status="submitted")
            for key, p in powers.items()
        }
        Order.objects.bulk_create(
            Order(sheet=sheet_of[power], position=i, payload=payload)
            for power, i, payload in sheets
        )
    print("shell, step by step:")
    parsed = timed("load (load_state)", lambda: load_state(campaign))
    inputs = services.round_inputs(rnd)
    result = timed(
        "resolve (engine)",
        lambda: services.run_engine(parsed, inputs.orders, parsed.seed),
    )

    def save() -> None:
        with transaction.atomic():
            save_state(campaign, result.state)
            transaction.set_rollback(True)

    timed("save (save_state)", save)
    print("the whole resolution service (claim, load, resolve, save, ledger, next round):")
    timed("services.resolve_round", lambda: services.resolve_round(round_id=rnd.pk))
    rnd.refresh_from_db()
    print(f"  round status: {rnd.status}, ledger lines: {len(result.ledger)}")
    return dict(QUERIES)


def main(sizes: list[int]) -> None:
    counts = {n: measure(n) for n in sizes}
    print("queries, " + " / ".join(f"{n:,} systems" for n in sizes) + ":")
    for label in counts[sizes[0]]:
        print(f"  {label:<28} " + " / ".join(str(counts[n][label]) for n in sizes))
    differ = [label for label in counts[sizes[0]] if len({c[label] for c in counts.values()}) > 1]
    print(f"query counts differ for: {', '.join(differ)}" if differ else "query counts: the same")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [900, 5000])
