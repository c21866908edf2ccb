"""Fleets II orders in the browser and the API (issue 15): repair, rebuild, refit, restock and
study_design have forms, show their cost before they are ordered (R-10.2, Support 1.5), and
bad input names the field and changes nothing — in the page's form and in the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from economy import selectors, services
from economy.models import Order
from fleet import costs as fleet_costs
from powers.models import Build, Craft, Design, DesignSystem, StarSystem
from tests.web.factories import ApiClient, World, add_fleet, make_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def world() -> World:
    world = make_campaign("Fleets II orders", n_powers=2, systems_per_power=3)
    add_fleet(world)
    # p0-g0-f0 (a frigate of NPV 60) lost one Class 1 beam (3 points) and has 10 % fatigue
    Craft.objects.filter(key="p0-g0-f0").update(destroyed={"b1": 1}, fatigue=10)
    frigate = Design.objects.get(key="p0-frigate")
    variant = Design.objects.create(
        campaign=world.campaign, power=world.powers[0], key="p0-heavy", name="Heavy frigate",
        craft_class="military", mobility="mobile", mass=20, npv=66, crew=3,
    )  # fmt: skip
    for s in DesignSystem.objects.filter(design=frigate):
        s.pk, s.design = None, variant
        s.count = 3 if s.key == "b1" else s.count
        s.save()
    return world


@pytest.fixture
def api(world: World) -> ApiClient:
    client = ApiClient()
    client.force_login(world.users[0])
    client.base = f"/api/campaigns/{world.campaign.pk}/"
    return client


def cost(world: World, **payload: Any) -> list[str]:
    return fleet_costs.order_cost(power=world.powers[0], payload=payload)


def test_repair_and_rebuild_show_their_cost_and_fatigue_before_ordering(world: World) -> None:
    repair = cost(world, type="repair", craft="p0-g0-f0", repairer="p0-y1")
    assert repair[0] == (
        "Costs 3 Ore: 3 for destroyed systems at their point cost; disabled systems are fixed free."
    )
    # ceil(100 × 3 / 60) = 5 % added on completion
    assert repair[1] == "Adds 5% fatigue when it completes (now 10%)."
    assert repair[2].startswith("At y1's rating of 30 Ore a round: about 1 rounds; paid from ")
    rebuild = cost(world, type="rebuild", craft="p0-g0-f0", builder="p0-y1", remove_fatigue=True)
    # removing 10 % fatigue costs ceil(½ × 10/100 × 60) = 3 Ore more
    assert rebuild[:2] == [
        "Costs 6 Ore: 3 for destroyed systems at their point cost, 3 to remove 10% fatigue; "
        "disabled systems are fixed free.",
        "Adds no fatigue (now 10%).",
    ]
    refit = cost(world, type="refit", craft="p0-g0-f1", builder="p0-y1", design="p0-heavy")
    assert refit[0] == "Costs 6 Ore: the systems Heavy frigate adds, at their point cost."
    # another power's craft is simply not there
    assert cost(world, type="repair", craft="p1-g0-f0", repairer="p0-y1") == []


def test_the_forms_offer_own_craft_and_repairers_only(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    for kind in ("repair", "rebuild", "refit", "restock", "study_design"):
        url = reverse("orders", args=[world.campaign.pk, "p0"]) + f"?type={kind}"
        text = client.get(url).content.decode()
        assert "g0-f0 (Frigate)" in text, kind
        assert "p1-" not in text, kind
    text = client.get(reverse("orders", args=[world.campaign.pk, "p0"]) + "?type=repair").text
    assert 'name="repairer"' in text and "y1 (Yard) at" in text


def test_a_repair_is_entered_with_its_typed_id(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    r = client.post(url, {"type": "repair", "id": "fix1", "craft": "p0-g0-f0", "repairer": "p0-y1"})
    assert r.status_code == 302, r.text
    assert Order.objects.get().payload == {
        "type": "repair",
        "id": "p0-fix1",
        "craft": "p0-g0-f0",
        "repairer": "p0-y1",
    }


BAD: list[tuple[dict[str, Any], str]] = [
    ({"type": "repair", "id": "r1", "craft": "p1-g0-f0", "repairer": "p0-y1"}, "craft"),
    ({"type": "repair", "id": "r1", "craft": "p0-g0-f0", "repairer": "nope"}, "repairer"),
    ({"type": "repair", "id": "r1", "craft": "p0-g0-f0", "repairer": "p0-y1", "ore": -2}, "ore"),
    (
        {
            "type": "rebuild",
            "id": "r1",
            "craft": "p0-g0-f0",
            "builder": "p0-y1",
            "remove_fatigue": "yes",
        },
        "remove_fatigue",
    ),
    (
        {
            "type": "refit",
            "id": "r1",
            "craft": "p0-g0-f0",
            "builder": "p0-y1",
            "design": "p1-frigate",
        },
        "design",
    ),
    (
        {"type": "restock", "source": "p0-y1", "target": "p0-g0-f0", "if_engaged": "maybe"},
        "if_engaged",
    ),
    (
        {"type": "restock", "source": "p0-y1", "target": "p0-g0-f0", "items": {"torpedo": 2}},
        "items",
    ),
    ({"type": "study_design", "id": "s1", "craft": "p0-g0-f0"}, "builder"),
]


@pytest.mark.parametrize(("payload", "field"), BAD, ids=[f"{p['type']}-{f}" for p, f in BAD])
def test_bad_input_names_the_field_and_changes_nothing(
    api: ApiClient, payload: dict[str, Any], field: str
) -> None:
    r = api.post(api.base + "orders/", json.dumps(payload), content_type="application/json")
    assert r.status_code == 400
    assert field in r.json(), r.json()
    assert not Order.objects.exists()


def test_a_captured_craft_can_never_be_studied(api: ApiClient, world: World) -> None:
    Craft.objects.filter(key="p0-g0-f1").update(captured=True)
    payload = {"type": "study_design", "id": "s1", "craft": "p0-g0-f1", "builder": "p0-y1"}
    r = api.post(api.base + "orders/", json.dumps(payload), content_type="application/json")
    assert r.status_code == 400
    assert "was captured" in r.json()["craft"][0], r.json()
    assert not Order.objects.exists()


def test_the_page_form_names_the_field(client: Client, world: World) -> None:
    """In the browser, input that does not parse is refused with nothing stored; an order that
    breaks a rule is kept marked with its error (as every order on the page, issue 11), naming
    the field, and resolution lists it as rejected."""
    client.force_login(world.users[0])
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    r = client.post(url, {"type": "rebuild", "id": "2 Rebuild", "craft": "p0-g0-f0"})
    assert r.status_code == 400
    assert "Short name: &#x27;2 Rebuild&#x27; is not a valid id" in r.text
    assert not Order.objects.exists()
    r = client.post(url, {"type": "rebuild", "id": "rb1", "craft": "p0-g0-f0", "builder": "x9"})
    assert r.status_code == 302
    assert Order.objects.get().error.startswith("builder: ")


def test_the_projected_statement_shows_a_repair(world: World) -> None:
    """Issue 15: a repair order's Ore appears in the projected statement (its work's
    stockpile, R-10.2)."""
    p0 = world.powers[0]
    StarSystem.objects.filter(key="s0-0").update(stock_ore=100)
    Build.objects.filter(power=p0).delete()  # the yard's rating is free for the repair
    order = {"type": "repair", "id": "fix1", "craft": "p0-g0-f0", "repairer": "p0-y1"}
    services.add_order(power=p0, payload=order, actor="t")
    statement = selectors.projected_statement(p0)
    lines = [line for _, step in statement.steps for line in step]
    assert any(line["rule"] == "R-10.2" for line in lines), statement.rejected
