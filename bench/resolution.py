"""Benchmark the Django shell around the engine: ``.venv/bin/python bench/resolution.py``.

Builds the engine benchmark's synthetic campaign (20 powers, 5,000 systems, 200 hubs, 2,000 groups,
10,000 orders) in PostgreSQL, enters the orders as submitted sheets, and resolves the round through
the same service the Celery task calls. Prints the time and query count of loading the state,
resolving, and saving the result (issue 4). Uses the database ``ftcamp_bench`` (created and
dropped here) unless DATABASE_URL is set.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

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

    name = connections["default"].settings_dict["NAME"]
    with connections["default"]._nodb_cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cur.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        out = fn()
        seconds = time.perf_counter() - start
    print(f"  {label:<28} {seconds:7.2f} s  {len(ctx.captured_queries):5d} queries")
    return out


def storable(state: dict) -> dict:  # type: ignore[type-arg]
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


def main(n_systems: int = 5000) -> None:
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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
