"""Issue 10, items 3, 4 and 6 on the order sheet and its API: orders are numbered from 1 as
the list shows them, wherever they are named; a write meant for a round that is over is refused
(page: "round N is over — open round N+1" and the sheet reloads; API: If-Match "round-N" gives
409 with the open round), never applied to the next round; the player whose submission
resolved the round is told so; and what players read names fields by their labels, never by
their internal keys."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from economy import services
from economy.models import Order, Round
from economy.tasks import resolve_round_task
from tests.web.factories import World

pytestmark = pytest.mark.django_db


def sheet_url(world: World) -> str:
    return reverse("orders", args=[world.campaign.pk, "p0"])


def resolve_round_one(world: World) -> None:
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(round_id=Round.objects.get(number=1).pk)


# --- item 3: numbering ---------------------------------------------------------------------


def test_rejected_orders_and_the_edit_form_use_the_list_numbers(
    player: Client, world: World
) -> None:
    """Today the statement says "#5" for the sixth order of the list, and the edit form of
    the sixth order is "Edit order #5"."""
    p0 = world.powers[0]
    for _ in range(5):
        services.add_order(power=p0, payload={"type": "research_project", "gal": 2}, actor="t")
    services.add_order(
        power=p0, payload={"type": "gal_transfer", "to": "p1", "amount": 10**9}, actor="t"
    )
    edit = player.get(reverse("order-edit", args=[world.campaign.pk, "p0", 5]))
    assert "Edit order 6" in edit.text and "#5" not in edit.text
    resolve_round_one(world)
    report = player.get(reverse("report", args=[world.campaign.pk, "p0", 1]))
    assert "Order 6: bank has" in report.text and "#5" not in report.text
    api = player.get(f"/api/campaigns/{world.campaign.pk}/reports/1/").json()
    assert [(r["index"], r["number"]) for r in api["rejected"]] == [(5, 6)]


def test_api_orders_carry_their_list_number(player: Client, world: World) -> None:
    base = f"/api/campaigns/{world.campaign.pk}/orders/"
    for gal in (2, 4):
        player.post(base, {"type": "research_project", "gal": gal}, content_type="application/json")
    assert [(o["position"], o["number"]) for o in player.get(base).json()] == [(0, 1), (1, 2)]
    assert str(Order.objects.get(position=0)) == "order 1: research_project"


# --- item 4: stale writes ------------------------------------------------------------------


def test_a_page_of_a_round_that_is_over_does_not_write_into_the_next(
    player: Client, world: World
) -> None:
    page = player.get(sheet_url(world))
    assert 'name="round" value="1"' in page.text  # every sheet form carries its round
    resolve_round_one(world)
    add = reverse("order-add", args=[world.campaign.pk, "p0"])
    r = player.post(add, {"round": "1", "type": "research_project", "gal": "2"})
    assert r.status_code == 409
    assert "round 1 is over — open round 2" in r.text
    assert "Round 2" in r.text  # the sheet as it is now
    assert not Order.objects.exists()
    # the same through htmx: refused, and the page reloads with the reason
    r = player.post(
        add, {"round": "1", "type": "research_project", "gal": "2"}, HTTP_HX_REQUEST="true"
    )
    assert r.status_code == 409 and r["HX-Refresh"] == "true"
    assert "round 1 is over — open round 2" in player.get(sheet_url(world)).text
    # the form of the open round writes
    r = player.post(add, {"round": "2", "type": "research_project", "gal": "2"})
    assert r.status_code == 302 and Order.objects.get().sheet.round.number == 2


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("order-remove", (0,), {}),
        ("order-move", (0,), {"to": "1"}),
        ("sheet-submit", (), {"action": "submit"}),
        ("sheet-submit", (), {"action": "withdraw"}),
    ],
)
def test_every_sheet_write_checks_its_round(
    player: Client, world: World, name: str, args: tuple[int, ...], data: dict[str, str]
) -> None:
    resolve_round_one(world)
    for gal in (2, 4):
        services.add_order(
            power=world.powers[0], payload={"type": "research_project", "gal": gal}, actor="t"
        )
    r = player.post(reverse(name, args=[world.campaign.pk, "p0", *args]), {"round": "1", **data})
    assert r.status_code == 409 and "round 1 is over — open round 2" in r.text
    assert [o.payload["gal"] for o in Order.objects.order_by("position")] == [2, 4]


def test_the_api_refuses_a_write_for_a_round_that_is_over(player: Client, world: World) -> None:
    base = f"/api/campaigns/{world.campaign.pk}/"
    sheet = player.get(base + "sheet/")
    assert sheet["ETag"] == '"round-1"'
    resolve_round_one(world)
    body = json.dumps({"type": "research_project", "gal": 2})
    r = player.post(
        base + "orders/", body, content_type="application/json", HTTP_IF_MATCH='"round-1"'
    )
    assert r.status_code == 409
    assert r.json() == {"detail": "round 1 is over — open round 2", "open_round": 2}
    assert not Order.objects.exists()
    r = player.post(base + "sheet/submit/", HTTP_IF_MATCH='"round-1"')
    assert r.status_code == 409 and r.json()["open_round"] == 2
    r = player.post(
        base + "orders/", body, content_type="application/json", HTTP_IF_MATCH="round 2"
    )
    assert r.status_code == 400 and "If-Match" in r.json()
    r = player.post(
        base + "orders/", body, content_type="application/json", HTTP_IF_MATCH='"round-2"'
    )
    assert r.status_code == 201
    assert player.get(base + "sheet/")["ETag"] == '"round-2"'


@pytest.mark.django_db(transaction=True)
def test_the_last_submitter_is_told_the_round_resolved(
    player: Client, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tasks run in-process, as with `make run`
    monkeypatch.setattr(
        resolve_round_task, "delay", lambda round_id: services.resolve_round(round_id=round_id)
    )
    services.submit_sheet(power=world.powers[1], actor="t")
    submit = reverse("sheet-submit", args=[world.campaign.pk, "p0"])
    r = player.post(submit, {"round": "1", "action": "submit"})
    assert r.status_code == 302 and r["Location"] == sheet_url(world) + "?resolved=1"
    page = player.get(r["Location"])
    assert "Round 1 resolved — " in page.text
    statement = reverse("report", args=[world.campaign.pk, "p0", 1])
    assert f'<a href="{statement}">read your statement</a>' in page.text


# --- item 6: texts players read --------------------------------------------------------------


def test_messages_and_order_lines_name_fields_by_their_labels(player: Client, world: World) -> None:
    p0 = world.powers[0]
    services.add_order(
        power=p0,
        payload={
            "type": "ship",
            "from_hub": "hub0",
            "to_hub": "hub0",
            "resource": "ore",
            "amount": 1,
        },
        actor="t",
    )
    page = player.get(sheet_url(world)).text
    assert "To hub: must differ from from hub" in page
    assert "Ships 1 Ore from hub Hub0 to hub Hub0" in page  # a sentence with names (issue 17)
    for key in ("to_hub", "from_hub", "a_amount"):
        assert f"{key}:" not in page and f"{key}=" not in page
    r = player.post(
        reverse("order-validate", args=[world.campaign.pk, "p0"]),
        {"type": "gal_transfer", "to": "p1", "amount": "-5"},
    )
    assert "Gal: expected a positive integer" in r.text


def test_agreement_messages_name_the_fields_the_player_filled(player: Client, world: World) -> None:
    """Today: "a_amount: at least one side must send something"."""
    r = player.post(
        reverse("agreement-propose", args=[world.campaign.pk, "p0"]),
        {"partner": "p1", "deposit": "0101", "delivery": "3", "send_amount": "0"},
    )
    assert r.status_code == 400
    assert "Amount you send: at least one side must send something" in r.text
    assert "a_amount" not in r.text
    api = player.post(
        f"/api/campaigns/{world.campaign.pk}/agreements/",
        {"partner": "p1", "deposit": "0101", "delivery": 3},
        content_type="application/json",
    )
    assert api.status_code == 400
    assert api.json() == {"send_amount": ["at least one side must send something"]}


def test_a_declared_hex_that_is_not_a_hex_gets_a_message(player, world) -> None:  # type: ignore[no-untyped-def]
    """Issue 10, item 2: ``abcd`` typed as a declaration's hex is answered with why (the
    browser no longer blocks the request silently), and the order is never applied."""
    from powers.models import FleetGroup

    FleetGroup.objects.create(
        campaign=world.campaign, key="g1", power=world.powers[0], col=1, row=1
    )
    sheet = player.get(reverse("orders", args=[world.campaign.pk, "p0"])).content.decode()
    assert 'pattern="[0-9]{4}"' not in sheet  # a pattern would stop htmx sending it at all
    r = player.post(
        reverse("declare", args=[world.campaign.pk, "p0", "g1"]),
        {"hex": "abcd", "order": "none", "status": "none", "round": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert (r.status_code, r["HX-Refresh"]) == (400, "true")  # refused; the sheet reloads
    again = player.get(reverse("orders", args=[world.campaign.pk, "p0"])).content.decode()
    assert "Hex: expected a hex XXYY (two digits for the column, two for the row), got " in again
    assert not Order.objects.exists()


def test_a_defending_declaration_can_be_taken_back(player, world) -> None:  # type: ignore[no-untyped-def]
    """R-2a: an unticked box sends false, so "defending" can be turned off again."""
    url = reverse("order-add", args=[world.campaign.pk, "p0"])
    form = {"type": "declare_group", "group": "g1", "round": "1"}
    from powers.models import FleetGroup

    FleetGroup.objects.create(
        campaign=world.campaign, key="g1", power=world.powers[0], col=1, row=1
    )
    player.post(url, {**form, "defending": "on"})
    assert Order.objects.get().payload["defending"] is True
    player.post(url, {**form, "position": "0", "defending": "false"})
    assert Order.objects.get().payload["defending"] is False
    sheet = player.get(
        reverse("order-form", args=[world.campaign.pk, "p0"]), {"type": "declare_group"}
    )
    assert 'type="hidden" name="defending" value="false"' in sheet.content.decode()
