"""Writes for campaign set-up (HackSoft style: services write, selectors read)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from campaigns.checklist import missing, not_started, setup_checklist
from economy.models import Round, RoundStatus
from economy.rounds import audit
from ftcamp.errors import Refused
from powers.models import Campaign
from trade.models import MarketEdge


class SetupIncomplete(Refused):
    """The campaign lacks what play needs (the checklist's items): HTTP 400."""


@transaction.atomic
def setup_campaign(*, campaign: Campaign, paused: bool = False) -> None:
    """Give a new campaign what every campaign needs: the three Common Market edges at their
    starting rate and tax (R-6.2) and its current round, open. Idempotent. A campaign made in
    the admin passes ``paused``: its first round waits, with no deadline, until the organiser
    starts it (:func:`start_round`)."""
    existing = set(campaign.market.values_list("edge", flat=True))
    MarketEdge.objects.bulk_create(
        [MarketEdge(campaign=campaign, edge=e) for e, _ in MarketEdge.EDGES if e not in existing]
    )
    if not Round.objects.filter(campaign=campaign, number=campaign.current_round).exists():
        Round.objects.create(
            campaign=campaign,
            number=campaign.current_round,
            status=RoundStatus.OPEN,
            paused=paused,
            deadline=None
            if paused
            else timezone.now() + timedelta(hours=campaign.round_length_hours),
        )


@transaction.atomic
def start_round(*, campaign: Campaign, actor: str) -> Round:
    """The organiser starts the paused current round: refused, naming what is missing, until
    the checklist's required items are done; then unpaused, with its deadline a round's length
    from now. Locks the round row."""
    rnd = (
        Round.objects.select_for_update()
        .filter(campaign=campaign, number=campaign.current_round, status=RoundStatus.OPEN)
        .first()
    )
    if not not_started(rnd):
        raise SetupIncomplete("round: it has already started (pause and unpause it under Rounds)")
    assert rnd is not None  # not_started says so
    lacking = missing(setup_checklist(campaign))
    if lacking:
        raise SetupIncomplete([f"{i.label.lower()}: {i.detail}" for i in lacking])
    rnd.paused = False
    rnd.deadline = timezone.now() + timedelta(hours=campaign.round_length_hours)
    rnd.save(update_fields=["paused", "deadline"])
    audit(campaign_id=campaign.pk, round_number=rnd.number, actor=actor, action="round_started")
    return rnd
