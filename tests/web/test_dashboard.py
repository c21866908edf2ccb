"""Logins, "my campaigns" and a power's dashboard: visible to its players only (404 to others)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.http import HttpRequest
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.web.factories import PASSWORD, World, make_campaign, make_user

pytestmark = pytest.mark.django_db


def login(client: Client, username: str) -> None:
    assert client.login(request=HttpRequest(), username=username, password=PASSWORD)


def dashboard_url(world: World, i: int) -> str:
    return reverse("dashboard", args=[world.campaign.pk, world.powers[i].key])


def test_login_page_renders_with_local_htmx(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    assert 'name="username"' in page
    assert "/static/vendor/htmx-2.0.11.min" in page
    # nothing loaded from another host (a bare "cdn" could be in the random CSRF token)
    assert re.findall(r'(?:src|href)="(?:https?:)?//', page) == []


def test_public_index_lists_campaigns_for_spectators(client: Client) -> None:
    world = make_campaign("Spectated")
    page = client.get(reverse("home")).content.decode()
    assert "Spectated" in page and reverse("map-public", args=[world.campaign.pk]) in page
    assert "Power 0" not in page  # powers' details are on the public pages, not here
    client.force_login(world.users[0])
    assert client.get(reverse("home"))["Location"] == reverse("my-campaigns")


def test_anonymous_is_sent_to_login(client: Client) -> None:
    world = make_campaign()
    response = client.get(dashboard_url(world, 0))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_my_campaigns_lists_each_membership(client: Client) -> None:
    first = make_campaign("First")
    second = make_campaign("Second")
    user = first.users[0]
    from powers.models import Membership

    Membership.objects.create(campaign=second.campaign, user=user, power=second.powers[1])
    login(client, user.username)
    page = client.get(reverse("my-campaigns")).content.decode()
    assert "First" in page and "Second" in page
    assert dashboard_url(first, 0) in page and dashboard_url(second, 1) in page


def test_my_campaigns_empty_state(client: Client) -> None:
    user = make_user("loner")
    login(client, user.username)
    page = client.get(reverse("my-campaigns")).content.decode()
    assert "not playing in any campaign yet" in page


def test_dashboard_shows_banks_systems_and_hubs(client: Client) -> None:
    world = make_campaign()
    login(client, world.users[1].username)
    page = client.get(dashboard_url(world, 1)).content.decode()
    assert 'data-testid="gal">101<' in page
    assert "System 1-0" in page and "System 1-2" in page
    assert "Hub1" in page  # by its name (issue 17)
    assert "System 0-0" not in page and "Hub0" not in page


def test_campaign_link_redirects_to_my_power(client: Client) -> None:
    world = make_campaign()
    login(client, world.users[1].username)
    response = client.get(reverse("campaign", args=[world.campaign.pk]))
    assert response["Location"] == dashboard_url(world, 1)


def test_other_powers_dashboard_is_404_not_403(client: Client) -> None:
    world = make_campaign()
    outsider = make_user("outsider")
    login(client, world.users[0].username)
    assert client.get(dashboard_url(world, 1)).status_code == 404
    assert client.get(reverse("dashboard", args=[world.campaign.pk, "nope"])).status_code == 404
    client.logout()
    login(client, outsider.username)
    assert client.get(dashboard_url(world, 0)).status_code == 404
    assert client.get(reverse("campaign", args=[world.campaign.pk])).status_code == 404


def test_404_page_does_not_name_the_power(client: Client) -> None:
    world = make_campaign()
    login(client, world.users[0].username)
    body = client.get(dashboard_url(world, 1)).content.decode()
    assert "Power 1" not in body and "hub1" not in body


def _count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_dashboard_query_count_does_not_grow_with_systems(client: Client) -> None:
    small = make_campaign("Small", n_powers=1, systems_per_power=5)
    large = make_campaign("Large", n_powers=1, systems_per_power=200)
    login(client, small.users[0].username)
    small_count = _count_queries(client, dashboard_url(small, 0))
    client.logout()
    login(client, large.users[0].username)
    large_count = _count_queries(client, dashboard_url(large, 0))
    assert small_count == large_count
    page = client.get(dashboard_url(large, 0)).content.decode()
    assert page.count("<tr>") >= 200


def test_bank_history_is_rebuilt_from_the_ledger(client: Client) -> None:
    from campaigns.selectors import bank_history
    from economy import services
    from economy.models import Round
    from powers.models import Power

    world = make_campaign()
    services.add_order(
        power=world.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 30}, actor="t"
    )
    banks = [(world.powers[0].gal, world.powers[0].tp)]
    for _ in range(2):
        for power in world.powers:
            services.submit_sheet(power=power, actor="t")
        rnd = Round.objects.get(campaign=world.campaign, status="open")
        assert services.resolve_round(round_id=rnd.pk)
        p0 = Power.objects.select_related("campaign").get(pk=world.powers[0].pk)
        banks.append((p0.gal, p0.tp))
    labels, series = bank_history(power=p0)
    assert labels == ["R1", "R2", "R3"]
    assert list(zip(series["Gal"], series["TP"], strict=True)) == banks
    login(client, world.users[0].username)
    page = client.get(dashboard_url(world, 0)).content.decode()
    assert 'data-series="Gal"' in page and "<svg" in page
