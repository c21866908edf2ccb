"""Upload sector files in the browser, watch the job finish on a real worker, and read the map
on the page (issue 5; issue 10 item 5: the map shows, at a readable size); zoom into one world
of a five-sector map (generated, as full as the real block around the Spinward Marches) and
read its name and UWP (issue 19)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers import StartWorker
from tests.routes.helpers import BIG, HEADER, random_sector, row
from tests.web.factories import PASSWORD, make_user
from trade import routemaps
from trade.models import RouteJob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Five sectors laid out as the block around the Spinward Marches: three in a row, two below.
FIVE = {"West": (0, 0), "Middle": (1, 0), "East": (2, 0), "South West": (0, 1), "South": (1, 1)}


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_upload_sector_file_and_see_the_map(
    page: Page, live_server: LiveServer, worker: StartWorker, tmp_path: Path
) -> None:
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


def test_zoom_into_a_world_on_a_five_sector_map(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    user = make_user("marches")
    uploads = []
    for seed, (sector, (x, y)) in enumerate(FIVE.items()):
        fixed = {"1910": ("Meridian", BIG)} if sector == "West" else {}
        tab = random_sector(tmp_path, sector, seed=seed, x=x, y=y, fixed=fixed)
        xml = tab.with_suffix(".xml").read_text(encoding="utf-8")
        uploads.append(routemaps.Upload(tab.name, tab.read_text(encoding="utf-8"), xml))
    job = routemaps.job_for_uploads(uploads, [], owner=user)
    routemaps.run_job(job_id=job.pk)  # the task's body: the map is ready before the page opens
    assert RouteJob.objects.get(pk=job.pk).status == "done"
    _log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/trade-routes/{job.input_hash}/")
    world = page.locator('.routemap-viewport .world[data-id="West 1910"]')
    name, uwp = world.locator(".wname"), world.locator(".uwp")
    expect(name).to_have_text("Meridian")
    expect(name).to_be_hidden()  # five sectors at the page's width: too small to read
    expect(uwp).to_be_hidden()
    legend = page.get_by_label("Legend")
    expect(legend).to_contain_text("Feeder")
    expect(legend).to_contain_text("X-boat route")
    expect(legend).to_contain_text("Amber zone")
    # Zoom with the mouse wheel over the world until the details show.
    for _ in range(12):
        box = world.locator("circle").bounding_box()
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
