"""A power with no builder cannot build (issue 30, item 7): the guide says so, the checklist names
those powers, and the campaign's page gives one a starting shipyard — the demo's Orbital Yard
in a static at its homeworld — after which its build orders are no longer "not now"."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from campaigns.checklist import setup_checklist
from campaigns.demo import DESIGNS
from economy.selectors import unavailable
from powers.models import Craft, Design, Power, StarSystem, Static
from tests.web.factories import PASSWORD, make_campaign
from tests.web.test_organiser import change_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    root = get_user_model().objects.create_superuser("org", "org@example.org", PASSWORD)
    client.force_login(root)
    return client


def test_the_guide_says_a_power_without_a_builder_cannot_build() -> None:
    guide = Client().get(reverse("guide")).text
    assert "A power with no builder cannot build" in guide
    assert "start with none and build" not in guide


def test_a_starting_shipyard_makes_a_builder_at_the_homeworld(
    staff: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    world = make_campaign("Yards", n_powers=2)
    campaign, (p0, p1) = world.campaign, world.powers
    assert unavailable(p0)["build"] == "you have no builders"
    page = staff.get(change_url(campaign)).text
    assert "No builder: Power 0, Power 1 — a power without one cannot build anything" in page
    assert 'value="Give Power 0 a starting shipyard"' in page
    url = reverse("admin:powers_campaign_shipyard", args=[campaign.pk])
    done = staff.post(url, {"power": p0.pk}, follow=True).text
    assert "Power 0 has a starting shipyard: an Orbital Yard" in done
    craft = Craft.objects.get(power=p0)
    home = StarSystem.objects.get(holder=p0, system_type="homeworld")
    assert craft.static is not None and craft.static.hex_code == home.hex.code
    # the demo's design, not a copy of its figures
    name, _cls, _mob, mass, npv, crew, _load, systems = DESIGNS["yard"]
    design = craft.design
    assert (design.name, design.mass, design.npv, craft.crew) == (name, mass, npv, crew)
    rows = [(s.name, s.points, s.count, s.capacity()) for s in design.systems.all()]
    assert rows == [(n, p, c, cap) for n, p, c, cap in systems]
    assert "build" not in unavailable(Power.objects.get(pk=p0.pk))
    items = {i.key: i for i in setup_checklist(campaign)}
    assert items["builders"].detail.startswith("No builder: Power 1 —")
    assert not items["builders"].required  # advised: a power may play without building
    # twice is refused, nothing more made
    again = staff.post(url, {"power": p0.pk}, follow=True).text
    assert "No shipyard given — Power 0 already has a builder." in again
    assert (Craft.objects.filter(power=p0).count(), Static.objects.filter(power=p0).count()) == (
        1,
        1,
    )
    staff.post(url, {"power": p1.pk})
    with django_assert_num_queries(4):  # the builders add none (checklist.py's promise)
        items = {i.key: i for i in setup_checklist(campaign)}
    assert items["builders"].done and items["builders"].detail == "Every power has a builder."


def test_no_shipyard_without_a_homeworld_or_for_another_campaigns_power(staff: Client) -> None:
    world = make_campaign("Homeless", n_powers=2)
    other = make_campaign("Other", n_powers=2)
    StarSystem.objects.filter(holder=world.powers[0]).update(system_type="basic")
    url = reverse("admin:powers_campaign_shipyard", args=[world.campaign.pk])
    page = staff.post(url, {"power": world.powers[0].pk}, follow=True).text
    assert "No shipyard given — Power 0 holds no homeworld: give it one first" in page
    page = staff.post(url, {"power": other.powers[0].pk}, follow=True).text
    assert "Power: choose one of this campaign&#x27;s." in page
    assert not Craft.objects.exists() and not Static.objects.exists()
    assert not Design.objects.exists()


def test_non_staff_cannot_give_a_shipyard(client: Client) -> None:
    world = make_campaign("Players", n_powers=2)
    client.force_login(world.users[0])
    url = reverse("admin:powers_campaign_shipyard", args=[world.campaign.pk])
    response = client.post(url, {"power": world.powers[0].pk})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Craft.objects.exists()
