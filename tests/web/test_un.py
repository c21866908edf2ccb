"""The UN Monetary Committee and the Common Market pages (issue 6, R-6.3, R-6.4): drafts,
motions, one vote per member (reliability R9), decisions at resolution, the public market page
and chart, and the market history."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from economy import services as economy_services
from economy.models import Round, RoundRecord
from powers.models import Power
from tests.web.factories import World, make_campaign
from trade import services
from trade.models import MarketBan, MarketEdge, Motion, PowerTax, RateHistory, Vote

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def world() -> World:
    return make_campaign(n_powers=3)


def at_round(world: World, number: int) -> None:
    """Jump the campaign's open round to ``number`` (a report round is every third)."""
    Round.objects.filter(campaign=world.campaign).update(number=number)
    world.campaign.current_round = number
    world.campaign.save(update_fields=["current_round"])


def resolve(world: World) -> None:
    for power in world.powers:
        economy_services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    assert economy_services.resolve_round(round_id=rnd.pk)
    world.campaign.refresh_from_db()


def motion(world: World, by: int = 0, **fields: str) -> Motion:
    power = world.powers[by]
    drafted = services.draft_motion(power=power, fields=fields, actor="t")
    return services.submit_motion(power=power, key=drafted.key, actor="t")


def votes(world: World, m: Motion, *choices: str) -> None:
    for power, choice in zip(world.powers, choices, strict=False):
        if choice:
            services.vote(power=power, key=m.key, choice=choice, actor="t")


def test_rate_motion_passes_at_a_report_round_and_shows_on_the_market(world: World) -> None:
    at_round(world, 3)
    m = motion(world, kind="rate", edge="ore>bio", rate="1.2")
    votes(world, m, "yes", "yes", "no")
    resolve(world)
    m.refresh_from_db()
    assert (m.status, m.yes, m.no, m.abstain) == ("passed", 2, 1, 0)
    assert MarketEdge.objects.get(campaign=world.campaign, edge="ore>bio").rate == Decimal("1.2")
    rows = RateHistory.objects.filter(campaign=world.campaign, round_number=3)
    assert {r.edge: r.rate for r in rows} == dict.fromkeys(("ore>bio", "bio>gal", "gal>ore"), 1)
    assert all(r.report and r.suggested is not None for r in rows)
    page = Client().get(reverse("market", args=[world.campaign.pk])).content.decode()
    assert 'data-edge="ore&gt;bio" data-round="4 (now)" data-rate="1.2000"' in page
    assert "Set the Ore → Bio rate to 1.2000" in page and "Passed" in page
    assert "Power 2: No" in page  # individual votes are public once decided
    market = Client().get(f"/api/campaigns/{world.campaign.pk}/market/").json()
    assert next(e for e in market["edges"] if e["edge"] == "ore>bio")["rate"] == "1.2000"
    assert market["motions"][0]["votes"][0] == {"member": "p0", "choice": "yes"}


def test_rate_motion_fails_outside_a_report_round(world: World) -> None:
    at_round(world, 4)
    m = motion(world, kind="rate", edge="ore>bio", rate="1.2")
    votes(world, m, "yes", "yes", "yes")
    resolve(world)
    m.refresh_from_db()
    assert m.status == "failed" and "not a Common Market Report round" in m.reason
    assert MarketEdge.objects.get(campaign=world.campaign, edge="ore>bio").rate == 1


def test_tax_on_one_power_fails_with_one_no_and_passes_with_every_other_yes(
    world: World,
) -> None:
    first = motion(world, kind="tax", edge="all", power="p2", tax="0.5")
    votes(world, first, "yes", "no", "yes")
    second = motion(world, by=1, kind="tax", edge="bio>gal", power="p2", tax="0.25")
    votes(world, second, "yes", "yes", "no")
    resolve(world)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == "failed" and "p1 did not vote yes" in first.reason
    assert second.status == "passed"
    tax = PowerTax.objects.get(campaign=world.campaign, power__key="p2")
    assert (tax.edge, tax.tax) == ("bio>gal", Decimal("0.25"))


def test_banned_power_is_refused_at_the_market_next_round(world: World) -> None:
    m = motion(world, kind="ban", power="p2")
    votes(world, m, "yes", "yes", "no")
    resolve(world)
    assert list(MarketBan.objects.values_list("power__key", flat=True)) == ["p2"]
    economy_services.add_order(
        power=world.powers[2],
        payload={"type": "market_sell", "resource": "gal", "amount": 1, "to": "s2-0"},
        actor="t",
    )
    resolve(world)
    record = RoundRecord.objects.get(round__campaign=world.campaign, round__number=2)
    assert "banned from the Common Market by the UN" in record.rejected[0]["error"]


def test_non_member_gets_403_and_cannot_draft(world: World) -> None:
    m = motion(world, kind="tax", edge="all", tax="0.1")
    Power.objects.filter(pk=world.powers[2].pk).update(un_member=False)
    outsider = Client()
    outsider.force_login(world.users[2])
    url = reverse("un-vote", args=[world.campaign.pk, "p2"])
    assert outsider.post(url, {"motion": m.key, "choice": "yes"}).status_code == 403
    api = f"/api/campaigns/{world.campaign.pk}/un/"
    response = outsider.post(api + "votes/", {"motion": m.key, "choice": "yes"}, "application/json")
    assert response.status_code == 403
    response = outsider.post(api + "motions/", {"kind": "ban", "power": "p0"}, "application/json")
    assert response.status_code == 403
    assert not Vote.objects.filter(member=world.powers[2]).exists()
    page = outsider.get(reverse("un-committee", args=[world.campaign.pk, "p2"])).content.decode()
    assert "has no seat on the committee" in page and m.key not in page


def test_a_second_vote_replaces_the_first(world: World) -> None:
    m = motion(world, kind="tax", edge="all", tax="0.1")
    services.vote(power=world.powers[0], key=m.key, choice="yes", actor="t")
    services.vote(power=world.powers[0], key=m.key, choice="no", actor="t")
    assert list(Vote.objects.values_list("member__key", "choice")) == [("p0", "no")]


@pytest.mark.django_db(transaction=True)
def test_concurrent_double_vote_is_stored_once() -> None:
    """Reliability R9: the same member votes twice at once; one row, deterministic tally."""
    world = make_campaign("race", n_powers=2)
    m = motion(world, kind="tax", edge="all", tax="0.1")
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def cast(choice: str) -> None:
        try:
            barrier.wait()
            services.vote(power=world.powers[0], key=m.key, choice=choice, actor="t")
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=cast, args=(c,)) for c in ("yes", "no")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert Vote.objects.filter(motion=m, member=world.powers[0]).count() == 1


def test_drafts_are_private_and_open_motions_are_for_members(world: World) -> None:
    drafted = services.draft_motion(
        power=world.powers[0], fields={"kind": "ban", "power": "p1"}, actor="t"
    )
    other = Client()
    other.force_login(world.users[1])
    committee = other.get(reverse("un-committee", args=[world.campaign.pk, "p1"])).content
    assert drafted.key.encode() not in committee
    assert other.get(f"/api/campaigns/{world.campaign.pk}/un/").json()["drafts"] == []
    public = Client().get(reverse("market", args=[world.campaign.pk])).content
    assert drafted.key.encode() not in public
    services.submit_motion(power=world.powers[0], key=drafted.key, actor="t")
    committee = other.get(reverse("un-committee", args=[world.campaign.pk, "p1"])).content
    assert drafted.key.encode() in committee
    public = Client().get(reverse("market", args=[world.campaign.pk])).content
    assert drafted.key.encode() not in public  # not public until decided


def test_committee_page_drafts_submits_and_votes_with_htmx(world: World) -> None:
    owner = Client()
    owner.force_login(world.users[0])
    base = [world.campaign.pk, "p0"]
    response = owner.post(
        reverse("motion-draft", args=base),
        {"kind": "rate", "edge": "ore>bio", "value": "1.23456"},
        HTTP_HX_REQUEST="true",
    )
    assert "Rate: expected a decimal" in response.text
    response = owner.post(
        reverse("motion-draft", args=base),
        {"kind": "rate", "edge": "ore>bio", "value": "1.25"},
        HTTP_HX_REQUEST="true",
    )
    key = Motion.objects.get().key
    assert key in response.text and "Put to the committee" in response.text
    owner.post(reverse("motion-act", args=base), {"motion": key, "action": "submit"})
    response = owner.post(
        reverse("un-vote", args=base), {"motion": key, "choice": "yes"}, HTTP_HX_REQUEST="true"
    )
    assert "you voted yes" in response.text
    page = owner.get(reverse("un-committee", args=base)).content.decode()
    assert 'class="num mono suggested">1.1000' in page  # no sales yet: +10 % (docs/rules.md)


def test_votes_refused_once_resolution_has_started(world: World) -> None:
    m = motion(world, kind="tax", edge="all", tax="0.1")
    Round.objects.filter(campaign=world.campaign).update(status="resolving")
    client = Client()
    client.force_login(world.users[0])
    response = client.post(
        f"/api/campaigns/{world.campaign.pk}/un/votes/",
        {"motion": m.key, "choice": "yes"},
        "application/json",
    )
    assert response.status_code == 409


def test_history_records_the_units_sold_each_round(world: World) -> None:
    economy_services.add_order(
        power=world.powers[0],
        payload={"type": "market_sell", "resource": "gal", "amount": 7, "to": "s0-0"},
        actor="t",
    )
    resolve(world)
    row = RateHistory.objects.get(campaign=world.campaign, round_number=1, edge="gal>ore")
    assert (row.volume, row.report) == (7, False)
    svg = Client().get(reverse("market", args=[world.campaign.pk])).content.decode()
    assert 'data-edge="gal&gt;ore" data-round="1" data-volume="7"' in svg


def test_market_page_queries_do_not_grow_with_motions_and_votes(world: World) -> None:
    from tests.web.test_query_counts import count

    url = reverse("market", args=[world.campaign.pk])
    client = Client()
    votes(world, motion(world, kind="tax", edge="all", tax="0.1"), "yes")
    resolve(world)
    one = count(lambda: client.get(url))
    for by in range(3):
        m = motion(world, by=by, kind="tax", edge="all", tax="0.1")
        votes(world, m, "yes", "no", "abstain")
    resolve(world)
    assert count(lambda: client.get(url)) == one


@pytest.mark.parametrize("value", ["1e309", "NaN", "-1", "1.00001", "abc", "100000"])
def test_api_motion_values_out_of_range_are_400(world: World, value: str) -> None:
    client = Client()
    client.force_login(world.users[0])
    response = client.post(
        f"/api/campaigns/{world.campaign.pk}/un/motions/",
        {"kind": "rate", "edge": "ore>bio", "value": value},
        "application/json",
    )
    assert response.status_code == 400 and "rate" in response.json()
    assert not Motion.objects.exists()
