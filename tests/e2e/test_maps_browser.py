"""The maps in a real browser (issue 7): the public map draws the hub outlines, the private map
its own hubs, zoom works, and clicking a hex shows the right system in the panel."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from powers.models import StarSystem
from tests.web.factories import PASSWORD, World, make_campaign
from trade.models import HubNode, TradeHub

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world() -> World:
    world = make_campaign("Browser maps", n_powers=2, systems_per_power=3)
    hub = TradeHub.objects.create(
        campaign=world.campaign, key="deep-hub", power=world.powers[1], guild=True
    )
    HubNode.objects.create(campaign=world.campaign, hub=hub, col=9, row=6, is_centre=True)
    StarSystem.objects.filter(key="s1-0").update(name="Kirov <Prime>", starport="A", size=7)
    return world


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def test_public_map_outlines_and_hex_panel(
    page: Page, live_server: LiveServer, world: World
) -> None:
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/map/")
    outlines = page.locator("svg.ftmap path.hub")
    expect(outlines).to_have_count(3)  # hub0, hub1 and the deep-space hub
    assert re.match(r"^M[\d.]+,[\d.]+ L", outlines.first.get_attribute("d") or "")
    expect(page.locator("svg.ftmap .own-hub")).to_have_count(0)
    expect(page.locator("svg.ftmap circle.node")).to_have_count(0)

    page.locator('svg.ftmap g.sys[data-hex="0401"] circle').click()
    panel = page.locator("#hex-panel")
    expect(panel.locator("h2")).to_have_text("0401")
    expect(panel.locator(".system-name")).to_have_text("Kirov <Prime>")
    expect(panel).to_contain_text("Power 1")
    expect(panel).not_to_contain_text("Loyalty")

    # a system is a link to its panel: from the keyboard it loads in place, no navigation
    map_url = page.url
    page.locator('svg.ftmap a:has(g.sys[data-hex="0101"])').focus()
    page.keyboard.press("Enter")
    expect(panel.locator(".system-name")).to_have_text("System 0-0")
    assert page.url == map_url

    svg = page.locator("svg.ftmap")
    before = svg.get_attribute("viewBox")
    page.click("button[data-zoom=in]")
    assert svg.get_attribute("viewBox") != before
    page.click("button[data-zoom=reset]")
    after = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
    assert after == pytest.approx([float(v) for v in (before or "").split()], abs=0.01)


def test_private_map_shows_own_hub_and_loyalty(
    page: Page, live_server: LiveServer, world: World
) -> None:
    log_in(page, live_server.url, world.users[1].username)
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/powers/p1/map/")
    expect(page.locator("svg.ftmap path.hub")).to_have_count(3)
    expect(page.locator("svg.ftmap g.own-hub")).to_have_count(2)  # hub1 and deep-hub
    expect(page.locator("svg.ftmap line.link")).to_have_count(1)
    expect(page.locator('svg.ftmap g.sys[data-hex="0401"] text.lr')).to_have_text("5")
    expect(page.locator('svg.ftmap g.sys[data-hex="0101"] text.lr')).to_have_count(0)

    page.locator('svg.ftmap g.sys[data-hex="0401"] circle').click()
    panel = page.locator("#hex-panel")
    expect(panel.locator(".system-name")).to_have_text("Kirov <Prime>")
    expect(panel).to_contain_text("Loyalty (LR)")
    expect(panel).to_contain_text("centre of hub Hub1")

    # another power's private map is a 404 for this player
    response = page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/powers/p0/map/")
    assert response is not None and response.status == 404
