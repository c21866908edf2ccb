"""The one entry check for orders (issue 11, items 1 and 2): what passes entry can always be
stored and resolved; unknown fields, over-long text and amounts beyond the columns are refused
by both front doors; a sheet holds a bounded number of orders; player-chosen ids are typed
short and stored as ``<power>-<id>``, so they meet neither another power's nor a generated
key; and no refusal tells a player what another power holds."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from economy import entry, services
from economy.models import Order, OrderSheet, Round, RoundRecord
from economy.snapshot import export_state
from powers.models import StarSystem
from tests.web.factories import ApiClient, World, make_campaign
from trade import services as trade_services
from trade.models import Motion, TradeHub

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_campaign()
    # p0's third system (0103) is outside its hub and can pay for a new one
    StarSystem.objects.filter(key="s0-2").update(stock_ore=100)
    return world


@pytest.fixture
def api(world: World) -> ApiClient:
    client = ApiClient()
    client.force_login(world.users[0])
    client.base = f"/api/campaigns/{world.campaign.pk}/"
    return client


def post(client: ApiClient, path: str, data: object, **headers: str) -> TestResponse:
    return client.post(
        client.base + path,
        json.dumps(data),
        content_type="application/json",
        headers=headers,
    )


def resolve(world: World) -> Round:
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(round_id=rnd.pk)
    rnd.refresh_from_db()
    return rnd


# --- item 1: nothing that passes entry can fail resolution --------------------------------


def test_a_hub_id_too_long_for_its_column_is_refused_by_the_api(
    api: ApiClient, world: World
) -> None:
    """Today a 100-character id is accepted (201) and every resolution then dies with
    ``value too long for type character varying(64)``."""
    r = post(api, "orders/", {"type": "hub_setup", "id": "a" * 100, "centre": "0103"})
    assert r.status_code == 400
    assert "id" in r.json()
    assert not Order.objects.exists()
    assert resolve(world).status == "resolved"


def test_the_browser_refuses_what_cannot_be_stored_too(world: World) -> None:
    p0 = world.powers[0]
    for payload in (
        {"type": "hub_setup", "id": "a" * 100, "centre": "0103"},
        {"type": "gal_transfer", "to": "p1", "amount": 10**12 + 1},
        {"type": "ship", "from_hub": "hub0", "to_hub": "hub0", "resource": "ore", "amount": 2**31},
        {"type": "gal_transfer", "to": "p1" * 40, "amount": 1},
        {"type": "hub_setup", "id": "west", "centre": "0103", "nodes": ["0104"] * 61},
        {"type": "research_project", "gal": 2, "note": "x" * 2_000_000},
    ):
        with pytest.raises(services.OrderInvalid):
            services.add_order(power=p0, payload=payload, actor="t")
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    ("amount", "status"),
    [(10**12, 201), (10**12 + 1, 400), (10**18, 400), (-(10**13), 400), (5, 201)],
)
def test_amounts_beyond_a_trillion_are_refused(api: ApiClient, amount: int, status: int) -> None:
    """10**12 itself may be entered (whether the bank can pay is judged at resolution)."""
    r = post(api, "orders/", {"type": "gal_transfer", "to": "p1", "amount": amount})
    assert r.status_code == status, r.json()
    if amount > 10**12:
        assert r.json() == {"amount": ["expected a whole number from 1 to 1,000,000,000,000"]}


def test_unknown_fields_are_refused_not_stored(api: ApiClient) -> None:
    r = post(api, "orders/", {"type": "research_project", "gal": 2, "note": "x" * 10_000})
    assert r.status_code == 400 and r.json() == {
        "note": ["not a field of a research_project order"]
    }
    assert not Order.objects.exists()


def test_a_body_over_the_cap_is_413(api: ApiClient, settings: Settings) -> None:
    body = {"type": "research_project", "gal": 2, "pad": "x" * settings.FTCAMP_MAX_JSON_BYTES}
    r = post(api, "orders/", body)
    assert r.status_code == 413
    assert "larger than" in r.json()["detail"]
    assert not Order.objects.exists()


def test_a_sheet_holds_200_orders_plus_3_per_asset(world: World, settings: Settings) -> None:
    """p0 has 3 systems and a hub: 200 + 3 * 4 = 212 orders, then a refusal naming the cap."""
    p0 = world.powers[0]
    assert entry.max_orders(4) == 212
    rnd = Round.objects.get(campaign=world.campaign)
    sheet = OrderSheet.objects.create(round=rnd, power=p0)
    Order.objects.bulk_create(
        Order(sheet=sheet, position=i, payload={"type": "research_project", "gal": 2})
        for i in range(211)
    )
    services.add_order(power=p0, payload={"type": "research_project", "gal": 2}, actor="t")
    with pytest.raises(services.OrderInvalid, match="at most 212 orders"):
        services.add_order(power=p0, payload={"type": "research_project", "gal": 2}, actor="t")
    # replacing an order on a full sheet is fine
    services.update_order(
        power=p0, position=0, payload={"type": "research_project", "gal": 4}, actor="t"
    )
    assert sheet.orders.count() == 212


def test_an_order_stored_before_the_check_is_rejected_not_fatal(world: World) -> None:
    """Sheets written before this check existed may hold an order that cannot be stored by
    resolution; it is listed as rejected and the round resolves."""
    p0 = world.powers[0]
    rnd = Round.objects.get(campaign=world.campaign)
    sheet = OrderSheet.objects.create(round=rnd, power=p0)
    Order.objects.create(
        sheet=sheet, position=0, payload={"type": "hub_setup", "id": "a" * 100, "centre": "0103"}
    )
    Order.objects.create(
        sheet=sheet, position=1, payload={"type": "gal_transfer", "to": "p1", "amount": 3}
    )
    assert resolve(world).status == "resolved"
    rejected = RoundRecord.objects.get(round=rnd).rejected
    assert [(r["power"], r["index"]) for r in rejected] == [("p0", 0)]
    assert "at most 64 characters" in rejected[0]["error"]
    world.powers[1].refresh_from_db()
    assert world.powers[1].gal > 101  # the order after it was applied


# --- item 2: ids settled once --------------------------------------------------------------


def test_a_typed_hub_id_is_stored_as_power_dash_id_with_its_name(
    api: ApiClient, world: World
) -> None:
    r = post(
        api,
        "orders/",
        {"type": "hub_setup", "id": "west", "name": "Western Reach", "centre": "0103"},
    )
    assert r.status_code == 201, r.json()
    assert r.json()["payload"]["id"] == "west"  # as the player typed it
    assert Order.objects.get().payload["id"] == "p0-west"  # as stored and resolved
    resolve(world)
    hub = TradeHub.objects.get(key="p0-west")
    assert (hub.power.key, hub.name) == ("p0", "Western Reach")
    assert any(h["id"] == "p0-west" for h in export_state(world.campaign)["hubs"])


# a name that writes short ("West", "we st") is taken short and a blank one chosen (issue 30:
# tests/web/test_short_names.py); what still does not fit is refused
@pytest.mark.parametrize("typed", ["1west", "9 lives", "!!!", "w" * 25, 7])
def test_typed_ids_follow_the_pattern(api: ApiClient, typed: str) -> None:
    r = post(api, "orders/", {"type": "hub_setup", "id": typed, "centre": "0103"})
    assert r.status_code == 400
    assert "lower-case letters" in r.json()["id"][0]


def test_a_player_chosen_id_never_meets_a_generated_key(api: ApiClient, world: World) -> None:
    """Today ``hub_setup`` with id ``motion-<next>`` takes the key the next motion is given:
    the state then has one id twice and every order POST and projection is a 500."""
    p0 = world.powers[0]
    nxt = (Motion.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    assert post(api, "orders/", {"type": "hub_setup", "id": f"motion-{nxt}", "centre": "0103"})
    resolve(world)
    assert TradeHub.objects.filter(key=f"p0-motion-{nxt}").exists()
    motion = trade_services.draft_motion(
        power=p0, fields={"kind": "rate", "edge": "ore>bio", "rate": "1.5"}, actor="t"
    )
    trade_services.submit_motion(power=p0, key=motion.key, actor="t")
    assert motion.key == f"motion.{nxt}"  # a form no typed id can take (no "-")
    r = post(api, "orders/", {"type": "research_project", "gal": 2})
    assert r.status_code == 201
    assert api.get(api.base + "projection/").status_code == 200


def test_ids_that_could_meet_an_engine_shipment_id_are_refused(world: World) -> None:
    """Shipments the engine creates are ``r<round>-<power>-<n>`` (contracts §1)."""
    assert entry.key_errors("r2", {"type": "hub_setup", "id": "p0-1"}) == ["id: choose another id"]
    assert entry.key_errors("p0", {"type": "hub_setup", "id": "west-1"}) == []


def test_refusals_reveal_nothing_about_other_powers(api: ApiClient, world: World) -> None:
    """Today: "hub hub1 belongs to p1, not p0" confirms another power's hub, and "id ... is
    already used" reveals a secret object. Another power's hub and no hub at all read alike."""
    theirs = post(
        api,
        "orders/",
        {"type": "ship", "from_hub": "hub0", "to_hub": "hub1", "resource": "ore", "amount": 1},
    ).json()
    nobody = post(
        api,
        "orders/",
        {"type": "ship", "from_hub": "hub0", "to_hub": "zz", "resource": "ore", "amount": 1},
    ).json()
    assert theirs == {"to_hub": ["no such hub of yours: 'hub1'"]}
    assert nobody == {"to_hub": ["no such hub of yours: 'zz'"]}
    # p1's secret hub id cannot be probed: p0's typed ids only ever name p0's own keys
    TradeHub.objects.filter(key="hub1").update(key="p1-secret")
    r = post(api, "orders/", {"type": "hub_setup", "id": "secret", "centre": "0103"})
    assert r.status_code == 201
    assert "p1" not in json.dumps(r.json())


def test_a_hub_node_of_another_power_is_not_named_in_a_rejection(world: World) -> None:
    p0 = world.powers[0]
    services.add_order(
        power=p0, payload={"type": "hub_setup", "id": "probe", "centre": "0401"}, actor="t"
    )
    rnd = resolve(world)
    errors = [r["error"] for r in RoundRecord.objects.get(round=rnd).rejected]
    assert errors and not any("hub1" in e for e in errors)


def test_the_hub_form_asks_for_the_typed_id_and_name(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    r = client.post(url, {"type": "hub_setup", "id": "9 West", "centre": "0103"})
    assert r.status_code == 400
    assert "Short name: &#x27;9 West&#x27; is not a valid id" in r.text
    assert not Order.objects.exists()
    r = client.post(url, {"type": "hub_setup", "id": "west", "name": "Far West", "centre": "0103"})
    assert r.status_code == 302
    assert Order.objects.get().payload == {
        "type": "hub_setup",
        "id": "p0-west",
        "name": "Far West",
        "centre": "0103",
    }
    edit = client.get(reverse("order-edit", args=[world.campaign.pk, "p0", 0]))
    assert 'value="west"' in edit.text  # the player sees what they typed
