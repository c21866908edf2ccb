"""Issue 15 in a real browser: two players record a battle (one enters it, the other confirms),
the damaged frigate is repaired over two rounds and shows its fatigue, and a loaned group goes
to the borrower and comes back at the end of its term. Each round resolves on a real Celery
worker through real Redis.

The arithmetic (R-10.2): the battle destroys the frigate's Class 1 beam (3 points). The repair
pays 1 Ore in its first round (the order's ``ore``) and the other 2 in the next, when it
completes and adds max(1, ceil(100 x 3 / 60)) = 5 % fatigue (NPV 60)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy import services
from economy.models import Round
from powers.models import Build, Craft, FleetGroup, StarSystem
from tests.e2e.test_fleet_browser import add
from tests.e2e.test_play_rounds import login
from tests.helpers import StartWorker, wait_for
from tests.web.factories import World, add_fleet, make_campaign
from trade.models import TradeHub

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def resolve_round(world: World, number: int) -> None:
    """Both players submit through the service; the worker resolves the round."""
    for i, power in enumerate(world.powers):
        services.submit_sheet(power=power, actor=f"p{i}")
    wait_for(
        lambda: Round.objects.filter(campaign=world.campaign, number=number + 1).exists(),
        45,
        f"round {number} to resolve",
    )


def fleet_page(page: Page, base: str, cid: int, power: str) -> None:
    page.goto(f"{base}/campaigns/{cid}/powers/{power}/fleet/")


def test_battle_record_repair_with_fatigue_and_a_loan_that_returns(
    browser: Browser, live_server: LiveServer, worker: StartWorker
) -> None:
    worker()
    world = make_campaign("Fleets II in the browser", n_powers=2)
    add_fleet(world, groups=2)  # p0-g0 and p0-g1 of two frigates each at p0's homeworld
    Build.objects.filter(campaign=world.campaign).delete()  # the yard's rating for the repair
    TradeHub.objects.filter(key="hub0").update(pool_ore=200, pool_bio=50)
    home = StarSystem.objects.select_related("hex").get(key="s0-0").hex
    hex_ = f"{home.col:02d}{home.row:02d}"
    cid, base = world.campaign.pk, live_server.url
    p0 = login(browser, base, world.users[0].username)
    p1 = login(browser, base, world.users[1].username)

    # round 1: Power 0 enters the battle at its homeworld; Power 1 confirms it on its page
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/")
    fleet_page(p0, base, cid, "p0")
    p0.get_by_role("link", name="Battle records").click()
    enter = p0.locator("#enter-battle")
    expect(enter.get_by_label("Power 0", exact=True)).to_be_checked()  # its own, ticked
    enter.get_by_label("Power 1", exact=True).check()
    # picked (issue 29): the hex among its own, then the frigate's row by name
    site = enter.get_by_label("Hex", exact=True).locator("option", has_text=hex_)
    enter.get_by_label("Hex", exact=True).select_option(label=site.text_content())
    row = enter.locator("tr.roster-row").filter(has=p0.locator("th", has_text=re.compile("^g0-f0")))
    row.get_by_label("Class 1 beam destroyed").fill("1")
    enter.get_by_role("button", name="Enter the record").click()
    expect(p0.locator("#battles-section")).to_contain_text("Awaiting others 1")
    p1.goto(f"{base}/campaigns/{cid}/powers/p1/battles/")
    expect(p1.locator("#battles-section")).to_contain_text("To confirm 1")
    p1.get_by_role("button", name="Confirm").click()
    expect(p1.locator("#battles-section")).to_contain_text("To confirm 0")
    resolve_round(world, 1)
    frigate = Craft.objects.get(key="p0-g0-f0")
    assert frigate.destroyed == {"b1": 1}

    # round 2: the repair at the yard in the same hex, 1 Ore this round
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/orders/")
    add(
        p0,
        "repair",
        {"Short name": "fix", "Ore this round": "1"},
        {"Damaged craft": "p0-g0-f0", "Repairer or builder": "p0-y1"},
    )
    p0.get_by_role("button", name="Add order").click()
    expect(p0.locator("#order-list li")).to_have_count(1)
    expect(p0.locator("#order-list .error")).to_have_count(0)
    # ... and Power 0 lends group g1 to Power 1 until the end of round 3; Power 1 accepts
    fleet_page(p0, base, cid, "p0")
    propose = p0.locator("#propose-pact")
    propose.get_by_label("To power").select_option(label="Power 1")  # by name (issue 30)
    carriers = propose.get_by_label("Groups and statics")
    carriers.select_option(label=carriers.locator("option", has_text="Group g1").text_content())
    propose.get_by_label("last round (loan)").fill("3")
    propose.get_by_role("button", name="Propose").click()
    expect(p0.locator("#fleet-pacts")).to_contain_text("proposed")
    fleet_page(p1, base, cid, "p1")
    p1.locator("#fleet-pacts").get_by_role("button", name="Accept").click()
    expect(p1.locator("#fleet-pacts")).to_contain_text("accepted")
    resolve_round(world, 2)
    assert Craft.objects.get(key="p0-g0-f0").destroyed == {"b1": 1}  # 1 of 3 Ore paid
    assert FleetGroup.objects.get(key="p0-g1").power.key == "p1"  # on loan (Support 1.6.1)

    # round 3: the repair completes with 5 % fatigue; the loan ends with this Support Phase
    fleet_page(p1, base, cid, "p1")
    expect(p1.locator("#fleet-pacts")).to_contain_text("(in effect)")
    resolve_round(world, 3)
    fleet_page(p0, base, cid, "p0")
    expect(p0.locator('[data-unit="p0-g0"]')).to_contain_text("5% fatigue")
    repaired = Craft.objects.get(key="p0-g0-f0")
    assert (repaired.destroyed, repaired.fatigue) == ({}, 5)
    assert FleetGroup.objects.get(key="p0-g1").power.key == "p0"  # back with its owner
    expect(p0.locator('[data-unit="p0-g1"]')).to_be_visible()
