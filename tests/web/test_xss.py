"""Reliability S5: stored XSS through names. Payloads as campaign, power, system, hub, design and
design system names are rendered on every page a player or the public sees; the parsed DOM has
no script element, no event-handler attribute and no javascript: URL from them."""

from __future__ import annotations

import html5lib
import pytest
from django.test import Client
from django.urls import reverse

from economy import services
from economy.models import Round
from powers.models import Campaign, Design, DesignSystem, Power, StarSystem
from tests.web.factories import add_fleet, make_campaign

pytestmark = pytest.mark.django_db

PAYLOADS = [
    "<script>alert(1)</script>",
    '"><svg onload=alert(2)>',
    "'><img src=x onerror=alert(3)>",
    "</text><script>alert(4)</script>",
    "javascript:alert(5)",
    '<a href="javascript:alert(6)">x</a>',
    "<foreignObject><body onload=alert(7)></foreignObject>",
    "<style>body{background:url(javascript:alert(8))}</style>",
    "\u202e<script>alert(9)</script>",
    "<iframe src=javascript:alert(10)>",
    "<details open ontoggle=alert(11)>",
    "{{ 7|add:7 }}<b>",
]


def offending(markup: str) -> list[str]:
    doc = html5lib.parse(markup, namespaceHTMLElements=False)
    found = []
    for el in doc.iter():
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""  # SVG is namespaced
        if tag in ("script", "iframe", "foreignObject") and "alert" in (el.text or ""):
            found.append(tag)
        if tag in ("script", "iframe") and "alert" in "".join(el.attrib.values()):
            found.append(tag)
        for name, value in el.attrib.items():
            if name.lower().startswith("on") and "alert" in value:
                found.append(f"{tag}@{name}")
            if value.strip().lower().startswith("javascript:"):
                found.append(f"{tag}@{name}={value}")
    return found


def test_payload_names_render_inert_everywhere(client: Client) -> None:
    world = make_campaign()
    Campaign.objects.filter(pk=world.campaign.pk).update(name=PAYLOADS[0])
    for power, payload in zip(world.powers, PAYLOADS[1:3], strict=True):
        Power.objects.filter(pk=power.pk).update(name=payload)
    for system, payload in zip(
        StarSystem.objects.filter(campaign=world.campaign).order_by("key"),
        PAYLOADS[3:],
        strict=False,
    ):
        StarSystem.objects.filter(pk=system.pk).update(name=payload)
    services.add_order(
        power=world.powers[0],
        payload={"type": "hub_setup", "id": "x", "name": PAYLOADS[1][:60]},
        actor="t",
    )
    add_fleet(world, groups=1)  # issue 14: design and system names the player typed
    Design.objects.filter(key="p0-frigate").update(name=PAYLOADS[5][:60])
    DesignSystem.objects.filter(design__key="p0-frigate", key="b1").update(name=PAYLOADS[6][:60])
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(round_id=Round.objects.get(campaign=world.campaign).pk)
    cid = world.campaign.pk
    client.force_login(world.users[0])
    urls = [
        reverse("my-campaigns"),
        reverse("dashboard", args=[cid, "p0"]),
        reverse("orders", args=[cid, "p0"]),
        reverse("projection", args=[cid, "p0"]),
        reverse("report", args=[cid, "p0", 1]),
        reverse("history", args=[cid]),
        reverse("map-public", args=[cid]),
        reverse("map-private", args=[cid, "p0"]),
        reverse("market", args=[cid]),
        reverse("agreements", args=[cid, "p0"]),
        reverse("un-committee", args=[cid, "p0"]),
        reverse("fleet", args=[cid, "p0"]),
        reverse("orders", args=[cid, "p0"]) + "?type=build",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert offending(response.content.decode()) == [], url


def test_the_detector_sees_live_payloads() -> None:
    assert offending("<p><script>alert(1)</script></p>") == ["script"]
    assert offending('<svg onload="alert(2)"></svg>') == ["svg@onload"]
    assert offending('<a href="javascript:alert(6)">x</a>') == ["a@href=javascript:alert(6)"]
    assert offending("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>") == []
