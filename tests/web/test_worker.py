"""A real Celery worker (prefork, subprocess) on real Redis resolves the round the last
submission enqueues; killing its child mid-resolution saves nothing, and the retry resolves it
(issue 4; reliability F1)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from economy import services
from economy.models import AuditEvent, LedgerLine, Round, RoundRecord
from tests.helpers import children, wait_for
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db(transaction=True)


def test_last_submission_is_resolved_by_a_real_worker(worker) -> None:  # type: ignore[no-untyped-def]
    worker()
    world = make_campaign(n_powers=3)
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    wait_for(lambda: Round.objects.get(pk=rnd.pk).status == "resolved", 30, "the worker to resolve")
    assert Round.objects.get(campaign=world.campaign, status="open").number == 2
    assert AuditEvent.objects.filter(action="resolution_finished").count() == 1


def test_f1_worker_child_killed_mid_resolution(worker, settings) -> None:  # type: ignore[no-untyped-def]
    settings.FTCAMP_STALL_SECONDS = 2
    proc = worker(FTCAMP_TEST_RESOLVE_PAUSE="4")
    world = make_campaign(n_powers=2)
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    wait_for(lambda: Round.objects.get(pk=rnd.pk).status == "resolving", 30, "the claim")
    for child in children(proc.pid):
        os.kill(child, signal.SIGKILL)
    time.sleep(1.5)
    # nothing of the round was saved
    rnd.refresh_from_db()
    assert rnd.status == "resolving" and rnd.attempts == 1
    assert not RoundRecord.objects.exists() and not LedgerLine.objects.exists()
    assert Round.objects.filter(campaign=world.campaign).count() == 1
    # the sweep returns the stalled claim and enqueues it; the worker's new child resolves it
    wait_for(lambda: bool(services.sweep()), 15, "the sweep to recover the round")
    wait_for(lambda: Round.objects.get(pk=rnd.pk).status == "resolved", 30, "the retry")
    rnd.refresh_from_db()
    assert rnd.attempts == 2
    assert AuditEvent.objects.filter(action="resolution_finished").count() == 1
    assert RoundRecord.objects.count() == 1
