"""Trade agreements (R-5.5) and the UN Monetary Committee (R-6.4): the writes.

Locking: every service locks the campaign's open round row (``select_for_update``) and
re-checks that it is open, like the order services, so a proposal, an answer, a hub choice,
a motion or a vote either lands before resolution claims the round (and is resolved with it)
or is refused with ``economy.rounds.RoundNotOpen`` (HTTP 409).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max, Q

from diplomacy import deals  # issue 31: offers and outcomes told in the thread they came from
from economy.engine.resolve import Result
from economy.engine.state import EDGES
from economy.engine.un import BOUGHT, motion_errors
from economy.engine.validate import hex_problem
from economy.models import Round
from economy.rounds import audit_power, lock_open_round
from ftcamp.errors import Forbidden, Refused
from notices import announce
from powers.models import Power
from trade.models import (
    Agreement,
    AgreementEvent,
    HubResource,
    Motion,
    RateHistory,
    TradeHub,
    Vote,
)

LEG_RESOURCES = [r.value for r in HubResource]
MAX_AMOUNT = 1_000_000_000  # what a leg may carry (the column's range, with room to spare)
MAX_AHEAD = 1_000  # rounds ahead an agreement may be set


class TradeError(Refused):
    """A request the rules refuse; ``errors`` name the fields: HTTP 400."""


class NotAMember(Forbidden):
    """Only UN Monetary Committee members may vote or put motions (R-6.4): HTTP 403."""


def _next_key(model: type[Agreement] | type[Motion], prefix: str) -> str:
    """A generated key: ``agreement.7``. It has no ``-``, so no id a player chooses (stored as
    ``<power>-<typed id>``, economy.entry) can ever be it. Called under the round lock, so two
    creators of one campaign never race."""
    top = model.objects.aggregate(top=Max("id"))["top"] or 0
    return f"{prefix}.{top + 1}"


# --- agreements (R-5.5) ---------------------------------------------------------------------


@dataclass(frozen=True)
class Terms:
    """What an agreement says: where, when, and what each side sends (one side may be 0)."""

    deposit: str
    delivery: int
    a_resource: str
    a_amount: int
    b_resource: str
    b_amount: int

    def as_json(self) -> dict[str, Any]:
        return {
            "deposit": self.deposit,
            "delivery": self.delivery,
            "a": {"resource": self.a_resource, "amount": self.a_amount},
            "b": {"resource": self.b_resource, "amount": self.b_amount},
        }


def check_terms(
    terms: Terms, *, round_number: int, bounds: tuple[int, int] | None, side: str = "a"
) -> list[str]:
    """R-5.5 entry checks, each naming the field as the acting party (``side`` ``a``, the
    proposer, or ``b``) entered it: what it sends and what it receives; the deposit hex must
    be on the map (``bounds``, contracts §1 map.size)."""
    names = {side: "send", "b" if side == "a" else "a": "receive"}
    errors = []
    problem = hex_problem(terms.deposit, bounds)
    if problem:
        errors.append(f"deposit: {problem}")
    if terms.delivery > round_number + MAX_AHEAD:
        errors.append(f"delivery: at most {MAX_AHEAD} rounds ahead, got round {terms.delivery}")
    elif terms.delivery <= round_number:
        errors.append(
            f"delivery: must be a later round than the current one ({round_number}); "
            "a leg is dispatched at least one round before delivery"
        )
    for leg in ("a", "b"):
        amount = getattr(terms, f"{leg}_amount")
        resource = getattr(terms, f"{leg}_resource")
        if not 0 <= amount <= MAX_AMOUNT:
            errors.append(f"{names[leg]}_amount: expected 0..{MAX_AMOUNT:,}, got {amount}")
        if amount > 0 and resource not in LEG_RESOURCES:
            errors.append(f"{names[leg]}_resource: expected one of ore, bio, pl, got {resource!r}")
    if terms.a_amount <= 0 and terms.b_amount <= 0:
        errors.append("send_amount: at least one side must send something")
    return errors


def _apply_terms(agreement: Agreement, terms: Terms) -> None:
    agreement.deposit_col, agreement.deposit_row = int(terms.deposit[:2]), int(terms.deposit[2:])
    agreement.delivery = terms.delivery
    agreement.a_resource = terms.a_resource if terms.a_amount > 0 else ""
    agreement.a_amount = max(0, terms.a_amount)
    agreement.b_resource = terms.b_resource if terms.b_amount > 0 else ""
    agreement.b_amount = max(0, terms.b_amount)


def terms_of(agreement: Agreement) -> Terms:
    return Terms(
        agreement.deposit,
        agreement.delivery,
        agreement.a_resource,
        agreement.a_amount,
        agreement.b_resource,
        agreement.b_amount,
    )


def _history(agreement: Agreement, power: Power, action: str, rnd: Round) -> AgreementEvent:
    return AgreementEvent.objects.create(
        agreement=agreement,
        power=power,
        action=action,
        terms=terms_of(agreement).as_json(),
        round_number=rnd.number,
    )


@transaction.atomic
def propose_agreement(*, power: Power, partner_key: str, terms: Terms, actor: str) -> Agreement:
    """Resource §5.3: ``power`` proposes terms to another power; the partner must answer."""
    rnd = lock_open_round(power.campaign_id)
    partner = Power.objects.filter(campaign_id=power.campaign_id, key=partner_key).first()
    errors = []
    if partner is None:
        errors.append(f"partner: unknown power {partner_key!r}")
    elif partner.pk == power.pk:
        errors.append("partner: an agreement is between two different powers")
    errors += check_terms(terms, round_number=rnd.number, bounds=power.campaign.map_bounds())
    if errors:
        raise TradeError(errors)
    agreement = Agreement(
        campaign_id=power.campaign_id,
        key=_next_key(Agreement, "agreement"),
        proposer=power,
        partner=partner,
        awaiting=partner,
        created_round=rnd.number,
    )
    _apply_terms(agreement, terms)
    agreement.save()
    step = _history(agreement, power, "propose", rnd)
    announce.agreement_proposed(agreement.pk, step.pk)  # the partner is told
    deals.offered(  # issue 31: in the thread it was proposed from, if any
        kind="agreement", campaign_id=power.campaign_id, key=agreement.key,
        proposer_id=power.pk, other_id=agreement.partner_id,
    )  # fmt: skip
    audit_power(power, rnd, actor, "agreement_proposed", agreement=agreement.key)
    return agreement


def _locked_agreement(power: Power, key: str) -> Agreement:
    """The agreement ``key`` if ``power`` is a party, locked; else ``Agreement.DoesNotExist``."""
    return Agreement.objects.select_for_update().get(
        Q(proposer=power) | Q(partner=power), campaign_id=power.campaign_id, key=key
    )


def _must_await(agreement: Agreement, power: Power) -> None:
    if agreement.status != Agreement.Status.PROPOSED:
        raise TradeError([f"agreement: it is {agreement.get_status_display().lower()}"])
    if agreement.awaiting_id != power.pk:
        raise TradeError(["agreement: the other party has to answer first"])


@transaction.atomic
def withdraw_agreement(*, power: Power, key: str, actor: str) -> Agreement:
    """The party whose offer awaits the other's answer takes it back (issue 15); the other
    party declines instead."""
    rnd = lock_open_round(power.campaign_id)
    agreement = _locked_agreement(power, key)
    if agreement.status != Agreement.Status.PROPOSED:
        raise TradeError([f"agreement: it is {agreement.get_status_display().lower()}"])
    if agreement.awaiting_id == power.pk:
        raise TradeError(["agreement: it awaits your answer: decline it instead"])
    agreement.status = Agreement.Status.WITHDRAWN
    agreement.awaiting = None
    agreement.save()
    _history(agreement, power, "withdraw", rnd)
    deals.answered(  # issue 31
        kind="agreement", campaign_id=power.campaign_id, key=agreement.key,
        power_id=power.pk, outcome="withdrawn",
    )  # fmt: skip
    audit_power(power, rnd, actor, "agreement_withdrawn", agreement=agreement.key)
    return agreement


@transaction.atomic
def counter_agreement(*, power: Power, key: str, terms: Terms, actor: str) -> Agreement:
    """Answer a proposal with new terms; the other party must now answer."""
    rnd = lock_open_round(power.campaign_id)
    agreement = _locked_agreement(power, key)
    _must_await(agreement, power)
    errors = check_terms(
        terms,
        round_number=rnd.number,
        bounds=power.campaign.map_bounds(),
        side=agreement.party(power),
    )
    if errors:
        raise TradeError(errors)
    _apply_terms(agreement, terms)
    agreement.awaiting_id = (
        agreement.partner_id if power.pk == agreement.proposer_id else agreement.proposer_id
    )
    agreement.save()
    step = _history(agreement, power, "counter", rnd)
    announce.agreement_proposed(agreement.pk, step.pk)  # new terms await the other party
    deals.answered(  # issue 31
        kind="agreement", campaign_id=power.campaign_id, key=agreement.key,
        power_id=power.pk, outcome="countered",
    )  # fmt: skip
    audit_power(power, rnd, actor, "agreement_countered", agreement=agreement.key)
    return agreement


@transaction.atomic
def answer_agreement(*, power: Power, key: str, accept: bool, actor: str) -> Agreement:
    """Accept (both parties then have: R-5.5) or decline the terms awaiting ``power``."""
    rnd = lock_open_round(power.campaign_id)
    agreement = _locked_agreement(power, key)
    if accept or agreement.status != Agreement.Status.PROPOSED:
        _must_await(agreement, power)  # either party may walk away from a proposal
    if accept:
        errors = check_terms(
            terms_of(agreement),
            round_number=rnd.number,
            bounds=power.campaign.map_bounds(),
            side=agreement.party(power),
        )
        if errors:
            raise TradeError(errors)
    agreement.status = Agreement.Status.ACCEPTED if accept else Agreement.Status.DECLINED
    agreement.awaiting = None
    agreement.save()
    _history(agreement, power, "accept" if accept else "decline", rnd)
    deals.answered(  # issue 31
        kind="agreement", campaign_id=power.campaign_id, key=agreement.key,
        power_id=power.pk, outcome="accepted" if accept else "declined",
    )  # fmt: skip
    action = "agreement_accepted" if accept else "agreement_declined"
    audit_power(power, rnd, actor, action, agreement=agreement.key)
    return agreement


@transaction.atomic
def name_hubs(
    *, power: Power, key: str, send_hub: str | None, receive_hub: str | None, actor: str
) -> Agreement:
    """R-5.5: a party names, privately, its own sending and receiving guild hubs."""
    rnd = lock_open_round(power.campaign_id)
    agreement = _locked_agreement(power, key)
    if agreement.status not in (Agreement.Status.PROPOSED, Agreement.Status.ACCEPTED):
        raise TradeError([f"agreement: it is {agreement.get_status_display().lower()}"])
    own = {h.key: h for h in TradeHub.objects.filter(power=power)}
    errors = [
        f"{field}: {value!r} is not one of your hubs"
        for field, value in (("send_hub", send_hub), ("receive_hub", receive_hub))
        if value and value not in own
    ]
    if errors:
        raise TradeError(errors)
    side = agreement.party(power)
    setattr(agreement, f"{side}_send_hub", own.get(send_hub) if send_hub else None)
    setattr(agreement, f"{side}_receive_hub", own.get(receive_hub) if receive_hub else None)
    agreement.save()
    audit_power(power, rnd, actor, "agreement_hubs_named", agreement=agreement.key)
    return agreement


# --- the UN Monetary Committee (R-6.4) ------------------------------------------------------


def _member(power: Power) -> None:
    if not power.un_member:
        raise NotAMember(f"{power.name} has no seat on the UN Monetary Committee.")


@transaction.atomic
def draft_motion(*, power: Power, fields: dict[str, Any], actor: str) -> Motion:
    """A member drafts a motion; it stays private until submitted (R-6.4)."""
    rnd = lock_open_round(power.campaign_id)
    _member(power)
    keys = dict(Power.objects.filter(campaign_id=power.campaign_id).values_list("key", "pk"))
    errors = motion_errors(fields, set(keys))
    if errors:
        raise TradeError(errors)
    kind = fields["kind"]
    value = fields.get("rate") if kind == "rate" else fields.get("tax")
    motion = Motion.objects.create(
        campaign_id=power.campaign_id,
        key=_next_key(Motion, "motion"),
        round_number=rnd.number,
        proposer=power,
        kind=kind,
        edge=fields.get("edge") or "",
        target_id=keys.get(fields["power"]) if fields.get("power") else None,
        value=Decimal(value) if value is not None and kind in ("rate", "tax") else None,
    )
    audit_power(power, rnd, actor, "motion_drafted", motion=motion.key)
    return motion


@transaction.atomic
def submit_motion(*, power: Power, key: str, actor: str) -> Motion:
    """Put a draft before the committee: from now on members vote and everyone in the
    committee sees it; the UN Meeting of this round decides it."""
    rnd = lock_open_round(power.campaign_id)
    _member(power)
    motion = Motion.objects.select_for_update().get(
        campaign_id=power.campaign_id, key=key, proposer=power, status=Motion.Status.DRAFT
    )
    motion.status = Motion.Status.SUBMITTED
    motion.round_number = rnd.number
    motion.save(update_fields=["status", "round_number"])
    # the proposer votes yes by proposing (issue 17); it may change its vote until the meeting
    Vote.objects.update_or_create(motion=motion, member=power, defaults={"choice": "yes"})
    audit_power(power, rnd, actor, "motion_submitted", motion=motion.key)
    announce.motion_opened(motion.pk)  # the other members are told
    return motion


@transaction.atomic
def withdraw_draft(*, power: Power, key: str, actor: str) -> None:
    """Delete one of the power's own drafts."""
    rnd = lock_open_round(power.campaign_id)
    deleted, _ = Motion.objects.filter(
        campaign_id=power.campaign_id, key=key, proposer=power, status=Motion.Status.DRAFT
    ).delete()
    if not deleted:
        raise Motion.DoesNotExist(key)
    audit_power(power, rnd, actor, "motion_withdrawn", motion=key)


@transaction.atomic
def vote(*, power: Power, key: str, choice: str, actor: str) -> Vote:
    """R-6.4: one vote per member per motion (a second vote replaces the first; the unique
    constraint on (motion, member) keeps it one row, reliability R9)."""
    rnd = lock_open_round(power.campaign_id)
    _member(power)
    if choice not in Vote.Choice.values:
        raise TradeError([f"choice: expected one of yes, no, abstain, got {choice!r}"])
    motion = Motion.objects.get(
        campaign_id=power.campaign_id, key=key, status=Motion.Status.SUBMITTED
    )
    row, _ = Vote.objects.update_or_create(motion=motion, member=power, defaults={"choice": choice})
    audit_power(power, rnd, actor, "vote_cast", motion=motion.key, choice=choice)
    return row


# --- at resolution --------------------------------------------------------------------------


def record_round(
    *, campaign_id: int, round_number: int, start: dict[str, Any], result: Result
) -> None:
    """Called by the resolution service inside its transaction: the round's market history
    (rates and taxes in force, units sold, the report at a report round, R-6.3) and the
    committee's decisions (R-6.4). Idempotent per round (a rolled-back round is rewritten)."""
    meeting = result.un_meeting
    report = meeting.get("report")
    market = start.get("market", {})
    before = market.get("volume", {})
    after = result.state.market.volume
    rows = []
    for edge in EDGES:
        sold_until_now = report["edges"][edge]["volume"] if report else after.get(edge, 0)
        rows.append(
            RateHistory(
                campaign_id=campaign_id,
                round_number=round_number,
                edge=edge,
                rate=Decimal(market.get("rates", {}).get(edge, "1")),
                tax=Decimal(market.get("tax", {}).get(edge, "0")),
                volume=max(0, sold_until_now - before.get(edge, 0)),
                report=bool(report),
                report_volume=report["edges"][edge]["volume"] if report else None,
                suggested=Decimal(report["edges"][edge]["suggested"]) if report else None,
                production=report["production"][BOUGHT[edge]] if report else None,
            )
        )
    RateHistory.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["campaign", "round_number", "edge"],
        update_fields=[
            "rate",
            "tax",
            "volume",
            "report",
            "report_volume",
            "suggested",
            "production",
        ],
    )
    decided = {m["id"]: m for m in meeting.get("motions", [])}
    motions = list(
        Motion.objects.filter(
            campaign_id=campaign_id, key__in=list(decided), status=Motion.Status.SUBMITTED
        )
    )
    for motion in motions:
        d = decided[motion.key]
        motion.status = Motion.Status.PASSED if d["passed"] else Motion.Status.FAILED
        motion.yes, motion.no, motion.abstain = d["yes"], d["no"], d["abstain"]
        motion.reason = d["reason"][:300]
        motion.effect = d.get("effect", "")[:200]
        motion.round_number = round_number
    Motion.objects.bulk_update(
        motions, ["status", "yes", "no", "abstain", "reason", "effect", "round_number"]
    )
