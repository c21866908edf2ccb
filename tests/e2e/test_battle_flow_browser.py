"""Issue 29 in a real browser, "GM-less battles that never stall a campaign" (R-10.6): a battle
record is entered by picking (the hex from the power's sites, the other power by name, then a
row of the roster by the craft's name; no id typed anywhere), declined with a reason that the
entering power is told, amended and confirmed, and the round, whose sheets were all in and
which waited only for that confirmation, resolves by itself on a real Celery worker through
real Redis, applying the record exactly as amended. A record nobody confirms holds the round
only until its deadline: then the sweep (what beat runs) resolves it, and the record expires,
never applied.

The world: Power 0's group g0 (frigates g0-f0, g0-f1) and its yard y1 at its homeworld 0101,
where Power 1's group g0 (frigates g0-f0, g0-f1) met them. A frigate has a Class 1 beam and an
EP store, and 3 CF aboard."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy import services
from economy.models import Round
from economy.tasks import sweep_rounds_task
from notices.models import Kind, Notice
from powers.models import BattleRecord, Campaign, Craft, FleetGroup
from tests.e2e.test_play_rounds import login, settled, submit
from tests.helpers import StartWorker, wait_for
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEX = "0101"
SITE = "0101 · System 0-0 · Group g0, Static base"  # Power 0's homeworld, as the select says
REASON = "we lost two, not one"


def battle_world(name: str) -> World:
    world = make_campaign(name, n_powers=2, systems_per_power=2)
    add_fleet(world)
    FleetGroup.objects.filter(key="p1-g0").update(col=1, row=1)  # met p0-g0 at 0101
    return world


def section(page: Page) -> Locator:
    return page.locator("#battles-section")


def row(form: Locator, power: str, craft: str) -> Locator:
    """A roster row by what the player reads in its header: the craft's name and its power's
    (the "Captured by" options name the other powers too)."""
    header = form.page.locator("th").filter(has_text=craft).filter(has_text=f"· {power} ·")
    return form.locator("tr.roster-row").filter(has=header)


def cells(card: Locator, n: int) -> Locator:
    """The cells of a record's ``n``-th craft line: craft, destroyed, systems destroyed and
    disabled, CF lost, captured by."""
    return card.locator("tbody tr").nth(n).locator("td")


def battles_page(page: Page, base: str, cid: int, power: str) -> None:
    page.goto(f"{base}/campaigns/{cid}/powers/{power}/battles/")
    settled(page)


def enter_by_picking(page: Page, base: str, cid: int) -> None:
    """Power 0 enters the battle at its homeworld: Power 1's g0-f0 lost its Class 1 beam."""
    page.goto(f"{base}/campaigns/{cid}/powers/p0/fleet/")
    page.get_by_role("link", name="Battle records").click()
    settled(page)
    enter = page.locator("#enter-battle")
    expect(enter.locator("tr.roster-row")).to_have_count(0)
    enter.get_by_label("Hex", exact=True).select_option(label=SITE)
    settled(page)
    own = enter.get_by_label("Power 0", exact=True)
    expect(own).to_be_checked()
    expect(own).to_be_disabled()
    enter.get_by_label("Power 1", exact=True).check()
    settled(page)
    # the roster: each craft of the two powers at 0101 by name (p0's f0, f1, y1; p1's f0, f1)
    expect(enter.locator("tr.roster-row")).to_have_count(5)
    expect(enter.locator("table.roster")).not_to_contain_text("p1-")  # by name, never by id
    expect(row(enter, "Power 1", "g0-f0")).to_contain_text("Frigate · Power 1 · Group g0")
    row(enter, "Power 1", "g0-f0").get_by_label("Class 1 beam destroyed").fill("1")
    expect(enter.get_by_label("Craft lines")).to_have_value("")  # no line typed
    enter.get_by_role("button", name="Enter the record").click()
    expect(section(page)).to_contain_text("Awaiting others 1")
    expect(page.locator("#battle-errors")).to_have_count(0)


def submit_orders(page: Page, base: str, cid: int, i: int) -> None:
    page.goto(f"{base}/campaigns/{cid}/powers/p{i}/orders/")
    submit(page, f"Power {i}")


def open_round(world: World) -> Round:
    return Round.objects.get(campaign=world.campaign, status="open")


def test_a_battle_is_entered_by_picking_declined_amended_confirmed_and_the_round_resolves_itself(
    browser: Browser, live_server: LiveServer, worker: StartWorker
) -> None:
    worker()
    world = battle_world("Battle flow in the browser")
    cid, base = world.campaign.pk, live_server.url
    p0 = login(browser, base, world.users[0].username)
    p1 = login(browser, base, world.users[1].username)

    enter_by_picking(p0, base, cid)
    record = BattleRecord.objects.get(campaign=world.campaign)
    lines = [(c.craft_key, c.systems_destroyed, c.cf_lost) for c in record.craft.all()]
    assert lines == [("p1-g0-f0", {"b1": 1}, 0)]  # only the row touched was sent

    # Power 1 reads it by name and declines it with a reason
    battles_page(p1, base, cid, "p1")
    expect(section(p1)).to_contain_text("To confirm 1")
    card = section(p1).locator(f'[data-record="{record.key}"]')
    expect(card).to_contain_text("entered by Power 0")
    expect(card.locator("tbody tr")).to_have_count(1)
    # the craft by name: the viewer's own with its design, another power's with its power
    frigate_line = ["g0-f0 (Frigate)", "", "Class 1 beam ×1", "", "0", ""]
    expect(cells(card, 0)).to_have_text(frigate_line)
    section(p1).get_by_label("Reason").fill(REASON)
    section(p1).get_by_role("button", name="Decline").click()
    expect(card).to_contain_text(f"Power 1: declined ({REASON})")

    # Power 0 is told: a notice with who declined, its turn to amend, and the reason on the record
    wait_for(
        lambda: Notice.objects.filter(user=world.users[0], kind=Kind.BATTLE_DECLINED).exists(),
        30,
        "the worker to deliver the decline notice",
    )
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/")
    notices = p0.get_by_role("region", name="Notices")
    expect(notices).to_contain_text(f"Power 1 declined your battle record at {HEX}")
    turn = p0.locator("#whose-turn")
    expect(turn.get_by_role("list", name="Waiting for you")).to_contain_text(
        f"Amend or withdraw your record of the battle at {HEX}: Power 1 declined it"
    )
    expect(turn.get_by_role("list", name="What the round waits for")).to_contain_text(
        f"Waiting for you to amend or withdraw the record of the battle at {HEX}: "
        "Power 1 declined it."
    )
    # the navigation bar counts it beside the orders not yet submitted
    expect(p0.locator(".turn-count")).to_have_attribute("title", "2 things wait for you")
    turn.get_by_role("link", name=f"Amend or withdraw your record of the battle at {HEX}").click()
    settled(p0)
    mine = section(p0).locator(f'[data-record="{record.key}"]')
    expect(mine).to_contain_text(f"Power 1: declined ({REASON})")
    expect(mine).to_contain_text("Power 0: confirmed")

    # ... and amends it by the same form: its own g0-f0 lost 1 CF as well. The link opened the
    # form; on the page alone it is fetched as it is opened (issue 30)
    expect(section(p0).locator("details.amend")).to_have_attribute("open", "")
    p0.goto(p0.url.split("?")[0])
    settled(p0)
    section(p0).get_by_text("Amend or withdraw it").click()
    amend = section(p0).locator("details.amend form")
    expect(amend.get_by_label("Hex", exact=True)).to_have_value(HEX)
    expect(amend.get_by_label("Power 1", exact=True)).to_be_checked()
    theirs = row(amend, "Power 1", "g0-f0")
    expect(theirs.get_by_label("Class 1 beam destroyed")).to_have_value("1")  # as entered
    row(amend, "Power 0", "g0-f0").get_by_label("CF lost").fill("1")
    amend.get_by_role("button", name="Amend").click()
    expect(mine).to_contain_text("Power 1: pending")  # asked again, the reason gone
    expect(mine).not_to_contain_text(REASON)
    expect(section(p0)).to_contain_text("Awaiting others 1")
    expect(p0.locator("#battle-errors")).to_have_count(0)
    amended = [
        (c.craft_key, c.systems_destroyed, c.cf_lost) for c in record.craft.order_by("position")
    ]
    assert amended == [("p0-g0-f0", {}, 1), ("p1-g0-f0", {"b1": 1}, 0)]

    # every sheet in, but the record awaits Power 1: the round does not resolve
    submit_orders(p0, base, cid, 0)
    submit_orders(p1, base, cid, 1)
    p0.goto(f"{base}/campaigns/{cid}/powers/p0/")
    waits = p0.get_by_role("list", name="What the round waits for")
    expect(waits).to_contain_text(f"Waiting for Power 1 to confirm the battle at {HEX}.")
    expect(waits).not_to_contain_text("to submit")
    time.sleep(2)  # time for a wrongly enqueued resolution to run on the idle worker
    rnd = open_round(world)
    assert rnd.number == 1 and not services.round_is_complete(rnd)

    # Power 1 confirms the amended record; nothing else is done: the round resolves by itself
    battles_page(p1, base, cid, "p1")
    card = section(p1).locator(f'[data-record="{record.key}"]')
    expect(card.locator("tbody tr")).to_have_count(2)
    expect(cells(card, 0)).to_have_text(["g0-f0 of Power 0", "", "", "", "1", ""])
    expect(cells(card, 1)).to_have_text(frigate_line)
    section(p1).get_by_role("button", name="Confirm").click()
    expect(section(p1)).to_contain_text("To confirm 0")
    wait_for(
        lambda: Campaign.objects.get(pk=cid).current_round == 2,
        60,
        "round 1 to resolve on the worker after the last confirmation",
    )
    assert Round.objects.get(campaign=world.campaign, number=1).status == "resolved"
    assert open_round(world).number == 2
    record.refresh_from_db()
    assert record.status == "applied"
    hit, shot = Craft.objects.get(key="p1-g0-f0"), Craft.objects.get(key="p0-g0-f0")
    assert (hit.destroyed, hit.crew) == ({"b1": 1}, 3)  # its beam, as entered
    assert (shot.destroyed, shot.crew) == ({}, 2)  # the CF lost, as amended
    untouched = Craft.objects.filter(key__in=["p0-g0-f1", "p1-g0-f1", "p0-y1"])
    assert [(c.destroyed, c.crew) for c in untouched.order_by("key")] == [
        ({}, 3),
        ({}, 4),
        ({}, 3),
    ]
    battles_page(p1, base, cid, "p1")
    expect(section(p1)).to_contain_text("Confirmed and applied 1")
    expect(section(p1).locator(f'[data-record="{record.key}"]')).to_have_attribute(
        "data-status", "applied"
    )


def test_a_record_unconfirmed_at_the_deadline_is_not_applied_and_the_round_resolves(
    browser: Browser, live_server: LiveServer, worker: StartWorker
) -> None:
    worker()
    world = battle_world("Battle deadline in the browser")
    cid, base = world.campaign.pk, live_server.url
    p0 = login(browser, base, world.users[0].username)
    p1 = login(browser, base, world.users[1].username)

    enter_by_picking(p0, base, cid)
    record = BattleRecord.objects.get(campaign=world.campaign)
    # Power 1 never answers; both submit, and the round says what it waits for
    submit_orders(p0, base, cid, 0)
    submit_orders(p1, base, cid, 1)
    for page, key, who in ((p0, "p0", "Power 1"), (p1, "p1", "you")):
        page.goto(f"{base}/campaigns/{cid}/powers/{key}/")
        expect(page.get_by_role("list", name="What the round waits for")).to_contain_text(
            f"Waiting for {who} to confirm the battle at {HEX}."
        )
    assert services.sweep() == []  # before the deadline the sweep leaves it open
    time.sleep(2)  # time for a wrongly enqueued resolution to run on the idle worker
    assert open_round(world).number == 1

    # the deadline passes; the beat's sweep, on the worker, resolves the round
    Round.objects.filter(pk=open_round(world).pk).update(
        deadline=timezone.now() - timedelta(minutes=1)
    )
    sweep_rounds_task.delay()
    wait_for(
        lambda: Campaign.objects.get(pk=cid).current_round == 2,
        60,
        "the sweep to resolve round 1 at its deadline",
    )
    assert Round.objects.get(campaign=world.campaign, number=1).status == "resolved"
    record.refresh_from_db()
    assert record.status == "expired"
    hit = Craft.objects.get(key="p1-g0-f0")
    assert (hit.destroyed, hit.crew) == ({}, 3)  # never applied
    battles_page(p1, base, cid, "p1")
    expect(section(p1)).to_contain_text("To confirm 0")
    expired = section(p1).locator(f'[data-record="{record.key}"]')
    expect(expired).to_have_attribute("data-status", "expired")
    expect(expired.locator(".pill")).to_have_text("Not confirmed before the round resolved")
