"""Messages between powers (issue 31): conversations and the public channel, the Markdown
subset made safe, the size and rate limits, the press settings' refusals, the thread's poll
(ETag and 304), deals proposed from a thread told there, the organiser's hiding, notices and
the emailed digest (one email per player, never one per message)."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import html5lib
import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from diplomacy import limits, markup, selectors
from diplomacy import services as diplomacy
from diplomacy.models import Conversation, Member, Message, PressSettings
from economy.models import Round, RoundStatus
from fleet import pacts
from ftcamp.errors import Forbidden, Refused
from notices import services as notices
from notices.models import EmailState, Kind, Notice, NoticeSettings
from tests.web.factories import World, add_fleet, make_campaign
from tests.web.test_xss import offending
from trade import services as trade
from trade.models import TradeHub

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

XSS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    '[x](https://ok.example/"onmouseover=alert(1))',
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "**<svg onload=alert(1)>**",
    "`</code><script>alert(1)</script>`",
    "[<img src=x onerror=alert(1)>](https://ok.example/)",
    "- <a href=javascript:alert(1)>x</a>",
    "&#106;avascript:alert(1)",
]


@pytest.fixture
def world() -> World:
    world = make_campaign("Diplomacy", n_powers=3, systems_per_power=2)
    TradeHub.objects.filter(campaign=world.campaign).update(guild=True)
    return world


def login(world: World, i: int) -> Client:
    client = Client()
    client.force_login(world.users[i])
    return client


def url(world: World, name: str, i: int, *args: Any) -> str:
    return reverse(name, args=[world.campaign.pk, world.powers[i].key, *args])


def start(world: World, i: int, others: list[int], text: str = "Hello") -> Conversation:
    return diplomacy.start_conversation(
        power=world.powers[i],
        user=world.users[i],
        others=[world.powers[j].key for j in others],
        text=text,
    )


def member(world: World, i: int, conversation: Conversation) -> Member:
    return Member.objects.select_related("conversation", "power").get(
        conversation=conversation, power=world.powers[i]
    )


def test_two_powers_talk_and_unread_counts_follow(world: World) -> None:
    conv = start(world, 0, [1], "Shall we *talk*?")
    assert selectors.unread_total(world.users[1]) == 1
    assert selectors.unread_total(world.users[0]) == 0
    page = login(world, 1).get(url(world, "diplomacy-messages", 1)).content.decode()
    assert "With Power 0" in page and 'aria-label="1 unread"' in page
    thread = login(world, 1).get(url(world, "diplomacy-thread", 1, conv.pk)).content.decode()
    assert "<em>talk</em>" in thread
    assert selectors.unread_total(world.users[1]) == 0  # read by opening the thread
    r = login(world, 1).post(url(world, "diplomacy-post", 1, conv.pk), {"text": "Yes."})
    assert r.status_code == 302
    assert selectors.unread_total(world.users[0]) == 1
    # the same powers again: the same conversation
    assert start(world, 1, [0], "again").pk == conv.pk
    rows = selectors.conversations_of(world.powers[0])
    assert [r.title for r in rows][:1] == ["With Power 1"]  # latest activity first
    assert any(r.public for r in rows)  # the press channel is every power's


def test_the_nav_bar_counts_unread_messages(world: World) -> None:
    start(world, 0, [1])
    start(world, 2, [1], "two")
    page = login(world, 1).get(reverse("my-campaigns")).content.decode()
    assert re.search(r'class="unread-count"[^>]*>Messages <span class="badge">2</span>', page)
    r = login(world, 1).get(reverse("my-messages"))
    assert r.status_code == 302 and r["Location"] == url(world, "diplomacy-messages", 1)


def live(html: str) -> list[str]:
    """What a browser would run or load in ``html`` (tests/web/test_xss.py's detector, plus
    data: links and images, which no message may make)."""
    found = offending(html)
    doc = html5lib.parse(html, namespaceHTMLElements=False)
    for el in doc.iter():
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
        if tag in ("script", "img", "svg", "iframe"):
            found.append(tag)
        for name, value in el.attrib.items():
            if name.lower().startswith("on") or value.strip().lower().startswith("data:"):
                found.append(f"{tag}@{name}")
    return found


def test_the_detector_sees_live_payloads() -> None:
    assert live('<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>')


@pytest.mark.parametrize("payload", XSS)
def test_xss_payloads_are_inert_in_html_and_api(world: World, payload: str) -> None:
    conv = start(world, 0, [1], payload)
    html = login(world, 1).get(url(world, "diplomacy-thread", 1, conv.pk)).content.decode()
    body = html[html.index('id="thread-messages"') :]
    assert live(body[: body.index("</ol>")]) == []
    api = login(world, 1).get(
        f"/api/campaigns/{world.campaign.pk}/conversations/{conv.pk}/messages/"
    )
    assert api["Content-Type"].startswith("application/json")
    assert live(api.json()[0]["html"]) == []


def test_markdown_subset() -> None:
    got = markup.render("**b** _i_ `c<d>`\n- one\n- two\n\n[site](https://ex.example/a?b=1&c=2)")
    assert got == (
        "<p><strong>b</strong> <em>i</em> <code>c&lt;d&gt;</code></p>"
        "<ul><li>one</li><li>two</li></ul>"
        '<p><a href="https://ex.example/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">'
        "site</a></p>"
    )
    assert markup.render("[x](javascript:alert(1))") == "<p>x)</p>"  # the words only


def test_size_limit_names_the_field(world: World) -> None:
    conv = start(world, 0, [1])
    big = "x" * (limits.MAX_CHARS + 1)
    r = login(world, 0).post(url(world, "diplomacy-post", 0, conv.pk), {"text": big})
    assert r.status_code == 400
    assert f"Message: at most {limits.MAX_CHARS:,} characters" in r.content.decode()
    assert Message.objects.filter(conversation=conv).count() == 1  # nothing written
    ok = login(world, 0).post(url(world, "diplomacy-post", 0, conv.pk), {"text": big[:-1]})
    assert ok.status_code == 302
    api = login(world, 0).post(
        f"/api/campaigns/{world.campaign.pk}/conversations/{conv.pk}/messages/",
        json.dumps({"text": big}),
        content_type="application/json",
    )
    assert api.status_code == 400 and "at most" in api.json()["text"][0]


def test_rate_limit_per_user(world: World) -> None:
    conv = start(world, 0, [1])  # one message
    client = login(world, 0)
    for i in range(limits.RATE_COUNT - 1):
        assert (
            client.post(url(world, "diplomacy-post", 0, conv.pk), {"text": f"m{i}"}).status_code
            == 302
        )
    r = client.post(url(world, "diplomacy-post", 0, conv.pk), {"text": "one too many"})
    assert r.status_code == 429
    assert "at most 10 messages a minute" in r.content.decode()
    api = client.post(
        f"/api/campaigns/{world.campaign.pk}/conversations/{conv.pk}/messages/",
        json.dumps({"text": "again"}),
        content_type="application/json",
    )
    assert api.status_code == 429 and "a minute" in api.json()["text"][0]
    assert Message.objects.filter(author=world.users[0]).count() == limits.RATE_COUNT
    # a minute later the writer may write again
    Message.objects.update(created_at=timezone.now() - timedelta(seconds=limits.RATE_SECONDS + 1))
    assert client.post(url(world, "diplomacy-post", 0, conv.pk), {"text": "ok"}).status_code == 302
    # the other player is not limited by the first's messages
    assert (
        login(world, 1).post(url(world, "diplomacy-post", 1, conv.pk), {"text": "hi"}).status_code
        == 302
    )


def test_press_settings_refuse_naming_the_setting(world: World) -> None:
    conv = start(world, 0, [1])
    public = diplomacy.ensure_public(world.campaign.pk)
    settings = PressSettings.objects.create(campaign=world.campaign, press="public")
    r = login(world, 0).post(url(world, "diplomacy-post", 0, conv.pk), {"text": "secret"})
    assert r.status_code == 403
    assert "press allowed" in r.content.decode() and "public press only" in r.content.decode()
    with pytest.raises(Forbidden, match="private conversations are closed"):
        start(world, 0, [2])
    diplomacy.post_message(member=member(world, 0, public), user=world.users[0], text="Hear ye")
    settings.press = "none"
    settings.save()
    with pytest.raises(Forbidden, match="no press"):
        diplomacy.post_message(member=member(world, 0, public), user=world.users[0], text="x")
    settings.press, settings.while_resolving = "all", False
    settings.save()
    diplomacy.post_message(member=member(world, 0, conv), user=world.users[0], text="open")
    Round.objects.filter(campaign=world.campaign).update(status=RoundStatus.RESOLVING)
    api = login(world, 0).post(
        f"/api/campaigns/{world.campaign.pk}/conversations/{conv.pk}/messages/",
        json.dumps({"text": "while resolving"}),
        content_type="application/json",
    )
    assert api.status_code == 403
    assert "press while a round resolves" in api.json()["detail"]


def test_poll_answers_304_until_something_changes(world: World) -> None:
    conv = start(world, 0, [1])
    client = login(world, 1)
    poll = url(world, "diplomacy-poll", 1, conv.pk)
    first = client.get(poll)
    assert first.status_code == 200 and first["ETag"]
    tag = first["ETag"]
    same = client.get(poll, headers={"If-None-Match": tag})
    assert same.status_code == 304 and same.content == b""
    diplomacy.post_message(member=member(world, 0, conv), user=world.users[0], text="news")
    changed = client.get(poll, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and "news" in changed.content.decode()
    assert changed["ETag"] != tag
    # the page's poller carries the ETag it was drawn with
    page = client.get(url(world, "diplomacy-thread", 1, conv.pk)).content.decode()
    assert changed["ETag"].replace('"', "&quot;").replace("\\", "") in page.replace("\\", "")
    # the API too
    api = f"/api/campaigns/{world.campaign.pk}/conversations/{conv.pk}/messages/"
    r = client.get(api)
    assert r.status_code == 200 and len(r.json()) == 2
    assert client.get(api, headers={"If-None-Match": r["ETag"]}).status_code == 304
    got = client.get(api + f"?after={r.json()[0]['id']}").json()
    assert [m["text"] for m in got] == ["news"]


def test_a_deal_proposed_from_a_thread_is_told_there(world: World) -> None:
    conv = start(world, 0, [1])
    client = login(world, 0)
    r = client.post(url(world, "diplomacy-deal", 0, conv.pk), {"kind": "agreement", "other": "p1"})
    assert r.status_code == 302
    assert r["Location"] == url(world, "agreements", 0) + "?partner=p1"
    form = client.get(r["Location"]).content.decode()
    assert '<option value="p1" selected>Power 1</option>' in form
    agreement = trade.propose_agreement(
        power=world.powers[0],
        partner_key="p1",
        terms=trade.Terms("0201", 2, "ore", 10, "bio", 4),
        actor="a",
    )
    trade.answer_agreement(power=world.powers[1], key=agreement.key, accept=True, actor="b")
    lines = [m.html for m in selectors.thread(member(world, 1, conv)).messages if m.system]
    number = agreement.key.rpartition(".")[2]
    assert lines == [
        f"Power 0 proposed a trade agreement no. {number} to Power 1.",
        f"Power 1 accepted the trade agreement no. {number}.",
    ]
    # one not asked for from a thread is told nowhere
    trade.propose_agreement(
        power=world.powers[0],
        partner_key="p1",
        terms=trade.Terms("0201", 2, "ore", 1, "bio", 1),
        actor="a",
    )
    assert Message.objects.filter(conversation=conv).exclude(system={}).count() == 2


def test_a_loan_from_a_thread_and_its_withdrawal(world: World) -> None:
    add_fleet(world)
    conv = start(world, 0, [1])
    client = login(world, 0)
    r = client.post(url(world, "diplomacy-deal", 0, conv.pk), {"kind": "loan", "other": "p1"})
    assert r["Location"] == url(world, "fleet", 0) + "?kind=loan&other=p1#pacts"
    page = client.get(r["Location"]).content.decode()
    assert '<option value="p1" selected>Power 1</option>' in page
    loan = pacts.propose_loan(
        power=world.powers[0], borrower="p1", groups=["p0-g0"], last=2, actor="a"
    )
    pacts.withdraw(power=world.powers[0], key=loan.key, actor="a")
    words = [m.html for m in selectors.thread(member(world, 0, conv)).messages if m.system]
    assert words == ["Power 0 proposed a loan to Power 1.", "Power 0 withdrew the loan."]
    # the third power may not be the other side of a deal from this thread
    with pytest.raises(Refused, match="other"):
        diplomacy.ask_deal(member=member(world, 0, conv), kind="loan", other_key="p2")


def test_the_organiser_hides_a_public_message_with_a_trace(
    world: World, admin_client: Client
) -> None:
    public = diplomacy.ensure_public(world.campaign.pk)
    msg = diplomacy.post_message(
        member=member(world, 0, public), user=world.users[0], text="rude words"
    )
    private = start(world, 0, [1], "private words")
    changelist = admin_client.get(reverse("admin:diplomacy_message_changelist")).content.decode()
    assert "rude words" in changelist and "private words" not in changelist
    change = reverse("admin:diplomacy_message_change", args=[msg.pk])
    r = admin_client.post(change, {"hide": "on", "hidden_reason": ""})
    assert r.status_code == 200 and "Say why" in r.content.decode()
    r = admin_client.post(change, {"hide": "on", "hidden_reason": "insults"})
    assert r.status_code == 302
    msg.refresh_from_db()
    assert msg.hidden_at and msg.hidden_by and msg.hidden_reason == "insults"
    assert msg.text == "rude words"  # kept for the campaign's history
    page = login(world, 1).get(url(world, "diplomacy-thread", 1, public.pk)).content.decode()
    assert "hidden by the organiser" in page and "rude words" not in page
    assert "insults" not in page
    with pytest.raises(Exception, match="no such message"):
        first = Message.objects.filter(conversation=private).first()
        assert first is not None
        diplomacy.hide_message(message_id=first.pk, by=world.users[0], reason="no")


def test_a_notice_per_message_and_one_digest_email_per_player(world: World) -> None:
    for i, user in enumerate(world.users):
        user.email = f"u{i}@example.org"
        user.save()
    conv = start(world, 0, [1], "first")
    for text in ("second", "third"):
        diplomacy.post_message(member=member(world, 0, conv), user=world.users[0], text=text)
    public = diplomacy.ensure_public(world.campaign.pk)
    diplomacy.post_message(member=member(world, 2, public), user=world.users[2], text="press")
    told = Notice.objects.filter(kind=Kind.MESSAGE)
    assert told.filter(user=world.users[1]).count() == 4
    assert told.filter(user=world.users[0]).count() == 1  # the public message only
    assert not told.filter(user=world.users[2], body__contains="second").exists()
    assert set(told.values_list("email", flat=True)) == {EmailState.DIGEST}
    mail.outbox.clear()
    notices.sweep()  # the pending path sends no message alone; the digest groups them
    assert sorted(m.to[0] for m in mail.outbox) == ["u0@example.org", "u1@example.org"]
    digest = next(m for m in mail.outbox if m.to == ["u1@example.org"])
    assert digest.subject == "[FTCamp] 4 new messages"
    assert "second" in str(digest.body) and "third" in str(digest.body)
    assert set(told.values_list("email", flat=True)) == {EmailState.SENT}
    mail.outbox.clear()
    assert notices.send_digests() == 0 and mail.outbox == []  # each notice in one digest only
    # turned off: notices stay, no email
    NoticeSettings.objects.create(user=world.users[1], email_message=False)
    diplomacy.post_message(member=member(world, 0, conv), user=world.users[0], text="fourth")
    assert told.filter(user=world.users[1], email=EmailState.SKIPPED).count() == 1


def test_a_poll_with_nothing_new_is_cheap(
    world: World, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    """The session, the user, the power (the gate) and its membership with the conversation:
    4 queries, whatever the thread's length; the navigation bar's count is one more on a page."""
    conv = start(world, 0, [1])
    client = login(world, 1)
    poll = url(world, "diplomacy-poll", 1, conv.pk)
    tag = client.get(poll)["ETag"]
    with django_assert_num_queries(4):
        assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304
    for n in range(limits.RATE_COUNT - 1):
        diplomacy.post_message(member=member(world, 0, conv), user=world.users[0], text=f"{n}")
    tag = client.get(poll)["ETag"]
    with django_assert_num_queries(4):
        assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304


@pytest.mark.parametrize("item", [None, {"a": 1}, ["p1"], 7])
def test_an_odd_power_in_a_new_conversation_is_one_error_under_its_field(
    world: World, item: object
) -> None:
    """Whatever a list item is, the refusal is one list of words under ``powers`` (the API's
    error shape), nothing nested by the item's index, and nothing is written."""
    client = login(world, 0)
    r = client.post(
        f"/api/campaigns/{world.campaign.pk}/conversations/",
        json.dumps({"powers": [item], "text": "hello"}),
        content_type="application/json",
    )
    assert r.status_code == 400
    body = r.json()
    assert list(body) == ["powers"] and isinstance(body["powers"], list), body
    assert all(isinstance(e, str) for e in body["powers"]), body
    assert (
        not Conversation.objects.filter(members__power=world.powers[0])
        .exclude(public=True)
        .exists()
    )
