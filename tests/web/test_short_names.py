"""Issue 30: a new thing's short name may be left blank; one is chosen, readable and free (from
the name typed for it, the design a build builds, else what it is), and a name typed as a
name ("Far West") is written short. On the page and the API alike, on both databases."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from economy.engine.orders import SPECS
from economy.models import Order
from tests.web.factories import ApiClient, World, add_fleet, make_campaign
from trade.models import TradeHub

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def ids(power: str = "p0") -> list[str]:
    return [
        o.payload.get("id")
        for o in Order.objects.filter(sheet__power__key=power).order_by("position")
    ]


@pytest.fixture
def fleet_world() -> World:
    world = make_campaign("Short names")
    add_fleet(world)
    return world


def test_a_build_left_unnamed_is_named_for_its_design_and_numbered(fleet_world: World) -> None:
    api = ApiClient()
    api.force_login(fleet_world.users[0])
    url = f"/api/campaigns/{fleet_world.campaign.pk}/orders/"
    build = {"type": "build", "design": "p0-frigate", "builders": ["p0-y1"], "ore": 60}
    for _ in range(2):
        r = api.post(url, json.dumps(build), content_type="application/json")
        assert r.status_code == 201, r.content
    assert ids() == ["p0-frigate-1", "p0-frigate-2"]
    # the API answers in the player's own short names
    assert r.json()["payload"]["id"] == "frigate-2"


def test_a_default_skips_a_name_the_campaign_has(client: Client, world: World) -> None:
    TradeHub.objects.create(campaign=world.campaign, key="p0-hub-1", power=world.powers[0])
    client.force_login(world.users[0])
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    r = client.post(url, {"type": "hub_setup", "id": "", "centre": "0103"})
    assert r.status_code == 302
    assert ids() == ["p0-hub-2"]


def test_a_hub_is_named_from_its_display_name_then_numbered(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    for _ in range(2):
        client.post(url, {"type": "hub_setup", "name": "Far West", "centre": "0103"})
    assert ids() == ["p0-far-west", "p0-far-west-1"]


def test_a_name_typed_as_a_name_is_written_short(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    r = client.post(url, {"type": "hub_setup", "id": "Étoile Hub", "centre": "0103"})
    assert r.status_code == 302
    assert ids() == ["p0-etoile-hub"]


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("West", "p0-west"), ("we st", "p0-we-st"), ("west_hub", "p0-west-hub"), ("-west", "p0-west")],
)
def test_the_api_writes_names_short_too(world: World, typed: str, stored: str) -> None:
    api = ApiClient()
    api.force_login(world.users[0])
    url = f"/api/campaigns/{world.campaign.pk}/orders/"
    order = {"type": "hub_setup", "id": typed, "centre": "0103"}
    assert api.post(url, json.dumps(order), content_type="application/json").status_code == 201
    assert ids() == [stored]


def test_the_schema_does_not_ask_for_a_new_things_id() -> None:
    for kind in ("build", "hub_setup", "form_group", "commission", "register_design"):
        schema = SPECS[kind].schema()
        assert "id" in schema["properties"]
        assert "id" not in schema["required"], kind
    assert "design" in SPECS["build"].schema()["required"]


def test_the_form_says_it_may_be_left_blank(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    r = client.get(reverse("order-form", args=[world.campaign.pk, "p0"]) + "?type=hub_setup")
    assert 'placeholder="left blank: chosen for you"' in r.text
    assert "Short name" in r.text and "New hub id" not in r.text
