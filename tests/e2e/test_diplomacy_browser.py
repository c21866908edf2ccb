"""Two players talk (issue 31): Power 0 writes to Power 1, whose open thread shows the message
by polling, without a reload; Power 1 answers; Power 0 proposes a trade agreement from the
thread (the agreement page opens with Power 1 chosen), Power 1 accepts it, and the offer and
its acceptance appear in the thread as system lines."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.test_un_browser import login, propose_agreement
from tests.web.factories import make_campaign
from trade.models import Agreement, TradeHub

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLLED = 20_000  # ms: the thread polls every 5 s


def test_two_players_talk_and_make_a_deal(browser: Browser, live_server: LiveServer) -> None:
    world = make_campaign("Press browser campaign", n_powers=3)
    TradeHub.objects.filter(campaign=world.campaign).update(guild=True)
    cid, base = world.campaign.pk, live_server.url
    p0, p1 = (login(browser, base, u.username) for u in world.users[:2])

    # Power 0 starts a conversation with Power 1
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/messages/")
    p0.get_by_label("Power 1").check()
    p0.get_by_label("Message").fill("Shall we **trade** ore for bio?")
    p0.get_by_role("button", name="Send").click()
    expect(p0.locator("h1")).to_have_text("With Power 1")
    expect(p0.locator("#thread-messages strong")).to_have_text("trade")

    # Power 1 sees it counted in the navigation bar, opens the thread and keeps it open
    p1.goto(f"{base}/campaigns/{cid}/powers/p1/messages/")
    expect(p1.locator(".unread-count .badge")).to_have_text("1")
    p1.get_by_role("link", name="With Power 0").click()
    expect(p1.locator("#thread-messages")).to_contain_text("Shall we trade ore for bio?")
    p1.evaluate("window.notReloaded = true")

    # Power 0 writes again: Power 1's open thread shows it by polling, with no reload
    p0.get_by_label("Message").fill("Deposit at 0201, round 5?")
    p0.get_by_role("button", name="Send").click()
    expect(p1.locator("#thread-messages")).to_contain_text("Deposit at 0201", timeout=POLLED)
    assert p1.evaluate("window.notReloaded") is True

    # Power 1 answers; Power 0 proposes the agreement from the thread
    p1.get_by_label("Message").fill("Agreed, send the terms.")
    p1.get_by_role("button", name="Send").click()
    expect(p0.locator("#thread-messages")).to_contain_text("send the terms", timeout=POLLED)
    deals = p0.locator("#deals")
    deals.get_by_label("Propose a").select_option("agreement")
    deals.get_by_label("to").select_option("p1")
    deals.get_by_role("button", name="Propose…").click()
    expect(p0.locator("#propose select[name=partner]")).to_have_value("p1")
    propose_agreement(p0, "p1", "0201", delivery=5, ore=5, bio=2)
    expect(p0.locator(".agreement")).to_contain_text("waiting for Power 1")
    key = Agreement.objects.get(campaign=world.campaign).key
    number = key.rpartition(".")[2]

    # Power 1 reads the offer in the thread (polled), accepts on its agreements page
    expect(p1.locator("#thread-messages .system")).to_contain_text(
        f"Power 0 proposed a trade agreement no. {number} to Power 1.", timeout=POLLED
    )
    p1.goto(f"{base}/campaigns/{cid}/powers/p1/agreements/")
    p1.get_by_role("button", name="Accept").click()
    expect(p1.locator(f'.agreement[data-agreement="{key}"]')).to_have_attribute(
        "data-status", "accepted"
    )
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/messages/")
    p0.get_by_role("link", name="With Power 1").click()
    expect(p0.locator("#thread-messages .system").last).to_contain_text(
        f"Power 1 accepted the trade agreement no. {number}."
    )
