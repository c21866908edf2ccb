"""Trade agreements between powers (issue 6, R-5.5): proposal, counter, accept, decline and
private hub choices through the services; dispatch and delivery through real resolutions; and
nobody but the two parties sees an agreement or its goods in transit."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from economy import services as economy_services
from economy.models import AuditEvent, Round
from economy.rounds import RoundNotOpen
from tests.web.factories import World, make_campaign
from trade import services
from trade.models import Agreement, AgreementEvent, Shipment, TradeHub

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def terms(**kw: Any) -> services.Terms:
    values: dict[str, Any] = {
        "deposit": "0201",
        "delivery": 2,
        "a_resource": "ore",
        "a_amount": 10,
        "b_resource": "bio",
        "b_amount": 4,
    }
    values.update(kw)
    return services.Terms(**values)


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=3)
    TradeHub.objects.filter(campaign=world.campaign).update(guild=True)
    return world


def accepted(world: World) -> Agreement:
    p0, p1 = world.powers[:2]
    ag = services.propose_agreement(power=p0, partner_key="p1", terms=terms(), actor="a")
    services.name_hubs(power=p0, key=ag.key, send_hub="hub0", receive_hub="hub0", actor="a")
    services.name_hubs(power=p1, key=ag.key, send_hub="hub1", receive_hub="hub1", actor="b")
    return services.answer_agreement(power=p1, key=ag.key, accept=True, actor="b")


def resolve(world: World) -> None:
    for power in world.powers:
        economy_services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    assert economy_services.resolve_round(round_id=rnd.pk)


def test_propose_counter_accept_keeps_the_history(world: World) -> None:
    p0, p1 = world.powers[:2]
    ag = services.propose_agreement(power=p0, partner_key="p1", terms=terms(), actor="a")
    assert (ag.status, ag.awaiting) == ("proposed", p1)
    with pytest.raises(services.TradeError, match="other party has to answer"):
        services.answer_agreement(power=p0, key=ag.key, accept=True, actor="a")
    ag = services.counter_agreement(power=p1, key=ag.key, terms=terms(b_amount=2), actor="b")
    assert (ag.awaiting, ag.b_amount) == (p0, 2)
    ag = services.answer_agreement(power=p0, key=ag.key, accept=True, actor="a")
    assert (ag.status, ag.awaiting) == ("accepted", None)
    actions = list(AgreementEvent.objects.filter(agreement=ag).values_list("action", flat=True))
    assert actions == ["propose", "counter", "accept"]
    assert AuditEvent.objects.filter(action__startswith="agreement_").count() == 3


def test_either_party_may_decline_a_proposal(world: World) -> None:
    p0 = world.powers[0]
    ag = services.propose_agreement(power=p0, partner_key="p1", terms=terms(), actor="a")
    ag = services.answer_agreement(power=p0, key=ag.key, accept=False, actor="a")
    assert ag.status == "declined"
    with pytest.raises(services.TradeError, match="declined"):
        services.answer_agreement(power=world.powers[1], key=ag.key, accept=True, actor="b")


def test_refusals_name_the_field_and_write_nothing(world: World) -> None:
    p0 = world.powers[0]
    with pytest.raises(services.TradeError) as exc:
        services.propose_agreement(
            power=p0,
            partner_key="p0",
            terms=terms(deposit="01", delivery=1, a_amount=0, b_amount=0),
            actor="a",
        )
    fields = [e.split(":")[0] for e in exc.value.errors]
    assert fields == ["partner", "deposit", "delivery", "send_amount"]
    assert not Agreement.objects.exists()
    ag = services.propose_agreement(power=p0, partner_key="p1", terms=terms(), actor="a")
    with pytest.raises(services.TradeError, match="send_hub: 'hub1' is not one of your hubs"):
        services.name_hubs(power=p0, key=ag.key, send_hub="hub1", receive_hub=None, actor="a")


def test_the_deposit_hex_must_be_on_the_map(world: World) -> None:
    """Issue 10, item 2 (contracts §1 map.size): the bounds are the campaign's, else the box of
    its hexes (make_campaign's three powers use columns 1-7, rows 1-3)."""
    p0 = world.powers[0]
    for deposit in ("0901", "0104"):
        with pytest.raises(services.TradeError, match=f"hex {deposit} is outside the map"):
            services.propose_agreement(
                power=p0, partner_key="p1", terms=terms(deposit=deposit), actor="a"
            )
    assert not Agreement.objects.exists()
    world.campaign.map_cols, world.campaign.map_rows = 32, 40
    world.campaign.save()
    ag = services.propose_agreement(
        power=p0, partner_key="p1", terms=terms(deposit="3240"), actor="a"
    )
    assert ag.deposit == "3240"


def test_refused_once_resolution_has_started(world: World) -> None:
    Round.objects.filter(campaign=world.campaign).update(status="resolving")
    with pytest.raises(RoundNotOpen):
        services.propose_agreement(
            power=world.powers[0], partner_key="p1", terms=terms(), actor="a"
        )


def test_legs_dispatched_then_delivered_through_resolution(world: World) -> None:
    ag = accepted(world)
    resolve(world)  # round 1: both centres are 1 hex from 0201, so both dispatch now
    ag.refresh_from_db()
    assert (ag.a_status, ag.b_status) == ("dispatched", "dispatched")
    shipments = {s.key: s for s in Shipment.objects.filter(campaign=world.campaign)}
    assert set(shipments) == {"r1-p0-1", "r1-p1-1"}
    to_hub = shipments["r1-p0-1"].to_hub
    assert to_hub is not None
    assert (shipments["r1-p0-1"].power.key, to_hub.key) == ("p1", "hub1")
    hub1_ore = TradeHub.objects.get(key="hub1").pool_ore
    resolve(world)  # round 2: delivery
    assert not Shipment.objects.filter(campaign=world.campaign).exists()
    ag.refresh_from_db()
    assert ag.status == "closed"
    assert TradeHub.objects.get(key="hub1").pool_ore >= hub1_ore + 10


def test_a_leg_that_cannot_be_dispatched_fails_alone(world: World) -> None:
    p0, p1 = world.powers[:2]
    ag = services.propose_agreement(
        power=p0, partner_key="p1", terms=terms(a_amount=10_000), actor="a"
    )
    services.name_hubs(power=p0, key=ag.key, send_hub="hub0", receive_hub="hub0", actor="a")
    services.name_hubs(power=p1, key=ag.key, send_hub="hub1", receive_hub="hub1", actor="b")
    services.answer_agreement(power=p1, key=ag.key, accept=True, actor="b")
    resolve(world)
    ag.refresh_from_db()
    assert ag.a_status == "failed" and "the leg needs 10100" in ag.a_note
    assert ag.b_status == "dispatched"
    for user in world.users[:2]:  # both parties are told
        client = Client()
        client.force_login(user)
        key = "p0" if user == world.users[0] else "p1"
        page = client.get(reverse("agreements", args=[world.campaign.pk, key])).content.decode()
        assert "the leg needs 10100" in page


def test_a_third_power_sees_neither_the_agreement_nor_the_shipments(world: World) -> None:
    ag = accepted(world)
    resolve(world)
    campaign = world.campaign.pk
    third = Client()
    third.force_login(world.users[2])
    own_page = third.get(reverse("agreements", args=[campaign, "p2"])).content.decode()
    assert ag.key not in own_page and "r1-p0-1" not in own_page and "hub0" not in own_page
    assert third.get(reverse("agreements", args=[campaign, "p0"])).status_code == 404
    response = third.post(
        reverse("agreement-act", args=[campaign, "p2"]), {"agreement": ag.key, "action": "accept"}
    )
    assert response.status_code == 404
    api = f"/api/campaigns/{campaign}/"
    assert third.get(api + "agreements/").json() == []
    assert third.get(api + "shipments/").json() == []
    response = third.post(
        api + "agreements/respond/", {"agreement": ag.key, "action": "decline"}, "application/json"
    )
    assert response.status_code == 404
    for i, user in enumerate(world.users[:2]):  # the parties see both shipments
        client = Client()
        client.force_login(user)
        keys = {s["key"] for s in client.get(api + "shipments/").json()}
        assert keys == {"r1-p0-1", "r1-p1-1"}
        page = client.get(reverse("agreements", args=[campaign, f"p{i}"])).content.decode()
        # by number, round and sender (issue 17: never the key r1-p0-1)
        assert "<td>1 of round 1</td><td>Power 0" in page
        assert "<td>1 of round 1</td><td>Power 1" in page


def test_each_party_sees_only_its_own_hub_choice(world: World) -> None:
    ag = accepted(world)
    client = Client()
    client.force_login(world.users[1])
    (row,) = client.get(f"/api/campaigns/{world.campaign.pk}/agreements/").json()
    assert row["key"] == ag.key
    assert (row["my_send_hub"], row["my_receive_hub"]) == ("hub1", "hub1")
    assert row["i_send"] == {"resource": "bio", "amount": 4, "status": "pending", "note": ""}
    assert row["they_send"]["amount"] == 10
    assert row["my_dispatch"] == "round 1: 2 hexes from hub1's centre, cost 1% of the amount"
    assert "hub0" not in str(row)


def test_api_propose_counter_accept_and_hubs(world: World) -> None:
    api = f"/api/campaigns/{world.campaign.pk}/agreements/"
    a, b = Client(), Client()
    a.force_login(world.users[0])
    b.force_login(world.users[1])
    body = {"partner": "p1", "deposit": "0201", "delivery": 3, "send_amount": 10}
    response = a.post(api, {**body, "delivery": 1}, "application/json")
    assert response.status_code == 400 and "delivery" in response.json()
    response = a.post(api, body, "application/json")
    assert response.status_code == 201
    key = response.json()["key"]
    counter = {
        "agreement": key,
        "action": "counter",
        "deposit": "0201",
        "delivery": 3,
        "send_resource": "bio",
        "send_amount": 3,
        "receive_resource": "ore",
        "receive_amount": 12,
    }
    response = b.post(api + "respond/", counter, "application/json")
    assert response.status_code == 200, response.content
    assert response.json()["i_send"]["amount"] == 3
    response = a.post(api + "hubs/", {"agreement": key, "send_hub": "hub0"}, "application/json")
    assert response.json()["my_send_hub"] == "hub0"
    response = a.post(api + "respond/", {"agreement": key, "action": "accept"}, "application/json")
    assert response.json()["status"] == "accepted"
    assert Agreement.objects.get(key=key).a_amount == 12


def test_page_propose_and_accept_with_htmx(world: World) -> None:
    a, b = Client(), Client()
    a.force_login(world.users[0])
    b.force_login(world.users[1])
    url = reverse("agreement-propose", args=[world.campaign.pk, "p0"])
    form = {
        "partner": "p1",
        "deposit": "0201",
        "delivery": "2",
        "send_resource": "ore",
        "send_amount": "5",
        "receive_resource": "bio",
        "receive_amount": "0",
    }
    response = a.post(url, {**form, "delivery": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Delivery round: must be a later round" in response.text
    assert a.post(url, form).status_code == 302
    key = Agreement.objects.get().key
    act = reverse("agreement-act", args=[world.campaign.pk, "p1"])
    response = b.post(act, {"agreement": key, "action": "accept"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Accepted" in response.text


def test_replay_ignores_what_players_negotiate_between_rounds(world: World) -> None:
    accepted(world)
    resolve(world)
    p0, p1 = world.powers[:2]
    later = services.propose_agreement(
        power=p1, partner_key="p0", terms=terms(delivery=4), actor="b"
    )
    services.answer_agreement(power=p0, key=later.key, accept=True, actor="a")
    resolve(world)
    assert economy_services.replay(campaign=world.campaign, number=1) == []
    assert economy_services.replay(campaign=world.campaign, number=2) == []


@pytest.mark.parametrize(
    "change", [{"send_amount": 10**11}, {"delivery": 10**5}, {"send_amount": -1}]
)
def test_api_numbers_out_of_range_are_400(world: World, change: dict[str, int]) -> None:
    client = Client()
    client.force_login(world.users[0])
    body = {"partner": "p1", "deposit": "0201", "delivery": 3, "send_amount": 10, **change}
    response = client.post(
        f"/api/campaigns/{world.campaign.pk}/agreements/", body, "application/json"
    )
    assert response.status_code == 400
    assert not Agreement.objects.exists()


def test_the_party_whose_offer_awaits_withdraws_it(world: World, client: Client) -> None:
    """Issue 15: withdraw, for the party that made the offer awaiting an answer; the party
    it awaits declines instead."""
    p0, p1 = world.powers[0], world.powers[1]
    ag = services.propose_agreement(power=p0, partner_key="p1", terms=terms(), actor="a")
    with pytest.raises(services.TradeError, match="decline it instead"):
        services.withdraw_agreement(power=p1, key=ag.key, actor="b")
    client.force_login(world.users[0])
    page = client.get(reverse("agreements", args=[world.campaign.pk, "p0"])).content.decode()
    assert 'value="withdraw"' in page
    client.post(
        reverse("agreement-act", args=[world.campaign.pk, "p0"]),
        {"agreement": ag.key, "action": "withdraw"},
    )
    ag.refresh_from_db()
    assert (ag.status, ag.awaiting_id) == ("withdrawn", None)
    with pytest.raises(services.TradeError, match="withdrawn"):
        services.answer_agreement(power=p1, key=ag.key, accept=True, actor="b")
