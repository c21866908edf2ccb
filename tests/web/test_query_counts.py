"""Fast by design: the order sheet, the projection, loading and saving a round take the same
number of queries for a small and a large campaign (issue 4)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from economy import services
from economy.models import Round
from economy.snapshot import export_state
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = pytest.mark.django_db


def count(fn: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def sized(name: str, systems: int) -> World:
    world = make_campaign(name, n_powers=2, systems_per_power=systems)
    add_fleet(world, groups=systems // 5)  # issue 14: groups of craft and builds grow with it
    for power in world.powers:
        services.add_order(power=power, payload={"type": "research_project", "gal": 2}, actor="t")
    return world


# load_state: 35 whatever the size, the fleet's 7 and command's 7 included (export adds nothing)
EXPORT_QUERIES = 40


@pytest.fixture
def small_and_large() -> tuple[World, World]:
    return sized("small", 5), sized("large", 150)


def test_order_sheet_and_projection_pages(
    client: Client, small_and_large: tuple[World, World]
) -> None:
    counts = []
    for world in small_and_large:
        client.force_login(world.users[0])
        args = [world.campaign.pk, "p0"]
        counts.append(
            (
                count(partial(client.get, reverse("orders", args=args))),
                count(partial(client.get, reverse("projection", args=args))),
                count(partial(client.get, reverse("dashboard", args=args))),
            )
        )
    assert counts[0] == counts[1]


def test_load_and_save_service(small_and_large: tuple[World, World]) -> None:
    exports, resolutions = [], []
    for world in small_and_large:
        exports.append(count(partial(export_state, world.campaign)))
        for power in world.powers:
            services.submit_sheet(power=power, actor="t")
        rnd = Round.objects.get(campaign=world.campaign, status="open")
        resolutions.append(count(partial(services.resolve_round, round_id=rnd.pk)))
        assert Round.objects.get(pk=rnd.pk).status == "resolved"
    assert exports == [EXPORT_QUERIES, EXPORT_QUERIES]
    assert resolutions[0] == resolutions[1]


def test_round_history_does_not_grow_with_rounds(client: Client) -> None:
    world = make_campaign("history", n_powers=2, systems_per_power=2)
    counts = []
    for _ in range(3):
        for power in world.powers:
            services.submit_sheet(power=power, actor="t")
        rnd = Round.objects.get(campaign=world.campaign, status="open")
        assert services.resolve_round(round_id=rnd.pk)
        counts.append(count(lambda: client.get(reverse("history", args=[world.campaign.pk]))))
    assert counts[0] == counts[1] == counts[2]
