"""Reliability checks that need no worker: a lost enqueue (F4), a poison pill among healthy
campaigns (F6), the overdue canary (F8), one beat (F9), the append-only audit trail (O1) and the
deadline policy (R6)."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from economy import rounds, services
from economy.models import AuditEvent, OrderSheet, Round
from economy.tasks import resolve_round_task
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_f4_a_lost_enqueue_is_logged_not_a_5xx(
    client: Client, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks, caplog
) -> None:  # type: ignore[no-untyped-def]
    world = make_campaign()
    services.submit_sheet(power=world.powers[1], actor="t")

    def broker_down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("redis is down")

    monkeypatch.setattr(resolve_round_task, "delay", broker_down)
    client.force_login(world.users[0])
    with django_capture_on_commit_callbacks(execute=True), caplog.at_level(logging.ERROR):
        response = client.post(reverse("sheet-submit", args=[world.campaign.pk, "p0"]))
    assert response.status_code == 302
    assert OrderSheet.objects.filter(status="submitted").count() == 2
    assert "the sweep will" in caplog.text
    # the backstop finds the due round once the broker is back
    monkeypatch.undo()
    assert services.sweep() == [Round.objects.get(status="open").pk]


def test_f6_a_poison_pill_fails_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    bad, *good = (make_campaign(f"c{i}") for i in range(4))
    real_write = services.save_state

    def write(campaign, state):  # type: ignore[no-untyped-def]
        if campaign.pk == bad.campaign.pk:
            raise RuntimeError("poison")
        return real_write(campaign, state)

    monkeypatch.setattr(services, "save_state", write)
    for world in (bad, *good):
        for power in world.powers:
            services.submit_sheet(power=power, actor="t")
    for _ in range(5):  # five sweeps' worth of deliveries
        for rnd in Round.objects.filter(status="open", number=1):
            services.resolve_round(round_id=rnd.pk)
    statuses = {r.campaign.name: (r.status, r.attempts) for r in Round.objects.filter(number=1)}
    assert statuses == {
        "c0": ("failed", 3),
        "c1": ("resolved", 1),
        "c2": ("resolved", 1),
        "c3": (
            "resolved",
            1,
        ),
    }
    assert (
        AuditEvent.objects.filter(action="resolution_started", campaign=bad.campaign).count() == 3
    )


def test_f8_overdue_canary(caplog) -> None:  # type: ignore[no-untyped-def]
    world = make_campaign()
    rnd = Round.objects.get(campaign=world.campaign)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=5))
    with caplog.at_level(logging.ERROR):
        services.sweep()
    assert "overdue" not in caplog.text  # within the grace period
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(hours=2))
    with caplog.at_level(logging.ERROR):
        services.sweep()
    assert caplog.text.count("overdue") == 1


def test_f9_exactly_one_beat_in_the_deployment() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    assert compose.count('celery", "-A", "ftcamp", "beat"') == 1
    assert "replicas: 1" in compose


def test_o1_audit_is_append_only() -> None:
    world = make_campaign()
    services.submit_sheet(power=world.powers[0], actor="alice")
    event = AuditEvent.objects.get(action="sheet_submitted")
    assert (event.actor, event.detail) == ("alice", {"power": "p0"})
    event.action = "tampered"
    with pytest.raises(ValueError, match="append-only"):
        event.save()
    with pytest.raises(ValueError, match="append-only"):
        event.delete()


def test_r6_orders_are_accepted_after_the_deadline_until_the_claim() -> None:
    world = make_campaign()
    rnd = Round.objects.get(campaign=world.campaign)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    order = services.add_order(
        power=world.powers[0], payload={"type": "research_project", "gal": 2}, actor="t"
    )
    assert order.position == 0
    assert services.claim_round(round_id=rnd.pk)  # the deadline made it due
    with pytest.raises(rounds.RoundNotOpen):
        services.add_order(
            power=world.powers[0], payload={"type": "research_project", "gal": 2}, actor="t"
        )


def test_f3_task_limits_sit_inside_the_visibility_timeout(settings) -> None:  # type: ignore[no-untyped-def]
    """A task still running is never redelivered by Redis: its hard limit ends it first; acks
    are late and a lost worker's task goes back to the queue (style.md, reliability F1/F3)."""
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > settings.CELERY_TASK_TIME_LIMIT
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert resolve_round_task.acks_late and resolve_round_task.reject_on_worker_lost
