"""Trade-route maps on the web (seed 002): jobs for uploaded sector files or a campaign's own
systems, cached by the hash of their input, run by a Celery task that reports progress."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from powers.models import UWP_DIGITS, Campaign, StarSystem
from trade.models import RouteJob
from trade.routes import (
    PlacedWorld,
    Placement,
    RouteMap,
    RouteSettings,
    World,
    map_routes,
    map_worlds,
    parse_sector,
    to_json,
    to_svg,
)

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class Upload:
    """One uploaded sector file, with the text of its Traveller Map ``.xml`` if given."""

    name: str
    text: str
    xml: str | None = None


def settings_for(variants: list[str]) -> RouteSettings:
    """The mapper's settings from ``k=v`` variants; ``ValueError`` names a bad one."""
    return RouteSettings().with_variants(variants)


def _job(label: str, inputs: dict[str, Any]) -> RouteJob:
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()
    with transaction.atomic():
        job, created = RouteJob.objects.select_for_update().get_or_create(
            input_hash=digest, defaults={"label": label[:300], "inputs": inputs}
        )
        if created or job.status == RouteJob.Status.FAILED:
            job.status, job.progress, job.message = RouteJob.Status.QUEUED, 0, ""
            job.save(update_fields=["status", "progress", "message"])
            transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    from trade.tasks import map_routes_task

    try:
        map_routes_task.delay(job_id)
    except Exception:
        log.exception("could not enqueue trade-route job %s", job_id)
        RouteJob.objects.filter(pk=job_id).update(
            status=RouteJob.Status.FAILED, message="The task queue is unavailable; try again."
        )


def job_for_uploads(uploads: list[Upload], variants: list[str]) -> RouteJob:
    """A job mapping the uploaded sector files together (T-1: placed by their metadata)."""
    settings_for(variants)  # refuse bad variants before anything is stored
    inputs = {
        "files": [{"name": u.name, "text": u.text, "xml": u.xml} for u in uploads],
        "variants": sorted(variants),
    }
    return _job(", ".join(u.name for u in uploads), inputs)


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


def job_for_campaign(campaign: Campaign, variants: list[str]) -> RouteJob:
    """A job mapping the campaign's systems from their world statistics (public facts)."""
    settings_for(variants)
    systems = StarSystem.objects.filter(campaign=campaign).select_related("hex").order_by("key")
    rows = [row for row in (_world_row(s) for s in systems) if row]
    inputs = {"campaign": campaign.pk, "worlds": rows, "variants": sorted(variants)}
    return _job(f"{campaign.name} (campaign)", inputs)


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
    except Exception as exc:
        log.exception("trade-route job %s failed", job_id)
        RouteJob.objects.filter(pk=job_id).update(
            status=RouteJob.Status.FAILED, message=f"{type(exc).__name__}: {exc}"[:2000]
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
        },
        result_json=to_json(result),
        result_svg=to_svg(result, title=job.label),
    )
