"""The projected statement runs the engine on the power's part of the campaign (issue 13,
``engine.focus``); for every power of the demo and of a generated campaign, with orders on
its sheet, it is the statement the whole campaign gives (``focused=False``)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import transaction

from bench.engine import build
from bench.resolution import storable
from campaigns import services as campaign_services
from economy import selectors, services
from economy.engine.codec import dump_state, parse_state
from economy.snapshot import save_state
from powers.models import Campaign, Power

pytestmark = pytest.mark.django_db


def assert_same_for_every_power(campaign: Campaign) -> int:
    """Every power's focused projection equals the whole one; how many lines they showed."""
    shown = 0
    for power in Power.objects.filter(campaign=campaign).select_related("campaign"):
        part = selectors.projected_statement(power)
        whole = selectors.projected_statement(power, focused=False)
        assert part.steps == whole.steps, power.key
        assert part.stocks == whole.stocks, power.key
        assert part.rejected == whole.rejected, power.key
        assert part.events == whole.events, power.key
        shown += sum(len(lines) for _, lines in whole.steps)
    return shown


def test_the_demo() -> None:
    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get()
    assert assert_same_for_every_power(campaign) > 0


def test_a_generated_campaign_with_orders() -> None:
    """The engine benchmark's campaign at 300 systems and 6 powers (hubs, foreign groups on
    the powers' systems, invasions, yards, builds), each power with its first 40 orders."""
    state, sheets = build(300, seed=4, n_powers=6)
    state = parse_state(storable(dump_state(state)))
    with transaction.atomic():
        campaign = Campaign.objects.create(name="generated", seed=state.seed)
        save_state(campaign, state)
        campaign_services.setup_campaign(campaign=campaign)
    powers = {p.key: p for p in Power.objects.filter(campaign=campaign)}
    counted: dict[str, int] = {}
    for key, _, order in sheets:
        counted[key] = counted.get(key, 0) + 1
        if counted[key] <= 40:
            services.add_order(power=powers[key], payload=order, actor="test", contract=True)
    assert assert_same_for_every_power(campaign) > 0
