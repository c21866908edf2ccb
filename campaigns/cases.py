"""Campaigns from adjudicator cases (contracts §1), so the shell can be checked against the
pure engine: load a case, enter its orders through the same services as the views, resolve,
export."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaigns import services as campaign_services
from economy import services
from economy.engine.case import load_case
from economy.snapshot import save_state
from powers.models import Campaign, Power


@transaction.atomic
def campaign_from_case(case: dict[str, Any], *, name: str) -> Campaign:
    """Create a campaign holding the case's state, and its orders as draft sheets.

    Raises ``economy.engine.codec.CaseError`` (naming the path) for a malformed case.
    """
    parsed = load_case(case)
    campaign = Campaign.objects.create(
        name=name, current_round=parsed.state.round, seed=parsed.state.seed
    )
    save_state(campaign, parsed.state)
    campaign_services.setup_campaign(campaign=campaign)
    orders = case.get("orders") or {}
    for power in Power.objects.filter(campaign=campaign, key__in=list(orders)).order_by("key"):
        for payload in orders[power.key]:
            services.add_order(power=power, payload=payload, actor="load_case", contract=True)
    return campaign


def submit_all(campaign: Campaign, keys: list[str] | None = None) -> None:
    """Submit the sheets of ``keys`` (default: every power with orders)."""
    powers = Power.objects.filter(campaign=campaign)
    if keys is not None:
        powers = powers.filter(key__in=keys)
    for power in powers.order_by("key"):
        services.submit_sheet(power=power, actor="load_case")
