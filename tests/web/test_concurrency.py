"""Reliability R1 and R2: the last two players submit at the same instant, and duplicate
triggers race; the round resolves exactly once every time (threads, real PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from economy import rounds, services
from economy.models import AuditEvent, OrderSheet, Round, RoundRecord
from powers.models import Power
from tests.helpers import StartWorker, postgresql_only, wait_for
from tests.web.factories import make_campaign

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite]

ITERATIONS = 200


def in_thread(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        try:
            return fn()
        finally:
            connections.close_all()

    return run


@postgresql_only  # its worker process reads the PostgreSQL test database
def test_r1_last_two_submit_at_once_resolves_exactly_once(worker: StartWorker) -> None:
    worker()
    world = make_campaign(n_powers=2, systems_per_power=2)
    p0, p1 = world.powers
    errors: list[BaseException] = []
    for i in range(ITERATIONS):
        rnd = Round.objects.get(campaign=world.campaign, status="open")
        assert rnd.number == i + 1
        barrier = threading.Barrier(2)

        def submit(power: Power, barrier: threading.Barrier = barrier) -> Callable[[], object]:
            def go() -> None:
                barrier.wait()
                try:
                    services.submit_sheet(power=power, actor="race")
                except BaseException as exc:  # collected and asserted below
                    errors.append(exc)

            return in_thread(go)

        threads = [threading.Thread(target=submit(p)) for p in (p0, p1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        # the on-commit enqueue of whichever submit saw the round complete reaches the worker
        def resolved(rnd: Round = rnd) -> bool:
            return Round.objects.get(pk=rnd.pk).status == "resolved"

        wait_for(resolved, 20, f"iteration {i} to resolve")
        assert Round.objects.filter(campaign=world.campaign).count() == i + 2
    assert errors == []
    for action in ("resolution_started", "resolution_finished"):
        per_round = AuditEvent.objects.filter(campaign=world.campaign, action=action)
        assert per_round.count() == ITERATIONS
        assert per_round.values("round_number").distinct().count() == ITERATIONS


def submit_or_409(power: Power) -> object:
    """A submission racing the forced resolution may find the round claimed: that is a 409."""
    try:
        return services.submit_sheet(power=power, actor="t")
    except rounds.RoundNotOpen:
        return None


def test_r2_duplicate_triggers_resolve_once() -> None:
    world = make_campaign(n_powers=3, systems_per_power=2)
    for power in world.powers[:2]:
        services.submit_sheet(power=power, actor="t")
    # the last submit also enqueues (eagerly) — fire ten more deliveries, the sweep and a force
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    calls: list[Callable[[], object]] = [lambda: services.resolve_round(round_id=rnd.pk)] * 10
    calls += [services.sweep, lambda: services.resolve_round(round_id=rnd.pk, force=True)]
    calls += [lambda: submit_or_409(world.powers[2])]
    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda f: in_thread(f)(), calls))
    assert AuditEvent.objects.filter(action="resolution_started").count() == 1
    assert AuditEvent.objects.filter(action="resolution_finished").count() == 1
    assert Round.objects.filter(campaign=world.campaign).count() == 2


@postgresql_only  # SQLite's lock is not fair: the writer may keep it for its 1,000 writes
def test_r5_order_writes_racing_the_claim_are_never_lost() -> None:
    """Every acknowledged write is on the sheet that resolution reads, and every write after
    the claim is refused (50 iterations; reliability R5)."""
    writes_before_claim = []
    for i in range(50):
        world = make_campaign(f"race {i}", n_powers=2, systems_per_power=1, hubs=False)
        p0, p1 = world.powers
        services.submit_sheet(power=p1, actor="t")
        rnd = Round.objects.get(campaign=world.campaign)
        acked: list[str] = []
        barrier = threading.Barrier(2)

        def writer(
            p0: Power = p0, acked: list[str] = acked, barrier: threading.Barrier = barrier
        ) -> None:
            barrier.wait()
            for n in range(1000):
                try:
                    services.add_order(
                        power=p0, payload={"type": "research_project", "gal": 2 * n + 2}, actor="t"
                    )
                    acked.append("add")
                    services.submit_sheet(power=p0, actor="t")
                    acked.append("submit")
                except rounds.RoundNotOpen:
                    return

        def resolver(rnd: Round = rnd, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            services.resolve_round(round_id=rnd.pk, force=True, actor="admin")

        threads = [
            threading.Thread(target=in_thread(writer)),
            threading.Thread(target=in_thread(resolver)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        record = RoundRecord.objects.get(round=rnd)
        sheet = OrderSheet.objects.filter(round=rnd, power=p0).first()
        stored = [o.payload for o in sheet.orders.order_by("position")] if sheet else []
        writes_before_claim.append(len(acked))
        assert len(stored) == acked.count("add")  # nothing acknowledged was lost
        if acked and acked[-1] == "submit":
            assert record.orders["p0"] == stored  # the submitted sheet is what was resolved
        else:
            assert "p0" in record.nmr  # an unsubmitted draft is not resolved (documented)
    assert max(writes_before_claim) > 0  # the race really interleaved writes with the claim
