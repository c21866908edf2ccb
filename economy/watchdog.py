"""The web side's watchdog over the Celery worker (issue 32): the sweep and the overdue canary
are tasks themselves, so a dead worker stalls rounds silently; the pages notice instead.

A round is *stuck* when it has been ``resolving`` for longer than ``FTCAMP_WATCHDOG_SECONDS``
(the claim's ``started_at``), or is open, not paused, and that long past its deadline — read
from the round row alone, no query. Only then are the workers asked which queues they take
(Celery's ``inspect active_queues``, at most ``FTCAMP_WATCHDOG_PING_SECONDS``), and the answer
is cached for ``FTCAMP_WATCHDOG_CACHE_SECONDS`` in the process's cache, so a page pays a cache
read and, once a period while a round is stuck, one question. A stuck round with no worker
answering is *overdue*: players and the organiser read "Resolution is overdue" where they read
what the round waits for (``notices.selectors``), and an error is logged once a period per
round. Not a task: it runs in the web process, which is what is still alive when the worker
is not. With tasks run in-process (no broker, ``make run``) there is no worker to lose."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from economy.models import Round, RoundStatus
from ftcamp.celery import app

log = logging.getLogger(__name__)

WORKERS_KEY = "ftcamp:watchdog:workers"
OVERDUE = (
    "Resolution is overdue: no worker is answering, so the round is not being resolved. The "
    "organiser has been told; nothing is lost, and it resolves once a worker is back."
)


def stuck(rnd: Round, now: datetime | None = None) -> bool:
    """The round should have been resolved by now (from its row alone)."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.FTCAMP_WATCHDOG_SECONDS)
    if rnd.status == RoundStatus.RESOLVING:
        return bool(rnd.started_at and rnd.started_at < limit)
    if rnd.status == RoundStatus.OPEN and not rnd.paused:
        return bool(rnd.deadline and rnd.deadline < limit)
    return False


def workers_answer() -> bool:
    """A Celery worker that takes this site's queue answers (cached for
    ``FTCAMP_WATCHDOG_CACHE_SECONDS``): a worker on the same broker serving another queue
    cannot resolve our rounds, so a bare ping would be fooled by it. True with tasks run
    in-process."""
    if app.conf.task_always_eager:
        return True
    alive = cache.get(WORKERS_KEY)
    if alive is None:
        ours = settings.CELERY_TASK_DEFAULT_QUEUE
        try:
            answers = app.control.inspect(
                timeout=settings.FTCAMP_WATCHDOG_PING_SECONDS
            ).active_queues()
            alive = any(
                q.get("name") == ours for queues in (answers or {}).values() for q in queues
            )
        except Exception:  # the broker itself is down: no worker can be reached either
            log.exception("the watchdog could not reach the broker")
            alive = False
        cache.set(WORKERS_KEY, alive, settings.FTCAMP_WATCHDOG_CACHE_SECONDS)
    return bool(alive)


def overdue(rnd: Round | None, now: datetime | None = None) -> bool:
    """The round is stuck and no worker answers: say so (``OVERDUE``), and log an error (once
    a cache period per round)."""
    if rnd is None or not stuck(rnd, now) or workers_answer():
        return False
    if cache.add(f"ftcamp:watchdog:logged:{rnd.pk}", True, settings.FTCAMP_WATCHDOG_CACHE_SECONDS):
        log.error(
            "round %s of campaign %s: resolution is overdue (%s since %s) and no Celery worker "
            "answers",
            rnd.number,
            rnd.campaign_id,
            rnd.status,
            rnd.started_at if rnd.status == RoundStatus.RESOLVING else rnd.deadline,
        )
    return True
