"""Benchmark a thread's poll (issue 31): ``.venv/bin/python bench/diplomacy.py``.

50 players (each a power of one campaign) keep the public channel open; each polls it every
15 s, as the page does (htmx, with the ETag it holds in ``If-None-Match``). The 15 s are
simulated: a tick is one poll by every player in turn, through Django's whole stack in this
process (the test client: middleware, session login, the gate, the view), and every few ticks
(``--every``, default 4: a message a minute) a player writes at a random moment of the tick.
Printed: p50 / p95 / max of a poll answered 304 (nothing new) and of one answered 200 (new
messages: the thread drawn again), with their queries, and the polls per second one process
serves against the 3.3 per second 50 players at 15 s ask for.
Target: p95 <= 20 ms for a 304.

The database is PostgreSQL (``--database-url``, default
``postgres://postgres@127.0.0.1:5432/ftcamp_bench_diplomacy``, created and dropped here), or
``--database-url sqlite:///...`` (a file, removed after)."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import ParseResult, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import describe  # noqa: E402 - after the sys.path line, run as a script

PLAYERS = 50
PERIOD = 15  # seconds between two polls of one player
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/ftcamp_bench_diplomacy"


def _pg_database(url: ParseResult, *, create: bool) -> None:
    import psycopg

    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ["REDIS_URL"] = ""  # in-process tasks: no broker needed
    os.environ.setdefault("LOG_LEVEL", "WARNING")  # not a login line per player
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run(ticks: int, every: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils import timezone

    from campaigns.services import setup_campaign
    from diplomacy import services
    from diplomacy.models import Member
    from powers.models import Campaign, Membership, Power

    long_ago = timezone.now() - timedelta(hours=1)  # out of the rate limit's minute
    campaign = Campaign.objects.create(name="Press bench")
    setup_campaign(campaign=campaign)
    powers = Power.objects.bulk_create(
        Power(campaign=campaign, key=f"b{i}", name=f"Bench power {i}") for i in range(PLAYERS)
    )
    users = [
        get_user_model().objects.create_user(username=f"bench{i}", password="x")  # noqa: S106
        for i in range(PLAYERS)
    ]
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, power=p) for u, p in zip(users, powers, strict=True)
    )
    channel = services.ensure_public(campaign.pk)
    members = {
        m.power_id: m
        for m in Member.objects.select_related("conversation", "power").filter(conversation=channel)
    }
    rng = random.Random(31)
    from diplomacy.models import Message

    for n in range(60):  # a thread with some history (each writer out of its rate limit)
        i = rng.randrange(PLAYERS)
        Message.objects.filter(author=users[i]).update(created_at=long_ago)
        services.post_message(
            member=members[powers[i].pk], user=users[i], text=f"**Press** {n}: the _news_."
        )

    clients, tags, urls = [], [], []
    for user, power in zip(users, powers, strict=True):
        client = Client()
        client.force_login(user)
        url = reverse("diplomacy-poll", args=[campaign.pk, power.key, channel.pk])
        first = client.get(url)
        assert first.status_code == 200
        clients.append(client)
        tags.append(first["ETag"])
        urls.append(url)

    fresh: list[float] = []
    changed: list[float] = []
    counts: dict[int, set[int]] = {304: set(), 200: set()}
    started = time.perf_counter()
    for tick in range(ticks):
        # a message every ``every`` ticks, at a random moment of the tick: some players see
        # it in this tick's poll, the others in the next
        at = {rng.randrange(PLAYERS): rng.randrange(PLAYERS)} if tick % every == 0 else {}
        for i in range(PLAYERS):
            if i in at:
                w = at[i]
                Message.objects.filter(author=users[w]).update(created_at=long_ago)
                services.post_message(
                    member=members[powers[w].pk], user=users[w], text=f"tick news from {w}"
                )
            reset_queries()
            with CaptureQueriesContext(connection) as ctx:
                t0 = time.perf_counter()
                response = clients[i].get(urls[i], headers={"If-None-Match": tags[i]})
                took = time.perf_counter() - t0
            counts[response.status_code].add(len(ctx.captured_queries))
            if response.status_code == 304:
                fresh.append(took)
            else:
                assert response.status_code == 200, response.status_code
                changed.append(took)
                tags[i] = response["ETag"]
    wall = time.perf_counter() - started
    polls = len(fresh) + len(changed)
    for label, values, code in (
        ("304, nothing new", fresh, 304),
        ("200, new messages", changed, 200),
    ):
        if not values:
            print(f"  {label}: none")
            continue
        print(
            f"  {label:<18} {len(values):>5} polls: "
            f"p50 {statistics.median(values) * 1000:6.2f} ms, "
            f"p95 {percentile(values, 95) * 1000:6.2f} ms, max {max(values) * 1000:6.2f} ms "
            f"({'/'.join(str(q) for q in sorted(counts[code]))} queries)"
        )
    need = PLAYERS / PERIOD
    print(
        f"  {polls} polls in {wall:.2f} s (writes included): {polls / wall:.0f} polls/s in one "
        f"process, against {need:.1f}/s asked by {PLAYERS} players every {PERIOD} s"
    )
    p95 = percentile(fresh, 95) * 1000 if fresh else float("inf")
    print(f"  target p95 <= 20 ms for a 304: {'met' if p95 <= 20 else 'MISSED'} ({p95:.2f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--ticks", type=int, default=40, help="polls of every player")
    parser.add_argument(
        "--every", type=int, default=4, help="one message written every this many ticks"
    )
    args = parser.parse_args()
    print(describe(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url
        if url.startswith("sqlite") and url in ("sqlite://", "sqlite:///"):
            url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        pg = urlparse(url) if url.startswith("postgres") else None
        if pg:
            _pg_database(pg, create=True)
        try:
            setup_django(url)
            print(
                f"diplomacy bench: {PLAYERS} players polling the public channel every "
                f"{PERIOD} s (simulated), {args.ticks} ticks, a message every {args.every} ticks, "
                f"database {url.split(':', 1)[0]}"
            )
            run(args.ticks, args.every)
        finally:
            if pg:
                from django.db import connections

                connections.close_all()
                _pg_database(pg, create=False)


if __name__ == "__main__":
    main()
