"""Upload sector files in the browser, watch the job finish on a real worker, and read the map
on the page (issue 5; issue 10 item 5: the map shows, at a readable size); zoom into Regina on
the real five-sector map and read its name and UWP (issue 19)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.routes.helpers import BIG, HEADER, row
from tests.web.factories import PASSWORD, make_user
from trade import routemaps
from trade.models import RouteJob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "sectors"
FIVE = ("Spinward Marches", "Deneb", "Corridor", "Trojan Reach", "Reft")


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_upload_sector_file_and_see_the_map(page: Page, live_server, worker, tmp_path) -> None:  # type: ignore[no-untyped-def]
    worker()
    user = make_user("cartographer")
    sector = tmp_path / "Test.tab"
    sector.write_text(
        "\n".join(
            [HEADER, row("0101", "Alpha", BIG), row("0102", "Beta", BIG), row("0104", "Gamma", BIG)]
        )
    )
    _log_in(page, live_server.url, user.username)
    page.goto(live_server.url + "/trade-routes/")
    page.get_by_label("Sector files (.tab, .sec)").set_input_files(str(sector))
    page.get_by_role("button", name="Map the routes").click()
    expect(page.locator("#route-result")).to_contain_text("3 worlds", timeout=30_000)
    svg = page.locator(".routemap-viewport svg")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box is not None and box["width"] >= 800 and box["height"] >= 400, box
    legs = page.locator(".routemap-viewport .leg")
    expect(legs.first).to_be_attached()
    assert legs.count() >= 2
    expect(page.get_by_role("link", name="Download SVG")).to_have_attribute(
        "download", "trade-routes.svg"
    )


def test_zoom_into_regina_on_the_five_sector_map(page: Page, live_server) -> None:  # type: ignore[no-untyped-def]
    user = make_user("marches")
    uploads = [
        routemaps.Upload(
            f"{name}.tab",
            (SECTORS / f"{name}.tab").read_text(encoding="utf-8-sig"),
            (SECTORS / f"{name}.xml").read_text(encoding="utf-8-sig"),
        )
        for name in FIVE
    ]
    job = routemaps.job_for_uploads(uploads, [], owner=user)
    routemaps.run_job(job_id=job.pk)  # the task's body: the map is ready before the page opens
    assert RouteJob.objects.get(pk=job.pk).status == "done"
    _log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/trade-routes/{job.input_hash}/")
    regina = page.locator('.routemap-viewport .world[data-id="Spinward Marches 1910"]')
    name, uwp = regina.locator(".wname"), regina.locator(".uwp")
    expect(name).to_have_text("Regina")
    expect(name).to_be_hidden()  # five sectors at the page's width: too small to read
    expect(uwp).to_be_hidden()
    legend = page.get_by_label("Legend")
    expect(legend).to_contain_text("Feeder")
    expect(legend).to_contain_text("X-boat route")
    expect(legend).to_contain_text("Amber zone")
    # Zoom with the mouse wheel over Regina until the details show.
    for _ in range(12):
        box = regina.locator("circle").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -200)
        if page.locator(".routemap-viewport svg").get_attribute("data-level") == "near":
            break
    expect(name).to_be_visible()
    expect(uwp).to_be_visible()
    expect(uwp).to_have_text("A788899-C")
    font = name.evaluate("el => el.getBoundingClientRect().height")
    assert font >= 10, font  # readable, not a speck
