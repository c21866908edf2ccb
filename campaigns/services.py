"""Writes for campaign set-up (HackSoft style: services write, selectors read)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from economy.models import Round, RoundStatus
from powers.models import Campaign
from trade.models import MarketEdge


@transaction.atomic
def setup_campaign(*, campaign: Campaign) -> None:
    """Give a new campaign what every campaign needs: the three Common Market edges at their
    starting rate and tax (R-6.2) and its current round, open. Idempotent."""
    existing = set(campaign.market.values_list("edge", flat=True))
    MarketEdge.objects.bulk_create(
        [MarketEdge(campaign=campaign, edge=e) for e, _ in MarketEdge.EDGES if e not in existing]
    )
    if not Round.objects.filter(campaign=campaign, number=campaign.current_round).exists():
        Round.objects.create(
            campaign=campaign,
            number=campaign.current_round,
            status=RoundStatus.OPEN,
            deadline=timezone.now() + timedelta(hours=campaign.round_length_hours),
        )
