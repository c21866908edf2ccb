"""A round never waits silently, and whose turn it is covers everything waiting on a player
(issue 29, items 4 and 5): the words for each thing a round waits for, read by the reader the
services decide early resolution by (so they agree); a battle record's hex and powers told only
to the powers in it and the organiser; what waits on each player (orders, battle records, UN
votes, agreement, loan and transfer offers, invitations), each linking where to act, counted in
the navigation bar, listed in the API and the private feed; a fixed number of queries."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from economy import services, waiting
from economy.models import Round, RoundStatus
from notices import selectors
from notices import services as notices
from powers.models import (
    BattleParty,
    BattleRecord,
    Invitation,
    Loan,
    Membership,
    Power,
    Transfer,
)
from tests.web.factories import PASSWORD, World, make_campaign
from trade.models import Agreement, Motion, Vote

pytestmark = pytest.mark.django_db

HIDDEN = "Waiting for a battle record between other powers to be confirmed."
RESOLVING = "Resolving now: every power has submitted and no battle record awaits confirmation."


@pytest.fixture
def world() -> World:
    return make_campaign("Turns 29", n_powers=3)


def live(world: World) -> Round:
    return Round.objects.get(campaign=world.campaign, status__in=["open", "resolving"])


def turn(world: World, i: int) -> selectors.Turn:
    (one,) = selectors.turns(user=world.users[i], campaign_id=world.campaign.pk).campaigns
    return one


def said(world: World, i: int) -> list[str]:
    return [str(line) for line in turn(world, i).waits]


def record(
    world: World, answers: dict[int, str], *, by: int = 0, col: int = 6, row: int = 6
) -> BattleRecord:
    """A record at 0606 entered by power ``by``, the powers in it answering as given."""
    rec = BattleRecord.objects.create(
        campaign=world.campaign,
        key=f"br-{col:02d}{row:02d}-{by}-{len(answers)}",
        col=col,
        row=row,
        entered_by=world.powers[by],
    )
    BattleParty.objects.bulk_create(
        BattleParty(record=rec, power=world.powers[i], position=n, answer=answer)
        for n, (i, answer) in enumerate(answers.items())
    )
    return rec


def submit_all(world: World) -> None:
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")


def words_agree_with_the_server(world: World) -> None:
    """The one check that goes red when the words and the services' decision part: "Resolving
    now" is said exactly when the services would resolve the round before its deadline."""
    rnd = live(world)
    for i in range(len(world.powers)):
        lines = said(world, i)
        assert (RESOLVING in lines) == services.round_is_complete(rnd), lines
    assert (RESOLVING in [str(x) for x in selectors.organiser_waits(world.campaign)]) == (
        services.round_is_complete(rnd)
    )


# --- what the round waits for ------------------------------------------------------------------


def test_orders_not_submitted_then_the_deadline(world: World) -> None:
    rnd = live(world)
    assert rnd.deadline is not None
    lines = turn(world, 0).waits
    assert [str(x) for x in lines] == [
        "Waiting for you, Power 1 and Power 2 to submit their orders.",
        f"Resolves at the deadline, {rnd.deadline:%Y-%m-%d %H:%M} UTC.",
    ]
    assert lines[0].url == reverse("orders", args=[world.campaign.pk, "p0"])
    assert lines[1].when == rnd.deadline
    services.submit_sheet(power=world.powers[0], actor="t")
    services.submit_sheet(power=world.powers[1], actor="t")
    assert said(world, 0)[0] == "Waiting for Power 2 to submit its orders."
    assert turn(world, 0).waits[0].url == ""  # another power's orders: nowhere to go
    assert said(world, 2)[0] == "Waiting for you to submit your orders."
    words_agree_with_the_server(world)
    services.submit_sheet(power=world.powers[2], actor="t")
    # the last submission enqueued the resolution: the round is resolving now
    assert said(world, 1) == [RESOLVING]
    words_agree_with_the_server(world)


def test_a_record_awaiting_confirmation_is_told_to_its_powers_only(world: World) -> None:
    rec = record(world, {0: "confirmed", 1: "pending"})
    submit_all(world)  # "Every power has submitted." used to be all it said
    battles = reverse("battles", args=[world.campaign.pk, "p0"])
    assert said(world, 0) == [
        "Waiting for Power 1 to confirm the battle at 0606.",
        f"Resolves at the deadline, {live(world).deadline:%Y-%m-%d %H:%M} UTC.",
    ]
    assert turn(world, 0).waits[0].url == battles
    assert said(world, 1)[0] == "Waiting for you to confirm the battle at 0606."
    # a third power reads that a record waits, never where, who or how many
    third = said(world, 2)
    assert third[0] == HIDDEN
    assert turn(world, 2).waits[0].url.startswith(reverse("rules"))
    assert not any("0606" in x or "Power 0" in x or "Power 1" in x for x in third), third
    record(world, {0: "pending", 1: "confirmed"}, by=1, col=7, row=7)
    assert said(world, 2).count(HIDDEN) == 1  # one line, however many records
    assert not any("0707" in x for x in said(world, 2))
    # the organiser reads everything, with the admin page to confirm it from
    organiser = selectors.organiser_waits(world.campaign)
    assert (
        str(organiser[0])
        == "Waiting for Power 1 to confirm the battle at 0606 (entered by Power 0)."
    )
    assert organiser[0].url == reverse("admin:powers_battlerecord_change", args=[rec.pk])
    words_agree_with_the_server(world)


def test_a_declined_record_waits_for_its_entering_power(world: World) -> None:
    record(world, {0: "confirmed", 1: "declined", 2: "pending"})
    submit_all(world)
    assert said(world, 0)[0] == (
        "Waiting for you to amend or withdraw the record of the battle at 0606: "
        "Power 1 declined it."
    )
    assert said(world, 1)[0] == (
        "Waiting for Power 0 to amend or withdraw the record of the battle at 0606: "
        "you declined it."
    )
    assert said(world, 2)[0].startswith("Waiting for Power 0 to amend or withdraw")
    words_agree_with_the_server(world)


@pytest.mark.parametrize("status", ["confirmed", "applied", "withdrawn", "void", "expired"])
def test_a_record_no_longer_proposed_waits_for_nobody(world: World, status: str) -> None:
    rec = record(world, {0: "confirmed", 1: "pending"})
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert HIDDEN in said(world, 2)
    BattleRecord.objects.filter(pk=rec.pk).update(status=status)
    assert waiting.of_round(live(world)).complete
    assert said(world, 2) == [RESOLVING] == said(world, 0)
    words_agree_with_the_server(world)


def test_paused_not_started_resolving_and_past_the_deadline(world: World) -> None:
    rnd = live(world)
    Round.objects.filter(pk=rnd.pk).update(paused=True)
    assert said(world, 0)[0] == (
        "Paused by the organiser: it does not resolve, even at its deadline, until the "
        "organiser resumes it."
    )
    assert not any("Resolves at the deadline" in x for x in said(world, 0))
    submit_all(world)  # paused: nothing resolves, and it does not say so
    assert said(world, 0) == [said(world, 0)[0]]
    words_agree_with_the_server(world)
    Round.objects.filter(pk=rnd.pk).update(deadline=None)
    assert said(world, 0) == ["Waiting for the organiser to start the round."]
    organiser = selectors.organiser_waits(world.campaign)
    assert organiser[0].url == reverse("admin:powers_campaign_change", args=[world.campaign.pk])
    Round.objects.filter(pk=rnd.pk).update(paused=False, status=RoundStatus.RESOLVING)
    assert said(world, 0) == ["Resolving now."]
    Round.objects.filter(pk=rnd.pk).update(
        status=RoundStatus.OPEN, deadline=timezone.now() - timedelta(minutes=1)
    )
    record(world, {0: "confirmed", 1: "pending"})
    assert said(world, 2)[-1] == "The deadline has passed: resolving now."


def test_the_services_decide_by_the_same_reader(world: World, monkeypatch: Any) -> None:
    """Early resolution, the sweep and the nudge read ``economy.waiting``: break it and they
    follow (and the words with them)."""
    submit_all(world)
    assert services.round_is_complete(live(world))
    monkeypatch.setattr(waiting.Waits, "all_in", property(lambda self: False))
    assert not services.round_is_complete(live(world))
    assert services.sweep() == []
    assert RESOLVING not in said(world, 0)


# --- what waits on the player ------------------------------------------------------------------


def kinds(items: list[selectors.Item]) -> list[str]:
    return [i.kind for i in items]


def test_everything_waiting_on_a_player_with_where_to_act(world: World) -> None:
    cid = world.campaign.pk
    p0, p1, p2 = world.powers
    Power.objects.filter(pk=p2.pk).update(un_member=False)
    rec = record(world, {0: "confirmed", 1: "pending"})
    motion = Motion.objects.create(
        campaign=world.campaign,
        key="motion.4",
        round_number=1,
        proposer=p0,
        kind="ban",
        target=p2,
        status=Motion.Status.SUBMITTED,
    )
    Vote.objects.create(motion=motion, member=p0, choice="yes")
    agreement = Agreement.objects.create(
        campaign=world.campaign,
        key="agreement.7",
        proposer=p0,
        partner=p1,
        awaiting=p1,
        deposit_col=1,
        deposit_row=1,
        delivery=3,
        a_resource="ore",
        a_amount=5,
    )
    loan = Loan.objects.create(
        campaign=world.campaign, key="loan-1", owner=p0, borrower=p1, groups=["g1", "g2"], last=4
    )
    transfer = Transfer.objects.create(
        campaign=world.campaign, key="transfer-1", owner=p2, receiver=p1, carriers=["g3"]
    )
    world.users[1].email = "Player1@Example.org"
    world.users[1].save()
    other = make_campaign("Elsewhere 29", n_powers=2)
    invitation = Invitation.objects.create(
        campaign=other.campaign, power=other.powers[1], email="player1@example.org"
    )
    Invitation.objects.create(  # expired, and another address: not shown
        campaign=other.campaign,
        power=other.powers[1],
        email="player1@example.org",
        expires_at=timezone.now() - timedelta(days=1),
    )
    Invitation.objects.create(campaign=other.campaign, power=other.powers[0], email="x@example.org")

    mine = selectors.turns(user=world.users[1])
    assert kinds(mine.items) == [
        "invitation",
        "orders",
        "battle",
        "vote",
        "agreement",
        "loan",
        "transfer",
    ]
    where = {i.kind: (i.text, i.url, i.api, i.key) for i in mine.items}
    assert where == {
        "invitation": (
            "Accept the invitation to play Power 1 in Elsewhere 29",
            reverse("invitation", args=[invitation.token]),
            "",
            "",
        ),
        "orders": (
            "Submit your orders for round 1",
            reverse("orders", args=[cid, "p1"]),
            reverse("api-sheet", args=[cid]),
            "",
        ),
        "battle": (
            "Confirm or decline the record of the battle at 0606 entered by Power 0",
            reverse("battles", args=[cid, "p1"]),
            reverse("api-battle", args=[cid, rec.key]),
            rec.key,
        ),
        "vote": (
            "Vote on UN motion 4 of Power 0: Ban Power 2 from the Common Market",
            reverse("un-committee", args=[cid, "p1"]),
            reverse("api-un", args=[cid]),
            "motion.4",
        ),
        "agreement": (
            "Answer trade agreement 7 with Power 0: accept, decline or counter",
            reverse("agreements", args=[cid, "p1"]),
            reverse("api-agreements", args=[cid]),
            agreement.key,
        ),
        "loan": (
            "Accept or decline the loan of 2 groups offered by Power 0 until round 4",
            reverse("fleet", args=[cid, "p1"]),
            reverse("api-pact", args=[cid, "loan-1"]),
            "loan-1",
        ),
        "transfer": (
            "Accept or decline the transfer of 1 group or static offered by Power 2",
            reverse("fleet", args=[cid, "p1"]),
            reverse("api-pact", args=[cid, "transfer-1"]),
            transfer.key,
        ),
    }
    assert mine.count == 7
    # the proposer has voted (by proposing); p2 has no seat; nothing of p1's waits on p0 or p2
    assert kinds(selectors.turns(user=world.users[0]).items) == ["orders"]
    assert kinds(selectors.turns(user=world.users[2]).items) == ["orders"]
    # each goes once it is done
    services.submit_sheet(power=p1, actor="t")
    Vote.objects.create(motion=motion, member=p1, choice="no")
    BattleParty.objects.filter(record=rec, power=p1).update(answer="declined")
    Agreement.objects.filter(pk=agreement.pk).update(awaiting=p0)
    Loan.objects.filter(pk=loan.pk).update(status="accepted")
    Transfer.objects.filter(pk=transfer.pk).update(status="declined")
    Membership.objects.create(campaign=other.campaign, power=other.powers[1], user=world.users[1])
    assert selectors.turns(user=world.users[1], campaign_id=cid).items == []
    # the declined record waits on the power that entered it; the agreement's counter on p0
    assert kinds(selectors.turns(user=world.users[0], campaign_id=cid).items) == [
        "orders",
        "battle_declined",
        "agreement",
    ]
    amend = selectors.turns(user=world.users[0], campaign_id=cid).items[1]
    assert amend.text == "Amend or withdraw your record of the battle at 0606: Power 1 declined it"
    # with its amend form open
    assert amend.url == reverse("battles", args=[cid, "p0"]) + f"?amend={amend.key}"


def test_nothing_to_act_on_while_the_round_resolves(world: World) -> None:
    record(world, {0: "confirmed", 1: "pending"})
    Round.objects.filter(pk=live(world).pk).update(status=RoundStatus.RESOLVING)
    assert selectors.turns(user=world.users[1]).items == []


# --- the channels: the navigation bar, the cards, the API, the feed, the admin ---------------


def test_nav_count_and_the_cards(client: Client, world: World) -> None:
    record(world, {0: "confirmed", 1: "pending"})
    client.force_login(world.users[1])
    page = client.get(reverse("fleet", args=[world.campaign.pk, "p1"])).content.decode()
    link = reverse("my-campaigns") + "#whose-turn"
    assert f'href="{link}"' in page
    assert re.search(r'Your turn <span class="badge">2</span>', page), "orders and the record"
    mine = client.get(reverse("my-campaigns")).content.decode()
    battles = reverse("battles", args=[world.campaign.pk, "p1"])
    assert (
        f'<li data-kind="battle"><a href="{battles}">Confirm or decline the record of the battle '
        "at 0606 entered by Power 0</a></li>"
    ) in mine
    assert f'<a href="{battles}">Waiting for you to confirm the battle at 0606.</a>' in mine
    services.submit_sheet(power=world.powers[1], actor="t")
    page = client.get(reverse("dashboard", args=[world.campaign.pk, "p1"])).content.decode()
    assert 'Your turn <span class="badge">1</span>' in page
    BattleParty.objects.filter(power=world.powers[1]).update(answer="confirmed")
    BattleRecord.objects.update(status="confirmed")
    page = client.get(reverse("dashboard", args=[world.campaign.pk, "p1"])).content.decode()
    assert "turn-count" not in page  # nothing waits: no count


def test_third_power_pages_api_and_feed_keep_the_record_secret(
    client: Client, world: World
) -> None:
    rec = record(world, {0: "confirmed", 1: "pending"})
    submit_all(world)
    client.force_login(world.users[2])
    for url in (reverse("my-campaigns"), reverse("dashboard", args=[world.campaign.pk, "p2"])):
        body = client.get(url).content.decode()
        section = body.split('id="whose-turn"', 1)[1].split("</section>", 1)[0]
        assert HIDDEN in section, url
        assert "0606" not in section and rec.key not in body, url
        assert "Power 0" not in section and "Power 1" not in section, url
    for url in (reverse("api-turn"), reverse("api-campaign-turn", args=[world.campaign.pk])):
        body = client.get(url).content.decode()
        assert HIDDEN in body, url
        assert "0606" not in body and rec.key not in body, url
        assert "Power 0" not in body and "Power 1" not in body, url
    # the feed lists what waits on the player: nothing of the record
    feed = client.get(reverse("notice-feed", args=[notices.settings_of(world.users[2]).feed_token]))
    assert feed.status_code == 200
    assert "0606" not in feed.content.decode() and rec.key not in feed.content.decode()


def test_the_api_lists_the_same(client: Client, world: World) -> None:
    rec = record(world, {0: "confirmed", 1: "pending"})
    client.force_login(world.users[1])
    body = client.get(reverse("api-turn")).json()
    assert body["count"] == 2 == len(body["items"])
    battle = body["items"][1]
    assert battle == {
        "kind": "battle",
        "campaign": world.campaign.pk,
        "campaign_name": "Turns 29",
        "power": "p1",
        "text": "Confirm or decline the record of the battle at 0606 entered by Power 0",
        "url": "http://testserver" + reverse("battles", args=[world.campaign.pk, "p1"]),
        "api": "http://testserver" + reverse("api-battle", args=[world.campaign.pk, rec.key]),
        "key": rec.key,
        "since": battle["since"],
    }
    (campaign,) = body["campaigns"]
    assert {k: campaign[k] for k in ("campaign", "power", "round", "round_status", "paused")} == {
        "campaign": world.campaign.pk,
        "power": "p1",
        "round": 1,
        "round_status": "open",
        "paused": False,
    }
    assert campaign["submitted"] is False and campaign["state"] == "Round 1 is open for orders."
    assert [w["text"] for w in campaign["waits"]] == [str(x) for x in turn(world, 1).waits]
    assert campaign["waits"][0]["url"].endswith(reverse("orders", args=[world.campaign.pk, "p1"]))
    assert campaign["items"] == body["items"]
    one = client.get(reverse("api-campaign-turn", args=[world.campaign.pk])).json()
    assert one == body
    # the schema documents it
    schema = client.get(reverse("api-schema") + "?format=json").json()
    assert (
        "/api/turn/" in schema["paths"] and "/api/campaigns/{campaign_id}/turn/" in schema["paths"]
    )
    # not a player of the campaign: 404, as for every campaign route
    stranger = Client()
    stranger.force_login(make_campaign("Far 29", n_powers=1).users[0])
    assert stranger.get(reverse("api-campaign-turn", args=[world.campaign.pk])).status_code == 404
    assert stranger.get(reverse("api-turn")).json()["count"] == 1  # its own orders only
    assert Client().get(reverse("api-turn")).status_code in (401, 403)


def test_the_feed_lists_what_waits_first(client: Client, world: World) -> None:
    rec = record(world, {0: "confirmed", 1: "pending"})
    token = notices.settings_of(world.users[1]).feed_token
    feed = client.get(reverse("notice-feed", args=[token])).content.decode()
    entries = re.findall(r"<entry>(.*?)</entry>", feed, re.S)
    titles = [re.search(r"<title>(.*?)</title>", e).group(1) for e in entries]  # type: ignore[union-attr]
    assert titles[:2] == [
        "Turns 29: your turn — Submit your orders for round 1",
        "Turns 29: your turn — Confirm or decline the record of the battle at 0606 entered by "
        "Power 0",
    ]
    battles = "http://testserver" + reverse("battles", args=[world.campaign.pk, "p1"])
    assert f'href="{battles}"' in entries[1]
    assert f"<id>ftcamp-turn-battle:{world.campaign.pk}:p1:{rec.key}:" in entries[1]
    assert "<updated>" in entries[0] and "<updated>" in entries[1]
    # done, it leaves the feed
    BattleParty.objects.filter(power=world.powers[1]).update(answer="confirmed")
    BattleRecord.objects.update(status="confirmed")
    feed = client.get(reverse("notice-feed", args=[token])).content.decode()
    assert "0606" not in feed


def test_the_organiser_sees_what_the_round_waits_for(client: Client, world: World) -> None:
    rec = record(world, {0: "confirmed", 1: "pending"})
    root = get_user_model().objects.create_superuser("org29", "org29@example.org", PASSWORD)
    client.force_login(root)
    page = client.get(reverse("admin:powers_campaign_change", args=[world.campaign.pk]))
    body = page.content.decode()
    assert 'id="round-waits"' in body and "What round 1 waits for" in body
    admin_record = reverse("admin:powers_battlerecord_change", args=[rec.pk])
    assert (
        f'<a href="{admin_record}">Waiting for Power 1 to confirm the battle at 0606 (entered '
        "by Power 0).</a>"
    ) in body
    admin_round = reverse("admin:economy_round_change", args=[live(world).pk])
    assert (
        f'<a href="{admin_round}">Waiting for Power 0, Power 1 and Power 2 to submit their '
        "orders.</a>"
    ) in body


# --- a fixed number of queries -----------------------------------------------------------------


def grow(world: World, n: int, start: int = 0) -> None:
    """``n`` more of everything that waits: records, motions, agreements, loans, transfers,
    invitations, powers and campaigns."""
    p0, p1, p2 = world.powers[:3]
    for k in range(start, start + n):
        rec = BattleRecord.objects.create(
            campaign=world.campaign, key=f"br-g{k}", col=1 + k, row=2, entered_by=p0
        )
        BattleParty.objects.create(record=rec, power=p0, position=0, answer="confirmed")
        BattleParty.objects.create(record=rec, power=p1, position=1, answer="pending")
        BattleParty.objects.create(record=rec, power=p2, position=2, answer="declined")
        Motion.objects.create(
            campaign=world.campaign,
            key=f"motion.g{k}",
            round_number=1,
            proposer=p2,
            kind="unban",
            target=p0,
            status="submitted",
        )
        Agreement.objects.create(
            campaign=world.campaign,
            key=f"agreement.g{k}",
            proposer=p0 if k % 2 else p1,
            partner=p1 if k % 2 else p0,
            awaiting=p1 if k % 2 else p0,
            deposit_col=1,
            deposit_row=1,
            delivery=3,
            a_resource="ore",
            a_amount=1,
        )
        Loan.objects.create(
            campaign=world.campaign, key=f"loan-g{k}", owner=p0, borrower=p1, groups=["x"], last=3
        )
        Transfer.objects.create(
            campaign=world.campaign, key=f"tr-g{k}", owner=p1, receiver=p0, carriers=["y"]
        )
        Invitation.objects.create(
            campaign=make_campaign(f"Grown {world.campaign.pk}-{k}", n_powers=1).campaign,
            power=Power.objects.filter(campaign__name=f"Grown {world.campaign.pk}-{k}").get(),
            email="grow@example.org",
        )
        more = make_campaign(f"More {world.campaign.pk}-{k}", n_powers=4)
        Membership.objects.filter(campaign=more.campaign, power=more.powers[0]).update(
            user=world.users[0]
        )
        record(more, {0: "confirmed", 1: "pending"})
    Power.objects.bulk_create(
        Power(campaign=world.campaign, key=f"px{k}", name=f"Extra {k}")
        for k in range(start, start + n)
    )


def queries(fn: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_queries_do_not_grow(client: Client, world: World) -> None:
    user = world.users[0]
    user.email = "grow@example.org"
    user.save()
    client.force_login(user)
    token = notices.settings_of(user).feed_token
    grow(world, 1)

    def measure() -> dict[str, int]:
        return {
            "reader": queries(lambda: selectors.turns(user=user)),
            "my campaigns": queries(lambda: client.get(reverse("my-campaigns"))),
            "api": queries(lambda: client.get(reverse("api-turn"))),
            "feed": queries(lambda: client.get(reverse("notice-feed", args=[token]))),
            "organiser": queries(lambda: selectors.organiser_waits(world.campaign)),
            "round complete?": queries(lambda: services.round_is_complete(live(world))),
        }

    few = measure()
    assert few["reader"] <= 10
    count_before = selectors.turns(user=user).count
    grow(world, 6, start=1)
    assert selectors.turns(user=user).count > count_before + 6 * 3
    assert measure() == few
