"""A dead worker is noticed (issue 32, item 1). The worker is SIGKILLed in the middle of a
resolution and nothing restarts it: the round stays ``resolving``, and the web side's watchdog
(not a task: the worker is what died) tells the players on their dashboard and the organiser
on the campaign's admin page "Resolution is overdue", and logs an error. While the worker
lives, a long resolution is not called overdue; the worker is asked at most once a period."""

from __future__ import annotations

import logging
import os
import signal
import time
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from economy import services, watchdog
from economy.models import Round
from ftcamp.celery import app
from tests.helpers import StartWorker, wait_for
from tests.web.factories import World, make_campaign

OVERDUE = "Resolution is overdue"


@pytest.fixture
def quick_watchdog(settings: Settings) -> None:
    settings.FTCAMP_WATCHDOG_SECONDS = 1
    settings.FTCAMP_WATCHDOG_CACHE_SECONDS = 1
    cache.clear()


def _pages(world: World) -> tuple[str, str]:
    """The first player's dashboard and the organiser's admin page of the campaign."""
    player = Client()
    player.force_login(world.users[0])
    dashboard = player.get(reverse("dashboard", args=[world.campaign.pk, "p0"]))
    organiser = Client()
    organiser.force_login(
        get_user_model().objects.get_or_create(
            username="org", defaults={"is_staff": True, "is_superuser": True}
        )[0]
    )
    admin = organiser.get(reverse("admin:powers_campaign_change", args=[world.campaign.pk]))
    assert dashboard.status_code == admin.status_code == 200
    return dashboard.text, admin.text


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_resolution_is_overdue_on_the_pages_and_logged(
    worker: StartWorker,
    tmp_path: Path,
    quick_watchdog: None,
    caplog: pytest.LogCaptureFixture,
    settings: Settings,
) -> None:
    # a loaded machine (CI: two workers, browsers, two cores) may take more than the default
    # second to answer; one answer serves each phase (its cache is dropped between them)
    settings.FTCAMP_WATCHDOG_PING_SECONDS = 5
    settings.FTCAMP_WATCHDOG_CACHE_SECONDS = 60
    marker = tmp_path / "paused"
    proc = worker(app="tests.worker_hooks", FTCAMP_PAUSE_FILE=str(marker))
    world = make_campaign(n_powers=2)
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    wait_for(lambda: marker.exists() and marker.read_text() != "", 30, "the paused resolution")
    child = int(marker.read_text())
    rnd = Round.objects.get(campaign=world.campaign, number=1)
    assert rnd.status == "resolving"
    time.sleep(1.5)  # resolving longer than the threshold, with a worker that answers
    for page in _pages(world):
        assert OVERDUE not in page and "Resolving now." in page
    os.kill(proc.pid, signal.SIGKILL)
    wait_for(lambda: not Path(f"/proc/{child}").exists(), 10, "the pool process to go")
    cache.delete(watchdog.WORKERS_KEY)  # the live worker's answer is forgotten
    with caplog.at_level(logging.ERROR, logger="economy.watchdog"):
        dashboard, admin = _pages(world)
    assert OVERDUE in dashboard and OVERDUE in admin
    errors = [r for r in caplog.records if r.name == "economy.watchdog"]
    assert len(errors) == 1 and "no Celery worker answers" in errors[0].getMessage()
    assert Round.objects.get(pk=rnd.pk).status == "resolving"  # nothing restarted it


@pytest.mark.django_db
def test_the_watchdog_asks_the_workers_only_for_a_stuck_round_and_once_a_period(
    quick_watchdog: None, settings: Settings
) -> None:
    settings.FTCAMP_WATCHDOG_CACHE_SECONDS = 60
    world = make_campaign()
    rnd = Round.objects.get(campaign=world.campaign)
    inspect = mock.MagicMock()
    inspect.return_value.active_queues.return_value = None  # nobody answers
    with mock.patch.object(app.control, "inspect", inspect) as ping:
        assert not watchdog.overdue(rnd)  # open, no deadline
        rnd.status, rnd.started_at = "resolving", timezone.now()
        assert not watchdog.overdue(rnd)  # just claimed
        assert ping.return_value.active_queues.call_count == 0
        rnd.started_at = timezone.now() - timedelta(seconds=5)
        assert watchdog.overdue(rnd) and watchdog.overdue(rnd)
        assert ping.return_value.active_queues.call_count == 1
        open_late = Round(status="open", deadline=timezone.now() - timedelta(seconds=5))
        assert watchdog.overdue(open_late)
        open_late.paused = True
        assert not watchdog.overdue(open_late)
    # a worker answering on another queue of the same broker cannot resolve our rounds
    cache.clear()
    elsewhere = {"celery@other": [{"name": "someone-elses-queue"}]}
    inspect.return_value.active_queues.return_value = elsewhere
    with mock.patch.object(app.control, "inspect", inspect):
        assert watchdog.overdue(rnd)
    cache.clear()
    ours = {"celery@x": [{"name": django_settings.CELERY_TASK_DEFAULT_QUEUE}]}
    inspect.return_value.active_queues.return_value = ours
    with mock.patch.object(app.control, "inspect", inspect):
        assert not watchdog.overdue(rnd)


def test_compose_restarts_and_checks_every_service() -> None:
    import yaml

    root = Path(__file__).resolve().parents[2]
    compose = yaml.safe_load((root / "docker-compose.yml").read_text())
    app_defaults = compose["x-app"]
    for name in ("web", "worker", "beat", "postgres", "redis"):
        service = {**app_defaults, **compose["services"][name]}
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"], name
    worker_check = " ".join(compose["services"]["worker"]["healthcheck"]["test"])
    assert "inspect ping" in worker_check


def test_the_healthcheck_module_answers(tmp_path: Path) -> None:
    from ftcamp import healthcheck

    assert healthcheck.main(["nonsense"]) == 2
    with mock.patch("http.client.HTTPConnection.request", side_effect=OSError):
        assert healthcheck.main(["web"]) == 1
