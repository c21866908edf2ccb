"""Round lifecycle services: order sheets, submission, resolution exactly once, rollback.

Locking: every write to a round's orders locks the round row (``select_for_update``) and
re-checks that it is open, and the resolution claim takes the same lock, so an order either
lands before the claim (and is resolved) or is refused with ``RoundNotOpen`` (409).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from economy import entry, notifications, waiting
from economy.engine.codec import dump_state, parse_state
from economy.engine.ledger import Rejection
from economy.engine.resolve import Result, resolve, round_rng
from economy.engine.state import State
from economy.entry import OrderInvalid as OrderInvalid  # raised by the writes below
from economy.models import (
    LedgerLine,
    Order,
    OrderSheet,
    Round,
    RoundRecord,
    RoundStatus,
    SheetStatus,
)
from economy.rounds import audit, audit_power, lock_open_round
from economy.snapshot import export_state, load_state, save_state, write_state
from ftcamp.celery import app as celery_app
from ftcamp.errors import Missing
from notices import announce
from powers.models import (
    BattleRecord,
    Campaign,
    Power,
)
from trade import services as trade_services
from trade.models import RateHistory, TradeHub

log = logging.getLogger(__name__)

RESOLVE_TASK = "economy.resolve_round"  # economy/tasks.py

MAX_ATTEMPTS = 3


class OrderNotFound(Missing):
    """No order at that position on the sheet: HTTP 404."""


# --- order sheets -------------------------------------------------------------------------


def _sheet(rnd: Round, power: Power) -> OrderSheet:
    sheet, _ = OrderSheet.objects.get_or_create(round=rnd, power=power)
    return sheet


def add_order(
    *,
    power: Power,
    payload: Any,
    actor: str,
    strict: bool = False,
    round_number: int | None = None,
    contract: bool = False,
) -> Order:
    """Append an order to the power's sheet. An order that breaks a rule is kept, marked with
    its error, so positions never shift, and resolution lists it as rejected; with ``strict``
    (the API) it is refused with ``OrderInvalid`` instead and nothing is written.
    ``round_number`` is the round the writer saw (``RoundOver`` if it is over). ``contract``:
    the order is in the contract's form already (``manage.py load_case``). The entry check
    runs first, without a lock; the open round row is locked for the write only."""
    prepared = entry.check(power, payload, contract=contract)
    with transaction.atomic():
        rnd = lock_open_round(power.campaign_id, expected=round_number)
        return _append(power, rnd, prepared, actor=actor, strict=strict, cap=not contract)


def _append(
    power: Power, rnd: Round, prepared: entry.Entry, *, actor: str, strict: bool, cap: bool = True
) -> Order:
    sheet_id, position = _touch_counting(rnd, power)
    stored, errors, warnings = entry.admit(
        power, prepared, strict=strict, on_sheet=position if cap else None
    )
    order = Order.objects.create(
        sheet_id=sheet_id,
        position=position,
        payload=stored,
        error="; ".join(errors),
        warning="; ".join(warnings),
    )
    audit_power(power, rnd, actor, "order_added", position=position)
    return order


def _touch_counting(rnd: Round, power: Power) -> tuple[int, int]:
    """The power's sheet of ``rnd`` taken back to draft (``_touch``) and the number of orders
    on it, in one statement (issue 13: a write is a few statements under the round lock); the
    sheet is made when it has none yet. A refusal after this rolls the touch back with the
    rest of the transaction."""
    with connection.cursor() as cur:
        cur.execute(_sql()["touch"], [SheetStatus.DRAFT.value, timezone.now(), rnd.pk, power.pk])
        row = cur.fetchone()
    if row is not None:
        return int(row[0]), int(row[1])
    return OrderSheet.objects.create(round=rnd, power=power).pk, 0


@cache
def _sql() -> dict[str, str]:
    """The two statements of an order write that stay raw SQL (issue 27): each is an UPDATE
    ... RETURNING, which the ORM cannot say; SQLite (3.35 and later) and PostgreSQL both take
    them as written. The ORM's equivalent of the touch (the update, the sheet's id, its orders
    counted) took 1.26 ms of CPU against 0.50 ms for this one statement (2026-12-05, SQLite,
    one process), and three statements would hold the round lock longer. Table and column
    names come from the models only; every value is a parameter."""
    q = connection.ops.quote_name
    sheets, orders = q(OrderSheet._meta.db_table), q(Order._meta.db_table)
    return {
        "touch": (
            f"UPDATE {sheets} SET status = %s, submitted_at = NULL, updated_at = %s"  # noqa: S608
            f" WHERE round_id = %s AND power_id = %s"
            f" RETURNING id, (SELECT COUNT(*) FROM {orders} o WHERE o.sheet_id = {sheets}.id)"
        ),
        "replace": (
            f"UPDATE {orders} SET payload = %s, error = %s, warning = %s"  # noqa: S608
            f" WHERE sheet_id = %s AND position = %s RETURNING id"
        ),
    }


def update_order(
    *,
    power: Power,
    position: int,
    payload: Any,
    actor: str,
    strict: bool = False,
    round_number: int | None = None,
) -> Order:
    """Replace the order at ``position``, with the same checks as ``add_order``, run before the
    open round row is locked for the write."""
    prepared = entry.check(power, payload, position=position)
    with transaction.atomic():
        rnd = lock_open_round(power.campaign_id, expected=round_number)
        return _replace(power, rnd, position, prepared, actor=actor, strict=strict)


def _replace(
    power: Power, rnd: Round, position: int, prepared: entry.Entry, *, actor: str, strict: bool
) -> Order:
    sheet_id, _ = _touch_counting(rnd, power)
    try:
        payload, errors, warnings = entry.admit(power, prepared, strict=strict)
    except OrderInvalid:
        if not Order.objects.filter(sheet_id=sheet_id, position=position).exists():
            raise OrderNotFound(f"There is no order {position + 1} on your sheet.") from None
        raise
    order = Order(
        sheet_id=sheet_id,
        position=position,
        payload=payload,
        error="; ".join(errors),
        warning="; ".join(warnings),
    )
    field = Order._meta.get_field("payload")
    saved = field.get_db_prep_save(payload, connection)
    with connection.cursor() as cur:
        cur.execute(_sql()["replace"], [saved, order.error, order.warning, sheet_id, position])
        row = cur.fetchone()
    if row is None:  # the touch (and a sheet just made) rolls back with the refusal
        raise OrderNotFound(f"There is no order {position + 1} on your sheet.")
    order.pk = row[0]
    audit_power(power, rnd, actor, "order_updated", position=position)
    return order


@transaction.atomic
def remove_order(
    *, power: Power, position: int, actor: str, round_number: int | None = None
) -> None:
    """Remove an order; the ones after it move up one place. Locks the open round row."""
    rnd = lock_open_round(power.campaign_id, expected=round_number)
    sheet = _sheet(rnd, power)
    deleted, _ = sheet.orders.filter(position=position).delete()
    if not deleted:
        raise OrderNotFound(f"There is no order {position + 1} on your sheet.")
    _renumber(sheet, [o for o in sheet.orders.order_by("position")])
    _touch(sheet)
    audit_power(power, rnd, actor, "order_removed", position=position)


@transaction.atomic
def move_order(
    *, power: Power, position: int, to: int, actor: str, round_number: int | None = None
) -> None:
    """Move the order at ``position`` to ``to`` (orders of one power apply in listed order).
    Locks the open round row."""
    rnd = lock_open_round(power.campaign_id, expected=round_number)
    sheet = _sheet(rnd, power)
    orders = list(sheet.orders.order_by("position"))
    if not 0 <= position < len(orders):
        raise OrderNotFound(f"There is no order {position + 1} on your sheet.")
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


def set_declaration(
    *, power: Power, payload: dict[str, Any], actor: str, round_number: int | None = None
) -> Order:
    """Keep one declare_group order per group on the sheet (R-2): update it, or add it. The
    entry check runs first; the open round row is locked for the write."""
    prepared = entry.check(power, payload)
    with transaction.atomic():
        rnd = lock_open_round(power.campaign_id, expected=round_number)
        existing = (
            Order.objects.filter(
                sheet__round=rnd,
                sheet__power=power,
                payload__type="declare_group",
                payload__group=payload.get("group"),
            )
            .order_by("position")
            .first()
        )
        if existing is not None:
            return _replace(power, rnd, existing.position, prepared, actor=actor, strict=False)
        return _append(power, rnd, prepared, actor=actor, strict=False)


@transaction.atomic
def submit_sheet(*, power: Power, actor: str, round_number: int | None = None) -> OrderSheet:
    """Mark the sheet ready. When it is the last one, resolution is enqueued after commit.
    Locks the open round row."""
    rnd = lock_open_round(power.campaign_id, expected=round_number)
    sheet = _sheet(rnd, power)
    sheet.status = SheetStatus.SUBMITTED
    sheet.submitted_at = timezone.now()
    sheet.save(update_fields=["status", "submitted_at", "updated_at"])
    audit_power(power, rnd, actor, "sheet_submitted")
    waits = waiting.of_round(rnd)
    left = [p.pk for p in waits.not_submitted]
    if not left:
        if waits.complete:
            enqueue_resolution(rnd.pk)
    elif len(left) == 1:
        transaction.on_commit(lambda: notifications.last_to_submit(rnd.pk, left[0]))
    return sheet


@transaction.atomic
def withdraw_sheet(*, power: Power, actor: str, round_number: int | None = None) -> OrderSheet:
    """Take the submission back; possible until resolution starts. Locks the open round row."""
    rnd = lock_open_round(power.campaign_id, expected=round_number)
    sheet = _sheet(rnd, power)
    sheet.status = SheetStatus.DRAFT
    sheet.submitted_at = None
    sheet.save(update_fields=["status", "submitted_at", "updated_at"])
    audit_power(power, rnd, actor, "sheet_withdrawn")
    return sheet


def round_is_complete(rnd: Round) -> bool:
    """Every power has submitted and no battle record awaits confirmation (R-10.6): the round
    may resolve before its deadline (unless paused). ``economy.waiting`` reads it, and what the
    players are told the round waits for comes from the same reader."""
    return waiting.of_round(rnd).complete


def enqueue_resolution(round_id: int) -> None:
    """Enqueue the resolve task once this transaction commits. A broker failure is logged,
    not raised: the sweep resolves the round anyway (reliability F4)."""

    def send() -> None:
        try:
            # by name: the tasks module calls these services, so they never import it
            celery_app.tasks[RESOLVE_TASK].delay(round_id)
        except Exception:
            log.exception("could not enqueue resolution of round %s; the sweep will", round_id)

    transaction.on_commit(send)


# --- resolution ---------------------------------------------------------------------------
#
# Exactly once, and recovered in seconds (issue 11): the process resolving a round holds a
# PostgreSQL session-level advisory lock on it from before the claim until the result is
# committed or the claim released. A dead process's connection closes and PostgreSQL drops the
# lock, so "resolving, and nobody holds the lock" means the claimant is gone: a redelivered task
# takes the claim over at once, and the sweep (every few seconds) returns it to open.

ADVISORY_NAMESPACE = 0x4654 << 48  # "FT": keeps these keys apart from any other advisory lock


def _is_due(rnd: Round, now: datetime) -> bool:
    if rnd.deadline and rnd.deadline <= now:
        return True  # without a query, as before
    return waiting.of_round(rnd).due(now)


def _advisory_key(round_id: int) -> int:
    return ADVISORY_NAMESPACE | round_id


@contextmanager
def resolver_lock(round_id: int) -> Iterator[None]:
    """Hold the round's resolver lock (a session-level advisory lock) for the block, waiting
    while another live process holds it (a duplicate delivery then finds the round resolved).
    Elsewhere than PostgreSQL there is no such lock and the sweep falls back to the stall
    timeout."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cur:
        cur.execute("SELECT pg_advisory_lock(%s)", [_advisory_key(round_id)])
    try:
        yield
    finally:
        try:
            with connection.cursor() as cur:
                cur.execute("SELECT pg_advisory_unlock(%s)", [_advisory_key(round_id)])
        except DatabaseError:  # the connection is gone, and the lock with it
            log.warning("could not release the resolver lock of round %s", round_id)


def _claimant_dead(round_id: int) -> bool:
    """True when nobody holds the round's resolver lock; inside a transaction, which keeps the
    lock until it ends so no resolver starts meanwhile."""
    with connection.cursor() as cur:
        cur.execute("SELECT pg_try_advisory_xact_lock(%s)", [_advisory_key(round_id)])
        return bool(cur.fetchone()[0])


def claim_round(
    *, round_id: int, force: bool = False, actor: str = "", take_over: bool = False
) -> bool:
    """Short transaction: lock the round row, re-check, open -> resolving, attempts + 1. False
    if another delivery or the sweep got there first, or the round is not due (or paused).
    With ``take_over`` (the caller holds the resolver lock, so whoever claimed a round still
    ``resolving`` is dead) that claim is taken over, or the round fails after three attempts."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().filter(pk=round_id).first()
        if rnd is None:
            return False
        taking_over = take_over and rnd.status == RoundStatus.RESOLVING
        if taking_over:
            if connection.vendor != "postgresql" and not _stalled(rnd, timezone.now()):
                return False
            if rnd.attempts >= MAX_ATTEMPTS:
                _give_back(rnd, "resolution stalled (worker lost?)")
                return False
        elif rnd.status != RoundStatus.OPEN or not (
            force or (not rnd.paused and _is_due(rnd, timezone.now()))
        ):
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
            took_over=taking_over,
        )
    return True


@dataclass(frozen=True)
class RoundInputs:
    orders: dict[str, list[Any]]  # each submitted power's sheet as stored
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


def engine_input(
    orders: dict[str, list[Any]],
) -> tuple[list[tuple[str, int, Any]], list[Rejection]]:
    """The sheets as the engine takes them, ``(power, index, order)``, and the orders that
    cannot be resolved at all (stored before the entry check existed) as rejections at their
    index, so that no stored order can break a round."""
    flat: list[tuple[str, int, Any]] = []
    refused: list[Rejection] = []
    for power in sorted(orders):
        accepted, bad = entry.resolvable(orders[power])
        flat += [(power, i, o) for i, o in accepted]
        refused += [Rejection(power, i, error) for i, error in bad]
    return flat, refused


def run_engine(state: State, orders: dict[str, list[Any]], seed: int) -> Result:
    """The engine on stored sheets (resolution and replay alike, R-0.3)."""
    flat, refused = engine_input(orders)
    result = resolve(state, flat, round_rng(seed, state.round))
    if not refused:
        return result
    rejected = sorted([*result.rejected, *refused], key=lambda r: (r.power, r.index))
    return replace(result, rejected=tuple(rejected))


def resolve_round(*, round_id: int, force: bool = False, actor: str = "") -> bool:
    """Resolve the round exactly once: hold its resolver lock, claim it, then load, resolve
    and save everything in one transaction. On an error the round goes back to open (or to
    failed after three attempts). Takes the resolver lock, then the round row's lock."""
    with resolver_lock(round_id):
        if not claim_round(round_id=round_id, force=force, actor=actor, take_over=True):
            return False
        try:
            with transaction.atomic():
                return _resolve_claimed(round_id)
        except Exception as exc:
            _release_failed(round_id, exc)
            return False


def _resolve_claimed(round_id: int) -> bool:
    rnd = Round.objects.select_for_update().select_related("campaign").get(pk=round_id)
    if rnd.status != RoundStatus.RESOLVING:
        return False
    campaign = Campaign.objects.select_for_update().get(pk=rnd.campaign_id)
    state = load_state(campaign)
    start = dump_state(state)  # the round record keeps the contract's JSON (replay, reports)
    inputs = round_inputs(rnd)
    result = run_engine(state, inputs.orders, state.seed)
    save_state(campaign, result.state)
    _end_battle_records(campaign, result)
    _name_new_hubs(campaign, inputs.orders, result)
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
    trade_services.record_round(
        campaign_id=campaign.pk, round_number=rnd.number, start=start, result=result
    )
    now = timezone.now()
    rnd.status = RoundStatus.RESOLVED
    rnd.resolved_at = now
    rnd.last_error = ""
    rnd.save(update_fields=["status", "resolved_at", "last_error"])
    Round.objects.create(
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
    announce.round_resolved(rnd.pk)  # each player's statement, by email and notice
    return True


def _end_battle_records(campaign: Campaign, result: Result) -> None:
    """R-10.6: a confirmed record the engine could not apply whole is ``unapplied`` (it told its
    powers why); one nobody had confirmed when the round resolved is ``expired``, never applied
    (so it does not hold the next round back)."""
    unapplied = [e.data["battle"] for e in result.events if e.kind == "battle.not_applied"]
    records = BattleRecord.objects.filter(campaign=campaign)
    records.filter(key__in=unapplied).update(status=BattleRecord.Status.UNAPPLIED)
    records.filter(status=BattleRecord.Status.PROPOSED).update(status=BattleRecord.Status.EXPIRED)


def _name_new_hubs(campaign: Campaign, orders: dict[str, list[Any]], result: Result) -> None:
    """Give hubs set up this round the display names their players typed (the engine knows
    hubs by key only)."""
    rejected = {(r.power, r.index) for r in result.rejected}
    names = {
        o["id"]: o["name"]
        for power, sheet in orders.items()
        for i, o in enumerate(sheet)
        if isinstance(o, dict)
        and o.get("type") == "hub_setup"
        and isinstance(o.get("name"), str)
        and o["name"]
        and (power, i) not in rejected
    }
    if not names:
        return
    hubs = list(TradeHub.objects.filter(campaign=campaign, key__in=list(names), name=""))
    for hub in hubs:
        hub.name = names[hub.key]
    TradeHub.objects.bulk_update(hubs, ["name"])


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


def _stalled(rnd: Round, now: datetime) -> bool:
    return bool(
        rnd.started_at and rnd.started_at < now - timedelta(seconds=settings.FTCAMP_STALL_SECONDS)
    )


def _give_back(rnd: Round, error: str) -> None:
    """A claim whose resolver is gone goes back to open, or fails after three attempts."""
    rnd.status = RoundStatus.FAILED if rnd.attempts >= MAX_ATTEMPTS else RoundStatus.OPEN
    rnd.last_error = rnd.last_error or error
    rnd.save(update_fields=["status", "last_error"])
    audit(
        campaign_id=rnd.campaign_id,
        round_number=rnd.number,
        action="resolution_stalled",
        attempt=rnd.attempts,
        final=rnd.status == RoundStatus.FAILED,
    )
    log.error("round %s lost its resolver; returned to %s", rnd.pk, rnd.status)


def sweep(*, now: datetime | None = None) -> list[int]:
    """The backstop (beat runs it every ``FTCAMP_SWEEP_SECONDS``, 10 by default): return claims
    whose resolver is gone to open, and enqueue every open round that is due. Returns the ids
    enqueued. On PostgreSQL a claim is dead when nobody holds its resolver lock; elsewhere
    when it is older than ``FTCAMP_STALL_SECONDS``. Takes the round rows' locks (skipping
    locked ones), then the resolver lock of each."""
    now = now or timezone.now()
    with transaction.atomic():
        for rnd in Round.objects.select_for_update(skip_locked=True).filter(
            status=RoundStatus.RESOLVING
        ):
            if connection.vendor == "postgresql":
                dead = _claimant_dead(rnd.pk)
            else:
                dead = _stalled(rnd, now)
            if dead:
                _give_back(rnd, "resolution stalled (worker lost?)")
    open_rounds = list(Round.objects.filter(status=RoundStatus.OPEN, paused=False))
    due = [w.round.pk for w in waiting.of_rounds(open_rounds).values() if w.due(now)]
    for round_id in due:
        enqueue_resolution(round_id)
    _overdue_canary(now)
    return due


def _overdue_canary(now: datetime) -> None:
    """Reliability F8: one error per sweep for each round still unresolved well past its
    deadline (paused rounds excepted), so a stuck campaign is noticed."""
    grace = timedelta(seconds=settings.FTCAMP_OVERDUE_GRACE_SECONDS)
    for rnd in Round.objects.filter(
        status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING],
        paused=False,
        deadline__lt=now - grace,
    ).select_related("campaign"):
        assert rnd.deadline is not None  # filtered on it
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
    result = run_engine(state, record.orders, record.seed)
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
    target.state_version += 1  # live again with the state written above: not what it had
    target.save()
    audit(campaign_id=campaign.pk, round_number=number, actor=actor, action="rolled_back")
