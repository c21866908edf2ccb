"""Three players play two full rounds in a real browser; the last submission reaches a real
Celery worker through real Redis, the round resolves, and the reports show the ledger (issue 4)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy.models import Round
from tests.helpers import StartWorker, wait_for
from tests.web.factories import PASSWORD, make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(browser: Browser, base: str, username: str) -> Page:
    page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()
    return page


def settled(page: Page) -> None:
    """Wait until htmx has finished swapping: new content gets its hx- listeners only after the
    settle delay, so an event fired in that window (a quick select) would go unheard."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def choose_order_type(page: Page, kind: str = "", *, label: str = "") -> None:
    """Choose an order type by its key, or by the ``label`` the player reads."""
    settled(page)
    select = page.get_by_label("Order type")
    if label:
        select.select_option(label=label)
    else:
        select.select_option(kind)
    settled(page)  # the chosen type's fields are in (the last type's may share their names)


def submit(page: Page, name: str) -> None:
    page.get_by_role("button", name="Submit orders").click()
    # the last submission may already be resolving when the sheet comes back: no Withdraw then
    expect(page.locator(".submitted")).to_contain_text(f"{name} ✓")


def test_three_players_play_two_rounds(
    browser: Browser, live_server: LiveServer, worker: StartWorker
) -> None:
    worker()
    world = make_campaign("Browser campaign", n_powers=3)
    cid = world.campaign.pk
    base = live_server.url
    pages = [login(browser, base, u.username) for u in world.users]
    orders = [f"{base}/campaigns/{cid}/powers/p{i}/orders/" for i in range(3)]

    for number in (1, 2):
        # player 0: a bad amount is flagged as typed, then fixed and added
        p0 = pages[0]
        p0.goto(orders[0])
        gal_after = p0.locator("#projection tr", has_text="Bank").filter(has_text="gal")
        expect(gal_after).to_have_count(1)
        before = int(gal_after.locator("td").last.inner_text())
        choose_order_type(p0, "gal_transfer")
        p0.get_by_label("To power").select_option("p1")
        p0.get_by_label("Gal").fill("-5")
        expect(p0.locator("#order-errors")).to_contain_text("Gal: expected a positive integer")
        p0.get_by_label("Gal").fill("5")
        expect(p0.locator("#order-errors")).to_be_empty()
        p0.get_by_role("button", name="Add order").click()
        expect(p0.locator("#order-list")).to_contain_text("Transfers 5 Gal to Power 1")
        # the projected statement now shows 5 Gal less in the bank at the end of the round
        expect(gal_after.locator("td").last).to_have_text(str(before - 5))
        submit(p0, "Power 0")

        # player 1 funds research; player 2 submits without orders
        p1 = pages[1]
        p1.goto(orders[1])
        choose_order_type(p1, "research_project")
        p1.get_by_label("Gal (2 Gal = 1 TP)").fill("4")
        p1.get_by_role("button", name="Add order").click()
        expect(p1.locator("#order-list")).to_contain_text("Funds research with 4 Gal")
        submit(p1, "Power 1")
        expect(p1.locator(".submitted")).to_contain_text("Power 0 ✓")

        pages[2].goto(orders[2])
        submit(
            pages[2], "Power 2"
        )  # the last submission: enqueued after commit, resolved by the worker

        def resolved(n: int = number) -> bool:
            return Round.objects.filter(campaign=world.campaign, number=n + 1).exists()

        wait_for(resolved, 30, f"round {number} to resolve")
        assert Round.objects.get(campaign=world.campaign, number=number).status == "resolved"

        # the report shows the ledger lines with their rules
        p0.goto(f"{base}/campaigns/{cid}/powers/p0/rounds/{number}/")
        expect(
            p0.get_by_role("heading", name=f"Round {number}: statement of Power 0")
        ).to_be_visible()
        expect(p0.locator("table.ledger").first).to_be_visible()
        expect(p0.get_by_text("R-5.6").first).to_be_visible()
        p1.goto(f"{base}/campaigns/{cid}/powers/p1/rounds/{number}/")
        expect(p1.locator("table.ledger", has_text="research project").first).to_contain_text(
            "R-8.1"
        )

    pages[0].goto(f"{base}/campaigns/{cid}/rounds/")
    expect(pages[0].locator("#history")).to_contain_text("Power 0, Power 1, Power 2")
    assert Round.objects.get(campaign=world.campaign, status="open").number == 3
