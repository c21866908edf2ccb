"""Two players make and accept a trade agreement; a committee member proposes an exchange
rate at a report round, two members vote yes, the round resolves through a real Celery worker,
and the new rate shows on the public market page and its chart (issue 6)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy.models import Round
from tests.helpers import StartWorker, wait_for
from tests.web.factories import PASSWORD, make_campaign
from trade.models import Agreement, TradeHub

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


def login(browser: Browser, base: str, username: str) -> Page:
    page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()
    return page


def propose_agreement(
    page: Page, partner: str, deposit: str, *, delivery: int, ore: int, bio: int
) -> None:
    """On the trade agreements page: ``ore`` Ore sent for the ``partner``'s ``bio`` Bio,
    deposited at hex ``deposit`` and delivered in round ``delivery``."""
    propose = page.locator("#propose")
    propose.get_by_label("Partner").select_option(partner)
    propose.get_by_label("Deposit hex").fill(deposit)
    propose.get_by_label("Delivery round").fill(str(delivery))
    propose.get_by_label("What you send").fill(str(ore))
    propose.get_by_label("What they send").fill(str(bio))
    propose.locator("select[name=receive_resource]").select_option("bio")
    propose.get_by_role("button", name="Propose").click()


def put_motion(page: Page, kind: str, edge: str, value: str) -> None:
    """On the UN committee page: a motion drafted and put to the committee, with the
    proposer's yes cast with it (issue 17)."""
    draft = page.locator("#draft")
    draft.get_by_label("Motion").select_option(kind)
    draft.get_by_label("Edge").select_option(edge)
    draft.get_by_label("Rate or tax").fill(value)
    draft.get_by_role("button", name="Save draft").click()
    page.get_by_role("button", name="Put to the committee").click()
    expect(page.locator(".motion")).to_contain_text("you voted yes")


def test_agreement_and_rate_motion_in_the_browser(
    browser: Browser, live_server: LiveServer, worker: StartWorker
) -> None:
    worker()
    world = make_campaign("UN browser campaign", n_powers=3)
    TradeHub.objects.filter(campaign=world.campaign).update(guild=True)
    Round.objects.filter(campaign=world.campaign).update(number=3)  # a report round
    world.campaign.current_round = 3
    world.campaign.save(update_fields=["current_round"])
    cid = world.campaign.pk
    base = live_server.url
    p0, p1, p2 = (login(browser, base, u.username) for u in world.users)

    # an agreement: Power 0 proposes, Power 1 accepts
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/agreements/")
    propose_agreement(p0, "p1", "0201", delivery=5, ore=5, bio=2)
    card = p0.locator(".agreement")
    expect(card).to_contain_text("waiting for Power 1")
    key = Agreement.objects.get(campaign=world.campaign).key
    p0.locator(".agreement select[name=send_hub]").select_option("hub0")
    p0.locator(".agreement select[name=receive_hub]").select_option("hub0")
    p0.get_by_role("button", name="Save hubs").click()
    expect(p0.locator(".agreement select[name=send_hub]")).to_have_value("hub0")

    p1.goto(f"{base}/campaigns/{cid}/powers/p1/agreements/")
    expect(p1.locator(".agreement")).to_contain_text("your answer")
    p1.get_by_role("button", name="Accept").click()
    expect(p1.locator(f'.agreement[data-agreement="{key}"]')).to_have_attribute(
        "data-status", "accepted"
    )
    p2.goto(f"{base}/campaigns/{cid}/powers/p2/agreements/")  # a third power sees nothing
    expect(p2.get_by_text("No agreements yet.")).to_be_visible()

    # a rate motion: Power 0 drafts and puts it to the committee, Power 0 and Power 1 vote yes
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/un/")
    expect(p0.locator("#live-report")).to_contain_text("rate motions can pass")
    put_motion(p0, "rate", "ore>bio", "1.25")
    p1.goto(f"{base}/campaigns/{cid}/powers/p1/un/")
    p1.locator(".motion").get_by_role("button", name="Yes").click()
    expect(p1.locator(".motion")).to_contain_text("Power 0 yes, Power 1 yes")

    # everyone submits; the worker resolves round 3 and its UN Meeting
    for i, page in enumerate((p0, p1, p2)):
        page.goto(f"{base}/campaigns/{cid}/powers/p{i}/orders/")
        page.get_by_role("button", name="Submit orders").click()
        # the last submission may already be resolving when the sheet comes back (the worker,
        # warm from delivering the notices, claims it at once): no Withdraw then
        expect(page.locator(".submitted")).to_contain_text(f"Power {i} ✓")
    wait_for(
        lambda: Round.objects.filter(campaign=world.campaign, number=4).exists(),
        30,
        "round 3 to resolve",
    )

    market = p2
    market.goto(f"{base}/campaigns/{cid}/market/")
    expect(market.locator('#market-now tr[data-edge="ore>bio"] .rate')).to_have_text("1.2500")
    expect(
        market.locator('.market-chart circle[data-round="4 (now)"][data-rate="1.2500"]')
    ).to_have_count(1)
    expect(
        market.locator('.market-chart circle[data-round="3"][data-rate="1.0000"]')
    ).to_have_count(3)
    results = market.locator("#un-results")
    expect(results).to_contain_text("Set the Ore → Bio rate to 1.2500")
    expect(results).to_contain_text("Passed (2 yes, 0 no, 0 abstain)")
    expect(results).to_contain_text("Power 1: Yes")
