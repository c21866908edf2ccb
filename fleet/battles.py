"""Battle records between powers (R-10.6): a battle fought on the tabletop is entered by one
power in it; it takes effect when every other power in it confirms (GM-less), or when the
organiser confirms it; a power may decline with a reason (the entering power is told), the
entering power may amend it (everyone is asked again) or withdraw it, the organiser may void
it. Only confirmed records are round state (``economy.snapshot.pacts``), applied whole at the
start of the next resolution; the round does not resolve early while one awaits confirmation
(``economy.services``), and one unconfirmed when the round resolves expires.

A record is checked whole when it is entered or amended, and again when it is confirmed: by the
engine's own rules (``economy.engine.battles.problems``: each craft one of its powers' at its
hex, CF lost within the CF aboard, a capture into the captor's carrier at the hex; then the
codec: systems of its design and their counts, the captor). A craft elsewhere reads as no craft
at all, so a record tells the powers in it nothing of fleets beyond the battle's hex."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.db import transaction

from economy.engine import pacts as engine_pacts
from economy.engine.battles import problems
from economy.engine.codec import CaseError, parse_state
from economy.engine.navy import Navy
from economy.engine.validate import hex_problem
from economy.rounds import lock_open_round
from economy.selectors import live_round
from economy.services import enqueue_resolution, round_is_complete
from economy.snapshot import export_state, load_state, round_state
from fleet.battle_text import REASON_LENGTH, Answer, Entry, Status, parse_entries
from ftcamp.errors import Missing, Refused
from notices import announce
from powers.models import BattleCraft, BattleParty, BattleRecord, Campaign, Craft, Power


def _check(
    campaign: Campaign, power: Power, hex_: Any, powers: Any, craft: Any
) -> tuple[str, list[Power], list[Entry]]:
    """The record's shape; ``Refused`` naming the field. Its craft are checked against the
    state when it is confirmed (an error now could tell what another power holds)."""
    errors: list[str] = []
    problem = hex_problem(hex_, campaign.map_bounds())
    if problem:
        errors.append(f"hex: {problem}")
    keys = powers if isinstance(powers, list) else []
    if not all(isinstance(k, str) for k in keys) or len(set(keys)) != len(keys) or len(keys) < 2:
        errors.append("powers: expected two or more distinct power ids")
        keys = []
    rows = {p.key: p for p in Power.objects.filter(campaign=campaign, key__in=keys)}
    if keys and (missing := [k for k in keys if k not in rows]):
        errors.append(f"powers: no such power: {', '.join(sorted(missing)[:5])}")
    if keys and power.key not in keys:
        errors.append("powers: the power entering a record is one of its powers")
    entries, problems = parse_entries(craft, keys)
    errors += problems
    if not errors:
        errors = _engine_problems(campaign, str(hex_), [rows[k] for k in keys], entries)
    if errors:
        raise Refused(errors)
    return str(hex_), [rows[k] for k in keys], entries


def _engine_problems(
    campaign: Campaign, hex_: str, parties: list[Power], entries: list[Entry]
) -> list[str]:
    """The record against the fleet at the start of the round, by the engine's own rules: where
    its craft are first (so a craft elsewhere reads as none), then the codec's whole check."""
    rnd = live_round(campaign.pk)
    state = round_state(campaign, rnd).state if rnd else load_state(campaign)
    navy = Navy(state, {g.id: g for g in state.groups}, {s.id: s for s in state.statics})
    battle = engine_pacts.Battle(
        "entry",
        hex_,
        tuple(p.key for p in parties),
        tuple(
            engine_pacts.BattleCraft(
                e.craft,
                e.destroyed,
                e.systems_destroyed is not None or e.systems_disabled is not None,
                e.systems_destroyed or {},
                e.systems_disabled or {},
                e.cf_lost,
                e.captured_by,
                e.into,
            )
            for e in entries
        ),
    )
    found = [f"craft: {p}" for p in problems(navy, navy.groups, navy.statics, battle)]
    if found:
        return found
    record: dict[str, Any] = {"id": f"br-check-{secrets.token_hex(4)}", "hex": hex_}
    record |= {"powers": [p.key for p in parties], "craft": [e.as_contract() for e in entries]}
    problem = engine_problem(campaign, "battles", record)
    if problem is None:
        return []
    # "craft[2].systems_destroyed.b1: unknown system 'b1'" -> "craft: f1, systems destroyed: ..."
    line = re.match(r"(?:battles\[\d+\]\.)?craft\[(\d+)\]\.?([a-z_]*)[^:]*: (.*)", problem)
    if line is None or int(line[1]) >= len(entries):
        return [f"craft: {problem}"]
    field = f", {line[2].replace('_', ' ')}" if line[2] else ""
    return [f"craft: {entries[int(line[1])].craft}{field}: {line[3]}"]


def _write(record: BattleRecord, powers: list[Power], entries: list[Entry], by: Power) -> None:
    """The record's parties (the entering power has confirmed it) and craft lines, anew."""
    record.parties.all().delete()
    record.craft.all().delete()
    BattleParty.objects.bulk_create(
        BattleParty(
            record=record,
            power=p,
            position=i,
            answer=Answer.CONFIRMED if p.pk == by.pk else Answer.PENDING,
        )
        for i, p in enumerate(powers)
    )
    by_key = {p.key: p for p in powers}
    owner = dict(
        Craft.objects.filter(campaign_id=record.campaign_id, key__in=[e.craft for e in entries])
        .filter(power__in=powers)
        .values_list("key", "power_id")
    )
    BattleCraft.objects.bulk_create(
        BattleCraft(
            record=record,
            position=i,
            craft_key=e.craft,
            # an unknown or wrong craft is refused at confirmation; until then, the proposer's
            power_id=owner.get(e.craft, by.pk),
            destroyed=e.destroyed,
            damage=e.systems_destroyed is not None or e.systems_disabled is not None,
            systems_destroyed=e.systems_destroyed or {},
            systems_disabled=e.systems_disabled or {},
            cf_lost=e.cf_lost,
            captured_by=by_key[e.captured_by] if e.captured_by else None,
            into=e.into or "",
        )
        for i, e in enumerate(entries)
    )


def _announce(
    record: BattleRecord, powers: list[Power], by: Power, round_number: int, *, amended: bool
) -> None:
    announce.battle_record_proposed(
        campaign_id=record.campaign_id,
        record=record.key,
        round_number=round_number,
        proposer_id=by.pk,
        power_ids=[p.pk for p in powers if p.pk != by.pk],
        amended=record.updated_at.isoformat() if amended else "",  # each amendment asks again
    )


@transaction.atomic
def propose(*, power: Power, hex: Any, powers: Any, craft: Any, actor: str) -> BattleRecord:
    """R-10.6: ``power`` enters a record; the other powers in it are asked to confirm."""
    rnd = lock_open_round(power.campaign_id)
    campaign = power.campaign
    hex_, parties, entries = _check(campaign, power, hex, powers, craft)
    record = BattleRecord.objects.create(
        campaign=campaign,
        key=f"br-{secrets.token_hex(4)}",
        col=int(hex_[:2]),
        row=int(hex_[2:]),
        entered_by=power,
        created_round=rnd.number,
    )
    _write(record, parties, entries, power)
    _announce(record, parties, power, rnd.number, amended=False)
    return record


def access(*, power: Power, key: str) -> BattleRecord:
    """A record ``power`` is in, locked; ``Missing`` for any other (existence never leaks)."""
    record = (
        BattleRecord.objects.select_for_update()
        .filter(campaign_id=power.campaign_id, key=key, parties__power=power)
        .first()
    )
    if record is None:
        raise Missing("no such battle record")
    return record


@transaction.atomic
def amend(*, power: Power, key: str, hex: Any, powers: Any, craft: Any, actor: str) -> BattleRecord:
    """R-10.6: the entering power amends its record while it awaits confirmation; every other
    power is asked again."""
    rnd = lock_open_round(power.campaign_id)
    record = access(power=power, key=key)
    if record.entered_by_id != power.pk:
        raise Refused("record: only the power that entered it may amend it")
    if record.status != Status.PROPOSED:
        raise Refused(f"record: it is {record.get_status_display().lower()} already")
    hex_, parties, entries = _check(power.campaign, power, hex, powers, craft)
    record.col, record.row = int(hex_[:2]), int(hex_[2:])
    record.save(update_fields=["col", "row", "updated_at"])
    _write(record, parties, entries, power)
    _announce(record, parties, power, rnd.number, amended=True)
    return record


@transaction.atomic
def answer(*, power: Power, key: str, confirm: bool, reason: str = "", actor: str) -> BattleRecord:
    """R-10.6: a power in the record confirms it, or declines it with a reason. When every
    power has confirmed, it takes effect (after the engine's check of the whole record)."""
    lock_open_round(power.campaign_id)
    record = access(power=power, key=key)
    if record.status != Status.PROPOSED:
        raise Refused(f"record: it is {record.get_status_display().lower()} already")
    reason = reason.strip()
    if not confirm and not reason:
        raise Refused("reason: say why you decline it")
    if len(reason) > REASON_LENGTH:
        raise Refused(f"reason: at most {REASON_LENGTH} characters")
    party = record.parties.get(power=power)
    party.answer = Answer.CONFIRMED if confirm else Answer.DECLINED
    party.reason = "" if confirm else reason
    party.save(update_fields=["answer", "reason"])
    if not confirm:
        announce.battle_record_declined(
            campaign_id=record.campaign_id, record=record.key, decliner_id=power.pk
        )
    if confirm and not record.parties.exclude(answer=Answer.CONFIRMED).exists():
        _take_effect(record)
    return record


@transaction.atomic
def withdraw(*, power: Power, key: str, actor: str) -> BattleRecord:
    """R-10.6: the entering power withdraws its record while it awaits confirmation; it will
    never apply, and the round no longer waits for it."""
    lock_open_round(power.campaign_id)
    record = access(power=power, key=key)
    if record.entered_by_id != power.pk:
        raise Refused("record: only the power that entered it may withdraw it")
    return _end(record, Status.WITHDRAWN)


@transaction.atomic
def void(*, record: BattleRecord, actor: str) -> BattleRecord:
    """R-10.6: the organiser voids a record awaiting confirmation or confirmed and not yet
    applied; it will never apply."""
    lock_open_round(record.campaign_id)
    record = BattleRecord.objects.select_for_update().get(pk=record.pk)
    if record.status == Status.CONFIRMED:
        record.status = Status.PROPOSED  # voided like one awaiting confirmation
    return _end(record, Status.VOID)


def _end(record: BattleRecord, status: str) -> BattleRecord:
    """A record awaiting confirmation leaves the round's way: if every sheet is in, the round
    resolves now, with no resubmission."""
    if record.status != Status.PROPOSED:
        raise Refused(f"record: it is {record.get_status_display().lower()} already")
    record.status = status
    record.save(update_fields=["status", "updated_at"])
    rnd = lock_open_round(record.campaign_id)
    if round_is_complete(rnd):
        enqueue_resolution(rnd.pk)
    return record


@transaction.atomic
def admin_confirm(*, record: BattleRecord, actor: str) -> BattleRecord:
    """R-10.6: the admin confirms a record awaiting confirmation (or one it entered)."""
    lock_open_round(record.campaign_id)
    record = BattleRecord.objects.select_for_update().get(pk=record.pk)
    if record.status != Status.PROPOSED:
        raise Refused(f"record: it is {record.get_status_display().lower()} already")
    _take_effect(record)
    return record


def _take_effect(record: BattleRecord) -> None:
    """The whole record passes the engine's check against the state as it is, or the
    confirmation is refused naming what is wrong; then it is round state."""
    campaign = record.campaign
    problem = engine_problem(campaign, "battles", contract_record(record))
    if problem:
        raise Refused(f"record {record.key}: {problem}")
    record.status = Status.CONFIRMED
    record.save(update_fields=["status", "updated_at"])
    rnd = lock_open_round(campaign.pk)
    if round_is_complete(rnd):
        enqueue_resolution(rnd.pk)


def engine_problem(campaign: Campaign, table: str, item: dict[str, Any]) -> str | None:
    """What the engine's codec says of the campaign's state with ``item`` added to ``table``
    (``battles``, ``loans`` or ``transfers``), or ``None``: the one check of a pact, the same
    as a case file gets (R-10.5, R-10.6)."""
    state = export_state(campaign)
    state[table] = [*state.get(table, []), item]
    try:
        parse_state(state)
    except CaseError as e:
        where = e.path.split(".", 1)[1] if "." in e.path else e.path
        return f"{where}: {str(e).split(': ', 1)[-1]}"
    return None


def contract_record(record: BattleRecord) -> dict[str, Any]:
    """The record in the contract's shape (R-10.6, docs/rules.md)."""
    keys = dict(Power.objects.filter(campaign_id=record.campaign_id).values_list("id", "key"))
    craft: list[dict[str, Any]] = []
    for e in record.craft.order_by("position"):
        item: dict[str, Any] = {
            "craft": e.craft_key,
            "destroyed": e.destroyed,
            "cf_lost": e.cf_lost,
        }
        if e.damage:
            item.update(systems_destroyed=e.systems_destroyed, systems_disabled=e.systems_disabled)
        if e.captured_by_id:
            item.update(captured_by=keys[e.captured_by_id], into=e.into)
        craft.append(item)
    return {
        "id": record.key,
        "hex": record.hex,
        "powers": [
            keys[p] for p in record.parties.order_by("position").values_list("power_id", flat=True)
        ],
        "craft": craft,
    }
