"""The JSON API: the same services as the pages, strict about bad input (400 naming the field,
nothing written), 409 once resolution has started, and an OpenAPI schema (issue 4; P3, S4)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from economy import services
from economy.models import AuditEvent, Order, Round
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client: Client):  # type: ignore[no-untyped-def]
    world = make_campaign()
    client.force_login(world.users[0])
    client.base = f"/api/campaigns/{world.campaign.pk}/"  # type: ignore[attr-defined]
    client.world = world  # type: ignore[attr-defined]
    return client


def post(client: Client, path: str, data: object) -> object:
    return client.post(client.base + path, json.dumps(data), content_type="application/json")  # type: ignore[attr-defined]


def test_order_crud_submit_and_withdraw(api) -> None:  # type: ignore[no-untyped-def]
    r = post(api, "orders/", {"type": "gal_transfer", "to": "p1", "amount": 3})
    assert r.status_code == 201 and r.json() == {
        "position": 0,
        "number": 1,
        "payload": {"type": "gal_transfer", "to": "p1", "amount": 3},
        "error": "",
    }
    post(api, "orders/", {"type": "research_project", "gal": 2})
    r = api.put(
        api.base + "orders/0/",
        json.dumps({"type": "gal_transfer", "to": "p1", "amount": 4}),
        content_type="application/json",
    )
    assert r.status_code == 200 and r.json()["payload"]["amount"] == 4
    assert post(api, "orders/1/move/", {"to": 0}).json()["orders"][0]["payload"]["type"] == (
        "research_project"
    )
    assert api.delete(api.base + "orders/1/").status_code == 204
    assert [o["payload"]["type"] for o in api.get(api.base + "orders/").json()] == [
        "research_project"
    ]
    assert post(api, "sheet/submit/", {}).json()["sheet_status"] == "submitted"
    assert post(api, "sheet/withdraw/", {}).json()["sheet_status"] == "draft"


@pytest.mark.parametrize(
    ("order", "field"),
    [
        ({"type": "gal_transfer", "to": "p1", "amount": -1}, "amount"),
        ({"type": "gal_transfer", "to": "p1", "amount": 0}, "amount"),
        ({"type": "gal_transfer", "to": "p1", "amount": 1.5}, "amount"),
        ({"type": "gal_transfer", "to": "p1", "amount": "10"}, "amount"),
        ({"type": "gal_transfer", "to": "nobody", "amount": 1}, "to"),
        (
            {"type": "ship", "from_hub": "hub1", "to_hub": "hub0", "resource": "ore", "amount": 1},
            "from_hub",
        ),
        ({"type": "teleport"}, "type"),
        ({"amount": 1}, "type"),
        (["not", "an", "object"], "order"),
    ],
)
def test_bad_orders_are_400_naming_the_field_and_change_nothing(api, order, field) -> None:  # type: ignore[no-untyped-def]
    r = post(api, "orders/", order)
    assert r.status_code == 400
    assert field in r.json()
    assert not Order.objects.exists()


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    amount=st.one_of(
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=5),
        st.none(),
        st.booleans(),
        st.lists(st.integers(), max_size=2),
    )
)
def test_p3_any_amount_is_a_clean_answer(api, amount) -> None:  # type: ignore[no-untyped-def]
    before = Order.objects.count()
    body = json.dumps({"type": "gal_transfer", "to": "p1", "amount": amount}, allow_nan=True)
    r = api.post(api.base + "orders/", body, content_type="application/json")
    assert r.status_code in (201, 400)
    if r.status_code == 400:
        # the field is named; or, for Infinity/NaN, the input gate refuses the body
        assert "amount" in r.json() or r.json().get("detail", "").startswith("Refused: ")
        assert Order.objects.count() == before
    else:
        assert isinstance(amount, int) and not isinstance(amount, bool) and amount > 0


def test_extra_fields_cannot_reach_other_powers_or_rounds(api) -> None:  # type: ignore[no-untyped-def]
    """Fields an order type does not have are refused, not stored (issue 11; S4)."""
    r = post(api, "orders/", {"type": "research_project", "gal": 2, "power": "p1", "round": 9})
    assert r.status_code == 400
    assert r.json() == {
        "power": ["not a field of a research_project order"],
        "round": ["not a field of a research_project order"],
    }
    assert not Order.objects.exists()


def test_writes_after_the_claim_are_409(api) -> None:  # type: ignore[no-untyped-def]
    world = api.world
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.claim_round(round_id=Round.objects.get(status="open").pk)
    assert post(api, "orders/", {"type": "research_project", "gal": 2}).status_code == 409
    assert post(api, "sheet/withdraw/", {}).status_code == 409


def test_reports_and_ledger_filters(api) -> None:  # type: ignore[no-untyped-def]
    post(api, "orders/", {"type": "gal_transfer", "to": "p1", "amount": 3})
    for power in api.world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(round_id=Round.objects.get(number=1).pk)
    report = api.get(api.base + "reports/1/").json()
    assert report["power"] == "p0"
    assert any(line["rule"] == "R-5.6" for line in report["ledger"])
    assert any(s["where"] == "bank" and s["resource"] == "gal" for s in report["stocks"])
    ledger = api.get(api.base + "ledger/?round=1&resource=gal").json()
    assert ledger["count"] >= 1 and {x["resource"] for x in ledger["results"]} == {"gal"}
    assert api.get(api.base + "ledger/?round=x").status_code == 400
    assert api.get(api.base + "reports/7/").status_code == 404
    projection = api.get(api.base + "projection/").json()
    assert projection["power"] == "p0"


def test_schema_is_valid_and_docs_page_has_no_cdn(client: Client) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")
    page = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr" not in page and "unpkg" not in page


def test_admin_controls_are_audited(admin_client: Client) -> None:
    world = make_campaign()
    rnd = Round.objects.get(campaign=world.campaign)
    url = "/admin/economy/round/"
    for action in ("pause", "unpause", "extend_deadline", "force_resolve"):
        admin_client.post(url, {"action": action, "_selected_action": [rnd.pk]})
    rnd.refresh_from_db()
    assert rnd.status == "resolved"
    nxt = Round.objects.get(campaign=world.campaign, number=2)
    admin_client.post(url, {"action": "rollback", "_selected_action": [rnd.pk]})
    assert not Round.objects.filter(pk=nxt.pk).exists()
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"paused", "unpaused", "deadline_extended", "resolution_finished", "rolled_back"} <= (
        actions
    )
