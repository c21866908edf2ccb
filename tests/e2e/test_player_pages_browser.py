"""Issue 17 in a real browser: a newcomer plays a first round from what the pages show and
explain, without typing a URL past the first page, and a large map opens on the player's own
systems. (Every page fitting a laptop and a phone: test_player_layout_browser.py.)"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Dialog, Page, expect
from pytest_django.live_server_helper import LiveServer

from campaigns.demo import DEMO_NAME, demo_password
from campaigns.sector_import import import_sectors
from economy import services
from economy.models import Round
from powers.models import Campaign, Membership, Power, StarSystem
from tests.e2e.test_play_rounds import choose_order_type, settled
from tests.web.factories import PASSWORD, make_user
from tests.web.test_sector_import import tab_row, write_tab

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 390)


def log_in(browser: Browser, base: str, username: str) -> Page:
    page = browser.new_context(viewport={"width": WIDTHS[0], "height": 900}).new_page()
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(demo_password(username))
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()
    return page


def demo_campaign() -> Campaign:
    call_command("seed_demo", stdout=io.StringIO())
    return Campaign.objects.get(name=DEMO_NAME)


def test_a_newcomer_plays_a_first_round_from_the_pages(
    browser: Browser, live_server: LiveServer
) -> None:
    """Only what the pages show: links and buttons by their text, order types and fields by
    their labels; no URL typed after the login page, no key chosen."""
    campaign = demo_campaign()
    page = log_in(browser, live_server.url, "esu")
    # from "my campaigns" to the order sheet, by links only
    page.get_by_role("link", name=DEMO_NAME).click()
    page.get_by_role("link", name="Orders for this round").click()
    expect(page.get_by_role("heading", name=re.compile("orders for round 1"))).to_be_visible()
    # htmx is at work once the projection has replaced its placeholder (a choice made before
    # it has processed the page would go unheard)
    expect(page.locator("#projection")).not_to_contain_text("Calculating")
    # a type it cannot use is listed apart, with the reason (issue 30)
    page.locator("#order-unavailable summary").click()
    ship = page.locator("#order-unavailable li", has_text="Ship between own guild hubs")
    expect(ship).to_be_visible()
    expect(ship).to_contain_text("you need two hubs in the guild")

    # sell Ore: the form says what the order does and when, and links the rules guide
    choose_order_type(page, label="Sell on the Common Market")
    help_text = page.locator("#order-help")
    expect(help_text).to_contain_text("Ore buys Bio")
    expect(help_text.get_by_role("link", name="Common Market")).to_have_attribute(
        "href", "/rules/#step-resource-4"
    )
    settled(page)
    page.get_by_label("Resource sold").select_option(label="Ore")
    page.get_by_label("Amount").fill("10")
    page.get_by_label("Sold from (Ore/Bio)").select_option(label="hub Core")
    page.get_by_role("button", name="Add order").click()
    expect(page.locator("#order-list")).to_contain_text("Sells 10 Ore from hub Core for Bio")

    # a Gal transfer, chosen and explained the same way
    choose_order_type(page, label="Transfer Gal to another power")
    expect(page.locator("#order-help")).to_contain_text("Gives Gal from your bank")
    settled(page)
    page.get_by_label("To power").select_option(label="New Anglian Confederation")
    page.get_by_label("Gal").fill("4")
    page.get_by_role("button", name="Add order").click()
    expect(page.locator("#order-list")).to_contain_text(
        "Transfers 4 Gal to New Anglian Confederation"
    )
    # the projection reads in words before anything is submitted
    expect(page.locator("#projection")).to_contain_text("sells 10 Ore for 10 Bio")

    # an order the bank cannot pay is kept with the warning of entry (issue 30) on its row,
    # and submitting asks first
    choose_order_type(page, label="Fund a research project")
    settled(page)
    page.get_by_label("Gal (2 Gal = 1 TP)").fill("100000")
    page.get_by_role("button", name="Add order").click()
    row = page.locator("#order-list li").nth(2)
    expect(row).to_contain_text("Funds research with 100000 Gal")
    expect(row).to_contain_text("100,000 Gal is more than the")
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.get_by_role("button", name="Submit orders").click()
    expect(page.get_by_role("button", name="Submit orders")).to_be_visible()
    assert asked and "1 of your orders would be rejected" in asked[0]
    assert (
        not Power.objects.get(campaign=campaign, key="esu")
        .sheets.filter(status="submitted")
        .exists()
    )
    row.get_by_role("button", name="remove").click()
    expect(page.locator("#order-list li")).to_have_count(2)
    expect(page.locator("#submit-warning")).to_be_empty()
    page.get_by_role("button", name="Submit orders").click()
    expect(page.locator(".submitted")).to_contain_text("Eurasian Solar Union ✓")

    # the others submit and the round resolves
    for power in Power.objects.filter(campaign=campaign).exclude(key="esu"):
        services.submit_sheet(power=power, actor=power.key)
    rnd = Round.objects.get(campaign=campaign, number=1)
    if rnd.status != "resolved":
        services.resolve_round(round_id=rnd.pk)

    # the statement, reached by links, says what happened in words
    page.get_by_role("link", name=campaign.name).first.click()
    page.get_by_role("link", name="Rounds and statements").click()
    page.get_by_role("link", name="my statement").first.click()
    expect(
        page.get_by_role("heading", name="Round 1: statement of Eurasian Solar Union")
    ).to_be_visible()
    events = page.locator("ul.events")
    expect(events).to_contain_text("Eurasian Solar Union sells 10 Ore for 10 Bio")
    expect(page.locator("table.statement")).to_contain_text("hub Core")
    expect(page.get_by_role("link", name="Common Market").first).to_be_visible()


def test_a_large_map_opens_on_my_systems(
    browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    rows = [tab_row(hx, name, "B788899-C") for hx, name in (("0101", "Rock"), ("1910", "Ceti"))]
    rows.append(tab_row("3240", "Far", "B788899-C"))
    import_sectors(campaign_name="Wide", files=[write_tab(tmp_path, "Spin", rows)])
    campaign = Campaign.objects.get(name="Wide")
    user = make_user("wide")
    power = Power.objects.create(campaign=campaign, key="p0", name="Power 0")
    Membership.objects.create(campaign=campaign, user=user, power=power)
    StarSystem.objects.filter(campaign=campaign, key="spin-1910").update(holder=power, loyalty=9)

    page = browser.new_context(viewport={"width": WIDTHS[0], "height": 900}).new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("wide")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Wide").click()
    page.get_by_role("link", name="Map").first.click()
    svg = page.locator("svg.ftmap")
    expect(page.locator(".map-viewport.js")).to_have_count(1)  # the script has set its view

    def view() -> list[float]:
        return [float(v) for v in (svg.get_attribute("viewBox") or "").split()]

    def shows(hx: str) -> bool:
        circle = page.locator(f'.sys[data-hex="{hx}"] circle')
        cx, cy = (float(circle.get_attribute(a) or 0) for a in ("cx", "cy"))
        x, y, w, h = view()
        return x <= cx <= x + w and y <= cy <= y + h

    first = view()
    page.get_by_role("button", name="Whole map").click()
    whole = view()
    # the whole sector would show hexes too small to read: it opened on Ceti, not on the rest
    assert first[2] < whole[2] / 3
    assert shows("3240") and shows("0101")
    page.get_by_role("button", name="My systems").click()
    assert view() == first
    assert shows("1910") and not shows("3240") and not shows("0101")
