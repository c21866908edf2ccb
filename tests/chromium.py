"""Playwright with Debian's Chromium (never `playwright install`; stack.md): the browser
fixtures the browser tests share (tests/e2e/, tests/sqlite/), imported by their conftests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Error, Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# Two cores shared with a database, a worker and the live server: allow a slow moment.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    quiet(page)
    context.close()


def quiet(page: Page) -> None:
    """Wait until the page asks the live server nothing more (its last navigation's loads and
    every htmx request): a request still running when the test ends would hold its tables
    while the transactional test's flush truncates them, and the two deadlock."""
    try:
        page.wait_for_load_state("networkidle", timeout=15_000)
        expect(page.locator(".htmx-request")).to_have_count(0)
    except (Error, AssertionError):  # a page that never settles: the flush will say so
        pass
