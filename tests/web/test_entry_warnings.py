"""Issue 30, item 4: at entry, on the page and over the API alike, an amount beyond what the
power holds where the field draws is warned of in words naming the field, and the order is
kept (a draft, marked like any other problem: goods may still arrive in the round); within
the holding there is no warning; and a warning never tells of another power's holdings."""

from __future__ import annotations

import html
import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from economy import catalogue, entry, services
from economy.engine.catalog import Holdings
from economy.engine.validate import catalog_of, draw_warnings
from economy.models import Order, OrderSheet
from economy.snapshot import load_state
from powers.models import FleetGroup, Power, StarSystem
from tests.web.factories import ApiClient, World, add_fleet, make_campaign
from tests.web.test_query_counts import count
from trade.models import TradeHub

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

OVER = {"type": "gal_transfer", "to": "p1", "amount": 100_000}  # p0's treasury: 100 Gal
WORDS = "100,000 Gal is more than the 100 Gal your treasury holds"


@pytest.fixture
def world() -> World:
    world = make_campaign()
    add_fleet(world)
    # p0's homeworld s0-0 (0101): 6 Bio; its hub covers 0101 with 25 Bio; p1 holds far more
    StarSystem.objects.filter(key="s0-0").update(stock_bio=6, stock_pl=30)
    TradeHub.objects.filter(key="hub0").update(pool_bio=25)
    TradeHub.objects.filter(key="hub1").update(pool_ore=7777, pool_bio=8888)
    FleetGroup.objects.filter(key="p0-g0").update(troops=12)
    FleetGroup.objects.filter(key="p1-g0").update(troops=9999)
    return world


@pytest.fixture
def api(world: World) -> ApiClient:
    client = ApiClient()
    client.force_login(world.users[0])
    client.base = f"/api/campaigns/{world.campaign.pk}/"
    return client


@pytest.fixture
def page(world: World) -> Client:
    client = Client()
    client.force_login(world.users[0])
    return client


def post(client: ApiClient, data: object) -> TestResponse:
    return client.post(client.base + "orders/", json.dumps(data), content_type="application/json")


def add_on_page(client: Client, world: World, data: dict[str, Any]) -> TestResponse:
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    return client.post(url, {**data, "round": 1}, HTTP_HX_REQUEST="true")


def text_of(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


# --- the API -----------------------------------------------------------------------------


def test_api_keeps_an_order_beyond_the_treasury_with_its_warning(api: ApiClient) -> None:
    r = post(api, OVER)
    assert r.status_code == 201, r.content
    assert r.json() == {
        "position": 0,
        "number": 1,
        "payload": OVER,
        "error": "",  # a warning is not an error: a client tells them apart (issue 30)
        "warning": f"amount: {WORDS}",
    }
    assert Order.objects.get().warning == f"amount: {WORDS}"
    sheet = api.get(api.base + "orders/").json()
    assert sheet[0]["warning"] == f"amount: {WORDS}"


def test_api_within_the_holding_gives_no_warning(api: ApiClient) -> None:
    r = post(api, {**OVER, "amount": 100})
    assert r.status_code == 201 and r.json()["warning"] == ""


def test_a_warned_order_takes_a_submitted_sheet_back_to_draft(api: ApiClient, world: World) -> None:
    """Kept as a draft: the player submits what they last saw, warnings and all."""
    services.add_order(power=world.powers[0], payload={**OVER, "amount": 1}, actor="t")
    services.submit_sheet(power=world.powers[0], actor="t")
    r = api.put(api.base + "orders/0/", json.dumps(OVER), content_type="application/json")
    assert r.status_code == 200 and r.json()["warning"] == f"amount: {WORDS}"
    assert OrderSheet.objects.get(power=world.powers[0]).status == "draft"


def test_api_still_refuses_rule_errors_and_a_warning_does_not_hide_them(api: ApiClient) -> None:
    r = post(api, {**OVER, "to": "nobody"})
    assert r.status_code == 400
    assert r.json() == {"to": ["unknown power 'nobody'"]}
    assert not Order.objects.exists()


def test_api_update_warns_as_the_add_does(api: ApiClient) -> None:
    post(api, {**OVER, "amount": 1})
    r = api.put(api.base + "orders/0/", json.dumps(OVER), content_type="application/json")
    assert r.status_code == 200 and r.json()["warning"] == f"amount: {WORDS}"
    r = api.put(
        api.base + "orders/0/", json.dumps({**OVER, "amount": 2}), content_type="application/json"
    )
    assert r.json()["warning"] == ""


def test_the_rest_of_the_sheet_is_added_to_what_an_order_takes(api: ApiClient) -> None:
    """Two transfers of 60 Gal from a treasury of 100: the second is warned of, with what the
    first takes; an order replaced is not added to itself (issue 30)."""
    half = {**OVER, "amount": 60}
    assert post(api, half).json()["warning"] == ""
    assert post(api, half).json()["warning"] == (
        "amount: with the 60 Gal your other orders take, 60 Gal is more than the 100 Gal "
        "your treasury holds"
    )
    r = api.put(api.base + "orders/0/", json.dumps(half), content_type="application/json")
    assert r.json()["warning"].startswith("amount: with the 60 Gal")  # the other one, not itself
    r = api.put(
        api.base + "orders/1/", json.dumps({**half, "amount": 40}), content_type="application/json"
    )
    assert r.json()["warning"] == ""  # 60 + 40: enough
    assert post(api, {**OVER, "amount": 1}).json()["warning"] == (
        "amount: with the 100 Gal your other orders take, 1 Gal is more than the 100 Gal your "
        "treasury holds"
    )
    # another place's draws are not added: the hub's Bio is not the treasury's Gal
    sell = {"type": "market_sell", "resource": "bio", "amount": 25, "from": "hub0"}
    assert post(api, sell).json()["warning"] == ""


@pytest.mark.parametrize(
    "order",
    [
        {"type": "build", "design": "p0-frigate", "builders": ["p0-y1"], "ore": 100},
        {"type": "repair", "craft": "p0-g0-f0", "repairer": "p0-y1", "ore": 100},
        {"type": "rebuild", "craft": "p0-g0-f0", "builder": "p0-y1", "ore": 100},
    ],
    ids=["build", "repair", "rebuild"],
)
def test_work_warns_of_ore_beyond_what_reaches_its_builder(
    api: ApiClient, order: dict[str, Any]
) -> None:
    """The yard y1 at 0101: hub0's 7 Ore (the homeworld has none) may reach it (R-1.4)."""
    r = post(api, order)
    assert r.status_code == 201, r.content
    assert r.json()["warning"] == (
        "ore: 100 Ore is more than the 7 Ore that can reach the hex of craft:p0-y1"
    )
    seven = json.dumps({**order, "ore": 7})
    r = api.put(api.base + "orders/0/", seven, content_type="application/json")
    assert r.json()["warning"] == ""


# --- the page ----------------------------------------------------------------------------


def test_page_keeps_the_order_marked_and_says_so(page: Client, world: World) -> None:
    r = add_on_page(page, world, {"type": "gal_transfer", "to": "p1", "amount": "100000"})
    assert r.status_code == 200
    shown = text_of(r)
    assert f"Gal: {WORDS}" in shown  # the field by its label
    assert "The order was saved with its warnings and errors marked" in shown
    order = Order.objects.get()
    assert order.payload == OVER and order.warning == f"amount: {WORDS}"
    sheet = text_of(page.get(reverse("orders", args=[world.campaign.pk, "p0"])))
    assert f"⚠ Gal: {WORDS}" in sheet


def test_page_within_the_holding_is_clean(page: Client, world: World) -> None:
    r = add_on_page(page, world, {"type": "gal_transfer", "to": "p1", "amount": "100"})
    assert r.status_code == 200
    assert "your treasury holds" not in text_of(r)
    assert "saved with its warnings and errors" not in text_of(r)
    assert (Order.objects.get().error, Order.objects.get().warning) == ("", "")


def test_the_warning_speaks_in_names_on_the_page(page: Client, world: World) -> None:
    r = add_on_page(page, world, {"type": "send_troops", "group": "p0-g0", "troops": "13"})
    shown = text_of(r)
    assert "Troops: 13 troops is more than the 12 troops Group g0 holds" in shown
    assert "group:" not in shown and "p0-g0 holds" not in shown
    r = add_on_page(page, world, {"type": "supply_ep", "into": "p0-g0", "ep": "1000000"})
    shown = text_of(r)
    assert (
        "EP: 1,000,000 EP need 1,000,000 Bio, more than the 25 Bio that can reach the hex of "
        "Group g0"
    ) in shown


def test_the_validator_warns_as_you_type(page: Client, world: World) -> None:
    url = reverse("order-validate", args=[world.campaign.pk, "p0"])
    r = page.post(url, {"type": "research_project", "gal": "102"})
    assert "Gal (2 Gal = 1 TP): 102 Gal is more than the 100 Gal your treasury holds" in (
        text_of(r)
    )
    assert "your treasury" not in text_of(page.post(url, {"type": "research_project", "gal": "4"}))


# --- never another power's holdings --------------------------------------------------------

THEIRS: list[dict[str, Any]] = [
    {"type": "send_troops", "group": "p1-g0", "troops": 10_000},
    {"type": "market_sell", "resource": "ore", "amount": 100_000, "from": "hub1"},
    {"type": "ship", "from_hub": "hub1", "to_hub": "hub0", "resource": "bio", "amount": 9000},
    {"type": "supply_ep", "into": "p1-g0", "ep": 100_000},
    {"type": "embark", "at": "s1-0", "pl": 100_000, "into": "p0-base"},
]


@pytest.mark.parametrize("order", THEIRS, ids=[o["type"] for o in THEIRS])
def test_no_warning_names_another_powers_holdings(
    api: ApiClient, page: Client, world: World, order: dict[str, Any]
) -> None:
    """Naming another power's group, hub or system gives its rule error ("no such ... of
    yours"), as before, and no warning: nothing it holds is told, on the page or the API."""
    r = post(api, order)
    assert r.status_code == 400
    assert "holds" not in r.content.decode() and "reach" not in r.content.decode()
    problems = entry.check(world.powers[0], order).problems
    assert problems and not any("more than" in p for p in problems)
    shown = text_of(add_on_page(page, world, {k: str(v) for k, v in order.items()}))
    for secret in ("9,999", "7,777", "8,888", "101 Gal"):
        assert secret not in shown
    assert "more than the" not in shown


def test_a_transfer_to_another_power_names_only_ones_own_treasury(api: ApiClient) -> None:
    error = post(api, OVER).json()["warning"]
    assert "101" not in error and "p1" not in error


# --- one place, and what it reads ----------------------------------------------------------

ORDERS: list[dict[str, Any]] = [
    OVER,
    {**OVER, "amount": 1},
    {"type": "research_project", "gal": 102},
    {"type": "send_troops", "group": "p0-g0", "troops": 13},
    {"type": "send_troops", "group": "p0-g0", "troops": 12},
    {"type": "market_sell", "resource": "bio", "amount": 26, "from": "hub0"},
    {"type": "market_sell", "resource": "ore", "amount": 1, "from": "s0-2"},
    {"type": "market_sell", "resource": "ore", "amount": 3, "from": "s0-2"},
    {"type": "ship", "from_hub": "hub0", "to_hub": "hub1", "resource": "bio", "amount": 26},
    {"type": "embark", "at": "s0-0", "pl": 31, "into": "p0-base"},
    {"type": "recruit_troops", "at": "hub0", "troops": 1, "into": "p0-g0"},
    {"type": "home_defense", "system": "s0-0", "troops": 30},
    {"type": "supply_ep", "into": "p0-g0", "ep": 26},
    {"type": "supply_ep", "into": "p0-base", "ep": 25},
    {"type": "diplomatic_mission", "gal": 101, "tp": 1},
    *THEIRS,
]


def test_the_narrow_holdings_warn_as_the_whole_state_does(world: World) -> None:
    """The shell reads only what the order names; its warnings are the ones the power's
    holdings in the whole state give (``Holdings.of``)."""
    power = world.powers[0]
    state = load_state(world.campaign)
    whole = replace(catalog_of(state), holdings=Holdings.of(state, "p0"))
    warned = 0
    for order in ORDERS:
        narrow = draw_warnings(catalogue.catalog_for(power, order), order)
        assert narrow == draw_warnings(whole, order), order
        warned += bool(narrow)
    assert warned == 10


def test_page_and_api_warn_from_one_check(api: ApiClient, page: Client, world: World) -> None:
    order = {"type": "market_sell", "resource": "bio", "amount": 26, "from": "hub0"}
    expected = "amount: 26 Bio is more than the 25 Bio hub:hub0 holds"
    assert entry.check(world.powers[0], order).warnings == [expected]
    assert post(api, order).json()["warning"] == expected
    add_on_page(page, world, {k: str(v) for k, v in order.items()})
    second = "amount: with the 26 Bio your other orders take, 26 Bio is more than the 25 Bio"
    assert [o.warning for o in Order.objects.order_by("position")] == [
        expected,
        f"{second} hub:hub0 holds",
    ]


@pytest.mark.parametrize("systems", [3, 60], ids=["small", "large"])
def test_warning_at_a_hex_reads_a_fixed_number_of_queries(systems: int) -> None:
    """The places' holdings come in the catalogue's one query (a warning costs none); what
    reaches a hex (R-1.4) two more: the union, the sheet's promises, the pacts' one query and
    those two, and the rest of the sheet (one), whatever the campaign's size."""
    world = make_campaign(f"size {systems}", systems_per_power=systems)
    add_fleet(world, groups=systems // 3)
    power = Power.objects.get(pk=world.powers[0].pk)
    plain = {"type": "gal_transfer", "to": "p1", "amount": 10**6}
    at_hex = {"type": "supply_ep", "into": "p0-g0", "ep": 10**6}
    assert count(lambda: entry.check(power, plain)) == count(
        lambda: entry.check(power, {**plain, "amount": 1})
    )
    assert count(lambda: entry.check(power, at_hex)) == 6
