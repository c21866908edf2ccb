"""Issue 17 in a real browser: after two rounds of the demo played through the pages by its four
players, every player page reachable from "my campaigns" fits a laptop (1280 px) and a phone
(390 px) without a page-wide horizontal scroll.

The two rounds are played once for the module (tests/demo_rounds.ORDERS, entered on each
power's order sheet through its forms) and shared by the checks at both widths. The module runs
its own live server over committed rows, so its tests are plain ``django_db`` ones: the
transactional flush that ``live_server`` brings after each test would wipe the rounds played;
the module flushes the database itself when it is done."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from pytest_django import DjangoDbBlocker
from pytest_django.live_server_helper import LiveServer

from campaigns.demo import DEMO_NAME, demo_password
from economy.engine.orders import SPECS
from powers.models import Campaign, Power
from tests.demo_rounds import BATTLE, ORDERS, form_fields, resolve
from tests.e2e.test_play_rounds import choose_order_type, settled
from trade import services as trade_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

WIDTHS = (1280, 390)
HEX_PAGES = 2  # a map links every hex; two of their pages stand for the rest


@dataclass
class Played:
    url: str
    campaign: int
    players: dict[str, BrowserContext]  # power key -> its player's logged-in browser


def log_in(browser: Browser, base: str, username: str) -> BrowserContext:
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900})
    page = context.new_page()
    # submitting asks first when the projection would reject an order: the demo's players go on
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(demo_password(username))
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()
    return context


def open_sheet(page: Page) -> int:
    """From "my campaigns", by links, to the power's order sheet; the round it shows."""
    page.get_by_role("link", name="My campaigns").first.click()
    page.get_by_role("link", name=DEMO_NAME).click()
    page.get_by_role("link", name="Orders for this round").click()
    expect(page.locator("#projection")).not_to_contain_text("Calculating")
    return int(page.locator('#order-form input[name="round"]').input_value())


def enter(page: Page, payload: dict[str, object]) -> None:
    """One order entered as its player would: a group's row of the declarations table, or an
    order type chosen and its fields filled in the "Add an order" form."""
    form, fields = form_fields(dict(payload))
    if form == "declare":
        row = page.locator(f'#declarations form[action$="/declare/{payload["group"]}/"]')
        for name, value in fields.items():
            settled(page)
            control = row.locator(f'[name="{name}"]')
            if control.evaluate("e => e.tagName") == "SELECT":
                control.select_option(value)
            else:
                control.fill(str(value))
                control.press("Tab")
        settled(page)
        for name, value in fields.items():
            expect(row.locator(f'[name="{name}"]')).to_have_value(str(value))
        return
    kind, *rest = fields.items()
    choose_order_type(page, str(kind[1]))
    expect(page.locator("#order-help")).to_contain_text(SPECS[str(kind[1])].cite)
    for name, value in rest:
        control = page.locator(f'#order-fields [name="{name}"]:not([type="hidden"])')
        expect(control).to_have_count(1)
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(str(value))
    before = page.locator("#order-list li").count()
    page.get_by_role("button", name="Add order").click()
    expect(page.locator("#order-list li")).to_have_count(before + 1)
    expect(page.locator("#order-list li.invalid")).to_have_count(0)  # taken without errors
    settled(page)


def play_demo(browser: Browser, base: str, players: dict[str, BrowserContext]) -> int:
    """Seed the demo; its four players log in (into ``players``), play two rounds through their
    order sheets and draft the third's orders; nac enters a battle on its battle records page.
    The demo campaign's id."""
    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name=DEMO_NAME)
    names = dict(Power.objects.filter(campaign=campaign).values_list("key", "name"))
    for key in sorted(names):
        players[key] = log_in(browser, base, key)
    for index in range(3):  # two rounds submitted, then the third's orders drafted
        number = 0
        for key, context in players.items():
            page = context.pages[0]
            number = open_sheet(page)
            for payload in ORDERS[key][index]:
                enter(page, payload)
            if index < 2:
                page.get_by_role("button", name="Submit orders").click()
                expect(page.locator(".submitted")).to_contain_text(f"{names[key]} ✓")
        if index < 2:
            resolve(campaign.pk, number)
    # a battle entered on nac's battle records page: a record to confirm on esu's
    page = players["nac"].pages[0]
    page.get_by_role("link", name="My campaigns").first.click()
    page.get_by_role("link", name=DEMO_NAME).click()
    page.get_by_role("link", name="Fleet", exact=True).click()
    page.get_by_role("link", name="Battle records").click()
    form = page.locator("#enter-battle")
    for key in BATTLE["powers"]:  # ticked by the power's name
        form.get_by_label(names[key], exact=True).check()
    # the hex among nac's own, then BATTLE's craft lines as rows of the roster, by name
    site = form.get_by_label("Hex", exact=True).locator("option", has_text=str(BATTLE["hex"]))
    form.get_by_label("Hex", exact=True).select_option(label=site.text_content())
    frigates = form.locator("tr.roster-row").filter(
        has=page.locator("th", has_text=re.compile("^2-1"))
    )

    def frigate(key: str) -> Locator:  # the power's, by the name under the craft's
        return frigates.filter(has=page.locator("th", has_text=names[key]))

    frigate("nac").get_by_label("CF lost", exact=True).fill("1")
    frigate("esu").get_by_label("Destroyed", exact=True).check()
    page.get_by_role("button", name="Enter the record").click()
    expect(page.locator(".card.battle")).to_have_count(1)
    # an agreement awaiting an answer and a motion before the committee: their forms show
    esu = Power.objects.get(campaign=campaign, key="esu")
    terms = trade_services.Terms("0505", 5, "ore", 10, "bio", 5)
    trade_services.propose_agreement(power=esu, partner_key="nac", terms=terms, actor="esu")
    draft = trade_services.draft_motion(
        power=esu, fields={"kind": "tax", "edge": "all", "tax": "0.1"}, actor="esu"
    )
    trade_services.submit_motion(power=esu, key=draft.key, actor="esu")
    return campaign.pk


@pytest.fixture(scope="module")
def played(
    browser: Browser, django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[Played]:
    players: dict[str, BrowserContext] = {}
    with django_db_blocker.unblock():
        server = LiveServer("localhost")
    server._live_server_modified_settings.enable()
    try:
        with django_db_blocker.unblock():
            campaign = play_demo(browser, server.url, players)
        yield Played(server.url, campaign, players)
    finally:  # a play that failed half-way leaves nothing behind either
        for context in players.values():
            context.close()
        server.stop()
        server._live_server_modified_settings.disable()
        with django_db_blocker.unblock():
            call_command("flush", interactive=False, verbosity=0)


def links(page: Page) -> list[str]:
    """The player pages this page links to (the top bar's and the power's tabs among them):
    same-site pages, not the admin, the login pages, the API, feeds or downloads."""
    hrefs: list[str] = page.eval_on_selector_all(
        "a[href]", "els => els.map(e => e.getAttribute('href'))"
    )
    out = []
    for href in hrefs:
        href = href.split("#")[0]
        if not href.startswith("/") or re.match(r"/(admin|accounts|api|static)/|.*/feed/", href):
            continue
        if not re.search(r"\.(csv|json|svg|xml)$", href):
            out.append(href)
    return out


def test_every_player_page_fits_a_laptop_and_a_phone(played: Played) -> None:
    """Every page is loaded once and measured at both widths: at the width it was loaded at,
    then resized to the other (its layout is CSS: the media queries apply on a resize as on a
    load), so the next page loads at the other width."""
    too_wide: list[str] = []
    widths = list(WIDTHS)
    for key, context in played.players.items():
        page = context.pages[0]
        pending, seen, hexes = ["/campaigns/"], set(), 0
        while pending:
            url = pending.pop(0)
            if url in seen or ("/hex/" in url and hexes >= HEX_PAGES):
                continue
            seen.add(url)
            hexes += "/hex/" in url
            response = page.goto(played.url + url)
            assert response is not None and response.status == 200, (key, url)
            if page.locator("#projection").count():  # htmx loads it after the page
                expect(page.locator("#projection")).not_to_contain_text("Calculating")
            settled(page)
            pending += links(page)
            for width in widths:
                page.set_viewport_size({"width": width, "height": 900})
                scroll, inner = page.evaluate(
                    "[document.documentElement.scrollWidth, window.innerWidth]"
                )
                if scroll > inner:
                    too_wide.append(f"{key} {url} at {width} px: {scroll} px")
            widths.reverse()
        prefix = f"/campaigns/{played.campaign}/powers/{key}/"
        for tab in ("orders/", "fleet/", "battles/", "agreements/", "rounds/2/", "map/"):
            assert prefix + tab in seen, (key, tab)
        assert "/rules/" in seen and any("/hex/" in u for u in seen)
        if key == "esu":
            assert prefix + "un/" in seen
    assert too_wide == []


def test_the_demo_rounds_were_played_through_the_pages(played: Played) -> None:
    """What the players entered took effect: round 1's statement tells of nac's sale, and
    round 3's sheet holds the drafts, as sentences."""
    page = played.players["nac"].pages[0]
    page.set_viewport_size({"width": WIDTHS[0], "height": 900})
    assert open_sheet(page) == 3
    expect(page.locator("#order-list")).to_contain_text("Sells 10 Ore from hub Core for Bio")
    page.get_by_role("link", name="My campaigns").first.click()
    page.get_by_role("link", name=DEMO_NAME).click()
    page.get_by_role("link", name="Rounds and statements").click()
    page.locator('a[href$="/powers/nac/rounds/1/"]', has_text="my statement").click()
    expect(page.get_by_role("heading", name=re.compile("Round 1: statement"))).to_be_visible()
    expect(page.locator("ul.events")).to_contain_text(
        "New Anglian Confederation sells 20 Ore for 20 Bio"
    )


# issue 30, item 6: the map's labels read at 11 px or more as it opens, its toolbar's buttons
# never break inside, and the projected statement beside the sheet is never cut off
LABELS = """() => {
  const k = document.querySelector("svg.ftmap").getScreenCTM().a;
  return [...document.querySelectorAll("svg.ftmap text.name, svg.ftmap text.code")]
    .map(t => parseFloat(getComputedStyle(t).fontSize) * k);
}"""
BUTTONS = """() => [...document.querySelectorAll(".map-tools button")]
  .map(b => [b.textContent.trim(), Math.round(b.getBoundingClientRect().height)])"""
CUT = """() => [...document.querySelectorAll("aside .scroll")]
  .filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.textContent.trim().slice(0, 40))"""


@pytest.mark.parametrize("width", (1280, 1024, 390))
def test_map_labels_are_readable_and_its_buttons_whole(played: Played, width: int) -> None:
    page = played.players["nac"].pages[0]
    page.set_viewport_size({"width": width, "height": 900})
    for path in ("powers/nac/map/", "map/"):  # the private map, then the public one
        page.goto(f"{played.url}/campaigns/{played.campaign}/{path}")
        settled(page)
        sizes = page.evaluate(LABELS)
        assert sizes and min(sizes) >= 11, (path, width, min(sizes))
        heights = page.evaluate(BUTTONS)
        assert len({h for _, h in heights}) == 1, (path, width, heights)  # one line each


@pytest.mark.parametrize("width", (1280, 1024, 390))
def test_the_projected_statement_is_not_cut_off(played: Played, width: int) -> None:
    page = played.players["nac"].pages[0]
    page.set_viewport_size({"width": width, "height": 900})
    assert open_sheet(page) == 3
    expect(page.locator("aside table.statement")).to_be_visible()
    assert page.evaluate(CUT) == [], width
