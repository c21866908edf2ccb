"""Issue 11, item 7: one input gate for forms and JSON bodies. NUL bytes in any form field (order
hex, declarations, agreements, UN motions and votes), lone surrogates and JSON nested 100,000
levels deep are a 400 with a clear message — today they are 500s — and nothing is written."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from economy.models import AuditEvent, Order
from powers.models import FleetGroup
from tests.web.factories import make_campaign
from trade.models import Agreement, Motion, Vote

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    world = make_campaign()
    FleetGroup.objects.create(
        campaign=world.campaign, key="g0", power=world.powers[0], col=1, row=1
    )
    return world


@pytest.fixture
def player(client: Client, world) -> Client:  # type: ignore[no-untyped-def]
    client.raise_request_exception = False  # a 500 is an answer to look at, not an exception
    client.force_login(world.users[0])
    return client


def page(name: str, world, *extra: str) -> str:  # type: ignore[no-untyped-def]
    return reverse(name, args=[world.campaign.pk, "p0", *extra])


FORMS = [
    ("order-add", (), {"type": "hub_setup", "id": "west", "centre": "01\x0003"}),
    ("order-add", (), {"type": "gal_transfer", "to": "p1\x00", "amount": "3"}),
    ("order-validate", (), {"type": "hub_setup", "id": "w\x00"}),
    ("declare", ("g0",), {"hex": "0\x00101", "order": "none", "status": "none"}),
    (
        "agreement-propose",
        (),
        {"partner": "p1", "deposit": "0101\x00", "delivery": "3", "send_amount": "1"},
    ),
    ("agreement-act", (), {"agreement": "a\x00", "action": "accept"}),
    ("motion-draft", (), {"kind": "rate", "edge": "ore>bio", "value": "1.5\x00"}),
    ("motion-act", (), {"motion": "m\x00"}),
    ("un-vote", (), {"motion": "m", "choice": "yes\x00"}),
]


@pytest.mark.parametrize(("name", "extra", "data"), FORMS, ids=[f[0] for f in FORMS])
def test_nul_in_any_form_field_is_a_400(player, world, name, extra, data) -> None:  # type: ignore[no-untyped-def]
    r = player.post(page(name, world, *extra), data)
    assert r.status_code == 400
    assert r.content == b"Refused: the form: NUL characters are not allowed."
    assert not Order.objects.exists()
    assert not Agreement.objects.exists() and not Motion.objects.exists()
    assert not Vote.objects.exists()
    assert not AuditEvent.objects.exists()


def test_nul_in_the_address_is_a_400(player, world) -> None:  # type: ignore[no-untyped-def]
    r = player.get(f"/campaigns/{world.campaign.pk}/powers/p0%00/orders/")
    assert r.status_code == 400 and b"NUL" in r.content
    r = player.get(page("orders", world) + "?type=%00")
    assert r.status_code == 400


def api_post(client: Client, world, body: str | bytes) -> object:  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/campaigns/{world.campaign.pk}/orders/", body, content_type="application/json"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"type": "research_project", "gal": 2, "x": "\\u0000"}', "NUL characters"),
        ('{"type": "hub_setup", "id": "\\ud800", "centre": "0101"}', "lone surrogate"),
        ('{"type": "hub_setup", "id": "w", "centre": "01\\u000001"}', "NUL characters"),
        ('{"\\u0000": 1}', "NUL characters"),
        ("[" * 100_000 + "]" * 100_000, "nests deeper than 32 levels"),
        ('{"a":' * 50_000 + "1" + "}" * 50_000, "nests deeper than 32 levels"),
        ('{"type": "gal_transfer", "to": "p1", "amount": 1e999}', "numbers must be finite"),
        ('{"type": "gal_transfer", "to": "p1", "amount": NaN}', "not a JSON number"),
        (b'{"type": "\xff"}', "not UTF-8"),
    ],
)
def test_bad_json_bodies_are_a_400_with_a_clear_message(player, world, body, message) -> None:  # type: ignore[no-untyped-def]
    r = api_post(player, world, body)
    assert r.status_code == 400, r.content  # type: ignore[attr-defined]
    assert r["Content-Type"] == "application/json"  # type: ignore[index]
    detail = r.json()["detail"]  # type: ignore[attr-defined]
    assert detail.startswith("Refused: ") and message in detail
    assert not Order.objects.exists()


def test_ordinary_text_passes_the_gate(player, world) -> None:  # type: ignore[no-untyped-def]
    body = {"type": "hub_setup", "id": "west", "name": "Ünter «Weißwasser» ☄", "centre": "0103"}
    r = api_post(player, world, json.dumps(body))
    assert r.status_code == 201, r.content  # type: ignore[attr-defined]
    assert Order.objects.get().payload["name"] == body["name"]
