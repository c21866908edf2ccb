"""Issue 16 in a real browser: a player commissions an officer on the order page, the round
resolves on a real Celery worker through real Redis, the player sets up a command bubble's HQ
under that officer with a sensor, the round resolves, and the Command page and the private map
show the bubble with its radius (the officer's grade, R-8.3a) and its sensor; the other
player's map does not (Support §5.2.6). The Command page fits a 390 px wide phone.

The arithmetic (R-8.2, R-8.3): rank 1, grade 2 costs 50 Gal and 50 + 50 = 100 TP; the HQ 30
Ore and the sensor 10 Ore from the hub pool covering the HQ; the sensor costs 5 Ore a round."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy.models import LedgerLine
from powers.models import BubbleSensor, CommandBubble, Power
from powers.models.command import Officer
from tests.e2e.test_fleet_browser import add, resolve_round
from tests.e2e.test_play_rounds import login
from tests.helpers import StartWorker
from tests.web.factories import make_campaign
from trade.models import TradeHub

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def added(page: Page, count: int) -> None:
    page.get_by_role("button", name="Add order").click()
    try:
        expect(page.locator("#order-list li")).to_have_count(count)
    except AssertionError as exc:  # say what the page said (a refusal, a closed round)
        shown = page.locator("#order-errors, .messages, .error").all_inner_texts()
        raise AssertionError(f"{exc}\nthe page shows: {shown} at {page.url}") from None
    expect(page.locator("#order-list .error")).to_have_count(0)


def test_commission_an_officer_set_up_a_bubble_and_see_it(
    browser: Browser, live_server: LiveServer, worker: StartWorker
) -> None:
    worker()
    world = make_campaign("Command in the browser", n_powers=2)
    Power.objects.filter(key="p0").update(gal=500, tp=500)
    TradeHub.objects.filter(key="hub0").update(pool_ore=200)  # the hub centred on 0101
    cid, base = world.campaign.pk, live_server.url
    p0 = login(browser, base, world.users[0].username)
    orders = f"{base}/campaigns/{cid}/powers/p0/orders/"
    command = f"{base}/campaigns/{cid}/powers/p0/command/"

    # round 1: the Command page is empty and says how to start; the HQ order is greyed
    p0.goto(command)
    expect(p0.locator("main")).to_contain_text("No officers yet.")
    p0.get_by_role("link", name="Commission an officer").click()
    expect(p0.locator("#order-help")).to_contain_text("rank × 50 Gal")
    expect(p0.locator('option[value="bubble_hq"]')).to_have_count(0)  # apart (issue 30)
    expect(p0.locator("#order-unavailable")).to_contain_text("an HQ needs an officer")
    p0.goto(orders)
    add(
        p0,
        "commission",
        {"Short name": "vance", "Rank": "1", "Grade (1-10)": "2", "Name": "Cdr Vance"},
        {},
    )
    added(p0, 1)
    resolve_round(p0, world, 1)
    vance = Officer.objects.get(power__key="p0", name="Cdr Vance")
    assert (vance.rank, vance.grade) == (1, 2)
    paid = dict(
        LedgerLine.objects.filter(power__key="p0", reason__startswith="commission").values_list(
            "resource", "amount"
        )
    )
    assert paid == {"gal": -50, "tp": -100}  # rank x 50 Gal, rank x 50 + 50 TP

    # round 2: an HQ at the homeworld under Vance, and a sensor two hexes out
    p0.goto(orders)
    add(p0, "bubble_hq", {"Short name": "north", "HQ hex": "0101"}, {"Officer": vance.key})
    added(p0, 1)
    add(
        p0,
        "bubble_sensor",
        {"Post (the HQ's or an outpost's hex)": "0101", "Sensor hex": "0301"},
        {"Bubble": "p0-north"},
    )
    added(p0, 2)
    resolve_round(p0, world, 2)
    bubble = CommandBubble.objects.get(power__key="p0")
    assert BubbleSensor.objects.filter(bubble=bubble).count() == 1
    ore = sorted(
        LedgerLine.objects.filter(
            power__key="p0", round_number=2, resource="ore", rule="R-8.3"
        ).values_list("amount", flat=True)
    )
    assert ore == [-30, -10, -5]  # HQ, sensor, and the sensor's upkeep this round

    # the Command page: the bubble, its radius 2 (Vance's grade), the sensor and its upkeep
    p0.goto(command)
    post = p0.locator('[data-bubble="p0-north"] tr[data-post="0101"]')
    expect(post).to_contain_text("Cdr Vance")
    expect(post.locator("td.num")).to_have_text("2")
    expect(post).to_contain_text("0301 (1 of 3 beyond the free array)")
    expect(p0.locator('[data-bubble="p0-north"]')).to_contain_text("Upkeep: 5 Ore a round")
    expect(p0.locator('tr[data-officer="p0-vance"]')).to_contain_text(
        "commands the HQ of bubble north at 0101"
    )

    # the private map draws it with its radius and sensor
    p0.get_by_role("link", name="Map").first.click()
    drawn = p0.locator('svg [data-bubble="p0-north"]')
    expect(drawn).to_have_count(1)
    expect(drawn.locator("title").first).to_have_text("Command bubble north (HQ 0101, radius 2)")
    expect(drawn.locator("circle.sensor title")).to_have_text("Sensor 0301 of the HQ 0101")

    # the other player's map shows no bubble and no sensor
    p1 = login(browser, base, world.users[1].username)
    p1.goto(f"{base}/campaigns/{cid}/powers/p1/map/")
    expect(p1.locator("svg.ftmap").first).to_be_visible()
    expect(p1.locator("svg [data-bubble]")).to_have_count(0)
    expect(p1.locator("svg circle.sensor")).to_have_count(0)
    assert "north" not in p1.content()

    # the Command page on a phone: only the tables' boxes scroll sideways, never the page
    p0.set_viewport_size({"width": 390, "height": 844})
    p0.goto(command)
    expect(p0.locator('[data-bubble="p0-north"]')).to_be_visible()
    width = p0.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
