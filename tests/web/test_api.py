"""The JSON API: the same services as the pages, strict about bad input (400 naming the field,
nothing written), 409 once resolution has started, and an OpenAPI schema (issue 4; P3, S4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest
from django.core.management import call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from economy import services
from economy.models import AuditEvent, Order, Round
from tests.web.factories import ApiClient, make_campaign

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def api() -> ApiClient:
    world = make_campaign()
    client = ApiClient()
    client.force_login(world.users[0])
    client.base = f"/api/campaigns/{world.campaign.pk}/"
    client.world = world
    return client


def post(client: ApiClient, path: str, data: object) -> TestResponse:
    return client.post(client.base + path, json.dumps(data), content_type="application/json")


def test_order_crud_submit_and_withdraw(api: ApiClient) -> None:
    r = post(api, "orders/", {"type": "gal_transfer", "to": "p1", "amount": 3})
    assert r.status_code == 201 and r.json() == {
        "position": 0,
        "number": 1,
        "payload": {"type": "gal_transfer", "to": "p1", "amount": 3},
        "error": "",
        "warning": "",
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
def test_bad_orders_are_400_naming_the_field_and_change_nothing(
    api: ApiClient, order: object, field: str
) -> None:
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
def test_p3_any_amount_is_a_clean_answer(api: ApiClient, amount: object) -> None:
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


def test_a_form_encoded_order_is_refused_as_no_json_object(api: ApiClient) -> None:
    """A form body parses to lists of values: it is no order, refused by name, and nothing is
    written (a repeated ``type`` crashed the entry check, which looked the list up)."""
    data = {"type": ["crew", "build"], "group": "p0-g0"}
    for method in (api.post, api.put):
        url = api.base + ("orders/" if method == api.post else "orders/0/")
        r = method(url, urlencode(data, doseq=True), "application/x-www-form-urlencoded")
        assert r.status_code == 400, r.content
        assert r.json() == {"order": ["Expected a JSON object."]}
    assert not Order.objects.exists()


def test_extra_fields_cannot_reach_other_powers_or_rounds(api: ApiClient) -> None:
    """Fields an order type does not have are refused, not stored (issue 11; S4)."""
    r = post(api, "orders/", {"type": "research_project", "gal": 2, "power": "p1", "round": 9})
    assert r.status_code == 400
    assert r.json() == {
        "power": ["not a field of a research_project order"],
        "round": ["not a field of a research_project order"],
    }
    assert not Order.objects.exists()


def test_writes_after_the_claim_are_409(api: ApiClient) -> None:
    world = api.world
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.claim_round(round_id=Round.objects.get(status="open").pk)
    assert post(api, "orders/", {"type": "research_project", "gal": 2}).status_code == 409
    assert post(api, "sheet/withdraw/", {}).status_code == 409


def test_reports_and_ledger_filters(api: ApiClient) -> None:
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


def test_an_edit_takes_a_submitted_sheet_back_to_draft_and_a_refusal_does_not(
    api: ApiClient,
) -> None:
    """The player submits what they see: adding or replacing an order takes a submitted sheet
    back to draft; a refused write (400, 404) leaves it as it was (issue 13: the sheet is
    touched in the same statement that counts its orders, and rolled back with a refusal)."""
    order = {"type": "research_project", "gal": 2}

    def sheet_status() -> str:
        status: str = api.get(api.base + "sheet/").json()["sheet_status"]
        return status

    def put(position: int, body: object) -> TestResponse:
        return api.put(
            f"{api.base}orders/{position}/", json.dumps(body), content_type="application/json"
        )

    assert post(api, "orders/", order).status_code == 201
    writes: list[Callable[[], TestResponse]] = [
        lambda: post(api, "orders/", order),
        lambda: put(0, {**order, "gal": 4}),
    ]
    for write in writes:
        assert post(api, "sheet/submit/", {}).status_code == 200
        assert sheet_status() == "submitted"
        assert write().status_code in (200, 201)
        assert sheet_status() == "draft"
    assert post(api, "sheet/submit/", {}).status_code == 200
    assert post(api, "orders/", {"type": "research_project", "gal": -2}).status_code == 400
    assert put(0, {"type": "research_project", "gal": -2}).status_code == 400
    assert put(9, order).status_code == 404
    assert sheet_status() == "submitted"
    assert [o["payload"]["gal"] for o in api.get(api.base + "orders/").json()] == [4, 2]
