"""Round lifecycle services: order sheets, submission, resolution exactly once, rollback.

Locking: every write to a round's orders locks the round row (``select_for_update``) and
re-checks that it is open, and the resolution claim takes the same lock, so an order either
lands before the claim (and is resolved) or is refused with ``RoundNotOpen`` (409).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from economy import notifications
from economy.engine.codec import dump_state, parse_state
from economy.engine.resolve import resolve, round_rng
from economy.engine.validate import Catalog, check_order
from economy.models import (
    AuditEvent,
    LedgerLine,
    Order,
    OrderSheet,
    Round,
    RoundRecord,
    RoundStatus,
    SheetStatus,
)
from economy.snapshot import export_state, load_state, save_state, write_state
from powers.models import Campaign, Power
from trade.models import RateHistory

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3


class RoundNotOpen(Exception):
    """The round no longer takes orders (resolution has started or it is over): HTTP 409."""


class OrderNotFound(Exception):
    """No order at that position on the sheet: HTTP 404."""


class OrderInvalid(Exception):
    """A strict entry (the API) refused an order; nothing was written: HTTP 400."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


def audit(
    *,
    campaign_id: int,
    action: str,
    round_number: int | None = None,
    actor: str = "",
    **detail: Any,
) -> None:
    AuditEvent.objects.create(
        campaign_id=campaign_id,
        round_number=round_number,
        actor=actor,
        action=action,
        detail=detail,
    )


def audit_power(power: Power, rnd: Round, actor: str, action: str, **detail: Any) -> None:
    """An audit row for something a power's player did in an open round."""
    audit(
        campaign_id=power.campaign_id,
        round_number=rnd.number,
        actor=actor,
        action=action,
        power=power.key,
        **detail,
    )


# --- order sheets -------------------------------------------------------------------------


def lock_open_round(campaign_id: int) -> Round:
    """The campaign's open round, locked; ``RoundNotOpen`` if there is none."""
    rnd = (
        Round.objects.select_for_update()
        .filter(campaign_id=campaign_id, status=RoundStatus.OPEN)
        .first()
    )
    if rnd is None:
        raise RoundNotOpen("The round is being resolved; it takes no more orders, trades or votes.")
    return rnd


def _sheet(rnd: Round, power: Power) -> OrderSheet:
    sheet, _ = OrderSheet.objects.get_or_create(round=rnd, power=power)
    return sheet


def entry_errors(*, power: Power, payload: Any, catalog: Catalog | None = None) -> list[str]:
    """The engine's own entry validation of one order (contracts §1 order table)."""
    if catalog is None:
        catalog = Catalog.of(load_state(power.campaign))
    return check_order(catalog, power.key, payload)


@transaction.atomic
def add_order(*, power: Power, payload: dict[str, Any], actor: str, strict: bool = False) -> Order:
    """Append an order to the power's sheet. An invalid order is kept, marked with its error,
    so positions never shift, and resolution lists it as rejected; with ``strict`` (the API) it
    is refused with ``OrderInvalid`` instead and nothing is written."""
    rnd = lock_open_round(power.campaign_id)
    errors = entry_errors(power=power, payload=payload)
    if strict and errors:
        raise OrderInvalid(errors)
    sheet = _sheet(rnd, power)
    position = sheet.orders.count()
    order = Order.objects.create(
        sheet=sheet, position=position, payload=payload, error="; ".join(errors)
    )
    _touch(sheet)
    audit_power(power, rnd, actor, "order_added", position=position)
    return order


@transaction.atomic
def update_order(
    *, power: Power, position: int, payload: dict[str, Any], actor: str, strict: bool = False
) -> Order:
    rnd = lock_open_round(power.campaign_id)
    order = Order.objects.filter(sheet__round=rnd, sheet__power=power, position=position).first()
    if order is None:
        raise OrderNotFound(f"No order at position {position}.")
    errors = entry_errors(power=power, payload=payload)
    if strict and errors:
        raise OrderInvalid(errors)
    order.payload = payload
    order.error = "; ".join(errors)
    order.save(update_fields=["payload", "error"])
    _touch(order.sheet)
    audit_power(power, rnd, actor, "order_updated", position=position)
    return order


@transaction.atomic
def remove_order(*, power: Power, position: int, actor: str) -> None:
    """Remove an order; the ones after it move up one place."""
    rnd = lock_open_round(power.campaign_id)
    sheet = _sheet(rnd, power)
    deleted, _ = sheet.orders.filter(position=position).delete()
    if not deleted:
        raise OrderNotFound(f"No order at position {position}.")
    _renumber(sheet, [o for o in sheet.orders.order_by("position")])
    _touch(sheet)
    audit_power(power, rnd, actor, "order_removed", position=position)


@transaction.atomic
def move_order(*, power: Power, position: int, to: int, actor: str) -> None:
    """Move the order at ``position`` to ``to`` (orders of one power apply in listed order)."""
    rnd = lock_open_round(power.campaign_id)
    sheet = _sheet(rnd, power)
    orders = list(sheet.orders.order_by("position"))
    if not 0 <= position < len(orders):
        raise OrderNotFound(f"No order at position {position}.")
    moving = orders.pop(position)
    orders.insert(max(0, min(to, len(orders))), moving)
    _renumber(sheet, orders)
    _touch(sheet)
    audit_power(power, rnd, actor, "order_moved", position=position, to=to)


def _renumber(sheet: OrderSheet, orders: list[Order]) -> None:
    # Two passes keep the (sheet, position) unique constraint satisfied throughout.
    offset = len(orders) + 1000
    for i, order in enumerate(orders):
        order.position = offset + i
    Order.objects.bulk_update(orders, ["position"])
    for i, order in enumerate(orders):
        order.position = i
    Order.objects.bulk_update(orders, ["position"])


def _touch(sheet: OrderSheet) -> None:
    """Editing a submitted sheet takes it back to draft: the player submits what they see."""
    sheet.status = SheetStatus.DRAFT
    sheet.submitted_at = None
    sheet.save(update_fields=["status", "submitted_at", "updated_at"])


def set_declaration(*, power: Power, payload: dict[str, Any], actor: str) -> Order:
    """Keep one declare_group order per group on the sheet (R-2): update it, or add it."""
    with transaction.atomic():
        rnd = lock_open_round(power.campaign_id)
        existing = next(
            (
                o
                for o in Order.objects.filter(sheet__round=rnd, sheet__power=power)
                if o.payload.get("type") == "declare_group"
                and o.payload.get("group") == payload.get("group")
            ),
            None,
        )
        if existing is not None:
            return update_order(
                power=power, position=existing.position, payload=payload, actor=actor
            )
        return add_order(power=power, payload=payload, actor=actor)


@transaction.atomic
def submit_sheet(*, power: Power, actor: str) -> OrderSheet:
    """Mark the sheet ready. When it is the last one, resolution is enqueued after commit."""
    rnd = lock_open_round(power.campaign_id)
    sheet = _sheet(rnd, power)
    sheet.status = SheetStatus.SUBMITTED
    sheet.submitted_at = timezone.now()
    sheet.save(update_fields=["status", "submitted_at", "updated_at"])
    audit_power(power, rnd, actor, "sheet_submitted")
    waiting = _powers_not_submitted(rnd)
    if not waiting:
        if not rnd.paused:
            enqueue_resolution(rnd.pk)
    elif len(waiting) == 1:
        transaction.on_commit(lambda: notifications.last_to_submit(rnd.pk, waiting[0]))
    return sheet


@transaction.atomic
def withdraw_sheet(*, power: Power, actor: str) -> OrderSheet:
    """Take the submission back; possible until resolution starts."""
    rnd = lock_open_round(power.campaign_id)
    sheet = _sheet(rnd, power)
    sheet.status = SheetStatus.DRAFT
    sheet.submitted_at = None
    sheet.save(update_fields=["status", "submitted_at", "updated_at"])
    audit_power(power, rnd, actor, "sheet_withdrawn")
    return sheet


def _powers_not_submitted(rnd: Round) -> list[int]:
    submitted = OrderSheet.objects.filter(round=rnd, status=SheetStatus.SUBMITTED).values("power")
    return list(
        Power.objects.filter(campaign_id=rnd.campaign_id)
        .exclude(pk__in=submitted)
        .values_list("pk", flat=True)
    )


def enqueue_resolution(round_id: int) -> None:
    """Enqueue the resolve task once this transaction commits. A broker failure is logged,
    not raised: the sweep resolves the round anyway (reliability F4)."""
    from economy.tasks import resolve_round_task

    def send() -> None:
        try:
            resolve_round_task.delay(round_id)
        except Exception:
            log.exception("could not enqueue resolution of round %s; the sweep will", round_id)

    transaction.on_commit(send)


# --- resolution ---------------------------------------------------------------------------


def _is_due(rnd: Round, now: Any) -> bool:
    return bool(rnd.deadline and rnd.deadline <= now) or not _powers_not_submitted(rnd)


def claim_round(*, round_id: int, force: bool = False, actor: str = "") -> bool:
    """Short transaction: lock, re-check, open -> resolving, attempts + 1. False if another
    delivery or the sweep got there first, or the round is not due (or paused)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().filter(pk=round_id).first()
        if rnd is None or rnd.status != RoundStatus.OPEN:
            return False
        if not force and (rnd.paused or not _is_due(rnd, timezone.now())):
            return False
        rnd.status = RoundStatus.RESOLVING
        rnd.attempts += 1
        rnd.started_at = timezone.now()
        rnd.save(update_fields=["status", "attempts", "started_at"])
        audit(
            campaign_id=rnd.campaign_id,
            round_number=rnd.number,
            actor=actor,
            action="resolution_started",
            attempt=rnd.attempts,
            forced=force,
        )
    return True


@dataclass(frozen=True)
class RoundInputs:
    orders: dict[str, list[Any]]
    nmr: list[str]


def round_inputs(rnd: Round) -> RoundInputs:
    """Each submitted power's orders in position order; the rest resolve with none (NMR)."""
    orders: dict[str, list[Any]] = {}
    for sheet in (
        OrderSheet.objects.filter(round=rnd, status=SheetStatus.SUBMITTED)
        .select_related("power")
        .prefetch_related("orders")
    ):
        orders[sheet.power.key] = [o.payload for o in sheet.orders.all()]
    keys = Power.objects.filter(campaign_id=rnd.campaign_id).values_list("key", flat=True)
    return RoundInputs(orders=orders, nmr=sorted(k for k in keys if k not in orders))


def flatten(orders: dict[str, list[Any]]) -> list[tuple[str, int, Any]]:
    return [(power, i, o) for power in sorted(orders) for i, o in enumerate(orders[power])]


def resolve_round(*, round_id: int, force: bool = False, actor: str = "") -> bool:
    """Resolve the round exactly once: claim it, then load, resolve and save everything in one
    transaction. On an error the round goes back to open (or to failed after three attempts)."""
    if not claim_round(round_id=round_id, force=force, actor=actor):
        return False
    try:
        with transaction.atomic():
            _resolve_claimed(round_id)
    except Exception as exc:
        _release_failed(round_id, exc)
        return False
    return True


def _resolve_claimed(round_id: int) -> None:
    rnd = Round.objects.select_for_update().select_related("campaign").get(pk=round_id)
    campaign = Campaign.objects.select_for_update().get(pk=rnd.campaign_id)
    state = load_state(campaign)
    start = dump_state(state)  # the round record keeps the contract's JSON (replay, reports)
    inputs = round_inputs(rnd)
    result = resolve(state, flatten(inputs.orders), round_rng(state.seed, state.round))
    _test_pause()
    save_state(campaign, result.state)
    power_ids = dict(Power.objects.filter(campaign=campaign).values_list("key", "pk"))
    insert_ledger(
        (
            (
                campaign.pk,
                rnd.number,
                i,
                power_ids[line.power],
                line.step,
                line.where,
                line.resource,
                line.amount,
                line.reason[:300],
                line.rule,
            )
            for i, line in enumerate(result.ledger)
        )
    )
    RoundRecord.objects.create(
        round=rnd,
        state=start,
        orders=inputs.orders,
        seed=state.seed,
        nmr=inputs.nmr,
        rejected=[r.as_json() for r in result.rejected],
        events=[e.as_json() for e in result.events],
    )
    from trade.services import record_round  # trade's services import this module

    record_round(campaign_id=campaign.pk, round_number=rnd.number, start=start, result=result)
    now = timezone.now()
    rnd.status = RoundStatus.RESOLVED
    rnd.resolved_at = now
    rnd.last_error = ""
    rnd.save(update_fields=["status", "resolved_at", "last_error"])
    nxt = Round.objects.create(
        campaign=campaign,
        number=result.state.round,
        status=RoundStatus.OPEN,
        deadline=now + timedelta(hours=campaign.round_length_hours),
    )
    audit(
        campaign_id=campaign.pk,
        round_number=rnd.number,
        action="resolution_finished",
        ledger_lines=len(result.ledger),
        rejected=len(result.rejected),
        nmr=inputs.nmr,
    )
    transaction.on_commit(lambda: notifications.round_resolved(rnd.pk, nxt.pk))


LEDGER_COLUMNS = (
    "campaign_id",
    "round_number",
    "seq",
    "power_id",
    "step",
    "where",
    "resource",
    "amount",
    "reason",
    "rule",
)


def insert_ledger(rows: Iterable[tuple[Any, ...]]) -> None:
    """Write ledger lines (R-0.4): PostgreSQL's COPY, a round's tens of thousands of lines in
    one statement; elsewhere a bulk insert."""
    if connection.vendor != "postgresql":
        LedgerLine.objects.bulk_create(
            (LedgerLine(**dict(zip(LEDGER_COLUMNS, row, strict=True))) for row in rows),
            batch_size=2000,
        )
        return
    cols = ", ".join(connection.ops.quote_name(c) for c in LEDGER_COLUMNS)
    with (
        connection.cursor() as cur,
        cur.cursor.copy(f"COPY {LedgerLine._meta.db_table} ({cols}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)


def _test_pause() -> None:
    """Test seam for crash tests (reliability F1): sleep mid-resolution, before any write."""
    seconds = float(os.environ.get("FTCAMP_TEST_RESOLVE_PAUSE", "0") or 0)
    if seconds:
        time.sleep(seconds)


def _release_failed(round_id: int, exc: BaseException) -> None:
    log.exception("resolution of round %s failed", round_id)
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round_id)
        if rnd.status != RoundStatus.RESOLVING:
            return
        rnd.status = RoundStatus.FAILED if rnd.attempts >= MAX_ATTEMPTS else RoundStatus.OPEN
        rnd.last_error = f"{type(exc).__name__}: {exc}"[:4000]
        rnd.save(update_fields=["status", "last_error"])
        audit(
            campaign_id=rnd.campaign_id,
            round_number=rnd.number,
            action="resolution_failed",
            attempt=rnd.attempts,
            error=rnd.last_error,
            final=rnd.status == RoundStatus.FAILED,
        )


def sweep(*, now: Any = None) -> list[int]:
    """The backstop (run by beat every minute): return stalled claims to open, and enqueue every
    open round that is due. Returns the ids enqueued."""
    now = now or timezone.now()
    stall = timedelta(seconds=settings.FTCAMP_STALL_SECONDS)
    with transaction.atomic():
        for rnd in Round.objects.select_for_update(skip_locked=True).filter(
            status=RoundStatus.RESOLVING, started_at__lt=now - stall
        ):
            rnd.status = RoundStatus.FAILED if rnd.attempts >= MAX_ATTEMPTS else RoundStatus.OPEN
            rnd.last_error = rnd.last_error or "resolution stalled (worker lost?)"
            rnd.save(update_fields=["status", "last_error"])
            audit(
                campaign_id=rnd.campaign_id,
                round_number=rnd.number,
                action="resolution_stalled",
                attempt=rnd.attempts,
            )
            log.error("round %s stalled in resolving; returned to %s", rnd.pk, rnd.status)
    open_rounds = Round.objects.filter(status=RoundStatus.OPEN, paused=False).annotate(
        n_powers=Count("campaign__powers", distinct=True),
        n_submitted=Count("sheets", filter=Q(sheets__status=SheetStatus.SUBMITTED), distinct=True),
    )
    due = [
        r.pk
        for r in open_rounds
        if (r.deadline and r.deadline <= now) or r.n_submitted >= r.n_powers
    ]
    for round_id in due:
        enqueue_resolution(round_id)
    _overdue_canary(now)
    return due


def _overdue_canary(now: Any) -> None:
    """Reliability F8: one error per sweep for each round still unresolved well past its
    deadline (paused rounds excepted), so a stuck campaign is noticed."""
    grace = timedelta(seconds=settings.FTCAMP_OVERDUE_GRACE_SECONDS)
    for rnd in Round.objects.filter(
        status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING],
        paused=False,
        deadline__lt=now - grace,
    ).select_related("campaign"):
        log.error(
            "round %s of %s is overdue by %s and still %s",
            rnd.number,
            rnd.campaign,
            now - rnd.deadline,
            rnd.status,
        )


def replay(*, campaign: Campaign, number: int) -> list[str]:
    """Re-run a resolved round from its stored inputs (state, orders, seed; R-0.3) and compare
    with what was saved: the differences, as ``path: stored X, replayed Y`` (none means equal)."""
    record = RoundRecord.objects.filter(round__campaign=campaign, round__number=number).first()
    if record is None:
        raise ValueError(f"Round {number} has not been resolved.")
    state = parse_state(record.state)
    result = resolve(state, flatten(record.orders), round_rng(record.seed, state.round))
    nxt = RoundRecord.objects.filter(round__campaign=campaign, round__number=number + 1).first()
    stored = nxt.state if nxt else export_state(Campaign.objects.get(pk=campaign.pk))
    replayed = dump_state(result.state)
    diffs = _differences(_replayable(stored), _replayable(replayed), "state")
    lines = list(
        LedgerLine.objects.filter(campaign=campaign, round_number=number)
        .order_by("seq")
        .values_list("power__key", "step", "where", "resource", "amount", "rule")
    )
    again = [(x.power, x.step, x.where, x.resource, x.amount, x.rule) for x in result.ledger]
    if lines != again:
        diffs.append(f"ledger: stored {len(lines)} lines, replayed {len(again)} differ")
    return diffs


def _replayable(state: dict[str, Any]) -> dict[str, Any]:
    """The state as resolution leaves it: agreements and motions are also changed by players
    between rounds (accepted, put to the committee, hubs named), so they are not compared."""
    out = dump_state(parse_state(state))
    out.pop("agreements", None)
    out.pop("un", None)
    return out


def _differences(a: Any, b: Any, path: str) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            out += _differences(a.get(key), b.get(key), f"{path}.{key}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if all(isinstance(x, dict) and "id" in x for x in a + b):
            return _differences({x["id"]: x for x in a}, {x["id"]: x for x in b}, path)
        return [] if sorted(map(repr, a)) == sorted(map(repr, b)) else [f"{path}: {a} != {b}"]
    return [] if a == b else [f"{path}: stored {a!r}, replayed {b!r}"]


# --- admin controls -----------------------------------------------------------------------


@transaction.atomic
def set_paused(*, round_id: int, paused: bool, actor: str) -> None:
    rnd = Round.objects.select_for_update().get(pk=round_id)
    rnd.paused = paused
    rnd.save(update_fields=["paused"])
    audit(
        campaign_id=rnd.campaign_id,
        round_number=rnd.number,
        actor=actor,
        action="paused" if paused else "unpaused",
    )


@transaction.atomic
def extend_deadline(*, round_id: int, hours: int, actor: str) -> None:
    rnd = Round.objects.select_for_update().get(pk=round_id)
    base = max(rnd.deadline or timezone.now(), timezone.now())
    rnd.deadline = base + timedelta(hours=hours)
    rnd.save(update_fields=["deadline"])
    audit(
        campaign_id=rnd.campaign_id,
        round_number=rnd.number,
        actor=actor,
        action="deadline_extended",
        hours=hours,
        deadline=rnd.deadline.isoformat(),
    )


@transaction.atomic
def rollback_to(*, campaign: Campaign, number: int, actor: str) -> None:
    """Put the campaign back at the start of round ``number``: its stored starting state, its
    sheets back to draft, later rounds and their ledger gone."""
    rounds = Round.objects.select_for_update().filter(campaign=campaign)
    target = rounds.filter(number=number).first()
    record = RoundRecord.objects.filter(round=target).first() if target else None
    if target is None or record is None:
        raise ValueError(f"Round {number} has not been resolved; nothing to roll back to.")
    state = record.state
    rounds.filter(number__gt=number).delete()
    LedgerLine.objects.filter(campaign=campaign, round_number__gte=number).delete()
    RateHistory.objects.filter(campaign=campaign, round_number__gte=number).delete()
    RoundRecord.objects.filter(round=target).delete()
    write_state(campaign, state)
    OrderSheet.objects.filter(round=target).update(status=SheetStatus.DRAFT, submitted_at=None)
    target.status = RoundStatus.OPEN
    target.attempts = 0
    target.last_error = ""
    target.started_at = None
    target.resolved_at = None
    target.deadline = timezone.now() + timedelta(hours=campaign.round_length_hours)
    target.save()
    audit(campaign_id=campaign.pk, round_number=number, actor=actor, action="rolled_back")
