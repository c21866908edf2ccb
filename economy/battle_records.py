"""Battle records between powers (R-10.6): a battle fought on the tabletop is entered by one
power in it; it takes effect when every other power in it confirms (GM-less), or when the
admin confirms it; a power may decline with a reason; the entering power may amend. Only
confirmed records are round state (``economy.snapshot.pacts``), applied at the start of the
next resolution; the round does not resolve early while one awaits confirmation
(``economy.services``).

Secrecy: a power sees only the records it is in. While a record is proposed only its shape is
checked (an error about a craft would tell the proposer what another power holds); the whole
record passes the engine's own check (``economy.engine.codec``) when it becomes confirmed."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from economy.engine.codec import CaseError, parse_state
from economy.engine.validate import hex_problem
from economy.rounds import lock_open_round
from economy.services import enqueue_resolution, round_is_complete
from economy.snapshot import export_state
from ftcamp.errors import Missing, Refused
from notices import announce
from powers.models import BattleCraft, BattleParty, BattleRecord, Campaign, Craft, Power

MAX_CRAFT = 200  # craft lines in one record
MAX_UNITS = 10_000  # units of one system, CF lost
KEY_LENGTH = 64
REASON_LENGTH = 300
Answer = BattleParty.Answer
Status = BattleRecord.Status


@dataclass(frozen=True)
class Entry:
    """One craft line of a record, as entered (contract shape of R-10.6's ``craft`` items)."""

    craft: str
    destroyed: bool = False
    systems_destroyed: dict[str, int] | None = None
    systems_disabled: dict[str, int] | None = None
    cf_lost: int = 0
    captured_by: str | None = None
    into: str | None = None


def _counts(where: str, value: Any) -> tuple[dict[str, int] | None, list[str]]:
    if value is None:
        return None, []
    if not isinstance(value, dict) or len(value) > MAX_CRAFT:
        return None, [f"{where}: expected {{system id: units}}"]
    out: dict[str, int] = {}
    for sid, n in value.items():
        ok = isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_UNITS
        if not (isinstance(sid, str) and 0 < len(sid) <= KEY_LENGTH) or not ok:
            return None, [f"{where}: expected {{system id: units 0..{MAX_UNITS}}}"]
        out[sid] = n
    return out, []


def parse_entries(raw: Any, powers: list[str]) -> tuple[list[Entry], list[str]]:
    """The craft lines of a record in the contract's shape, or ``craft[i].field: problem``."""
    if not isinstance(raw, list) or not raw or len(raw) > MAX_CRAFT:
        return [], [f"craft: expected a list of 1..{MAX_CRAFT} craft"]
    entries: list[Entry] = []
    errors: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        at = f"craft: #{i + 1}"
        if not isinstance(item, dict):
            errors.append(f"{at}: expected an object")
            continue
        unknown = sorted(
            str(k)[:40]
            for k in item
            if k
            not in (
                "craft",
                "destroyed",
                "systems_destroyed",
                "systems_disabled",
                "cf_lost",
                "captured_by",
                "into",
            )
        )
        errors += [f"{at}, {k}: not a field of a battle record's craft" for k in unknown]
        key = item.get("craft")
        if not isinstance(key, str) or not 0 < len(key) <= KEY_LENGTH:
            errors.append(f"{at}, craft: expected a craft id")
            continue
        if key in seen:
            errors.append(f"{at}, craft: {key} is listed twice")
        seen.add(key)
        destroyed = item.get("destroyed", False)
        if not isinstance(destroyed, bool):
            errors.append(f"{at}, destroyed: expected true or false")
        lost, e1 = _counts(f"{at}, systems_destroyed", item.get("systems_destroyed"))
        disabled, e2 = _counts(f"{at}, systems_disabled", item.get("systems_disabled"))
        errors += e1 + e2
        cf = item.get("cf_lost", 0)
        if isinstance(cf, bool) or not isinstance(cf, int) or not 0 <= cf <= MAX_UNITS:
            errors.append(f"{at}, cf_lost: expected an integer 0..{MAX_UNITS}")
        captor, into = item.get("captured_by"), item.get("into")
        if captor is not None:
            if captor not in powers:
                errors.append(f"{at}, captured_by: one of the powers in the battle")
            elif destroyed is True:
                errors.append(f"{at}, captured_by: a destroyed craft is not captured")
            if not isinstance(into, str) or not 0 < len(into) <= KEY_LENGTH:
                errors.append(f"{at}, into: the captor's group or static (or a new id)")
        elif into is not None:
            errors.append(f"{at}, into: only for a captured craft")
        if not errors:
            entries.append(Entry(key, destroyed, lost, disabled, cf, captor, into))
    return entries, errors


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
    if errors:
        raise Refused(errors)
    return str(hex_), [rows[k] for k in keys], entries


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
    if confirm and not record.parties.exclude(answer=Answer.CONFIRMED).exists():
        _take_effect(record)
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


@dataclass(frozen=True)
class RecordView:
    """A record as a power in it sees it: every power's answer and every craft line."""

    key: str
    hex: str
    status: str
    entered_by: str
    round: int
    mine: bool  # entered by the viewing power
    my_answer: str
    parties: list[dict[str, str]]
    craft: list[dict[str, Any]]


def records_of(power: Power) -> list[RecordView]:
    """The records ``power`` is in, newest first (3 queries): to confirm, awaiting others,
    confirmed or applied."""
    records = list(
        BattleRecord.objects.filter(campaign_id=power.campaign_id, parties__power=power)
        .select_related("entered_by")
        .order_by("-created_round", "-created_at", "key")
    )
    ids = [r.pk for r in records]
    parties: dict[int, list[BattleParty]] = {pk: [] for pk in ids}
    for p in BattleParty.objects.filter(record_id__in=ids).select_related("power"):
        parties[p.record_id].append(p)
    craft: dict[int, list[BattleCraft]] = {pk: [] for pk in ids}
    for c in BattleCraft.objects.filter(record_id__in=ids).select_related("captured_by"):
        craft[c.record_id].append(c)
    return [
        RecordView(
            r.key,
            r.hex,
            r.status,
            r.entered_by.key,
            r.created_round,
            r.entered_by_id == power.pk,
            next(p.answer for p in parties[r.pk] if p.power_id == power.pk),
            [
                {"power": p.power.key, "answer": p.answer, "reason": p.reason}
                for p in sorted(parties[r.pk], key=lambda p: p.position)
            ],
            [
                {
                    "craft": c.craft_key,
                    "destroyed": c.destroyed,
                    "systems_destroyed": c.systems_destroyed,
                    "systems_disabled": c.systems_disabled,
                    "cf_lost": c.cf_lost,
                    "captured_by": c.captured_by.key if c.captured_by else None,
                    "into": c.into or None,
                }
                for c in sorted(craft[r.pk], key=lambda c: c.position)
            ],
        )
        for r in records
    ]


def battle_hexes(campaign_id: int) -> list[str]:
    """Where battles have been fought (confirmed or applied records): the public sees a marker
    at each hex, never a record's contents (R-10.6)."""
    return sorted(
        {
            f"{col:02d}{row:02d}"
            for col, row in BattleRecord.objects.filter(
                campaign_id=campaign_id, status__in=[Status.CONFIRMED, Status.APPLIED]
            ).values_list("col", "row")
        }
    )


# --- the page's craft lines ---------------------------------------------------------------

CRAFT_HELP = (
    "one craft a line: its id, then any of 'destroyed', 'lost <system>=<units> …' (systems "
    "destroyed), 'disabled <system>=<units> …', 'cf <CF lost>', 'captured <power> into "
    "<group or static>'; e.g. 'p1-f2 lost b1=1 disabled hull=2 cf 1'"
)


def craft_from_text(text: str) -> list[Any]:
    """The page's craft lines in the contract's shape; what does not parse is passed on as
    typed, so ``parse_entries`` names the line and the field."""
    out: list[Any] = []
    for line in (x.strip() for x in text.splitlines()[: MAX_CRAFT + 1]):
        if not line:
            continue
        words = line.split()
        item: dict[str, Any] = {"craft": words[0]}
        field = ""
        i = 1
        while i < len(words):
            w = words[i]
            if w == "destroyed":
                item["destroyed"] = True
            elif w in ("lost", "disabled"):
                field = "systems_destroyed" if w == "lost" else "systems_disabled"
                item.setdefault(field, {})
            elif w == "cf" and i + 1 < len(words):
                i += 1
                item["cf_lost"] = int(words[i]) if words[i].isdigit() else words[i]
            elif w == "captured" and i + 3 < len(words) and words[i + 2] == "into":
                item["captured_by"], item["into"] = words[i + 1], words[i + 3]
                i += 3
            elif "=" in w and field:
                sid, _, n = w.partition("=")
                item[field][sid] = int(n) if n.isdigit() else n
            else:
                item[w[:40]] = True  # an unknown word: named as a field that does not exist
            i += 1
        out.append(item)
    return out


def craft_text(craft: list[dict[str, Any]]) -> str:
    """A record's craft lines as the page's text (to amend it)."""
    lines = []
    for c in craft:
        words = [c["craft"]] + (["destroyed"] if c["destroyed"] else [])
        for field, word in (("systems_destroyed", "lost"), ("systems_disabled", "disabled")):
            if c[field]:
                words += [word] + [f"{k}={n}" for k, n in c[field].items()]
        words += [f"cf {c['cf_lost']}"] if c["cf_lost"] else []
        if c["captured_by"]:
            words += ["captured", c["captured_by"], "into", c["into"]]
        lines.append(" ".join(words))
    return "\n".join(lines)
