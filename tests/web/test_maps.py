"""Maps (issue 7): the public map shows hub outlines only (Support §4.1.3, R-5.8), bubbles are
secret (Support §5.2.6, R-8.3), every name is escaped, and pages cost a fixed number of queries."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.http import HttpRequest
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import map_selectors
from economy.engine.hexgrid import Hex, centre_px
from powers.maps import HEX_SIZE, MapData, PowerView, SystemView, bounds, render_svg
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    CommandBubble,
    FleetGroup,
    HexType,
    MapHex,
    Power,
    StarSystem,
    Static,
)
from tests.web.factories import PASSWORD, World, make_campaign, make_user
from trade.models import HubLink, HubNode, Shipment, TradeHub

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"

# Hexes of power p1's secrets: deep space, no system, no counter, so nothing public is there.
P1_CENTRE, P1_NODE, P1_HQ, P1_OUTPOST, P1_SENSOR = "2030", "2232", "3035", "3238", "3336"
# Power p0's own secrets, which only p0's map may show.
P0_CENTRE, P0_NODE, P0_HQ, P0_SENSOR = "1520", "1722", "1225", "1326"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 - our own output, no DTD


def login(client: Client, username: str) -> None:
    assert client.login(request=HttpRequest(), username=username, password=PASSWORD)


def _h(code: str) -> tuple[int, int]:
    h = Hex.parse(code)
    return h.col, h.row


def add_secrets(world: World) -> None:
    """A deep-space hub and a bubble for each of p0 and p1, a shipment between p0's hubs,
    public counters and special hexes."""
    campaign = world.campaign
    p0, p1 = world.powers[0], world.powers[1]
    for power, key, centre, node in (
        (p0, "zz-p0-deep-hub", P0_CENTRE, P0_NODE),
        (p1, "zz-p1-deep-hub", P1_CENTRE, P1_NODE),
    ):
        hub = TradeHub.objects.create(campaign=campaign, key=key, power=power, guild=True)
        c = HubNode.objects.create(campaign=campaign, hub=hub, is_centre=True, **_xy(centre))
        n = HubNode.objects.create(campaign=campaign, hub=hub, **_xy(node))
        HubLink.objects.create(hub=hub, a=c, b=n)
    b1 = CommandBubble.objects.create(
        campaign=campaign, key="SECRET-BUBBLE-P1", power=p1, radius=2, **_hq(P1_HQ)
    )
    BubbleOutpost.objects.create(bubble=b1, radius=1, **_xy(P1_OUTPOST))
    BubbleSensor.objects.create(bubble=b1, **_xy(P1_SENSOR))
    b0 = CommandBubble.objects.create(
        campaign=campaign, key="own-bubble-p0", power=p0, radius=1, **_hq(P0_HQ)
    )
    BubbleSensor.objects.create(bubble=b0, **_xy(P0_SENSOR))
    hub0 = TradeHub.objects.get(campaign=campaign, key="hub0")
    deep0 = TradeHub.objects.get(campaign=campaign, key="zz-p0-deep-hub")
    Shipment.objects.create(
        campaign=campaign,
        key="ship-own",
        power=p0,
        sender=p0,
        from_hub=hub0,
        to_hub=deep0,
        resource="ore",
        amount=12,
        arrives=3,
    )
    FleetGroup.objects.create(campaign=campaign, key="SECRET-GROUP-KEY", power=p1, col=10, row=10)
    FleetGroup.objects.create(campaign=campaign, key="g-p1-b", power=p1, col=10, row=10)
    Static.objects.create(campaign=campaign, key="SECRET-STATIC-KEY", power=p1, col=11, row=11)
    MapHex.objects.bulk_create(
        [
            MapHex(campaign=campaign, col=12, row=3, hex_type=HexType.DUST_CLOUD),
            MapHex(campaign=campaign, col=13, row=3, hex_type=HexType.SPECIAL_INTEREST),
            MapHex(campaign=campaign, col=14, row=3, hex_type=HexType.OUTER_SYSTEM),
        ]
    )
    StarSystem.objects.filter(holder=p1).update(loyalty=9)


def _xy(code: str) -> dict[str, int]:
    col, row = _h(code)
    return {"col": col, "row": row}


def _hq(code: str) -> dict[str, int]:
    col, row = _h(code)
    return {"hq_col": col, "hq_row": row}


def _f(v: float) -> str:
    return f"{v:.1f}"


def assert_no_trace_of(svg: str, codes: list[str]) -> None:
    """Neither the hex code nor any drawing anchored at the hex centre appears."""
    for code in codes:
        x, y = centre_px(Hex.parse(code), HEX_SIZE)
        assert code not in svg, code
        for pattern in (
            f"{_f(x)},{_f(y)}",
            f'cx="{_f(x)}" cy="{_f(y)}"',
            f'x1="{_f(x)}" y1="{_f(y)}"',
            f'x2="{_f(x)}" y2="{_f(y)}"',
        ):
            assert pattern not in svg, (code, pattern)


def lr_hexes(svg: str) -> set[str]:
    """Hexes of the systems whose loyalty (LR) is drawn."""
    root = parse(svg)
    return {
        g.get("data-hex", "")
        for g in root.iter(f"{SVG}g")
        if "sys" in (g.get("class") or "").split()
        and any(t.get("class") == "lr" for t in g.iter(f"{SVG}text"))
    }


def test_secrecy_public_and_another_powers_view() -> None:
    """The issue's secrecy check: no node, centre, link, bubble, sensor or loyalty of another
    power appears in the public SVG or in another power's SVG."""
    world = make_campaign("Secrets", n_powers=3)
    add_secrets(world)
    p0, p1 = world.powers[0], world.powers[1]
    public = render_svg(map_selectors.public_map(campaign=world.campaign))
    mine = render_svg(map_selectors.private_map(power=Power.objects.get(pk=p0.pk)))
    theirs = render_svg(map_selectors.private_map(power=Power.objects.get(pk=p1.pk)))

    p1_secrets = [P1_CENTRE, P1_NODE, P1_HQ, P1_OUTPOST, P1_SENSOR]
    p0_secrets = [P0_CENTRE, P0_NODE, P0_HQ, P0_SENSOR]
    for svg in (public, mine):
        assert_no_trace_of(svg, p1_secrets)
        for word in ("SECRET", "zz-p1-deep-hub", 'data-hub="hub1"', 'data-hub="hub2"'):
            assert word not in svg
    for svg in (public, theirs):
        assert_no_trace_of(svg, p0_secrets)
        for word in ("own-bubble-p0", "zz-p0-deep-hub", "ship-own", 'data-hub="hub0"'):
            assert word not in svg
    # the public map has no private layer at all, but every hub's outline
    for cls in ('class="node"', 'class="centre"', 'class="link"', 'class="bubble"', "sensor"):
        assert cls not in public
    assert public.count('<path class="hub"') == 5  # hub0..hub2 and the two deep hubs
    assert "SECRET-GROUP-KEY" not in public and "SECRET-STATIC-KEY" not in public
    # loyalty: nowhere on the public map; on a private map only for the viewer's own systems
    assert lr_hexes(public) == set()
    own = {s.hex.code for s in StarSystem.objects.filter(holder=p0).select_related("hex")}
    assert lr_hexes(mine) == own
    assert 'class="lr"' in theirs and lr_hexes(theirs).isdisjoint(own)


def test_private_map_draws_own_hubs_bubbles_and_routes() -> None:
    world = make_campaign("Own layer")
    add_secrets(world)
    svg = render_svg(map_selectors.private_map(power=Power.objects.get(pk=world.powers[0].pk)))
    root = parse(svg)
    assert root.get("data-view") == "private"
    hubs = {g.get("data-hub") for g in root.iter(f"{SVG}g") if g.get("data-hub")}
    assert hubs == {"hub0", "zz-p0-deep-hub"}
    assert 'data-bubble="own-bubble-p0"' in svg
    assert f"Sensor {P0_SENSOR}" in svg and f"HQ {P0_HQ}" in svg
    # hover titles name the hub, never by its key (issue 30)
    assert f"Trade centre {P0_CENTRE} of hub Zz p0 deep hub" in svg
    assert f"Node {P0_NODE} of hub Zz p0 deep hub" in svg
    assert not [t for t in root.iter(f"{SVG}title") if "zz-p0-deep-hub" in (t.text or "")]
    assert svg.count('class="link"') == 2
    (route,) = [e for e in root.iter(f"{SVG}line") if e.get("class") == "route"]
    start = centre_px(TradeHubCentre.of("hub0"), HEX_SIZE)
    end = centre_px(Hex.parse(P0_CENTRE), HEX_SIZE)
    assert (route.get("x1"), route.get("y1")) == (_f(start[0]), _f(start[1]))
    assert (route.get("x2"), route.get("y2")) == (_f(end[0]), _f(end[1]))
    assert "ship-own: 12 ORE, arrives round 3" in svg


class TradeHubCentre:
    @staticmethod
    def of(key: str) -> Hex:
        node = HubNode.objects.get(hub__key=key, is_centre=True)
        return Hex(node.col, node.row)


def test_public_map_draws_types_systems_holders_and_counters() -> None:
    world = make_campaign("Public")
    add_secrets(world)
    svg = render_svg(map_selectors.public_map(campaign=world.campaign))
    root = parse(svg)
    assert root.get("data-view") == "public"
    kinds = {p.get("class") for p in root.iter(f"{SVG}polygon")}
    assert {"t-system", "t-dust_cloud", "t-special_interest", "t-outer_system"} <= kinds
    systems = {g.get("data-hex"): g for g in root.iter(f"{SVG}g") if g.get("class") == "sys"}
    assert len(systems) == 6
    names = {t.text for g in systems.values() for t in g.iter(f"{SVG}text")}
    assert "System 1-2" in names
    circle = systems["0401"].find(f"{SVG}circle")
    assert circle is not None and circle.get("fill") == world.powers[1].colour
    markers = [
        g for g in root.iter(f"{SVG}g") if g.get("class") in ("marker group", "marker static")
    ]
    counts = sorted((g.get("class"), g.findtext(f"{SVG}text")) for g in markers)
    assert counts == [("marker group", "2"), ("marker static", "1")]


def test_names_are_escaped_in_svg_and_pages(client: Client) -> None:
    world = make_campaign("Escapes <b>")
    nasty = ["<script>alert(1)</script>", '"><svg onload=alert(1)>', "a & b 'q'"]
    Power.objects.filter(pk=world.powers[0].pk).update(name=nasty[0])
    systems = list(StarSystem.objects.filter(campaign=world.campaign).order_by("key"))
    for system, name in zip(systems, nasty, strict=False):
        system.name = name
        system.save(update_fields=["name"])
    FleetGroup.objects.create(campaign=world.campaign, key="g", power=world.powers[0], col=1, row=1)
    for svg in (
        render_svg(map_selectors.public_map(campaign=world.campaign)),
        render_svg(map_selectors.private_map(power=Power.objects.get(pk=world.powers[0].pk))),
    ):
        root = parse(svg)  # well-formed XML
        tags = {e.tag for e in root.iter()}
        assert f"{SVG}script" not in tags and sum(t == f"{SVG}svg" for t in tags) == 1
        assert all(not a.lower().startswith("on") for e in root.iter() for a in e.attrib)
        texts = {t.text for t in root.iter(f"{SVG}text")}
        assert set(nasty) <= texts
        assert "<script>" not in svg and '"><svg' not in svg
    login(client, world.users[0].username)
    campaign_id = world.campaign.pk
    pages = [
        client.get(reverse("map-public", args=[campaign_id])),
        client.get(reverse("map-private", args=[campaign_id, world.powers[0].key])),
        client.get(reverse("map-public-svg", args=[campaign_id])),
        client.get(
            reverse("map-public-hex", args=[campaign_id, systems[1].hex.code]),
            headers={"HX-Request": "true"},
        ),
    ]
    for response in pages:
        assert response.status_code == 200
        body = response.content.decode()
        assert "<script>alert" not in body and '"><svg onload' not in body
    assert pages[2]["Content-Type"].startswith("image/svg+xml")
    assert "default-src 'none'" in pages[2]["Content-Security-Policy"]


def test_render_is_pure_and_bounded_to_content() -> None:
    data = MapData(
        title="t",
        powers={"a": PowerView("a", "A", "#123456")},
        systems=(SystemView(Hex(40, 50), "Far", "a"), SystemView(Hex(42, 53), "Farther", None)),
    )
    assert bounds(data) == (39, 49, 43, 54)
    svg = render_svg(data)
    assert 'viewBox="1368.0 1995.3 192.0 270.2"' in svg
    empty = render_svg(MapData(title="empty", powers={}))
    assert 'class="sys"' not in empty and parse(empty) is not None


def test_a_marker_outside_the_map_bounds_does_not_stretch_the_map() -> None:
    """Issue 10, item 2: one group at 9999 once grew the public map for everyone. Content
    outside the bounds (the campaign's, else the box of its hexes) is left out."""
    world = make_campaign("Bounds")
    before = render_svg(map_selectors.public_map(campaign=world.campaign))
    FleetGroup.objects.create(
        campaign=world.campaign, key="far", power=world.powers[0], col=99, row=99
    )
    after = render_svg(map_selectors.public_map(campaign=world.campaign))
    assert _viewbox(after) == _viewbox(before)
    # Explicit bounds larger than the hexes' box let content there widen the view.
    world.campaign.map_cols, world.campaign.map_rows = 99, 99
    world.campaign.save()
    wide = render_svg(map_selectors.public_map(campaign=world.campaign))
    assert _viewbox(wide)[2] > _viewbox(before)[2]


def _viewbox(svg: str) -> list[float]:
    return [float(v) for v in (parse(svg).get("viewBox") or "").split()]


def test_pages_need_no_login_for_public_and_are_404_for_others(client: Client) -> None:
    world = make_campaign("Gate")
    add_secrets(world)
    cid, p1 = world.campaign.pk, world.powers[1].key
    for name, args in (
        ("map-public", [cid]),
        ("map-public-svg", [cid]),
        ("map-public-hex", [cid, "0101"]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 200
        assert client.get(reverse(name, args=[cid + 999, *args[1:]])).status_code == 404
    private = [
        ("map-private", [cid, p1]),
        ("map-private-svg", [cid, p1]),
        ("map-private-hex", [cid, p1, P1_CENTRE]),
    ]
    for name, args in private:
        assert client.get(reverse(name, args=args)).status_code == 302  # to the login page
    login(client, world.users[0].username)
    for name, args in private:
        assert client.get(reverse(name, args=args)).status_code == 404
        assert client.get(reverse(name, args=[cid, "nope", *args[2:]])).status_code == 404
    assert client.get(reverse("map-public-hex", args=[cid, "AB01"])).status_code == 404
    assert client.get(reverse("map-public-hex", args=[cid, "0000"])).status_code == 404
    outsider = make_user("outsider-maps")
    client.logout()
    login(client, outsider.username)
    assert client.get(reverse("map-private", args=[cid, p1])).status_code == 404
    assert client.get(reverse("map-public", args=[cid])).status_code == 200


UWP_FIELDS = (
    "size",
    "atmosphere",
    "hydrographics",
    "population",
    "government",
    "law",
    "tech_level",
)


def test_hex_panels_show_what_the_viewer_may_know(client: Client) -> None:
    world = make_campaign("Panels")
    add_secrets(world)
    cid = world.campaign.pk
    p0 = world.powers[0]
    system = StarSystem.objects.select_related("hex").get(key="s0-0")
    digits = zip(UWP_FIELDS, (7, 8, 8, 8, 9, 9, 12), strict=True)  # A788899-C
    StarSystem.objects.filter(pk=system.pk).update(starport="A", loyalty=13, **dict(digits))
    hx = {"HX-Request": "true"}
    public = client.get(reverse("map-public-hex", args=[cid, system.hex.code]), headers=hx)
    body = public.content.decode()
    assert "System 0-0" in body and "A788899-C" in body and "Power 0" in body
    assert "<html" not in body  # an htmx fragment
    assert "Loyalty" not in body and "hub0" not in body
    full = client.get(reverse("map-public-hex", args=[cid, system.hex.code])).content.decode()
    assert "<html" in full and "A788899-C" in full

    login(client, world.users[0].username)
    own = client.get(reverse("map-private-hex", args=[cid, p0.key, system.hex.code]), headers=hx)
    body = own.content.decode()
    assert "Loyalty (LR)" in body and ">13<" in body and "centre of hub Hub0" in body
    bubble = client.get(reverse("map-private-hex", args=[cid, p0.key, P0_SENSOR]), headers=hx)
    assert "Sensor of bubble own-bubble-p0" in bubble.content.decode()
    # p1's centre, sensor and counters seen by p0: nothing private, only public counters
    for code in (P1_CENTRE, P1_SENSOR, "1010"):
        answer = client.get(reverse("map-private-hex", args=[cid, p0.key, code]), headers=hx)
        text = answer.content.decode()
        assert "hub" not in text.lower() and "SECRET" not in text and "bubble" not in text
    counters = client.get(reverse("map-private-hex", args=[cid, p0.key, "1010"]), headers=hx)
    assert "Power 1: 2 groups, 0 statics" in counters.content.decode()
    other_system = StarSystem.objects.select_related("hex").get(key="s1-0")
    body = client.get(
        reverse("map-private-hex", args=[cid, p0.key, other_system.hex.code]), headers=hx
    ).content.decode()
    assert "System 1-0" in body and "Loyalty" not in body
    page = client.get(reverse("map-private", args=[cid, p0.key])).content.decode()
    assert reverse("map-private-hex", args=[cid, p0.key, "XXYY"]) in page
    link = reverse("map-private-hex", args=[cid, p0.key, system.hex.code])
    assert f'<a href="{link}"><g class="sys" data-hex="{system.hex.code}">' in page
    public_svg = client.get(reverse("map-public-svg", args=[cid])).content.decode()
    assert f'<a href="{reverse("map-public-hex", args=[cid, system.hex.code])}">' in public_svg
    assert "js/map" in page and "css/map" in page


def grow(world: World, n: int) -> None:
    """Add ``n`` neutral systems, groups, statics, hub nodes and bubble sensors."""
    campaign = world.campaign
    hexes = MapHex.objects.bulk_create(
        MapHex(campaign=campaign, col=40 + i // 40, row=1 + i % 40) for i in range(n)
    )
    StarSystem.objects.bulk_create(
        StarSystem(campaign=campaign, key=f"n{i}", name=f"N{i}", hex=h) for i, h in enumerate(hexes)
    )
    FleetGroup.objects.bulk_create(
        FleetGroup(campaign=campaign, key=f"g{i}", power=world.powers[i % 2], col=h.col, row=h.row)
        for i, h in enumerate(hexes)
    )
    Static.objects.bulk_create(
        Static(campaign=campaign, key=f"st{i}", power=world.powers[i % 2], col=h.col, row=h.row)
        for i, h in enumerate(hexes)
    )
    hub = TradeHub.objects.get(campaign=campaign, key="hub0")
    HubNode.objects.bulk_create(
        HubNode(campaign=campaign, hub=hub, col=70 + i // 40, row=1 + i % 40) for i in range(n)
    )
    bubble = CommandBubble.objects.filter(power=world.powers[0]).first()
    assert bubble is not None
    BubbleSensor.objects.bulk_create(
        BubbleSensor(bubble=bubble, col=90, row=1 + i) for i in range(min(n, 40))
    )


def count_queries(client: Client, url: str, headers: dict[str, str] | None = None) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_campaign(client: Client) -> None:
    counts = []
    for name, n in (("Small", 3), ("Large", 240)):
        world = make_campaign(name)
        add_secrets(world)
        grow(world, n)
        cid, key = world.campaign.pk, world.powers[0].key
        client.logout()
        row = [
            count_queries(client, reverse("map-public", args=[cid])),
            count_queries(client, reverse("map-public-svg", args=[cid])),
            count_queries(client, reverse("map-public-hex", args=[cid, "4001"])),
        ]
        login(client, world.users[0].username)
        row += [
            count_queries(client, reverse("map-private", args=[cid, key])),
            count_queries(client, reverse("map-private-svg", args=[cid, key])),
            count_queries(
                client,
                reverse("map-private-hex", args=[cid, key, "4001"]),
                headers={"HX-Request": "true"},
            ),
        ]
        counts.append(row)
    assert counts[0] == counts[1]
    # campaign, powers, hexes, systems, groups, statics, nodes, battles, special interest
    assert counts[0][1] <= 9
