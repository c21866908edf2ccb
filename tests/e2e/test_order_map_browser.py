"""Orders on the map in a real browser (issue 30, item 2): a group moved with the mouse, one
moved with the keyboard alone (no key typed into a field), the sheet's table and the map's
arrow in step, and the page fitting a 390 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.test_maps_browser import log_in
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GROUP = '#order-map svg.ftmap .own-group[data-key="{}"]'
ARROW = '#order-map svg.ftmap line.move[data-key="{}"]'
# The screen point of a hex's centre (powers/hexgrid.py centre_px through the SVG's transform).
HEX_CENTRE = """([col, row]) => {
  const svg = document.querySelector('#order-map svg.ftmap');
  const size = parseFloat(svg.getAttribute('data-hex-size')), c = col - 1;
  const pt = svg.createSVGPoint();
  pt.x = size + c * 1.5 * size;
  pt.y = Math.sqrt(3) * size * (row - 0.5 + (c % 2 ? 0.5 : 0));
  const p = pt.matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
}"""


@pytest.fixture
def world() -> World:
    world = make_campaign("Order map browser", n_powers=2, systems_per_power=3)
    add_fleet(world, groups=2)  # p0-g0 and p0-g1 at p0's homeworld, 0101
    return world


def open_orders(page: Page, live_server: LiveServer, world: World) -> None:
    log_in(page, live_server.url, world.users[0].username)
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/powers/p0/orders/")
    expect(page.locator(GROUP.format("p0-g0"))).to_have_count(1)


def hex_input(page: Page, name: str) -> str:
    return f'#declarations input[aria-label="Hex of Group {name}"]'


def test_a_group_moved_with_the_mouse(page: Page, live_server: LiveServer, world: World) -> None:
    open_orders(page, live_server, world)
    page.locator(GROUP.format("p0-g0")).click()
    expect(page.locator("#order-map svg .targets")).to_have_count(1)  # the hexes to pick
    x, y = page.evaluate(HEX_CENTRE, [2, 2])
    page.mouse.click(x, y)
    expect(page.locator(hex_input(page, "g0"))).to_have_value("0202")
    expect(page.locator(ARROW.format("p0-g0"))).to_have_attribute("data-to", "0202")
    expect(page.locator("#order-map .map-status")).to_have_text("Group g0 declared at 0202.")
    expect(page.locator(ARROW.format("p0-g1"))).to_have_count(0)

    # the other way: the table edited, the arrow follows
    page.locator(hex_input(page, "g0")).fill("0302")
    page.locator(hex_input(page, "g0")).press("Tab")
    expect(page.locator(ARROW.format("p0-g0"))).to_have_attribute("data-to", "0302")

    # a system clicked: what can be ordered there, through the sheet's own form
    page.locator('#order-map svg g.sys[data-hex="0101"] circle').click()
    build = page.locator("#order-map-panel a", has_text="Build here with y1 (Yard)")
    expect(build).to_be_visible()
    build.click()
    expect(page.locator("#id_type")).to_have_value("build")


def test_a_group_moved_with_the_keyboard_alone(
    page: Page, live_server: LiveServer, world: World
) -> None:
    open_orders(page, live_server, world)
    target = GROUP.format("p0-g1")
    for _ in range(60):  # Tab through the page to the group
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", target):
            break
    else:
        pytest.fail("Tab never reached group g1")
    page.keyboard.press("Enter")
    cursor = page.locator("#order-map svg .targets .cursor")
    expect(cursor).to_be_focused()
    expect(cursor).to_have_attribute(
        "aria-label", "Declare group g1 at 0101 (System 0-0), where it is now"
    )
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(cursor).to_have_attribute("aria-label", "Declare group g1 at 0202, 2 hexes from 0101")
    page.keyboard.press("Enter")
    expect(page.locator(hex_input(page, "g1"))).to_have_value("0202")
    expect(page.locator(ARROW.format("p0-g1"))).to_have_attribute("data-to", "0202")
    expect(page.locator(target)).to_be_focused()  # the focus is back on the group


def test_the_orders_map_fits_a_phone(page: Page, live_server: LiveServer, world: World) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    open_orders(page, live_server, world)
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner
    box = page.locator("#order-map .map-viewport").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["width"] >= 300  # the map takes the width: its panel goes below it
    page.locator(GROUP.format("p0-g0")).click()
    x, y = page.evaluate(HEX_CENTRE, [1, 2])
    page.mouse.click(x, y)
    expect(page.locator(ARROW.format("p0-g0"))).to_have_attribute("data-to", "0102")
