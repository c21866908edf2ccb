"""Issue 31 secrecy: a power sees only the conversations it is in. A canary is planted in a
conversation of Power 0 and Power 1 (a message, a deal's line, the notices and the digest
email it makes); every route is then fetched as Power 2's player, a player of another
campaign and a visitor, and grepped; asking for that conversation by id answers exactly as
asking for one that does not exist (status and words), on the pages and in the API."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from diplomacy import services as diplomacy
from diplomacy.models import Conversation, Member
from notices import services as notices
from notices.models import Notice, NoticeSettings
from tests.web.factories import World, make_campaign, make_user
from tests.web.test_access import routes, url_for
from tests.web.test_fleet_secrecy import body
from trade import services as trade
from trade.models import TradeHub

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

CANARY = "zq31secret"
NOWHERE = 987654321  # a conversation id that does not exist


@pytest.fixture
def world() -> World:
    world = make_campaign("Secrets", n_powers=3, systems_per_power=2)
    TradeHub.objects.filter(campaign=world.campaign).update(guild=True)
    for i, user in enumerate(world.users):
        user.email = f"u{i}@example.org"
        user.save()
    return world


@pytest.fixture
def conv(world: World) -> Conversation:
    diplomacy.ensure_public(world.campaign.pk)  # every power a member of something
    conv = diplomacy.start_conversation(
        power=world.powers[0], user=world.users[0], others=["p1"], text=f"{CANARY} at dawn"
    )
    member = Member.objects.select_related("conversation").get(
        conversation=conv, power=world.powers[0]
    )
    diplomacy.ask_deal(member=member, kind="agreement", other_key="p1")
    trade.propose_agreement(
        power=world.powers[0],
        partner_key="p1",
        terms=trade.Terms("0201", 2, "ore", 10, "bio", 4),
        actor="a",
    )
    answer = Member.objects.select_related("conversation").get(
        conversation=conv, power=world.powers[1]
    )
    diplomacy.post_message(member=answer, user=world.users[1], text=f"**{CANARY}** agreed")
    return conv


def outsiders(world: World) -> dict[str, Client]:
    out = {"anonymous": Client()}
    stranger = User.objects.filter(username="stranger31").first() or make_user("stranger31")
    for label, user in (("third power", world.users[2]), ("other campaign", stranger)):
        client = Client()
        client.force_login(user)
        out[label] = client
    return out


def address(name: str, pattern: str, world: World, conversation_id: int) -> str:
    if "conversation_id" not in pattern:
        return url_for(name, pattern, world)
    power = "p2"
    if name.startswith("api-"):
        return reverse(name, args=[world.campaign.pk, conversation_id])
    return reverse(name, args=[world.campaign.pk, power, conversation_id])


def test_no_route_shows_a_conversation_to_a_power_not_in_it(
    world: World, conv: Conversation
) -> None:
    seen = 0
    for name, pattern in routes():
        url = address(name, pattern, world, conv.pk)
        for who, client in outsiders(world).items():
            for method in ("get", "post"):
                text = body(getattr(client, method)(url)).decode(errors="replace")
                seen += 1
                assert CANARY not in text, f"{who} saw the canary at {method} {url}"
    assert seen > 100


def _same(a: str, b: str, conv_id: int) -> None:
    assert a.replace(str(conv_id), "N") == b.replace(str(NOWHERE), "N")


def test_asking_for_it_reads_as_asking_for_nothing(world: World, conv: Conversation) -> None:
    third = outsiders(world)["third power"]
    cid = world.campaign.pk
    pages = ["diplomacy-thread", "diplomacy-poll"]
    writes = ["diplomacy-post", "diplomacy-deal"]
    for name in pages + writes:
        data = {"text": "let me in", "kind": "loan", "other": "p0"}
        real_url = reverse(name, args=[cid, "p2", conv.pk])
        none_url = reverse(name, args=[cid, "p2", NOWHERE])
        if name in pages:
            real, none = third.get(real_url), third.get(none_url)
        else:
            real, none = third.post(real_url, data), third.post(none_url, data)
        assert real.status_code == none.status_code == 404, name
        _same(real.content.decode(), none.content.decode(), conv.pk)
    api = f"/api/campaigns/{cid}/conversations/"
    body = json.dumps({"text": "hi"})
    for verb in ("get", "post"):
        if verb == "get":
            real, none = (
                third.get(f"{api}{conv.pk}/messages/"),
                third.get(f"{api}{NOWHERE}/messages/"),
            )
        else:
            real = third.post(f"{api}{conv.pk}/messages/", body, content_type="application/json")
            none = third.post(f"{api}{NOWHERE}/messages/", body, content_type="application/json")
        assert real.status_code == none.status_code == 404
        _same(real.content.decode(), none.content.decode(), conv.pk)
    listed = third.get(api).json()
    assert [c["public"] for c in listed] == [True]  # only the press channel
    # the list page, the nav bar and the dashboard name no conversation of the others
    for url in (
        reverse("diplomacy-messages", args=[cid, "p2"]),
        reverse("dashboard", args=[cid, "p2"]),
        reverse("my-messages"),
    ):
        text = third.get(url, follow=True).content.decode()
        assert CANARY not in text and "With Power 0" not in text and "unread-count" not in text
    # the third power cannot propose a deal from it, nor start one with itself only
    r = third.post(reverse("diplomacy-start", args=[cid, "p2"]), {"text": "x", "powers": []})
    assert r.status_code == 400 and "choose at least one other power" in r.content.decode()


def test_notices_feed_and_emails_tell_only_the_members(world: World, conv: Conversation) -> None:
    assert not Notice.objects.filter(user=world.users[2]).exists()
    told = Notice.objects.filter(body__contains=CANARY)
    assert set(told.values_list("user_id", flat=True)) == {world.users[0].pk, world.users[1].pk}
    token = NoticeSettings.objects.create(user=world.users[2]).feed_token
    feed = Client().get(reverse("notice-feed", args=[token])).content.decode()
    assert CANARY not in feed
    own = NoticeSettings.objects.create(user=world.users[1]).feed_token
    assert CANARY in Client().get(reverse("notice-feed", args=[own])).content.decode()
    mail.outbox.clear()
    notices.send_digests()
    for m in mail.outbox:
        if CANARY in str(m.body):
            assert m.to[0] in ("u0@example.org", "u1@example.org")
    assert "u2@example.org" not in [m.to[0] for m in mail.outbox]
    assert any(CANARY in str(m.body) for m in mail.outbox)


def test_the_organiser_does_not_read_private_conversations(
    world: World, conv: Conversation, admin_client: Client
) -> None:
    page = admin_client.get(reverse("admin:diplomacy_message_changelist")).content.decode()
    assert CANARY not in page
    msg = conv.messages.first()
    assert msg is not None
    r = admin_client.get(reverse("admin:diplomacy_message_change", args=[msg.pk]))
    assert r.status_code in (302, 404) and CANARY not in r.content.decode()
    assert CANARY in msg.text  # kept, only not shown
