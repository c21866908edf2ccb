"""The pacts and battle records in the snapshot (issue 15), loaded and saved: confirmed battle
records not yet applied, accepted loans and accepted transfers are the engine's ``battles`` /
``loans`` / ``transfers`` (R-10.5, R-10.5a, R-10.6, Support 1.6). Proposals, declines and
history stay in the database only. Loaded in five queries, whatever the campaign's size; what
the entry check needs of them (``pact_fleet``) in one where there are none."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Exists, Q, QuerySet

from economy.engine.pacts import Battle, Loan, Transfer
from economy.engine.pacts import BattleCraft as BattleCraftState
from economy.engine.state import Craft as CraftState
from economy.engine.state import Design as DesignState
from economy.engine.state import Fleet
from powers.db import Param, Prepared, hex_code
from powers.models import (
    BattleCraft,
    BattleParty,
    BattleRecord,
    Campaign,
    Craft,
    Design,
    PactStatus,
    Power,
)
from powers.models import Loan as LoanRow
from powers.models import Transfer as TransferRow

Pacts = tuple[list[Battle], list[Loan], list[Transfer]]


def load_pacts(cid: int, power_key: dict[int, str]) -> Pacts:
    """The campaign's confirmed battle records (with their powers and craft in order), and its
    accepted loans and transfers (5 queries)."""
    records = list(
        BattleRecord.objects.filter(campaign_id=cid, status=BattleRecord.Status.CONFIRMED)
        .order_by("key")
        .values_list("id", "key", "col", "row")
    )
    confirmed = {"record__campaign_id": cid, "record__status": BattleRecord.Status.CONFIRMED}
    powers: dict[int, list[str]] = defaultdict(list)
    for record_id, power_id in (
        BattleParty.objects.filter(**confirmed)
        .order_by("record_id", "position")
        .values_list("record_id", "power_id")
    ):
        powers[record_id].append(power_key[power_id])
    craft: dict[int, list[BattleCraftState]] = defaultdict(list)
    for e in BattleCraft.objects.filter(**confirmed).order_by("record_id", "position"):
        craft[e.record_id].append(
            BattleCraftState(
                e.craft_key,
                e.destroyed,
                e.damage,
                dict(e.systems_destroyed),
                dict(e.systems_disabled),
                e.cf_lost,
                power_key[e.captured_by_id] if e.captured_by_id else None,
                e.into or None,
            )
        )
    battles = [
        Battle(key, hex_code(col, row), tuple(powers[pk]), tuple(craft[pk]))
        for pk, key, col, row in records
    ]
    loans = [
        Loan(
            x.key, power_key[x.owner_id], power_key[x.borrower_id], list(x.groups), x.last, x.active
        )
        for x in LoanRow.objects.filter(campaign_id=cid, status=PactStatus.ACCEPTED).order_by("key")
    ]
    transfers = [
        Transfer(
            t.key,
            power_key[t.owner_id],
            power_key[t.receiver_id],
            tuple(t.carriers),
            t.crew_to or None,
        )
        for t in TransferRow.objects.filter(campaign_id=cid, status=PactStatus.ACCEPTED).order_by(
            "key"
        )
    ]
    return battles, loans, transfers


def save_pacts(campaign: Campaign, fleet: Fleet, pid: dict[str, int], round_number: int) -> None:
    """Write the state's pacts back. A confirmed record no longer in the state has been
    applied; an accepted loan no longer in it has ended (or failed), an accepted transfer has
    been made (or failed). Ones in the state the database lacks (a case, a rollback) are
    created as settled: confirmed by every power in them, accepted by both parties."""
    _save_battles(campaign, fleet, pid, round_number)
    cid = campaign.pk
    loans = {x.id: x for x in fleet.loans}
    rows = {x.key: x for x in LoanRow.objects.filter(campaign_id=cid, key__in=list(loans))}
    LoanRow.objects.filter(campaign_id=cid, status=PactStatus.ACCEPTED).exclude(
        key__in=list(loans)
    ).update(status=PactStatus.DONE)
    changed, created = [], []
    for x in loans.values():
        values: dict[str, Any] = {
            "owner_id": pid[x.owner],
            "borrower_id": pid[x.borrower],
            "groups": list(x.groups),
            "last": x.last,
            "active": x.active,
            "status": PactStatus.ACCEPTED,
        }
        row = rows.get(x.id)
        if row is None:
            row = LoanRow(campaign=campaign, key=x.id, created_round=round_number, **values)
            created.append(row)
        elif any(getattr(row, f) != v for f, v in values.items()):
            for f, v in values.items():
                setattr(row, f, v)
            changed.append(row)
    LoanRow.objects.bulk_create(created)
    if changed:
        LoanRow.objects.bulk_update(changed, ["groups", "last", "active", "status"])
    transfers = {t.id: t for t in fleet.transfers}
    TransferRow.objects.filter(campaign_id=cid, status=PactStatus.ACCEPTED).exclude(
        key__in=list(transfers)
    ).update(status=PactStatus.DONE)
    have = set(
        TransferRow.objects.filter(campaign_id=cid, key__in=list(transfers)).values_list(
            "key", flat=True
        )
    )
    TransferRow.objects.bulk_create(
        TransferRow(
            campaign=campaign,
            key=t.id,
            owner_id=pid[t.owner],
            receiver_id=pid[t.receiver],
            carriers=list(t.carriers),
            crew_to=t.crew_to or "",
            status=PactStatus.ACCEPTED,
            created_round=round_number,
        )
        for t in fleet.transfers
        if t.id not in have
    )


def _save_battles(campaign: Campaign, fleet: Fleet, pid: dict[str, int], round_number: int) -> None:
    """R-10.6: the engine applies every confirmed record once and hands back none, so the
    confirmed ones it no longer lists are applied; records are never rewritten by it."""
    cid = campaign.pk
    wanted = {b.id: b for b in fleet.battles}
    BattleRecord.objects.filter(campaign_id=cid, status=BattleRecord.Status.CONFIRMED).exclude(
        key__in=list(wanted)
    ).update(status=BattleRecord.Status.APPLIED)
    have = set(
        BattleRecord.objects.filter(campaign_id=cid, key__in=list(wanted)).values_list(
            "key", flat=True
        )
    )
    new = [b for b in fleet.battles if b.id not in have]
    if not new:
        return
    owner = {c.id: c.power for c in fleet.craft}
    rows = BattleRecord.objects.bulk_create(
        BattleRecord(
            campaign=campaign,
            key=b.id,
            col=int(b.hex[:2]),
            row=int(b.hex[2:]),
            entered_by_id=pid[b.powers[0]],
            status=BattleRecord.Status.CONFIRMED,
            created_round=round_number,
        )
        for b in new
    )
    BattleParty.objects.bulk_create(
        BattleParty(record=row, power_id=pid[p], position=i, answer=BattleParty.Answer.CONFIRMED)
        for row, b in zip(rows, new, strict=True)
        for i, p in enumerate(b.powers)
    )
    BattleCraft.objects.bulk_create(
        BattleCraft(
            record=row,
            position=i,
            craft_key=e.craft,
            power_id=pid[owner[e.craft]],
            destroyed=e.destroyed,
            damage=e.damage,
            systems_destroyed=dict(e.systems_destroyed),
            systems_disabled=dict(e.systems_disabled),
            cf_lost=e.cf_lost,
            captured_by_id=pid[e.captured_by] if e.captured_by else None,
            into=e.into or "",
        )
        for row, b in zip(rows, new, strict=True)
        for i, e in enumerate(b.craft)
    )


def _any_pact(cid: int) -> bool:
    """Whether the campaign has anything ``pact_fleet`` would read: a confirmed battle
    record, an accepted loan or transfer, or a captured craft (one query, prepared once: it
    runs before every fleet order's entry check)."""
    return bool(_ANY_PACT.rows(campaign=cid))


def _any_pact_query() -> QuerySet[Campaign, tuple[int]]:
    cid = Param("campaign")
    confirmed, accepted = BattleRecord.Status.CONFIRMED, PactStatus.ACCEPTED
    return (
        Campaign.objects.filter(pk=cid)
        .filter(
            Exists(BattleRecord.objects.filter(campaign_id=cid, status=confirmed))
            | Exists(LoanRow.objects.filter(campaign_id=cid, status=accepted))
            | Exists(TransferRow.objects.filter(campaign_id=cid, status=accepted))
            | Exists(Craft.objects.filter(campaign_id=cid, captured=True))
        )
        .order_by()
        .values_list("pk")
    )


_ANY_PACT = Prepared(_any_pact_query)


def pact_fleet(cid: int) -> Fleet:
    """What the entry rules need to know of the pacts and captured craft
    (``validate.after_pacts``): the pacts, and the craft they touch with their design's
    mobility, carrier, orbit and captured flag (9 queries). Without a battle record only the
    captured craft and those of lent groups matter, so an order's check does not read the
    whole fleet. A campaign with none of them (the usual case) costs one query."""
    if not _any_pact(cid):
        return Fleet([], [])  # validate.after_pacts changes nothing then
    power_key = dict(Power.objects.filter(campaign_id=cid).values_list("id", "key"))
    battles, loans, transfers = load_pacts(cid, power_key)
    rows = Craft.objects.filter(campaign_id=cid)
    if not battles:  # a record's craft take those in orbit with them: then every craft counts
        lent = [g for loan in loans if loan.active for g in loan.groups]
        rows = rows.filter(Q(captured=True) | Q(group__key__in=lent))
    craft = [
        CraftState(
            key, power_key[power], design, group, static, orbit, {"cf": 0}, 0, {}, {}, captured
        )
        for key, power, design, group, static, orbit, captured in rows.values_list(
            "key", "power_id", "design__key", "group__key", "static__key", "orbit__key", "captured"
        )
    ]
    designs = [
        DesignState(key, power_key[power], "", "", mobility, 0, 0, 0, ())
        for key, power, mobility in Design.objects.filter(
            campaign_id=cid, key__in={c.design for c in craft}
        ).values_list("key", "power_id", "mobility")
    ]
    return Fleet(designs, craft, battles=battles, loans=loans, transfers=transfers)
