"""The command order forms (issue 16): every command order type has a sentence, a paragraph
stating what it costs, a step in the rules guide; the order sheet greys the ones a power cannot
use now, with the reason, and offers them once it can."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from economy import selectors
from economy.engine.orders import SPECS, command
from economy.guide import STEP_OF, anchor
from powers.models import Power
from powers.models.command import Officer
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = pytest.mark.django_db
COST = re.compile(r"\d+ (Gal|TP|Ore)|\bFree\b|PL")


COMMAND_TYPES = sorted(spec.type for spec in command.SPECS)


@pytest.mark.parametrize("kind", COMMAND_TYPES)
def test_each_command_type_says_what_it_costs_and_when(kind: str) -> None:
    spec = SPECS[kind]
    assert spec.sentence and spec.help
    assert spec.step in STEP_OF, spec.step  # the guide's step it happens in
    assert COST.search(spec.about), spec.about


def test_the_costs_in_the_paragraphs() -> None:
    about = {k: SPECS[k].about for k in COMMAND_TYPES}
    assert "rank × 50 Gal and rank × 50 + (grade − 1) × 50 TP" in about["commission"]
    assert "50 Gal a rank and 50 TP a rank or grade" in about["promote"]
    assert "30 Ore" in about["bubble_hq"] and "15 Ore" in about["bubble_outpost"]
    assert "10 Ore, then 5 Ore a round to keep" in about["bubble_sensor"]


def test_the_rules_guide_places_every_command_order(client: Client) -> None:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    html = response.content.decode()
    for kind in COMMAND_TYPES:
        assert f'id="{anchor("order", kind)}"' in html, kind


@pytest.fixture
def world() -> World:
    world = make_campaign("Command forms", n_powers=2, systems_per_power=2)
    add_fleet(world, groups=1)
    return world


def test_command_types_are_greyed_with_the_reason(world: World) -> None:
    power = Power.objects.get(pk=world.powers[0].pk)
    why = selectors.unavailable(power)
    assert why["promote"] == "you have no officers: commission one first"
    assert why["bubble_hq"] == "an HQ needs an officer: commission one first"
    assert why["bubble_sensor"] == "you have no command bubbles: set up an HQ first"
    assert why["recall_diplomat"] == "you have no diplomats"
    assert "commission" not in why and "researchers" not in why
    assert "appoint_diplomat" not in why
    Officer.objects.create(
        campaign=world.campaign, power=power, key="p0-o1", name="O", rank=2, grade=2
    )
    why = selectors.unavailable(power)
    assert "promote" not in why and "bubble_hq" not in why
    assert why["bubble_outpost"] == "you have no command bubbles: set up an HQ first"


def test_the_sheet_shows_them_greyed(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    response = client.get(reverse("orders", args=[world.campaign.pk, "p0"]))
    assert response.status_code == 200
    html = response.content.decode()
    # listed apart with the reason, not offered (issue 30)
    assert '<option value="bubble_hq"' not in html
    assert re.search(
        r"<li [^>]*><strong>Set up a command bubble&#x27;s HQ</strong> — an HQ needs", html
    )
    assert re.search(r'<option value="commission"[^>]*>Commission an officer</option>', html)


def test_an_officer_without_a_name_is_offered_by_its_id_as_typed(world: World) -> None:
    power = Power.objects.get(pk=world.powers[0].pk)
    Officer.objects.create(
        campaign=world.campaign, power=power, key="p0-o1", name="p0-o1", rank=2, grade=1
    )
    assert selectors.choices_for(power).get("officers") == [("p0-o1", "o1 (rank 2, grade 1)")]
