"""Upload sector files in the browser, watch the job finish on a real worker, and open the SVG
trade map, in which the legs are drawn (issue 5)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.routes.helpers import BIG, HEADER, row
from tests.web.factories import PASSWORD, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_upload_sector_file_and_open_the_svg(page: Page, live_server, worker, tmp_path) -> None:  # type: ignore[no-untyped-def]
    worker()
    user = make_user("cartographer")
    sector = tmp_path / "Test.tab"
    sector.write_text(
        "\n".join(
            [HEADER, row("0101", "Alpha", BIG), row("0102", "Beta", BIG), row("0104", "Gamma", BIG)]
        )
    )
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/trade-routes/")
    page.get_by_label("Sector files (.tab, .sec)").set_input_files(str(sector))
    page.get_by_role("button", name="Map the routes").click()
    expect(page.locator("#route-result")).to_contain_text("3 worlds", timeout=30_000)
    page.get_by_role("link", name="Open the SVG map").click()
    legs = page.locator(".leg")
    expect(legs.first).to_be_attached()
    assert legs.count() >= 2
