"""The maps' round stepper in a real browser (issue 30): step back and forward through the past
rounds with the stepper's links and with the keyboard, on the public and a private map."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.test_maps_browser import log_in
from tests.web.factories import World
from tests.web.test_map_history import history

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OLD = "System 0-1 (0102, Power 0)"
NEW = "System 0-1 (0102, Power 1)"


@pytest.fixture
def world() -> World:
    return history("Browser history")


def holder_title(page: Page) -> str:
    return page.locator('svg.ftmap g.sys[data-hex="0102"] title').text_content() or ""


def test_public_map_steps_back_and_forward_with_links(
    page: Page, live_server: LiveServer, world: World
) -> None:
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/map/")
    rounds = page.locator("#map-rounds")
    expect(rounds.locator("strong")).to_have_text("Now (round 3)")
    assert holder_title(page) == NEW

    rounds.locator('[data-step="prev"]').click()
    expect(rounds.locator("strong")).to_have_text("After round 2")
    assert page.url.endswith("?round=2")
    expect(page.locator("#map-changes")).to_contain_text("System 0-1 (0102): Power 0 → Power 1")
    expect(page.locator(".svg-link")).to_have_attribute("href", re.compile(r"map\.svg\?round=2$"))

    rounds.locator('[data-step="prev"]').click()
    expect(rounds.locator("strong")).to_have_text("After round 1")
    assert holder_title(page) == OLD
    expect(rounds.locator('[data-step="prev"]')).to_have_count(0)  # round 1 is the first

    rounds.locator('[data-step="next"]').click()
    expect(rounds.locator("strong")).to_have_text("After round 2")
    rounds.locator('[data-step="now"]').click()
    expect(rounds.locator("strong")).to_have_text("Now (round 3)")
    expect(page.locator("#hex-panel")).to_be_visible()


def test_private_map_steps_with_the_keyboard(
    page: Page, live_server: LiveServer, world: World
) -> None:
    log_in(page, live_server.url, world.users[0].username)
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/powers/p0/map/")
    rounds = page.locator("#map-rounds")
    expect(rounds.locator("strong")).to_have_text("Now (round 3)")
    expect(page.locator('svg.ftmap g.own-hub[data-hub="p0-west"]')).to_have_count(0)

    page.keyboard.press("[")
    expect(rounds.locator("strong")).to_have_text("After round 2")
    page.keyboard.press("ArrowLeft")
    expect(rounds.locator("strong")).to_have_text("After round 1")
    # the hub West of then, from the record (it is gone now), and the change in names
    expect(page.locator('svg.ftmap g.own-hub[data-hub="p0-west"]')).to_have_count(1)
    expect(page.locator("#map-changes")).to_contain_text("Your hub West was set up")
    assert holder_title(page) == OLD

    page.keyboard.press("]")
    expect(rounds.locator("strong")).to_have_text("After round 2")
    page.keyboard.press("ArrowRight")
    expect(rounds.locator("strong")).to_have_text("Now (round 3)")
    page.keyboard.press("ArrowRight")  # nothing after now
    expect(rounds.locator("strong")).to_have_text("Now (round 3)")
