"""`make run` on its own (SQLite, in-process tasks) serves the login page and the demo logins
work, driven through a real browser."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from campaigns.demo import demo_password
from tests.helpers import ROOT
from tests.sqlite.server import Demo

pytestmark = pytest.mark.browser


def test_make_run_serves_demo_and_logins_work(demo: Demo, page: Page) -> None:
    page.goto(demo.url + "/")
    expect(page.locator("#campaigns")).to_contain_text("The Outer Reaches")  # the public index
    page.get_by_role("link", name="Log in").first.click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    # served from static/, no CDN; the script is deferred, so wait for it to run
    page.wait_for_function("typeof htmx === 'object'", timeout=15_000)

    page.get_by_label("Username").fill("nac")
    page.get_by_label("Password").fill(demo_password("nac"))
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()

    page.get_by_role("link", name=re.compile("The Outer Reaches")).click()
    expect(page.get_by_role("heading", name="New Anglian Confederation")).to_be_visible()
    expect(page.locator("#systems")).to_contain_text("Avalon")
    expect(page.locator("#systems")).to_contain_text("0203")
    expect(page.locator("#hubs")).to_contain_text("Core")
    expect(page.locator('[data-testid="gal"]')).to_have_text("120")
    (ROOT / "out").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "out" / "dashboard.png"), full_page=True)

    other = page.url.replace("/powers/nac/", "/powers/esu/")
    response = page.goto(other)
    assert response is not None and response.status == 404
    assert "Eurasian" not in page.content()


def test_wrong_password_is_refused(demo: Demo, page: Page) -> None:
    page.goto(demo.url + "/accounts/login/")
    page.get_by_label("Username").fill("esu")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".error")).to_contain_text("didn't match")
