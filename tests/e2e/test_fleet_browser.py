"""Issue 14 in a real browser: a player registers a design on the Fleet page, builds it over two
rounds at the shipyard, forms a group of the finished craft, crews it and supplies its EP in the
round it is finished, and sees the group with its strength on the private map; the other player
sees only a marker. Each round resolves on a real Celery worker through real Redis."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from playwright.sync_api import Browser, Page, expect

from economy import services
from economy.models import Round
from powers.models import Build, Craft, FleetGroup, StarSystem
from tests.e2e.test_play_rounds import choose_order_type, login
from tests.helpers import wait_for
from tests.web.factories import World, add_fleet, make_campaign
from trade.models import TradeHub

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_in(page: Page, fill: Mapping[str, str], select: Mapping[str, str | list[str]]) -> None:
    """Fields found by their exact labels: typed into, or chosen from."""
    for label, value in fill.items():
        page.get_by_label(label, exact=True).fill(value)
    for label, option in select.items():
        page.get_by_label(label, exact=True).select_option(option)


def add(page: Page, kind: str, fill: dict[str, str], select: dict[str, str | list[str]]) -> None:
    """One order through the order form, checking the cost it shows before adding it."""
    choose_order_type(page, kind)
    fill_in(page, fill, select)


def resolve_round(page: Page, world: World, number: int) -> None:
    """The other player submits (through the service), then this player, last, in the page."""
    services.submit_sheet(power=world.powers[1], actor="p1")
    page.get_by_role("button", name="Submit orders").click()
    wait_for(
        lambda: Round.objects.filter(campaign=world.campaign, number=number + 1).exists(),
        45,
        f"round {number} to resolve",
    )


def test_register_build_crew_supply_group_and_map(browser: Browser, live_server, worker) -> None:  # type: ignore[no-untyped-def]
    worker()
    world = make_campaign("Fleet in the browser", n_powers=2)
    add_fleet(world, groups=0)  # a shipyard (construction 30) at each homeworld, no groups
    TradeHub.objects.filter(key="hub0").update(pool_ore=200, pool_bio=50)
    StarSystem.objects.filter(key="s0-0").update(loyalty=20, rate_pl=20)
    cid, base = world.campaign.pk, live_server.url
    p0 = login(browser, base, world.users[0].username)
    fleet = f"{base}/campaigns/{cid}/powers/p0/fleet/"
    orders = f"{base}/campaigns/{cid}/powers/p0/orders/"

    # round 1: register the Lancer on the Fleet page (the NPV check as typed) ...
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/")
    p0.get_by_role("link", name="Fleet").first.click()
    expect(p0.get_by_role("heading", name="Power 0: fleet")).to_be_visible()
    expect(p0.locator("#fleet-builders")).to_contain_text("30 Ore/round")
    # its short name left blank: made from its name, "lancer" (issue 30)
    expect(p0.get_by_label("Short name")).to_have_value("")
    p0.get_by_label("Name", exact=True).fill("Lancer")
    p0.get_by_label("Mass").fill("20")
    p0.get_by_label("Crew factors needed").fill("2")
    p0.get_by_label("System 1 name").fill("Class 1 beam")
    p0.get_by_label("System 1 points").fill("5")
    p0.get_by_label("System 1 count").fill("2")
    p0.get_by_label("System 2 name").fill("EP store")
    p0.get_by_label("System 2 points").fill("2")
    p0.get_by_label("System 2 capacity 1").select_option("ep_storage")
    p0.get_by_label("System 2 amount 1").fill("4")
    p0.get_by_label("NPV").fill("8")
    expect(p0.get_by_test_id("npv-check")).to_contain_text("more than the NPV 8: raise the NPV")
    p0.get_by_label("NPV").fill("40")
    expect(p0.get_by_test_id("npv-check")).to_contain_text("leaves 28 for hull and drives")
    p0.get_by_role("button", name="Add the design to my orders").click()
    expect(p0.locator(".messages")).to_contain_text("Design Lancer is on your orders")

    # ... and build it at the shipyard, its cost and source shown before it is added
    p0.goto(orders)
    add(p0, "build", {"Short name": "l1"}, {"Design": "p0-lancer", "Builders": ["p0-y1"]})
    expect(p0.locator("#order-errors")).to_contain_text(
        "Costs 44 Ore (NPV 40, +4 while no craft of it is finished)"
    )
    expect(p0.locator("#order-errors")).to_contain_text("paid from the pool of hub Hub0")
    p0.get_by_role("button", name="Add order").click()
    expect(p0.locator("#order-list")).to_contain_text("Builds l1, a Lancer, at y1 (Yard)")
    expect(p0.locator("#projection")).to_contain_text("work l1")
    resolve_round(p0, world, 1)

    # round 2: 30 of 44 Ore paid; the build finishes this round, so the craft can be grouped,
    # crewed and supplied in the same Support Phase
    p0.goto(fleet)
    expect(p0.locator('[data-work="p0-l1"]')).to_contain_text("30 / 44 Ore paid")
    expect(p0.locator('[data-work="p0-l1"] progress')).to_have_attribute("value", "30")
    expect(p0.locator('[data-work="p0-l1"]')).to_contain_text("about 1 round more")
    p0.goto(orders)
    add(p0, "form_group", {"Short name": "strike"}, {"Craft": ["p0-l1"], "Group kind": "standard"})
    p0.get_by_role("button", name="Add order").click()
    expect(p0.locator("#order-list")).to_contain_text("Forms Standard group strike from l1")
    add(p0, "crew", {}, {"Group": "p0-strike"})
    p0.get_by_role("button", name="Add order").click()
    expect(p0.locator("#order-list")).to_contain_text("Crews Group strike")
    add(p0, "supply_ep", {"EP": "1"}, {"Into group or static": "p0-strike"})
    expect(p0.locator("#order-errors")).to_contain_text("1 EP = 1 Bio from the pool of hub Hub0")
    p0.get_by_role("button", name="Add order").click()
    expect(p0.locator("#order-list li")).to_have_count(3)
    expect(p0.locator("#order-list .error")).to_have_count(0)
    resolve_round(p0, world, 2)
    assert Craft.objects.get(key="p0-l1").group.key == "p0-strike"  # type: ignore[union-attr]
    assert not Build.objects.filter(key="p0-l1").exists()

    # round 3: the group with its crew and EP on the Fleet page and the private map
    p0.goto(fleet)
    strike = p0.locator('[data-unit="p0-strike"]')
    expect(strike).to_contain_text("l1 (Lancer)")
    expect(strike).to_contain_text("2 / 2")  # crew / CF needed
    expect(strike).to_contain_text("ready")
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/map/")
    own = p0.locator('g.own-group[data-group="strike"] title')
    expect(own).to_have_text("Group strike: 1 craft, 40 points, 1 EP stored")

    # the other player sees a marker in Power 0's colour, and nothing of what is in it
    p1 = login(browser, base, world.users[1].username)
    p1.goto(f"{base}/campaigns/{cid}/map/")
    marker = p1.locator("g.marker.group title", has_text="Power 0")
    expect(marker).to_have_text("1 fleet group of Power 0")
    p1.goto(f"{base}/campaigns/{cid}/powers/p1/map/")
    expect(p1.locator("g.marker.group title", has_text="Power 0")).to_have_count(1)
    for url in (f"{base}/campaigns/{cid}/map/", f"{base}/campaigns/{cid}/powers/p1/map/"):
        p1.goto(url)
        html = p1.content()
        assert "Lancer" not in html and "strike" not in html and "p0-l1" not in html
    assert FleetGroup.objects.get(key="p0-strike").ep == 1
