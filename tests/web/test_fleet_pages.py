"""The Fleet page and the fleet order forms (issue 14): a power's groups with their craft, EP and
crew flags; builders with their work in progress and progress; designs and a form to register
one with its systems table and the NPV check; the cost of each fleet order and where it is paid
from, before it is added; the projected statement's fleet lines; the fleet API. A fixed number
of queries whatever the size of the campaign."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from economy import selectors, services
from economy.models import Order, Round
from fleet import costs as fleet_costs
from powers.models import Build, Craft, Design, FleetGroup, StarSystem
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    world = make_campaign("Fleet pages", n_powers=2, systems_per_power=3)
    add_fleet(world, groups=2)
    # p0-g0 went out of supply this round; one of p0-g1's frigates lacks crew
    FleetGroup.objects.filter(key="p0-g0").update(out_of_supply=True, ep=0)
    Craft.objects.filter(key="p0-g1-f0").update(crew=1)
    # the first build has 30 of 60 Ore paid: the yard's rating of 30 finishes it next round
    Build.objects.filter(key="p0-b0").update(paid=30)
    return world


def page(client: Client, world: World) -> str:
    client.force_login(world.users[0])
    response = client.get(reverse("fleet", args=[world.campaign.pk, "p0"]))
    assert response.status_code == 200
    return response.content.decode()


def row(html: str, attr: str, key: str) -> str:
    match = re.search(rf'<tr {attr}="{re.escape(key)}">(.*?)</tr>', html, re.S)
    assert match, f"no row {key}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1)))


def test_groups_show_craft_ep_crew_and_flags(client: Client, world: World) -> None:
    html = page(client, world)
    g0 = row(html, "data-unit", "p0-g0")
    # two frigates of NPV 60: 120 points, 2 EP needed; the homeworld gives no free EP here
    assert "g0-f0 (Frigate)" in g0 and "120" in g0
    assert "0 of 4 / 2" in g0  # EP stored of storage / needed
    assert "out of supply" in g0 and "2 EP short next round" in g0
    g1 = row(html, "data-unit", "p0-g1")
    assert "4 / 6" in g1 and "short of crew" in g1  # crew / CF needed
    assert "out of supply" not in g1
    # the other power's fleet is never on this page
    assert "p1-" not in html


def test_builders_show_rating_queue_progress_and_rounds(client: Client, world: World) -> None:
    html = page(client, world)
    yard = row(html, "data-builder", "p0-y1")
    assert "30 Ore/round" in yard
    assert '<progress max="60" value="30"' in html
    # b0 (30 left) takes the whole rating next round; b1 (59 left) gets 30 in the round after
    # and finishes in the third
    assert "Build b0" in yard and "about 1 round more at 30 Ore a round" in yard
    assert "Build b1" in yard and "about 3 rounds more" in yard


def test_designs_and_the_register_form(client: Client, world: World) -> None:
    html = page(client, world)
    frigate = row(html, "data-design", "p0-frigate")
    assert "Class 1 beam" in frigate and "60 Ore" in frigate
    assert 'name="sys_name"' in html and "Register a design" in html
    url = reverse("fleet-design", args=[world.campaign.pk, "p0"])
    typed = {
        "round": "1",
        "id": "dart",
        "name": "Dart",
        "class": "military",
        "mobility": "mobile",
        "mass": "30",
        "npv": "12",
        "sys_name": ["Class 1 beam", "Hull box", ""],
        "sys_points": ["3", "1", ""],
        "sys_count": ["2", "10", ""],
        "sys_cap1": ["", "", ""],
        "sys_amount1": ["", "", ""],
        "sys_cap2": ["", "", ""],
        "sys_amount2": ["", "", ""],
    }
    typed["npv"] = "12"  # below the systems' 3 × 2 + 1 × 10 = 16 points
    refused = client.post(url, typed)
    text = refused.content.decode()
    assert refused.status_code == 400 and not Order.objects.exists()
    assert "NPV 12 is below its systems&#x27; point cost 16" in text
    assert 'value="Hull box"' in text and 'value="Dart"' in text  # what was typed is kept
    typed["round"] = "7"  # a page shown for a round that is over
    over = client.post(url, typed)
    assert over.status_code == 409 and "round 7 is over" in over.content.decode()
    typed["round"] = "1"
    typed["npv"] = "40"
    assert client.post(url, typed).status_code == 302
    order = Order.objects.get()
    assert order.payload["id"] == "p0-dart"
    assert order.payload["systems"] == [
        {"id": "s1", "name": "Class 1 beam", "points": 3, "count": 2},
        {"id": "s2", "name": "Hull box", "points": 1, "count": 10},
    ]


def test_the_design_check_as_typed(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("fleet-design-check", args=[world.campaign.pk, "p0"])
    data = {"npv": "15", "sys_name": ["Beam"], "sys_points": ["4"], "sys_count": ["5"]}
    text = client.post(url, data).content.decode()
    assert "The systems cost 20 points, more than the NPV 15: raise the NPV." in text
    data["npv"] = "25"
    text = client.post(url, data).content.decode()
    assert "NPV 25 leaves 5 for hull and drives" in text
    assert "Registering a design is free in this campaign." in text


def test_fleet_orders_show_their_cost_and_where_it_is_paid_from(world: World) -> None:
    p0 = world.powers[0]
    StarSystem.objects.filter(key="s0-0").update(stock_pl=40)
    build = {"type": "build", "design": "p0-frigate", "builders": ["p0-y1"]}
    assert fleet_costs.order_cost(power=p0, payload=build) == [
        "Costs 60 Ore (NPV 60).",
        "Its builders convert 30 Ore a round: about 2 rounds; paid from the pool of hub Hub0 "
        "(7 Ore now).",
        "It fits the builder's workshop space if that is free: built inside.",
    ]
    crew = {"type": "crew", "group": "p0-g1"}
    assert fleet_costs.order_cost(power=p0, payload=crew) == [
        "2 CF for 10 PL (5 per military CF, 2 per civilian) from the pool of hub Hub0 (0 PL now)."
    ]
    supply = {"type": "supply_ep", "into": "p0-g0", "ep": 3}
    assert fleet_costs.order_cost(power=p0, payload=supply) == [
        "3 EP = 3 Bio from the pool of hub Hub0 (0 Bio now); it can take 4 more."
    ]
    make = {"type": "make", "builder": "p0-y1", "kind": "fighter", "count": 4}
    assert fleet_costs.order_cost(power=p0, payload=make) == [
        "4 × 3 = 12 Ore from the pool of hub Hub0 (7 Ore now); 4 of workshop space."
    ]
    unbuild = {"type": "unbuild", "craft": "p0-g0-f0", "builder": "p0-y1"}
    assert fleet_costs.order_cost(power=p0, payload=unbuild)[0] == (
        "Reclaims 60 Ore: NPV 60 less 0 for 0% fatigue, and 15 PL of its crew, at its hex."
    )
    # another power's craft costs nothing to ask about: it is simply not there
    theirs = {"type": "unbuild", "craft": "p1-g0-f0", "builder": "p0-y1"}
    assert fleet_costs.order_cost(power=p0, payload=theirs) == []


def test_the_order_form_offers_own_fleet_and_shows_the_cost(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    form = client.get(reverse("orders", args=[world.campaign.pk, "p0"]) + "?type=build")
    text = form.content.decode()
    assert "y1 (Yard) at 0101" in text and "p1-y1" not in text
    assert "paid each Support Phase up to the builders" in text  # the rule, in words
    checked = client.post(
        reverse("order-validate", args=[world.campaign.pk, "p0"]),
        {"type": "build", "id": "n1", "design": "p0-frigate", "builders": "p0-y1"},
    ).content.decode()
    assert "Costs 60 Ore (NPV 60)." in checked


def test_the_projected_statement_shows_fleet_orders(world: World) -> None:
    p0 = world.powers[0]
    StarSystem.objects.filter(key="s0-0").update(stock_ore=100)
    order = {"type": "build", "id": "n1", "design": "p0-frigate", "builders": ["p0-y1"]}
    services.add_order(power=p0, payload=order, actor="t")
    statement = selectors.projected_statement(p0)
    stocks = {(s.where, s.resource): (s.label, s.before, s.after) for s in statement.stocks}
    # the yard's 30 Ore go into the oldest work first: b0 finishes (its 30 left), so nothing is
    # left for b1 or the new build this round
    assert stocks[("build:p0-b0", "ore")] == ("work b0", 30, 0)
    assert ("build:p0-n1", "ore") not in stocks
    lines = [line for _, step in statement.steps for line in step]
    assert any(line["where"] == "build:p0-b0" and line["rule"] == "R-10.1" for line in lines)


def test_the_api_lists_only_the_players_fleet(client: Client, world: World) -> None:
    client.force_login(world.users[1])
    base = f"/api/campaigns/{world.campaign.pk}/"
    designs = client.get(base + "designs/").json()
    assert [d["key"] for d in designs] == ["p1-frigate", "p1-yard"]
    assert designs[0]["class"] == "military" and designs[0]["systems"][1]["ep_storage"] == 2
    craft = client.get(base + "craft/").json()
    assert {c["key"] for c in craft} == {
        "p1-y1",
        "p1-g0-f0",
        "p1-g0-f1",
        "p1-g1-f0",
        "p1-g1-f1",
    }
    groups = client.get(base + "groups/").json()
    assert [(g["key"], g["craft"]) for g in groups] == [
        ("p1-g0", ["p1-g0-f0", "p1-g0-f1"]),
        ("p1-g1", ["p1-g1-f0", "p1-g1-f1"]),
    ]
    builds = client.get(base + "builds/").json()
    assert [(b["key"], b["builders"], b["hex"]) for b in builds] == [
        ("p1-b0", ["p1-y1"], "0401"),
        ("p1-b1", ["p1-y1"], "0401"),
    ]


def count(fn: object) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()  # type: ignore[operator]
    return len(ctx.captured_queries)


# whatever the size of the campaign or of the fleet (2: loans, transfers); issue 29: the
# navigation bar's count of what waits on the player, 8 (tests/web/test_query_counts.py);
# issue 30: the loan and transfer form's other powers and held systems, by name (2);
# issue 31: the navigation bar's count of unread messages (1)
FLEET_PAGE_QUERIES = 28


def test_the_fleet_page_and_form_take_the_same_queries_at_any_size(client: Client) -> None:
    counts = []
    for name, groups in (("small", 1), ("large", 40)):
        world = make_campaign(name, n_powers=2, systems_per_power=3)
        add_fleet(world, groups=groups)
        client.force_login(world.users[0])
        fleet = reverse("fleet", args=[world.campaign.pk, "p0"])
        form = reverse("orders", args=[world.campaign.pk, "p0"]) + "?type=build"
        counts.append((count(lambda u=fleet: client.get(u)), count(lambda u=form: client.get(u))))
    assert counts[0] == counts[1]
    assert counts[0][0] == FLEET_PAGE_QUERIES
    assert Round.objects.filter(status="open").count() == 2
    assert Design.objects.count() == 8
