"""Issue 30's Tests in a real browser: a round played by mouse on the map and one by keyboard
only, with no key, id or hex typed anywhere; the player's pages at 390 and 1280 px,
screenshotted and checked for anything past the viewport's right edge; and the clicks for
"move a group", "build a craft" and "transfer a group", counted (docs/decisions.md, "Orders
on the map").

No key can be typed, by construction: the players are logged in by a session cookie, and
Playwright's typing calls (``fill``, ``type``, ``press_sequentially``, ``insert_text``) raise
for the whole of a round, and so do its key presses in the mouse round and its mouse calls and
``select_option`` in the keyboard round. The page watches the player's hands as well
(``WATCH``): it logs every trusted key, pointer press and text typed into a field, and each
round reads the log at its end.

The world: Power 0 has groups g0 and g1 (two frigates each) and its yard y1 at its homeworld
0101, a Frigate design and two frigates being built; Power 1 the same at 0401. Each round
resolves on a real Celery worker."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, Keyboard, Locator, Mouse, Page, expect
from pytest_django.live_server_helper import LiveServer

from economy import services
from economy.models import Round
from fleet import pacts
from powers.models import Build, FleetGroup, Transfer
from tests.chromium import quiet
from tests.e2e.test_order_map_browser import ARROW, GROUP, HEX_CENTRE
from tests.helpers import StartWorker, wait_for
from tests.web.factories import World, add_fleet, make_campaign
from trade.models import TradeHub

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FLOWS = ("move a group", "build a craft", "transfer a group")
# Mouse clicks and picks in a select (a key that acts counts too), from the page the flow
# starts on. BEFORE: measured the same way on 4e7c6ef, the last commit before issue 30 (its
# order and Fleet pages are d29ec14's; d29ec14 itself does not start): the declarations
# table's hex field clicked, its text selected (Ctrl+A), four digits typed, Tab; the order
# type picked, the new craft's id clicked and typed (two letters at least), the design and
# the builder picked, Add order; the pact's kind picked, the power's key and the group's key
# clicked and typed ("p1", "p0-g1"), Propose. AFTER: at most these (a step more goes red).
BEFORE = {"move a group": 7, "build a craft": 7, "transfer a group": 11}
MOST_CLICKS = {"move a group": 2, "build a craft": 4, "transfer a group": 4}

# Logged on every page of the player's tab (sessionStorage outlives a navigation): each trusted
# key, pointer press and text typed into a field (an InputEvent has an inputType; a pick in a
# select fires a plain Event, and the map's own write into the sheet is not trusted).
WATCH = """(() => {
  const KEY = "ft-hands";
  const name = (t) => !t || !t.tagName ? "" :
    t.id ? "#" + t.id : t.getAttribute("aria-label") || t.getAttribute("name") || t.tagName;
  const log = (kind, what) => {
    try {
      const all = JSON.parse(sessionStorage.getItem(KEY) || "[]");
      all.push([kind, what]);
      sessionStorage.setItem(KEY, JSON.stringify(all));
    } catch (e) { /* about:blank has no storage */ }
  };
  addEventListener("keydown", (e) => { if (e.isTrusted) log("key", e.key); }, true);
  addEventListener("pointerdown", (e) => {
    if (e.isTrusted) log("pointer", name(e.target));
  }, true);
  addEventListener("input", (e) => {
    if (e.isTrusted && e.inputType) log("typed", name(e.target) + "=" + e.target.value);
  }, true);
})();"""

HEX_OF_G0 = '#declarations input[aria-label="Hex of Group g0"]'

TYPING = [
    (Locator, "fill"),
    (Locator, "type"),
    (Locator, "press_sequentially"),
    (Page, "fill"),
    (Page, "type"),
    (Keyboard, "type"),
    (Keyboard, "insert_text"),
]
KEYS = [(Keyboard, "press"), (Keyboard, "down"), (Locator, "press"), (Page, "press")]
POINTING = [
    (Locator, "click"),
    (Locator, "dblclick"),
    (Locator, "tap"),
    (Locator, "check"),
    (Locator, "select_option"),
    (Page, "click"),
    (Page, "select_option"),
    (Mouse, "click"),
    (Mouse, "down"),
]


def forbid(monkeypatch: pytest.MonkeyPatch, calls: Sequence[tuple[type, str]]) -> None:
    """Playwright's ``calls`` raise for the rest of the test."""
    for cls, name in calls:

        def refuse(*args: object, _name: str = f"{cls.__name__}.{name}", **kw: object) -> None:
            raise AssertionError(f"{_name}: not how this round is played")

        monkeypatch.setattr(cls, name, refuse)


@dataclass
class Hands:
    """The player's actions, counted by the flow they are for (``doing``): a mouse click, a
    pick in a select and a key that acts (``acts``); a Tab that only moves the focus
    (``tabs``)."""

    page: Page
    acts: Counter[str] = field(default_factory=Counter)
    tabs: Counter[str] = field(default_factory=Counter)
    what: str = "getting there"

    @contextmanager
    def doing(self, what: str) -> Iterator[None]:
        self.what = what
        yield
        self.what = "getting there"

    def click(self, target: Locator) -> None:
        target.click()
        self.acts[self.what] += 1

    def click_hex(self, col: int, row: int) -> None:
        x, y = self.page.evaluate(HEX_CENTRE, [col, row])
        self.page.mouse.click(x, y)
        self.acts[self.what] += 1

    def pick(self, select: Locator, label: str) -> None:
        select.select_option(label=label)
        self.acts[self.what] += 1

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        if key in ("Tab", "Shift+Tab"):
            self.tabs[self.what] += 1
        else:
            self.acts[self.what] += 1

    def tab_to(self, selector: str, *, back: bool = False, most: int = 80) -> None:
        """Tab (or Shift+Tab) until the focus is on what ``selector`` finds."""
        for _ in range(most):
            if self.page.evaluate(
                "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
            ):
                return
            self.press("Shift+Tab" if back else "Tab")
        pytest.fail(f"the focus never reached {selector}")

    def word(self, text: str) -> None:
        """A word typed into the chooser's search box, a key press a letter: never an id."""
        assert re.fullmatch("[a-z]+", text), text
        expect(self.page.locator("#order-find")).to_be_focused()
        for letter in text:
            self.press(letter)


@pytest.fixture
def world() -> World:
    world = make_campaign("Play by map", n_powers=2, systems_per_power=3)
    add_fleet(world, groups=2)  # g0, g1, the yard y1 and two frigates being built, at 0101
    TradeHub.objects.update(pool_ore=300, pool_bio=50)  # Ore enough for a third frigate
    return world


@pytest.fixture
def players(browser: Browser, live_server: LiveServer) -> Iterator[Callable[..., Page]]:
    """A tab logged in as a user by its session cookie (nothing typed), watched (``WATCH``)."""
    pages: list[Page] = []

    def open_tab(user: User, width: int = 1280) -> Page:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
        context.add_init_script(WATCH)
        pages.append(context.new_page())
        return pages[-1]

    yield open_tab
    for page in pages:
        quiet(page)
        page.context.close()


def hands_log(page: Page) -> list[tuple[str, str]]:
    """What the page saw the player's hands do, in order: ("key" | "pointer" | "typed", what)."""
    raw = page.evaluate("sessionStorage.getItem('ft-hands') || '[]'")
    return [(kind, what) for kind, what in json.loads(raw)]


def settled(page: Page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def orders_loaded(page: Page) -> None:
    expect(page.locator(GROUP.format("p0-g0"))).to_have_count(1)
    expect(page.locator("#projection")).not_to_contain_text("Calculating")
    settled(page)


def figures(request: pytest.FixtureRequest, how: str, hands: Hands) -> dict[str, int]:
    """The counts of each flow, into the test report (``user_properties``, the JUnit XML's
    properties) and its captured output."""
    lines = [f"{how}: action | before | after"]
    for what in FLOWS:
        request.node.user_properties.append((f"{how}: {what}", hands.acts[what]))
        tabs = f" (+{hands.tabs[what]} Tab)" if hands.tabs[what] else ""
        lines.append(f"{what} | {BEFORE[what]} | {hands.acts[what]}{tabs}")
    print("\n".join(lines))
    return {what: hands.acts[what] for what in FLOWS}


def resolved(world: World) -> None:
    wait_for(
        lambda: Round.objects.filter(campaign=world.campaign, number=2).exists(),
        45,
        "round 1 to resolve on the worker",
    )


def test_a_round_played_by_mouse_on_the_map(
    players: Callable[..., Page],
    live_server: LiveServer,
    world: World,
    worker: StartWorker,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    worker()
    base, cid = live_server.url, world.campaign.pk
    page = players(world.users[0])
    forbid(monkeypatch, TYPING + KEYS)
    with pytest.raises(AssertionError, match="not how this round is played"):
        page.locator("body").fill("0202")  # the guard is on
    hands = Hands(page)
    page.goto(f"{base}/campaigns/{cid}/powers/p0/orders/")
    orders_loaded(page)

    # move a group: the group, then the hex; the sheet's row and the map's arrow follow
    with hands.doing("move a group"):
        hands.click(page.locator(GROUP.format("p0-g0")))
        expect(page.locator("#order-map svg .targets")).to_have_count(1)
        hands.click_hex(2, 2)
    expect(page.locator(HEX_OF_G0)).to_have_value("0202")
    expect(page.locator(ARROW.format("p0-g0"))).to_have_attribute("data-to", "0202")
    expect(page.locator("#order-map .map-status")).to_have_text("Group g0 declared at 0202.")
    settled(page)

    # build a craft: the system, "Build here with", the design; the short name left blank
    with hands.doing("build a craft"):
        hands.click(page.locator('#order-map svg g.sys[data-hex="0101"] circle'))
        hands.click(page.locator("#order-map-panel a", has_text="Build here with y1 (Yard)"))
        expect(page.get_by_label("Order type")).to_have_value("build")
        expect(page.get_by_label("Builders", exact=True)).to_have_values(["p0-y1"])
        expect(page.get_by_label("Short name")).to_have_value("")
        settled(page)
        hands.pick(page.get_by_label("Design", exact=True), "Frigate")
        settled(page)
        hands.click(page.get_by_role("button", name="Add order"))
    # the server chose the name; the move drafted before is still on the sheet
    expect(page.locator("#order-list")).to_contain_text("Builds frigate-1, a Frigate, at y1")
    expect(page.locator("#order-list")).to_contain_text("Declares Group g0 at 0202")
    expect(page.locator("#order-list li.invalid")).to_have_count(0)
    settled(page)

    # transfer a group: on the Fleet page, the offer's powers and groups by name
    hands.click(page.get_by_role("link", name=world.campaign.name))
    hands.click(page.get_by_role("link", name="Fleet", exact=True))
    form = page.locator("#propose-pact")
    with hands.doing("transfer a group"):
        hands.pick(form.locator('select[name="kind"]'), "transfer")
        hands.pick(form.get_by_label("To power"), "Power 1")
        hands.pick(form.get_by_label("Groups and statics"), "Group g1 at 0101")
        hands.click(form.get_by_role("button", name="Propose"))
    expect(page.locator(".messages")).to_contain_text("Transfer proposed to Power 1.")

    # Power 1 accepts it on its Fleet page, by a click, and submits (through the service)
    other = players(world.users[1])
    other.goto(f"{base}/campaigns/{cid}/powers/p1/fleet/")
    offer = other.locator("#fleet-pacts tr", has_text="Group g1")
    offer.get_by_role("button", name="Accept").click()
    expect(other.locator(".messages")).to_contain_text("Transfer accepted.")
    services.submit_sheet(power=world.powers[1], actor="p1")

    # Power 0 submits last, in the page; the worker resolves the round
    hands.click(page.get_by_role("link", name=world.campaign.name))
    hands.click(page.get_by_role("link", name="Orders for this round"))
    orders_loaded(page)
    hands.click(page.get_by_role("button", name="Submit orders"))
    expect(page.locator(".submitted")).to_contain_text("Power 0 ✓")
    resolved(world)

    g0 = FleetGroup.objects.get(key="p0-g0")
    assert (g0.col, g0.row) == (2, 2)
    assert Build.objects.get(key="p0-frigate-1").design.name == "Frigate"
    assert FleetGroup.objects.get(key="p0-g1").power == world.powers[1]
    page.goto(f"{base}/campaigns/{cid}/powers/p0/orders/")  # round 2: g0 is at 0202 on the map
    expect(page.locator(GROUP.format("p0-g0"))).to_have_attribute("data-hex", "0202")
    expect(page.locator(GROUP.format("p0-g1"))).to_have_count(0)  # given away
    page.goto(f"{base}/campaigns/{cid}/powers/p0/fleet/")
    expect(page.locator("#fleet-builders")).to_contain_text("Build frigate-1")
    expect(page.locator("#fleet-pacts tr", has_text="Group g1")).to_contain_text("done")

    log = hands_log(page)
    assert any(kind == "pointer" for kind, _ in log)  # the watch saw the clicks ...
    assert [(k, w) for k, w in log if k != "pointer"] == []  # ... and no key, nothing typed
    after = figures(request, "mouse", hands)
    for what, most in MOST_CLICKS.items():
        assert 0 < after[what] <= most < BEFORE[what], (what, after[what])


def test_a_round_played_by_keyboard_only(
    players: Callable[..., Page],
    live_server: LiveServer,
    world: World,
    worker: StartWorker,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    worker()
    base, cid = live_server.url, world.campaign.pk
    page = players(world.users[0])
    forbid(monkeypatch, TYPING + POINTING)
    hands = Hands(page)
    page.goto(f"{base}/campaigns/{cid}/powers/p0/")

    # transfer a group: the Fleet page by its link; the offer's selects by the arrows
    hands.tab_to('a[href$="/powers/p0/fleet/"]')
    hands.press("Enter")
    expect(page.get_by_role("heading", name="Power 0: fleet")).to_be_visible()
    form = page.locator("#propose-pact")
    hands.tab_to('#propose-pact select[name="kind"]')
    with hands.doing("transfer a group"):
        hands.press("ArrowDown")
        expect(form.locator('select[name="kind"]')).to_have_value("transfer")
        hands.press("Tab")
        hands.press("ArrowDown")
        expect(form.get_by_label("To power")).to_have_value("p1")
        hands.press("Tab")
        hands.press("ArrowDown")  # Group g0 at 0101
        hands.press("ArrowDown")  # Group g1 at 0101, alone
        expect(form.get_by_label("Groups and statics")).to_have_values(["p0-g1"])
        hands.tab_to('#propose-pact button[type="submit"]')
        hands.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Transfer proposed to Power 1.")

    # move a group: the orders page by its link (back up from the message), Tab to the group
    # on the map, Enter, the arrows to the hex, Enter
    hands.tab_to('a[href$="/powers/p0/orders/"]', back=True)
    hands.press("Enter")
    orders_loaded(page)
    hands.tab_to(GROUP.format("p0-g0"))
    with hands.doing("move a group"):
        hands.press("Enter")
        cursor = page.locator("#order-map svg .targets .cursor")
        expect(cursor).to_be_focused()
        hands.press("ArrowRight")
        hands.press("ArrowDown")
        expect(cursor).to_have_attribute("aria-label", re.compile("at 0202, 2 hexes from 0101"))
        hands.press("Enter")
    expect(page.locator(HEX_OF_G0)).to_have_value("0202")
    expect(page.locator(ARROW.format("p0-g0"))).to_have_attribute("data-to", "0202")
    expect(page.locator(GROUP.format("p0-g0"))).to_be_focused()  # back on the group
    settled(page)

    # build a craft: a word in the chooser's search box and Enter; the short name left blank,
    # the design and the builder by the arrows; Add order
    hands.tab_to("#order-find")
    with hands.doing("build a craft"):
        hands.word("build")
        hands.press("Enter")
        expect(page.get_by_label("Order type")).to_have_value("build")
        expect(page.get_by_label("Short name")).to_be_focused()
        settled(page)
        hands.press("Tab")
        design = page.get_by_label("Design", exact=True)
        expect(design).to_be_focused()
        for _ in range(3):  # "—", then the designs by name
            if design.input_value() == "p0-frigate":
                break
            hands.press("ArrowDown")
        expect(design).to_have_value("p0-frigate")
        hands.press("Tab")
        hands.press("ArrowDown")
        expect(page.get_by_label("Builders", exact=True)).to_have_values(["p0-y1"])
        settled(page)
        hands.tab_to('#order-form button[type="submit"]')
        hands.press("Enter")
    expect(page.locator("#order-list")).to_contain_text("Builds frigate-1, a Frigate, at y1")
    expect(page.locator("#order-list li.invalid")).to_have_count(0)
    settled(page)

    # Power 1 accepts and submits (through the services); Power 0 submits last, in the page
    transfer = Transfer.objects.get(owner=world.powers[0])
    pacts.answer(power=world.powers[1], key=transfer.key, accept=True, actor="p1")
    services.submit_sheet(power=world.powers[1], actor="p1")
    hands.tab_to('#submit-bar button[value="submit"]')
    hands.press("Enter")
    expect(page.locator(".submitted")).to_contain_text("Power 0 ✓")
    resolved(world)

    g0 = FleetGroup.objects.get(key="p0-g0")
    assert (g0.col, g0.row) == (2, 2)
    assert Build.objects.get(key="p0-frigate-1").design.name == "Frigate"
    assert FleetGroup.objects.get(key="p0-g1").power == world.powers[1]

    log = hands_log(page)
    assert [w for k, w in log if k == "pointer"] == []
    # the only text typed: the word, a letter at a time, into the search box
    assert [w for k, w in log if k == "typed"] == [
        f"#order-find={'build'[:n]}" for n in (1, 2, 3, 4, 5)
    ]
    figures(request, "keyboard", hands)


# Anything drawn past the viewport's right edge: an element whose box passes it, unless an
# ancestor that clips or scrolls (overflow other than visible) ends inside the viewport (a
# table in its .scroll, the map in its viewport); that ancestor is checked in its own right.
PAST_THE_EDGE = """() => {
  const edge = window.innerWidth + 0.5;
  const held = (el) => {
    for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible" && p.getBoundingClientRect().right <= edge) {
        return true;
      }
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= edge || held(el)) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      (el.classList.length ? "." + [...el.classList].join(".") : "");
    out.push(`${name} to ${Math.round(r.right)} px: ${(el.textContent || "").trim().slice(0, 40)}`);
  }
  return out;
}"""
WIDTHS = (390, 1280)
LONG_NAME = "Neue Swabian League of the Outer Marches"  # a power's name, as players give them


def fits(page: Page, shots: Path, name: str) -> list[str]:
    """The page screenshotted whole into ``shots`` (pytest's tmp_path, never committed); what
    passes its right edge, if anything."""
    settled(page)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=shots / f"{width}-{name}.png", full_page=True)
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    past = [f"{name}: the page scrolls sideways, {scroll} px wide"] if scroll > inner else []
    return past + [f"{name}: {what}" for what in page.evaluate(PAST_THE_EDGE)]


@pytest.fixture
def played(world: World, eager: None) -> World:
    """Round 1 by the services, resolved in this process (``eager``): Power 0's g0 moved, a
    frigate begun, g1 given to Power 1 (named long); then round 2's sheet drafted and offers
    both ways awaiting an answer, so the pages have arrows, orders, works and pacts to lay out."""
    p0, p1 = world.powers
    p1.name = LONG_NAME
    p1.save(update_fields=["name"])

    def draft(hex_code: str) -> None:
        move = {"type": "declare_group", "group": "p0-g0", "hex": hex_code}
        move |= {"order": "none", "status": "none"}
        services.set_declaration(power=p0, payload=move, actor="p0")
        build = {"type": "build", "design": "p0-frigate", "builders": ["p0-y1"]}
        services.add_order(power=p0, payload=build, actor="p0")

    draft("0202")
    gift = pacts.propose_transfer(power=p0, receiver="p1", carriers=["p0-g1"], actor="p0")
    pacts.answer(power=p1, key=gift.key, accept=True, actor="p1")
    services.submit_sheet(power=p1, actor="p1")
    services.submit_sheet(power=p0, actor="p0")
    assert Round.objects.get(campaign=world.campaign, number=1).status == "resolved"
    draft("0403")
    pacts.propose_loan(power=p0, borrower="p1", groups=["p0-g0"], last=3, actor="p0")
    pacts.propose_transfer(power=p1, receiver="p0", carriers=["p1-g0"], actor="p1")
    return world


@pytest.mark.parametrize("width", WIDTHS)
def test_the_players_pages_fit_a_phone_and_a_laptop(
    players: Callable[..., Page],
    live_server: LiveServer,
    played: World,
    tmp_path: Path,
    width: int,
) -> None:
    """Beyond test_player_layout_browser's crawl (the page's scroll width, every page): every
    element, screenshots, and the orders map as it is used (a group picked, a system's panel,
    the form it prefills, the chooser's list apart open), the private map's hex panel, the
    statement, and a long power name throughout (the Fleet page: the test below)."""
    base, cid = live_server.url, played.campaign.pk
    page = players(played.users[0], width)
    home = f"{base}/campaigns/{cid}/powers/p0/"
    past: list[str] = []

    page.goto(home)
    past += fits(page, tmp_path, "dashboard")
    page.goto(home + "orders/")
    orders_loaded(page)
    expect(page.locator(ARROW.format("p0-g0"))).to_have_attribute("data-to", "0403")
    past += fits(page, tmp_path, "orders")
    page.locator(GROUP.format("p0-g0")).click()  # a group picked: the hexes, "Cancel move"
    expect(page.locator("#order-map [data-cancel]")).to_be_visible()
    past += fits(page, tmp_path, "orders-group-picked")
    page.locator("#order-map [data-cancel]").click()
    page.locator('#order-map svg g.sys[data-hex="0101"] circle').click()  # what to order there
    expect(page.locator("#order-map-panel a").first).to_be_visible()
    past += fits(page, tmp_path, "orders-system-panel")
    page.locator("#order-map-panel a", has_text="Build here with").click()
    expect(page.get_by_label("Order type")).to_have_value("build")
    page.locator("#order-unavailable summary").click()  # the chooser's list apart, open
    expect(page.locator("#order-unavailable li").first).to_be_visible()
    past += fits(page, tmp_path, "orders-build-form")
    page.goto(home + "map/")
    page.locator('svg.ftmap g.sys[data-hex="0102"] circle').click()
    expect(page.locator("#hex-panel h2")).to_have_text("0102")
    past += fits(page, tmp_path, "map-hex-panel")
    page.goto(home + "rounds/1/")
    expect(page.get_by_role("heading", name=re.compile("Round 1: statement"))).to_be_visible()
    past += fits(page, tmp_path, "statement")
    page.goto(f"{base}/campaigns/{cid}/rounds/")
    past += fits(page, tmp_path, "rounds")
    other = players(played.users[1], width)  # the long-named power, its offer to answer
    other.goto(f"{base}/campaigns/{cid}/powers/p1/")
    expect(other.locator("#whose-turn")).to_contain_text("Power 0")
    past += fits(other, tmp_path, "dashboard-other")

    shots = sorted(p.name.removeprefix(f"{width}-") for p in tmp_path.glob("*.png"))
    assert len(shots) == 9, shots
    assert past == [], "\n".join(past)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_fleet_page_with_offers_fits_a_phone_and_a_laptop(
    players: Callable[..., Page],
    live_server: LiveServer,
    played: World,
    tmp_path: Path,
    width: int,
) -> None:
    """Each power's Fleet page with offers to answer, withdraw and done, a long power name in
    its pacts table (which once pushed the page sideways: it scrolls in its own box now)."""
    base, cid = live_server.url, played.campaign.pk
    past: list[str] = []
    for user, key in zip(played.users, ("p0", "p1"), strict=True):
        page = players(user, width)
        page.goto(f"{base}/campaigns/{cid}/powers/{key}/fleet/")
        pact_table = page.locator("#fleet-pacts")
        expect(pact_table).to_contain_text(LONG_NAME)
        expect(pact_table.get_by_role("button", name="Accept")).to_have_count(1)
        past += fits(page, tmp_path, f"fleet-{key}")
    assert past == [], "\n".join(past)
