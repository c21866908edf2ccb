"""A retried write never lands on the next round (issue 32, item 5): every write may say its
round — a page's hidden ``round`` field or its section's ``hx-vals``, an API write's
``If-Match: "round-N"`` — and a write for a round that is over is a 409 with nothing written.
The check is one: the round lock every player write takes (``economy.rounds.lock_open_round``)
refuses it, told the round by the page-write decorator or the API's If-Match middleware. A
write that does not say its round is taken as before."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from economy import services as economy_services
from economy.models import OrderSheet, Round
from tests.web.factories import World, make_campaign
from trade.models import Motion

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def world() -> World:
    return make_campaign(n_powers=2)


def resolve(world: World) -> None:
    """Round 1 resolves (every sheet submitted); round 2 opens."""
    for power in world.powers:
        economy_services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    assert economy_services.resolve_round(round_id=rnd.pk)
    assert Round.objects.get(campaign=world.campaign, status="open").number == 2


def test_a_submit_for_a_round_that_is_over_is_409_and_the_next_sheet_stays_open(
    player: Client, world: World
) -> None:
    resolve(world)
    url = reverse("sheet-submit", args=[world.campaign.pk, "p0"])
    r = player.post(url, {"round": "1"})
    assert r.status_code == 409
    assert "round 1 is over" in r.text
    rnd2 = Round.objects.get(campaign=world.campaign, number=2)
    assert not OrderSheet.objects.filter(round=rnd2, status="submitted").exists()
    # without its round, as before: taken for the open round
    assert player.post(url).status_code in (200, 302)
    assert OrderSheet.objects.filter(round=rnd2, power=world.powers[0], status="submitted").exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_trade_write_for_a_round_that_is_over_is_409(
    player: Client, world: World, htmx: bool
) -> None:
    resolve(world)
    url = reverse("motion-draft", args=[world.campaign.pk, "p0"])
    headers = {"HX-Request": "true"} if htmx else None
    r = player.post(url, {"round": "1", "kind": "ban", "power": "p1"}, headers=headers)
    assert r.status_code == 409
    assert "round 1 is over" in r.text
    assert not Motion.objects.exists()
    r = player.post(url, {"round": "2", "kind": "ban", "power": "p1"}, headers=headers)
    assert r.status_code in (200, 302)
    assert Motion.objects.count() == 1


def test_an_api_write_with_if_match_for_a_round_that_is_over_is_409(
    player: Client, world: World
) -> None:
    resolve(world)
    url = f"/api/campaigns/{world.campaign.pk}/un/motions/"
    body = {"kind": "ban", "power": "p1"}
    r = player.post(url, body, "application/json", HTTP_IF_MATCH='"round-1"')
    assert r.status_code == 409
    assert r.json()["open_round"] == 2 and "round 1 is over" in r.json()["detail"]
    assert not Motion.objects.exists()
    r = player.post(url, body, "application/json", HTTP_IF_MATCH='"round-2"')
    assert r.status_code == 201
    assert player.post(url, body, "application/json").status_code == 201  # no If-Match


@pytest.mark.parametrize("page", ["un-committee", "agreements", "battles"])
def test_the_sections_send_their_round_with_every_htmx_write(
    player: Client, world: World, page: str
) -> None:
    html = player.get(reverse(page, args=[world.campaign.pk, "p0"])).text
    assert """hx-vals='{"round": "1"}'""" in html
