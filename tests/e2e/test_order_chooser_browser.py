"""The order chooser in a real browser (issue 30): the search box filters the order types by
their words, the select and the list of those not available now alike; a player chooses by
keyboard alone and the chosen type's fields load; without JavaScript the whole select stays
and "Show fields" loads them; the chooser fits a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy import selectors
from economy.chooser import Choice, grouped, phase_of
from economy.engine.orders import SPECS
from powers.models import Power
from tests.e2e.test_play_rounds import login, settled
from tests.web.factories import PASSWORD, World, make_campaign

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_sheet(page: Page, base: str, world: World) -> None:
    page.goto(f"{base}/campaigns/{world.campaign.pk}/powers/p0/orders/")
    expect(page.locator("#projection")).not_to_contain_text("Calculating")  # htmx is at work
    settled(page)


def shown_types(page: Page) -> list[str]:
    """The order types the select shows now (what the filter left in view), by key."""
    return list(
        page.locator("#id_type").evaluate(
            "s => Array.from(s.querySelectorAll('optgroup option'))"
            ".filter(o => !o.hidden && !o.parentElement.hidden).map(o => o.value)"
        )
    )


def mentions(kind: str, word: str) -> bool:
    """Whether a word of the type's group title, label or paragraph begins with ``word``."""
    spec = SPECS[kind]
    said = re.split(r"[^a-z0-9]+", Choice(spec, group=phase_of(spec.step)).words.lower())
    return any(w.startswith(word) for w in said)


def test_search_filters_and_the_keyboard_chooses(browser: Browser, live_server: LiveServer) -> None:
    world = make_campaign("Chooser in the browser", n_powers=2)
    why = selectors.unavailable(Power.objects.get(campaign=world.campaign, key="p0"))
    assert "ship" in why  # one hub, none in the guild: listed apart
    page = login(browser, live_server.url, world.users[0].username)
    open_sheet(page, live_server.url, world)
    everything = shown_types(page)
    assert sorted(everything) == sorted(set(SPECS) - set(why))

    find = page.get_by_label("Find by words")
    expect(find).to_be_visible()
    find.fill("hub")
    shown = shown_types(page)
    assert shown == [k for k in everything if mentions(k, "hub")]
    assert "hub_setup" in shown and "declare_group" not in shown
    said = page.locator("#order-find-said")
    expect(said).to_contain_text(f"{len(shown)} order types match")
    # Enter would take a type named by the words before one whose paragraph mentions them
    named = [k for k in shown if re.search(r"\bhub", SPECS[k].label.lower())]
    assert named[0] != shown[0]
    expect(said).to_contain_text(f"Enter chooses “{SPECS[named[0]].label}”")
    # the list apart is filtered too: "Ship between own guild hubs" stays, with its reason
    expect(page.locator("#order-find-said")).to_contain_text("more not available now")
    page.locator("#order-unavailable summary").click()
    ship = page.locator("#order-unavailable li", has_text="Ship between own guild hubs")
    expect(ship).to_be_visible()
    expect(ship).to_contain_text(why["ship"])
    apart = page.locator("#order-unavailable li")
    listed = apart.evaluate_all("items => items.map(i => i.hidden)")
    assert listed == [
        not mentions(s.type, "hub") for _, specs in grouped() for s in specs if s.type in why
    ]
    # a word typed begins a word there: "ep" finds EP, not "step" or "keep"
    find.fill("ep")
    assert shown_types(page) == [k for k in everything if mentions(k, "ep")]
    assert any("ep" in SPECS[k].about.lower() and not mentions(k, "ep") for k in everything)
    # two words narrow it: each must be there
    find.fill("transfer gal")
    assert shown_types(page) == ["gal_transfer"]
    expect(page.locator("#order-find-said")).to_contain_text("1 order type matches")
    find.fill("zzzz")
    assert shown_types(page) == []
    expect(page.locator("#order-find-said")).to_contain_text("No order type matches")
    # Escape clears the search: everything is back
    find.press("Escape")
    expect(find).to_have_value("")
    assert shown_types(page) == everything

    # by keyboard alone: type, Enter chooses the first match, its fields load with the cursor
    # in the first; Enter in the box never sends the form; the order is typed and added
    select = page.locator("#id_type")
    before = page.locator("#order-list li").count()
    find.fill("transfer gal")
    find.press("Enter")
    expect(select).to_have_value("gal_transfer")
    expect(page.locator("#order-help")).to_contain_text(SPECS["gal_transfer"].cite)
    expect(page.get_by_label("To power")).to_be_focused()
    expect(page.locator("#order-list li")).to_have_count(before)
    page.keyboard.type("Power 1")  # a select's own type-ahead
    page.keyboard.press("Tab")
    expect(page.get_by_label("Gal", exact=True)).to_be_focused()
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(page.locator("#order-list li")).to_have_count(before + 1)
    expect(page.locator("#order-list")).to_contain_text("Transfers 3 Gal to Power 1")
    settled(page)

    # the down arrow moves from the box to the select, where the arrows move the choice among
    # what the filter left, and the new type's fields load
    find = page.get_by_label("Find by words")  # the sheet was swapped: the box is there again
    expect(find).to_be_visible()
    assert shown_types(page) == everything
    find.fill("guild")
    shown = shown_types(page)
    # the type still chosen (the sheet keeps it for another order) stays in view, first here
    assert shown == ["gal_transfer", *(k for k in everything if mentions(k, "guild"))]
    find.press("ArrowDown")
    expect(select).to_be_focused()
    page.keyboard.press("ArrowDown")  # to the next one in view, skipping those filtered out
    expect(select).to_have_value(shown[1])
    expect(page.locator("#order-help")).to_contain_text(SPECS[shown[1]].cite)


def test_without_javascript_the_whole_select_stays(
    browser: Browser, live_server: LiveServer
) -> None:
    world = make_campaign("Chooser without scripts", n_powers=2)
    why = selectors.unavailable(Power.objects.get(campaign=world.campaign, key="p0"))
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(world.users[0].username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/campaigns/{world.campaign.pk}/powers/p0/orders/")
    expect(page.locator("#order-find-box")).to_be_hidden()
    assert sorted(shown_types(page)) == sorted(set(SPECS) - set(why))
    page.get_by_label("Order type").select_option(label=SPECS["gal_transfer"].label)
    page.get_by_role("button", name="Show fields").click()
    expect(page.locator("#order-help")).to_contain_text(SPECS["gal_transfer"].cite)
    expect(page.get_by_label("Order type")).to_have_value("gal_transfer")
    context.close()


def test_the_chooser_fits_a_phone(browser: Browser, live_server: LiveServer) -> None:
    world = make_campaign("Chooser on a phone", n_powers=2)
    page = login(browser, live_server.url, world.users[0].username)
    page.set_viewport_size({"width": 390, "height": 800})
    open_sheet(page, live_server.url, world)
    page.get_by_label("Find by words").fill("hub")
    page.locator("#order-unavailable summary").click()
    ship = page.locator("#order-unavailable li", has_text="Ship between own guild hubs")
    expect(ship).to_be_visible()
    for box in ("#order-find", "#id_type", "#order-unavailable"):
        right = page.locator(box).evaluate("e => e.getBoundingClientRect().right")
        assert right <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
