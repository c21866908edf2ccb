"""Issue 14 secrecy: a power's designs, craft and groups' contents never reach another player or
a visitor. A design name and craft keys carrying a canary, and a group of thirteen craft, are
planted in power A's fleet (and in its orders, statements and events through a resolved round);
every page, SVG and JSON route is then fetched as every other actor and grepped. The public map
still shows A's groups as markers in A's colour, counted, never opened."""

from __future__ import annotations

import re

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import reverse

from economy import entry, services
from economy.models import Round
from powers.models import Build, Craft, Design, FleetGroup
from tests.web.factories import World, add_fleet, make_campaign
from tests.web.test_access import clients, routes, url_for
from trade.models import TradeHub

pytestmark = pytest.mark.django_db

CANARY = "zq9fleet"
SECRETS = (CANARY, "13 craft", "1001 points")  # 13 craft of NPV 77


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=2)
    add_fleet(world, groups=1)
    a = world.powers[0]
    TradeHub.objects.filter(key="hub0").update(pool_ore=200, pool_pl=100, pool_bio=50)
    Build.objects.filter(power=a).delete()  # the yard's rating is all the canary's
    Design.objects.filter(key="p0-frigate").update(name=f"{CANARY} Dreadnought", npv=77)
    group = FleetGroup.objects.create(
        campaign=world.campaign, key=f"p0-{CANARY}", power=a, col=1, row=1, ep=4
    )
    frigate = Design.objects.get(key="p0-frigate")
    Craft.objects.bulk_create(
        Craft(campaign=world.campaign, key=f"p0-{CANARY}-c{i}", power=a, design=frigate,
              group=group, crew=3)
        for i in range(13)
    )  # fmt: skip
    FleetGroup.objects.create(campaign=world.campaign, key="ga", power=a, col=1, row=1)
    lancer = {
        "type": "register_design",
        "id": f"{CANARY}-lancer",
        "name": f"{CANARY} Lancer",
        "class": "military",
        "mobility": "mobile",
        "mass": 10,
        "npv": 20,
        "systems": [{"id": "s1", "name": f"{CANARY} beam", "points": 5}],
    }
    for payload in (
        lancer,
        {"type": "build", "id": f"{CANARY}-1", "design": f"p0-{CANARY}-lancer",
         "builders": ["p0-y1"]},
        {"type": "crew", "group": f"p0-{CANARY}"},
        {"type": "supply_ep", "into": f"p0-{CANARY}", "ep": 2},
    ):  # fmt: skip
        assert services.add_order(power=a, payload=payload, actor="a").error == ""
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    assert services.resolve_round(round_id=rnd.pk)
    # the canary's build finished (20 + 2 at the yard's 30): a craft in orbit, and a draft
    assert Craft.objects.filter(key=f"p0-{CANARY}-1", orbit__key="p0-y1").exists()
    form = {"type": "form_group", "id": f"{CANARY}-new", "craft": [f"p0-{CANARY}-1"]}
    assert services.add_order(power=a, payload=form, actor="a").error == ""
    return world


def body(response: HttpResponseBase) -> bytes:
    if isinstance(response, StreamingHttpResponse):
        # the stubs type a stream as Iterable[object]; a Django view streams bytes
        return b"".join(response.streaming_content)  # type: ignore[arg-type]
    assert isinstance(response, HttpResponse)
    return response.content


def test_no_route_shows_another_powers_fleet(world: World) -> None:
    seen = 0
    for name, pattern in routes():
        url = url_for(name, pattern, world)
        for who, client in clients(world).items():
            if who == "owner":
                continue
            for method in ("get", "post"):
                text = body(getattr(client, method)(url)).decode(errors="replace")
                seen += 1
                for secret in SECRETS:
                    assert secret not in text, f"{who} saw {secret!r} at {method} {url}"
    assert seen > 100


def test_maps_and_api_as_the_other_player(world: World) -> None:
    other = clients(world)["other power"]
    cid = world.campaign.pk
    pages = [
        reverse("map-public", args=[cid]),
        reverse("map-public-svg", args=[cid]),
        reverse("map-public-hex", args=[cid, "0101"]),
        reverse("map-private", args=[cid, "p1"]),
        reverse("map-private-svg", args=[cid, "p1"]),
        reverse("map-private-hex", args=[cid, "p1", "0101"]),
        reverse("fleet", args=[cid, "p1"]),
        reverse("history", args=[cid]),
        reverse("report", args=[cid, "p1", 1]),
        reverse("orders", args=[cid, "p1"]) + "?type=build",
        *(f"/api/campaigns/{cid}/{what}/" for what in ("designs", "craft", "groups", "builds")),
        f"/api/campaigns/{cid}/reports/1/",
        f"/api/campaigns/{cid}/projection/",
    ]
    for url in pages:
        response = other.get(url)
        assert response.status_code == 200, url
        for secret in (*SECRETS, "p0-"):
            assert secret not in response.content.decode(), f"{secret!r} at {url}"
    # a's groups are on the public map: markers in a's colour, counted, nothing inside
    svg = other.get(reverse("map-public-svg", args=[cid])).content.decode()
    marker = re.search(r'<g class="marker group"><title>([^<]+)</title>', svg)
    assert marker and marker.group(1) == "3 fleet groups of Power 0"
    assert 'class="own-group' not in svg
    # asking about a's craft by key reads exactly like asking about none
    order = {"type": "crew", "craft": f"p0-{CANARY}-c0"}
    mine = entry.check(world.powers[1], order).problems
    none = entry.check(world.powers[1], {**order, "craft": "p0-nope"}).problems
    assert [e.replace(f"p0-{CANARY}-c0", "X") for e in mine] == [
        e.replace("p0-nope", "X") for e in none
    ]


def test_the_owner_sees_its_own(world: World) -> None:
    owner = clients(world)["owner"]
    cid = world.campaign.pk
    fleet = owner.get(reverse("fleet", args=[cid, "p0"])).content.decode()
    assert f"{CANARY} Dreadnought" in fleet and f"{CANARY}-c12" in fleet
    svg = owner.get(reverse("map-private-svg", args=[cid, "p0"])).content.decode()
    assert f"Group {CANARY}: 13 craft, 1001 points" in svg
    panel = owner.get(reverse("map-private-hex", args=[cid, "p0", "0101"])).content.decode()
    assert "13 craft" in panel
    anonymous = Client()
    assert CANARY not in anonymous.get(reverse("map-public-svg", args=[cid])).content.decode()
