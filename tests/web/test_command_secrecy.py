"""Issue 16 secrecy (Support §5.2.6, R-8.3, R-8.4): a command bubble with an outpost and
sensors, officers with distinctive names, a diplomat and its declared mission (against the
other power) are planted for power p0, carried through a resolved round (its events, ledger
and statements) and into the next round's sheet. Then, as the other power's player, as a user
of no campaign and as a visitor, every route is fetched (GET and POST), and the other power's
own pages by name: dashboard, orders, maps in HTML and SVG (and the hex panels of the secret
hexes), rounds and reports, the ledger exports in CSV and JSON, the API's JSON with its
schema, a refusal for an overlapping HQ, the Atom feed and the emails sent. None of the names,
keys or hexes may appear."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.test import Client
from django.urls import reverse

from economy import services
from economy.models import Round
from notices.models import NoticeSettings
from notices.services import deliver
from powers.models import BubbleOutpost, BubbleSensor, CommandBubble, Craft
from powers.models.command import Diplomat, Mission, Officer, OutpostSensor, PostOfficer
from tests.web.factories import World, add_fleet, make_campaign
from tests.web.test_access import clients, routes, url_for
from trade.models import TradeHub

pytestmark = pytest.mark.django_db

CANARY = "zqcmd5"  # in every key and name planted
NAMES = ("Vantablack", "Fulvous", "Glaucous", "Sepia")  # officers', the diplomat's
HEXES = ("0203", "0303", "0304", "0202")  # an HQ sensor, the outpost, its sensor, a new sensor
SECRETS = (CANARY, *NAMES)
CSRF = re.compile(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"')


def plant(world: World) -> None:
    """p0's bubble at its homeworld 0101 (HQ sensor 0203, outpost 0303 with sensor 0304),
    officers Vantablack (HQ) and Fulvous (outpost), diplomat Glaucous aboard a frigate, and its
    mission against p1, declared in round 1 and not yet resolved; p1 has an officer of its
    own."""
    campaign = world.campaign
    campaign.map_cols = campaign.map_rows = 12
    campaign.save(update_fields=["map_cols", "map_rows"])
    add_fleet(world, groups=1)
    a, b = world.powers
    TradeHub.objects.filter(key="hub0").update(pool_ore=200)
    for i, user in enumerate(world.users):
        user.email = f"player{i}@example.org"
        user.save(update_fields=["email"])
    hq = Officer.objects.create(
        campaign=campaign, key=f"p0-{CANARY}o1", power=a, name="Zqcmd5Admiral Vantablack", rank=3,
        grade=3,
    )  # fmt: skip
    junior = Officer.objects.create(
        campaign=campaign, key=f"p0-{CANARY}o2", power=a, name="Zqcmd5Ensign Fulvous", rank=1,
        grade=1,
    )  # fmt: skip
    bubble = CommandBubble.objects.create(
        campaign=campaign, key=f"p0-{CANARY}b", power=a, hq_col=1, hq_row=1, radius=3
    )
    BubbleSensor.objects.create(bubble=bubble, col=2, row=3)
    outpost = BubbleOutpost.objects.create(bubble=bubble, col=3, row=3, radius=1)
    OutpostSensor.objects.create(outpost=outpost, col=3, row=4)
    PostOfficer.objects.create(bubble=bubble, officer=hq)
    PostOfficer.objects.create(bubble=bubble, outpost=outpost, officer=junior)
    craft = Craft.objects.get(key="p0-g0-f0")
    Diplomat.objects.create(
        campaign=campaign, key=f"p0-{CANARY}d", power=a, name="Zqcmd5Envoy Glaucous", craft=craft
    )
    Mission.objects.create(
        campaign=campaign, key=f"p0-{CANARY}m", power=a, diplomat=f"p0-{CANARY}d", target=b,
        kind="reveal_hub", declared=1, spent={"gal": 7},
    )  # fmt: skip
    Officer.objects.create(campaign=campaign, key="p1-o1", power=b, name="Plain", rank=1, grade=1)


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=2)
    plant(world)
    a = world.powers[0]
    for payload in (
        {"type": "commission", "id": f"{CANARY}o3", "rank": 1, "grade": 1,
         "name": "Zqcmd5Captain Sepia"},
        {"type": "bubble_sensor", "bubble": f"p0-{CANARY}b", "post": "0101", "hex": "0202"},
    ):  # fmt: skip
        assert services.add_order(power=a, payload=payload, actor="a").error == ""
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    assert services.resolve_round(round_id=rnd.pk)
    assert Officer.objects.filter(key=f"p0-{CANARY}o3", name="Zqcmd5Captain Sepia").exists()
    assert BubbleSensor.objects.filter(bubble__key=f"p0-{CANARY}b", col=2, row=2).exists()
    deliver("round_resolved", {"round": rnd.pk})
    order = {"type": "dismiss", "officer": f"p0-{CANARY}o3"}
    assert services.add_order(power=a, payload=order, actor="a").error == ""
    return world


def body(response: HttpResponseBase) -> str:
    if isinstance(response, StreamingHttpResponse):
        # the stubs type a stream as Iterable[object]; a Django view streams bytes
        raw = b"".join(response.streaming_content)  # type: ignore[arg-type]
    else:
        assert isinstance(response, HttpResponse)
        raw = response.content
    return raw.decode(errors="replace")


def leaks(text: str) -> list[str]:
    """The planted secrets in ``text``: names and keys, and the secret hexes as whole codes."""
    text = CSRF.sub("", text)  # random tokens, which may spell anything
    found = [s for s in SECRETS if s.lower() in text.lower()]
    return found + [h for h in HEXES if re.search(rf"(?<![0-9]){h}(?![0-9])", text)]


def test_the_owner_sees_them(world: World) -> None:
    """The test can fail: the owner's own API and statement carry every secret."""
    owner = clients(world)["owner"]
    base = f"/api/campaigns/{world.campaign.pk}/"
    seen = " ".join(
        body(owner.get(base + what + "/"))
        for what in ("officers", "bubbles", "diplomats", "missions")
    )
    seen += body(owner.get(reverse("report", args=[world.campaign.pk, "p0", 1])))
    assert set(leaks(seen)) == {*SECRETS, *HEXES}
    svg = body(owner.get(reverse("map-private-svg", args=[world.campaign.pk, "p0"])))
    assert set(leaks(svg)) == {CANARY, *HEXES}  # its own map draws the bubble


def test_no_route_shows_them_to_anyone_else(world: World) -> None:
    seen = 0
    for name, pattern in routes():
        url = url_for(name, pattern, world)
        for who, client in clients(world).items():
            if who == "owner":
                continue
            for method in ("get", "post"):
                text = body(getattr(client, method)(url))
                seen += 1
                assert leaks(text) == [], f"{who} saw {leaks(text)} at {method} {url}"
    assert seen > 100


def test_the_other_powers_own_pages_api_feed_and_emails(world: World) -> None:
    everyone = clients(world)
    other = everyone["other power"]
    cid = world.campaign.pk
    api = f"/api/campaigns/{cid}/"
    pages = [
        reverse("dashboard", args=[cid, "p1"]),
        reverse("orders", args=[cid, "p1"]),
        *(reverse("orders", args=[cid, "p1"]) + f"?type={t}" for t in ("bubble_hq", "patrol")),
        reverse("map-public", args=[cid]),
        reverse("map-public-svg", args=[cid]),
        reverse("map-private", args=[cid, "p1"]),
        reverse("map-private-svg", args=[cid, "p1"]),
        reverse("map-public-hex", args=[cid, "0101"]),
        reverse("map-private-hex", args=[cid, "p1", "0101"]),
        reverse("history", args=[cid]),
        reverse("report", args=[cid, "p1", 1]),
        reverse("ledger-export", args=[cid, "p1", "csv"]),
        reverse("ledger-export", args=[cid, "p1", "json"]),
        reverse("projection", args=[cid, "p1"]),
        "/api/schema/",
        *(
            api + what + "/"
            for what in (
                "officers",
                "bubbles",
                "diplomats",
                "missions",
                "research-craft",
                "special-interest",
                "orders",
                "projection",
                "ledger",
                "reports/1",
                "rounds",
                "groups",
                "craft",
            )
        ),
    ]
    for url in pages:
        response = other.get(url)
        assert response.status_code == 200, url
        assert leaks(body(response)) == [], f"{leaks(body(response))} at {url}"
    for who in ("anonymous", "other campaign"):
        for url in pages:
            text = body(everyone[who].get(url))
            assert leaks(text) == [], f"{who} saw {leaks(text)} at {url}"
    # a secret hex's panel reads exactly like an empty hex's (0505), but for its code
    for h in HEXES:
        for name, args in (("map-public-hex", [cid]), ("map-private-hex", [cid, "p1"])):
            panel = body(other.get(reverse(name, args=[*args, h]))).replace(h, "<hex>")
            empty = body(other.get(reverse(name, args=[*args, "0505"]))).replace("0505", "<hex>")
            assert CSRF.sub("", panel) == CSRF.sub("", empty), f"{name} {h}"
    # the other power's own officer is listed; the mission against it is not, until resolved
    assert [o["key"] for o in other.get(api + "officers/").json()] == ["p1-o1"]
    assert other.get(api + "missions/").json() == []
    assert other.get(api + "bubbles/").json() == []
    # its private feed and the emails sent to it
    token = NoticeSettings.objects.get_or_create(user=world.users[1])[0].feed_token
    feed = body(Client().get(reverse("notice-feed", args=[token])))
    assert "Round 1" in feed and leaks(feed) == []
    to_other = [m for m in mail.outbox if world.users[1].email in m.to]
    assert to_other, "the other power's player was emailed the round"
    for message in to_other:
        assert leaks(f"{message.subject} {message.body}") == []


def test_an_overlapping_hq_is_refused_with_nothing_more(world: World) -> None:
    other = clients(world)["other power"]
    api = f"/api/campaigns/{world.campaign.pk}/orders/"
    # p1's officer (grade 1) at 0302 would reach p0's outpost at 0303
    order = {"type": "bubble_hq", "id": "mine", "hex": "0302", "officer": "p1-o1"}
    response = other.post(api, order, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"hex": ["overlaps another bubble"]}
    # in the browser the order is kept with the same words, and the sheet shows no more
    page = other.post(
        reverse("order-add", args=[world.campaign.pk, "p1"]), order, HTTP_HX_REQUEST="true"
    )
    assert leaks(body(page)) == []
    sheet = body(other.get(reverse("orders", args=[world.campaign.pk, "p1"])))
    assert "overlaps another bubble" in sheet and leaks(sheet) == []
    # away from it, the same order is accepted: the refusal is the overlap only
    far = {**order, "hex": "0410", "id": "far"}
    assert other.post(api, far, content_type="application/json").status_code == 201
    # naming p0's bubble reads like naming none
    probe = {"type": "bubble_sensor", "bubble": f"p0-{CANARY}b", "post": "0101", "hex": "0102"}
    real = other.post(api, probe, content_type="application/json").json()
    none = other.post(
        api, {**probe, "bubble": "p0-nothing"}, content_type="application/json"
    ).json()
    assert str(real).replace(f"p0-{CANARY}b", "X") == str(none).replace("p0-nothing", "X")
