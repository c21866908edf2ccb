"""Trade-route maps on the web (seed 002): jobs for uploaded sector files or a campaign's own
systems, cached by the hash of their input, run by a Celery task that reports progress."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, fields
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from ftcamp.celery import app as celery_app
from powers.models import UWP_DIGITS, Campaign, StarSystem
from trade.models import RouteJob
from trade.routes import (
    PlacedWorld,
    Placement,
    RouteMap,
    RouteSettings,
    SectorFormatError,
    World,
    map_routes,
    map_worlds,
    parse_sector,
    to_json,
    to_svg,
)
from trade.routes.svg import legend_polities

log = logging.getLogger(__name__)

MAP_TASK = "trade.map_routes"  # trade/tasks.py

MAX_FILE_BYTES = 5 * 1024 * 1024
# New jobs a user may start in an hour (uploads and campaign maps; cached results are free).
JOBS_PER_HOUR = 20
# Variants that change only speed or memory, never a map: not offered on the web, so they
# cannot be used to start the same job again and again.
NOT_ON_THE_WEB = ("chunk", "workers")


class RateLimited(Exception):
    """The user started :data:`JOBS_PER_HOUR` jobs in the last hour."""


@dataclass(frozen=True)
class Upload:
    """One uploaded sector file, with the text of its Traveller Map ``.xml`` if given."""

    name: str
    text: str
    xml: str | None = None


def settings_for(variants: list[str]) -> RouteSettings:
    """The mapper's settings from ``k=v`` variants; ``ValueError`` names a bad one."""
    return RouteSettings().with_variants(variants)


def canonical_variants(variants: list[str]) -> list[str]:
    """Web variants as one canonical list (only the settings that differ from the defaults,
    sorted), so equal settings find the same cached map; ``ValueError`` says what is wrong."""
    for item in variants:
        if item.partition("=")[0].strip() in NOT_ON_THE_WEB:
            raise ValueError(f"{item.partition('=')[0].strip()} is not a map setting")
    chosen, default = settings_for(variants), RouteSettings()
    return sorted(
        f"{f.name}={str(getattr(chosen, f.name)).lower()}"
        for f in fields(chosen)
        if getattr(chosen, f.name) != getattr(default, f.name)
    )


def _digest(inputs: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def _check_rate(user: User) -> None:
    since = timezone.now() - timedelta(hours=1)
    if RouteJob.objects.filter(owner=user, created_at__gte=since).count() >= JOBS_PER_HOUR:
        raise RateLimited(
            f"You started {JOBS_PER_HOUR} maps in the last hour; try again later "
            "(maps drawn before are still here)."
        )


def _job(label: str, inputs: dict[str, Any], *, owner: User, private: bool) -> RouteJob:
    """The job for ``inputs``: the cached one, or a new one queued for ``owner`` (rate-limited;
    a failed one is queued again)."""
    digest = _digest(inputs)
    with transaction.atomic():
        job = RouteJob.objects.select_for_update().filter(input_hash=digest).first()
        if job is None:
            _check_rate(owner)
            job = RouteJob.objects.create(
                input_hash=digest, label=label[:300], inputs=inputs, owner=owner, private=private
            )
            transaction.on_commit(lambda: _enqueue(job.pk))
        elif job.status == RouteJob.Status.FAILED:
            job.status, job.progress, job.message = RouteJob.Status.QUEUED, 0, ""
            job.save(update_fields=["status", "progress", "message"])
            transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    try:
        # by name: the tasks module calls this one, so it never imports the tasks
        celery_app.tasks[MAP_TASK].delay(job_id)
    except Exception:
        log.exception("could not enqueue trade-route job %s", job_id)
        RouteJob.objects.filter(pk=job_id).update(
            status=RouteJob.Status.FAILED, message="The task queue is unavailable; try again."
        )


def job_for_uploads(uploads: list[Upload], variants: list[str], *, owner: User) -> RouteJob:
    """A private job of ``owner`` mapping the uploaded files together (T-1: placed by their
    metadata). The owner is part of the input, so nobody else ever finds it."""
    inputs = {
        "files": [{"name": u.name, "text": u.text, "xml": u.xml} for u in uploads],
        "variants": canonical_variants(variants),
        "owner": owner.pk,
    }
    return _job(", ".join(u.name for u in uploads), inputs, owner=owner, private=True)


def _world_row(s: StarSystem) -> dict[str, Any] | None:
    digits = {f: getattr(s, f) for f in (*UWP_DIGITS, "tech_level")}
    if not s.starport or any(d is None for d in digits.values()):
        return None  # no statistics: nothing to trade on
    return {
        "hex": s.hex.code,
        "name": s.name,
        "uwp": s.uwp,
        "starport": s.starport,
        **digits,
        "bases": s.bases,
        "remarks": s.trade_codes,
        "zone": s.zone,
        "pbg": s.pbg,
        "allegiance": s.allegiance,
    }


def campaign_inputs(campaign: Campaign, variants: list[str]) -> dict[str, Any]:
    """What a campaign map is drawn from: its systems' world statistics (public facts)."""
    systems = StarSystem.objects.filter(campaign=campaign).select_related("hex").order_by("key")
    rows = [row for row in (_world_row(s) for s in systems) if row]
    return {"campaign": campaign.pk, "worlds": rows, "variants": canonical_variants(variants)}


def job_for_campaign(
    campaign: Campaign, variants: list[str], *, user: User | AnonymousUser
) -> RouteJob | None:
    """The campaign's map for these variants: the cached job, else (for a logged-in user only,
    rate-limited) a new one; an anonymous visitor gets ``None`` when nothing is cached."""
    inputs = campaign_inputs(campaign, variants)
    if not user.is_authenticated:
        return RouteJob.objects.filter(input_hash=_digest(inputs)).first()
    return _job(f"{campaign.name} (campaign)", inputs, owner=user, private=False)


def _world(sector: str, row: dict[str, Any]) -> World:
    return World(
        sector=sector,
        hex=row["hex"],
        name=row["name"],
        uwp=row["uwp"],
        starport=row["starport"],
        **{f: row[f] for f in (*UWP_DIGITS, "tech_level")},
        bases=row["bases"],
        remarks=tuple(row["remarks"].split()),
        zone=row["zone"],
        pbg=row["pbg"],
        allegiance=row["allegiance"],
    )


def _map(job: RouteJob, progress: Any) -> RouteMap:
    inputs = job.inputs
    settings = settings_for(inputs.get("variants", []))
    if "campaign" in inputs:
        sector = job.label.removesuffix(" (campaign)")
        worlds = tuple(
            PlacedWorld(_world(sector, row), int(row["hex"][:2]), int(row["hex"][2:]))
            for row in inputs["worlds"]
        )
        return map_worlds(Placement(worlds=worlds), settings, progress=progress)
    files = [
        parse_sector(f["text"], path=f["name"], metadata_xml=f.get("xml")) for f in inputs["files"]
    ]
    return map_routes(files, settings, progress=progress)


def run_job(*, job_id: int) -> None:
    """Map the job's input (Celery task body): progress as it goes, the result at the end."""
    job = RouteJob.objects.filter(pk=job_id).first()
    if job is None or job.status == RouteJob.Status.DONE:
        return
    RouteJob.objects.filter(pk=job_id).update(status=RouteJob.Status.RUNNING, progress=0)
    last = [0]

    def progress(done: int, total: int) -> None:
        pct = min(99, done * 100 // max(total, 1))
        if pct >= last[0] + 5:  # a row update every 5%, not every source
            last[0] = pct
            RouteJob.objects.filter(pk=job_id).update(progress=pct)

    try:
        result = _map(job, progress)
    except SectorFormatError as exc:  # the input's fault: say what is wrong with it
        RouteJob.objects.filter(pk=job_id).update(
            status=RouteJob.Status.FAILED, message=f"The sector files could not be read: {exc}"
        )
        return
    except Exception:
        log.exception("trade-route job %s failed", job_id)
        RouteJob.objects.filter(pk=job_id).update(
            status=RouteJob.Status.FAILED,
            message="The map could not be drawn because of an error on our side; try again.",
        )
        return
    skipped = [f"{s.path}:{s.line_no}: {s.reason}" for s in (*result.anomalies, *result.malformed)]
    RouteJob.objects.filter(pk=job_id).update(
        status=RouteJob.Status.DONE,
        progress=100,
        finished_at=timezone.now(),
        summary={
            "worlds": len(result.worlds),
            "pairs": len(result.pairs),
            "legs": result.legs_by_class(),
            "skipped": skipped[:200],
            "skipped_count": len(skipped),
            "polities": legend_polities(result),
        },
        result_json=to_json(result),
        result_svg=to_svg(result, title=job.label),
    )
