"""Resolution is all-or-nothing even when it fails after writing (issue 11, item 5), and a
dead resolver is noticed at once by its released lock (reliability F7, issue 11, item 4).

The faults here come *after* partial writes — the new state, the ledger lines, the round
record — not before the first one, so these tests go red when the ``transaction.atomic()``
around ``_resolve_claimed`` in ``economy.services.resolve_round`` is deleted (tried by hand:
the ledger lines, the record and the changed state stay behind and every assertion on them
fails)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

import trade.services
from economy import services
from economy.models import AuditEvent, LedgerLine, Round, RoundRecord
from economy.snapshot import export_state
from tests.helpers import postgresql_only, wait_for
from tests.web.factories import make_campaign
from trade.models import RateHistory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


class Injected(RuntimeError):
    pass


def _after(target: Any, name: str) -> Any:
    real = getattr(target, name)

    def run_then_fail(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise Injected(f"crash after {name}")

    return run_then_fail


FAULTS = {
    # after the new state is written
    "save_state": (services, "save_state"),
    # after the ledger lines (COPY) are in
    "insert_ledger": (services, "insert_ledger"),
    # after the round record and the market history
    "record_round": (trade.services, "record_round"),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_failure_after_partial_writes_leaves_nothing_behind(
    fault: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = make_campaign()
    services.add_order(
        power=world.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 5}, actor="t"
    )
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    before = export_state(world.campaign)
    target, name = FAULTS[fault]
    monkeypatch.setattr(target, name, _after(target, name))

    assert not services.resolve_round(round_id=rnd.pk)

    world.campaign.refresh_from_db()
    assert export_state(world.campaign) == before
    assert not LedgerLine.objects.exists()
    assert not RoundRecord.objects.exists()
    assert not RateHistory.objects.filter(campaign=world.campaign).exists()
    assert list(Round.objects.filter(campaign=world.campaign).values_list("number", "status")) == [
        (1, "open")
    ]
    rnd.refresh_from_db()
    assert rnd.attempts == 1 and f"crash after {name}" in rnd.last_error
    # and the retry resolves it, once
    monkeypatch.undo()
    assert services.resolve_round(round_id=rnd.pk)
    assert RoundRecord.objects.count() == 1
    assert LedgerLine.objects.filter(power__key="p0", resource="gal", amount=-5).count() == 1


@pytest.fixture
def resolver() -> Iterator[psycopg.Connection[Any]]:
    """Another session, standing for a worker that is resolving: it holds the round's resolver
    lock as ``services.resolve_round`` does."""
    settings = connection.settings_dict
    conn = psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"],
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    )
    yield conn
    if not conn.closed:
        conn.close()


def _claimed_round() -> tuple[Any, Round]:
    world = make_campaign()
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    assert services.claim_round(round_id=rnd.pk)  # the claimant then holds the lock, or died
    return world, rnd


def _alive(pid: int) -> bool:
    """The session still holds a lock (pg_terminate_backend only signals it: it ends, and its
    locks go, a moment later). pg_locks is read live; pg_stat_activity would be one snapshot
    for the whole of the test's transaction."""
    with connection.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_locks WHERE pid = %s LIMIT 1", [pid])
        return cur.fetchone() is not None


@postgresql_only
def test_f7_the_sweep_leaves_a_live_claim_and_returns_a_dead_one(
    resolver: psycopg.Connection[Any],
) -> None:
    """Liveness is the resolver lock: while the resolving session holds it the sweep leaves
    the claim alone however old; once PostgreSQL ends that session (pg_terminate_backend, as
    when a worker is killed) the very next sweep returns the round to open and enqueues it."""
    _, rnd = _claimed_round()
    resolver.execute("SELECT pg_advisory_lock(%s)", [services._advisory_key(rnd.pk)])
    assert services.sweep() == []
    rnd.refresh_from_db()
    assert rnd.status == "resolving"

    pid = resolver.info.backend_pid
    with connection.cursor() as cur:
        cur.execute("SELECT pg_terminate_backend(%s)", [pid])
    wait_for(lambda: not _alive(pid), 10, "the resolver's session to end")  # it ends after
    assert services.sweep() == [rnd.pk]
    rnd.refresh_from_db()
    assert (rnd.status, rnd.attempts) == ("open", 1)
    assert AuditEvent.objects.filter(action="resolution_stalled").count() == 1
    assert services.resolve_round(round_id=rnd.pk)


@postgresql_only
def test_a_redelivered_task_takes_a_dead_claim_over_at_once() -> None:
    """A claim in resolving whose resolver lock nobody holds is dead: the redelivered task
    resolves it straight away (no stall timeout to wait for), once."""
    _, rnd = _claimed_round()
    assert services.resolve_round(round_id=rnd.pk)
    assert not services.resolve_round(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert (rnd.status, rnd.attempts) == ("resolved", 2)
    started = AuditEvent.objects.filter(action="resolution_started").order_by("id")
    assert [e.detail["took_over"] for e in started] == [False, True]
    assert AuditEvent.objects.filter(action="resolution_finished").count() == 1


@postgresql_only
def test_a_dead_claim_on_its_third_attempt_fails_instead() -> None:
    _, rnd = _claimed_round()
    Round.objects.filter(pk=rnd.pk).update(attempts=3)
    assert not services.resolve_round(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.status == "failed"
    assert not RoundRecord.objects.exists()
