"""Orders on the map (issue 30, item 2): the orders page loads the power's own map, its groups
are buttons keyed for their declarations, a declaration drafted from the map (the group's row
form posting to ``declare``) is drawn as an arrow, a system offers what can be ordered there,
and no other power's secrets reach the SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from economy.engine.hexgrid import Hex, centre_px
from economy.models import Order
from powers.maps import HEX_SIZE
from powers.models import FleetGroup, StarSystem
from tests.web.factories import World, add_fleet, make_campaign
from tests.web.test_maps import (
    P1_CENTRE,
    P1_HQ,
    P1_NODE,
    P1_OUTPOST,
    P1_SENSOR,
    SVG,
    add_secrets,
    assert_no_trace_of,
)
from tests.web.test_query_counts import count

pytestmark = pytest.mark.django_db


def world_with_fleet(name: str = "Order map", systems: int = 3, groups: int = 2) -> World:
    world = make_campaign(name, n_powers=2, systems_per_power=systems)
    add_fleet(world, groups=groups)
    return world


def fragment(client: Client, world: World) -> str:
    url = reverse("orders", args=[world.campaign.pk, "p0"]) + "?part=map"
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def svg_of(html: str) -> ET.Element:
    match = re.search(r"<svg .*?</svg>", html, re.S)
    assert match is not None
    return ET.fromstring(match.group(0))  # noqa: S314 - our own output, no DTD


def own_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "own-group" in (g.get("class") or "").split()]


def declare(client: Client, world: World, group: str, hexcode: str, **extra: Any) -> Any:
    url = reverse("declare", args=[world.campaign.pk, "p0", group])
    body = {"hex": hexcode, "order": "none", "status": "none", "round": 1, **extra}
    return client.post(url, body, headers={"HX-Request": "true"})


def home_of(world: World) -> str:
    return StarSystem.objects.get(holder=world.powers[0], system_type="homeworld").hex.code


def test_the_page_loads_the_map_of_its_own_groups_only(client: Client) -> None:
    world = world_with_fleet()
    add_secrets(world)  # p1's hub, bubble, groups SECRET-GROUP-KEY and a static
    client.force_login(world.users[0])
    page = client.get(reverse("orders", args=[world.campaign.pk, "p0"])).content.decode()
    assert 'id="order-map"' in page and "?part=map" in page

    html = fragment(client, world)
    root = svg_of(html)
    home = home_of(world)
    groups = own_groups(root)
    assert [g.get("data-key") for g in groups] == ["p0-g0", "p0-g1"]
    for g, name in zip(groups, ("g0", "g1"), strict=True):
        # a button the keyboard reaches, named by the group's name and hex, never its key
        assert (g.get("tabindex"), g.get("role"), g.get("data-hex")) == ("0", "button", home)
        assert g.get("aria-label") == f"Group {name} at {home}: choose its hex"
    svg = re.search(r"<svg .*?</svg>", html, re.S).group(0)  # type: ignore[union-attr]
    assert_no_trace_of(svg, [P1_CENTRE, P1_NODE, P1_HQ, P1_OUTPOST, P1_SENSOR])
    for word in ("SECRET", "zz-p1-deep-hub", 'data-hub="hub1"', "p1-g0", "g-p1-b"):
        assert word not in html
    assert "moves" not in svg  # nothing drafted, no arrow


def test_a_move_drafted_from_the_map_is_an_order_and_an_arrow(client: Client) -> None:
    world = world_with_fleet()
    client.force_login(world.users[0])
    home = home_of(world)
    response = declare(client, world, "p0-g1", "0202")
    assert response.status_code == 200
    assert "sheet-changed" in response["HX-Trigger"]  # the map reloads on it
    assert 'value="0202"' in response.content.decode()  # the sheet's table shows the new hex
    (order,) = Order.objects.filter(sheet__power=world.powers[0], payload__type="declare_group")
    assert (order.payload["group"], order.payload["hex"]) == ("p0-g1", "0202")

    root = svg_of(fragment(client, world))
    (arrow,) = [e for e in root.iter(f"{SVG}line") if e.get("class") == "move"]
    a, b = centre_px(Hex.parse(home), HEX_SIZE), centre_px(Hex(2, 2), HEX_SIZE)
    assert [arrow.get(k) for k in ("x1", "y1", "x2", "y2")] == [f"{v:.1f}" for v in (*a, *b)]
    assert (arrow.get("data-key"), arrow.get("data-to")) == ("p0-g1", "0202")
    title = arrow.find(f"{SVG}title")
    assert title is not None and title.text == f"Group g1: {home} → 0202"
    g1 = next(g for g in own_groups(root) if g.get("data-key") == "p0-g1")
    assert g1.get("aria-label") == f"Group g1 at {home}, drafted to 0202: choose its hex"
    assert FleetGroup.objects.get(key="p0-g1").hex_code == home  # drafted, not moved

    # the table edited back to where it is: the arrow goes (both ways in step)
    assert declare(client, world, "p0-g1", home).status_code == 200
    assert "move" not in [e.get("class") for e in svg_of(fragment(client, world)).iter()]


def test_a_bad_hex_names_the_field_and_changes_nothing(client: Client) -> None:
    world = world_with_fleet()
    client.force_login(world.users[0])
    assert declare(client, world, "p0-g0", "0202").status_code == 200
    response = declare(client, world, "p0-g0", "99")
    assert (response.status_code, response["HX-Refresh"]) == (400, "true")
    page = client.get(reverse("orders", args=[world.campaign.pk, "p0"])).content.decode()
    assert "Hex: expected a hex XXYY (two digits for the column, two for the row)" in page
    (order,) = Order.objects.filter(sheet__power=world.powers[0], payload__type="declare_group")
    assert order.payload["hex"] == "0202"


def test_a_system_offers_what_can_be_ordered_there(client: Client) -> None:
    world = world_with_fleet()
    client.force_login(world.users[0])
    html = fragment(client, world)
    home = home_of(world)
    place = re.search(rf'<section data-place="{home}">.*?</section>', html, re.S)
    assert place is not None
    words = re.findall(r">([^<>]+)</a>", place.group(0))
    assert words == [
        "Build here with y1 (Yard)",
        "Set up a trade hub centred here",
        "Extend hub Hub0 to here",
        "Recruit troops here",
    ]
    assert 'data-place="0401"' not in html  # p1's homeworld: nothing of p0's to order there
    # "Build here" prefills the sheet's own form: type build, the builder chosen
    link = re.search(r'href="([^"]*type=build[^"]*)"', place.group(0))
    assert link is not None
    form = client.get(link.group(1).replace("&amp;", "&")).content.decode()
    assert re.search(r'<option value="build"[^>]*selected', form)
    assert re.search(r'<option value="p0-y1"[^>]*selected', form), "builder not prefilled"


def test_the_map_costs_the_same_queries_whatever_the_campaign(client: Client) -> None:
    counts = []
    for name, n in (("Small", 5), ("Large", 100)):
        world = world_with_fleet(name, systems=n, groups=n // 5)
        client.force_login(world.users[0])
        declare(client, world, "p0-g0", "0202")
        counts.append(count(lambda: fragment(client, world)))  # noqa: B023 - called now
    # the private map SVG's 20, then the power's fleet (its builders, its groups' keys), its
    # drafted moves, hubs and held systems: once each, whatever the size
    assert counts == [32, 32]
