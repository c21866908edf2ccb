"""`make run` on its own (SQLite, in-process tasks) serves the demo and its logins work, as a
newcomer first meets it (the first two tests, on the fresh demo). Then, for issue 27, that demo
is played for two rounds in a real browser by its four players, with at least one order of
every family entered through the pages: the order sheet (economy, hubs, building, the fleet's
work, command), the declarations table, the Fleet page (a design, loans and transfers), the
battle records, the agreements and the UN committee. No answer is a 5xx, every order is taken,
both rounds resolve, and the SQLite file shows what each family did.

Round 1 makes what round 2 needs: the battle damages a frigate (repaired in round 2), nac
registers and builds a survey tender (formed into a group, crewed, supplied and given
researchers in round 2), fse registers a frigate variant (refitted into in round 2), nsl builds
a freighter (restocked in round 2), esu appoints a diplomat (sent on a mission in round 2), the
UN taxes Ore sales (nac's round 2 sale pays it), nac sets up a hub (it joins the guild in round
2, so round 3 can ship between its two guild hubs: entered as round 3's draft)."""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, Response, expect

from campaigns.demo import POWERS, demo_password
from tests.demo_rounds import WESTMARK
from tests.e2e.test_fleet_browser import fill_in
from tests.e2e.test_play_rounds import settled
from tests.e2e.test_player_layout_browser import enter, log_in, open_sheet
from tests.e2e.test_un_browser import propose_agreement, put_motion
from tests.helpers import ROOT
from tests.sqlite.server import Demo

pytestmark = pytest.mark.browser

NAMES = {key: name for key, name, *_ in POWERS}
SERVED_5XX = re.compile(r'" 5\d\d ')  # runserver's log line of an answer: "GET /x HTTP/1.1" 500 …

Payload = dict[str, Any]

# power -> its orders on the sheet, as a player means them (tests/demo_rounds.form_fields)
ROUND_1: dict[str, list[Payload]] = {
    "nac": [
        {"type": "market_sell", "resource": "ore", "amount": 20, "from": "nac-core"},
        {"type": "gal_transfer", "to": "esu", "amount": 5},
        {"type": "research_project", "gal": 4},
        # the survey tender registered on the Fleet page, built at once (33 Ore: rating 40)
        {"type": "build", "id": "lab1", "design": "nac-lab", "builders": ["nac-y1"]},
        {"type": "declare_group", "group": "nac-2", "hex": "0305", "order": "maintain_orbit"},
        {"type": "assign_officer", "officer": "nac-adm", "group": "nac-1"},
        WESTMARK,
    ],
    "esu": [
        {"type": "market_sell", "resource": "gal", "amount": 10, "to": "esu-core"},
        {"type": "conscript", "system": "lena", "loyalty": 1},
        {"type": "unbuild", "id": "scrap", "craft": "esu-1-1", "builder": "esu-y1"},
        # to Dunmore, a system of nac's, where its diplomat can be sent on a mission
        {"type": "declare_group", "group": "esu-2", "hex": "0406", "order": "none"},
        {"type": "appoint_diplomat", "id": "envoy", "craft": "esu-2-3", "name": "Envoy Orlov"},
    ],
    "nsl": [
        {"type": "build", "id": "hauler", "design": "nsl-freighter", "builders": ["nsl-y1"]},
    ],
    "fse": [
        {
            "type": "register_design",
            "id": "frigate-b",
            "name": "Frigate B",
            "class": "military",
            "mobility": "mobile",
            "mass": 30,
            "npv": 63,
            "crew": 3,
            "systems": [
                {"name": "Class 1 beam", "points": 3, "count": 3},
                {"name": "Hull box", "points": 1, "count": 10},
                {"name": "EP store", "points": 2, "ep_storage": 4},
            ],
        },
    ],
}

ROUND_2: dict[str, list[Payload]] = {
    "nac": [
        {"type": "market_sell", "resource": "ore", "amount": 20, "from": "nac-core"},
        {"type": "repair", "id": "fix", "craft": "nac-1-1", "repairer": "nac-y1"},
        {"type": "form_group", "id": "survey", "craft": ["nac-lab1"], "kind": "civilian"},
        {"type": "crew", "group": "nac-survey"},
        {"type": "supply_ep", "into": "nac-survey", "ep": 1},
        {"type": "researchers", "craft": "nac-lab1", "pl": 25},
        {"type": "guild_join", "hub": "nac-west"},
        {"type": "bubble_hq", "id": "home", "hex": "0203", "officer": "nac-adm"},
    ],
    "esu": [
        {
            "type": "diplomatic_mission",
            "id": "talks",
            "diplomat": "esu-envoy",
            "target": "nac",
            "kind": "summit",
        },
    ],
    "nsl": [
        {"type": "make", "builder": "nsl-y1", "kind": "fighter", "count": 4},
        {
            "type": "restock",
            "source": "nsl-y1",
            "target": "nsl-hauler",
            "items": {"fighter": 4},
        },
    ],
    "fse": [
        {
            "type": "refit",
            "id": "upgun",
            "craft": "fse-1-1",
            "builder": "fse-y1",
            "design": "fse-frigate-b",
        },
    ],
}

# round 3's draft: nac's two hubs are both in the guild now
ROUND_3: dict[str, list[Payload]] = {
    "nac": [
        {
            "type": "ship",
            "from_hub": "nac-core",
            "to_hub": "nac-west",
            "resource": "ore",
            "amount": 10,
            "payer": "sender",
        },
    ],
}


class DemoFile:
    """The demo's SQLite file, read-only, as the resolutions left it."""

    def __init__(self, db: Path) -> None:
        self.uri = f"file:{db}?mode=ro"

    def rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(self.uri, uri=True)) as conn:
            return conn.execute(sql, args).fetchall()

    def one(self, sql: str, *args: object) -> Any:
        found = self.rows(sql, *args)
        assert len(found) == 1, (sql, args, found)
        return found[0][0] if len(found[0]) == 1 else found[0]

    def ledger(self, number: int, power: str, reason: str) -> list[tuple[str, str, int]]:
        """(where, resource, amount) of the power's ledger lines of round ``number`` whose
        reason starts with ``reason``."""
        return self.rows(
            'SELECT l."where", l.resource, l.amount FROM economy_ledgerline l'
            " JOIN powers_power p ON p.id = l.power_id"
            " WHERE l.round_number = ? AND p.key = ? AND l.reason LIKE ? ORDER BY l.seq",
            number,
            power,
            reason + "%",
        )

    def rejected(self, number: int) -> list[Any]:
        record = self.one(
            "SELECT r.rejected FROM economy_roundrecord r JOIN economy_round n"
            " ON n.id = r.round_id WHERE n.number = ?",
            number,
        )
        return list(json.loads(record))

    def owner(self, table: str, key: str) -> str:
        return str(
            self.one(
                f"SELECT p.key FROM {table} t JOIN powers_power p ON p.id = t.power_id"  # noqa: S608
                " WHERE t.key = ?",
                key,
            )
        )

    def craft(self, key: str) -> dict[str, Any]:
        found = self.rows(
            "SELECT c.crew, c.fatigue, c.destroyed, c.consumables, d.key, g.key, c.orbit_id"
            " FROM powers_craft c JOIN powers_design d ON d.id = c.design_id"
            " LEFT JOIN powers_fleetgroup g ON g.id = c.group_id WHERE c.key = ?",
            key,
        )
        if not found:
            return {}
        crew, fatigue, destroyed, consumables, design, group, orbit = found[0]
        return {
            "crew": crew,
            "fatigue": fatigue,
            "destroyed": json.loads(destroyed),
            "consumables": json.loads(consumables),
            "design": design,
            "group": group,
            "orbit": orbit is not None,  # waiting in orbit with its builder
        }


@dataclass(frozen=True)
class Table:
    """The four players at the demo: each one's logged-in page, by power."""

    url: str
    campaign: int
    pages: dict[str, Page]

    def tab(self, power: str, path: str) -> Page:
        """The player's page, on one of its power's pages (``orders/``, ``fleet/``, ...)."""
        page = self.pages[power]
        page.goto(f"{self.url}/campaigns/{self.campaign}/powers/{power}/{path}")
        return page

    def enter_orders(self, orders: dict[str, list[Payload]]) -> int:
        """Each power's orders on its sheet, reached by links, each taken; the round."""
        numbers = set()
        for power, payloads in orders.items():
            numbers.add(open_sheet(self.pages[power]))
            for payload in payloads:
                enter(self.pages[power], payload)
        (number,) = numbers
        return number

    def submit_all(self, number: int) -> None:
        """Every power submits round ``number``; the last submission resolves it in-process
        (no REDIS_URL) and its player is shown the next round's sheet."""
        *first, last = self.pages
        for power in first:
            self.tab(power, "orders/").get_by_role("button", name="Submit orders").click()
            expect(self.pages[power].locator(".submitted")).to_contain_text(f"{NAMES[power]} ✓")
        page = self.tab(last, "orders/")
        page.get_by_role("button", name="Submit orders").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"round {number + 1}")


def test_make_run_serves_demo_and_logins_work(demo: Demo, page: Page) -> None:
    page.goto(demo.url + "/")
    expect(page.locator("#campaigns")).to_contain_text("The Outer Reaches")  # the public index
    page.get_by_role("link", name="Log in").first.click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    # served from static/, no CDN; the script is deferred, so wait for it to run
    page.wait_for_function("typeof htmx === 'object'", timeout=15_000)

    page.get_by_label("Username").fill("nac")
    page.get_by_label("Password").fill(demo_password("nac"))
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()

    page.get_by_role("link", name=re.compile("The Outer Reaches")).click()
    expect(page.get_by_role("heading", name="New Anglian Confederation")).to_be_visible()
    expect(page.locator("#systems")).to_contain_text("Avalon")
    expect(page.locator("#systems")).to_contain_text("0203")
    expect(page.locator("#hubs")).to_contain_text("Core")
    expect(page.locator('[data-testid="gal"]')).to_have_text("120")
    (ROOT / "out").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "out" / "dashboard.png"), full_page=True)

    other = page.url.replace("/powers/nac/", "/powers/esu/")
    response = page.goto(other)
    assert response is not None and response.status == 404
    assert "Eurasian" not in page.content()


def test_wrong_password_is_refused(demo: Demo, page: Page) -> None:
    page.goto(demo.url + "/accounts/login/")
    page.get_by_label("Username").fill("esu")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".error")).to_contain_text("didn't match")


def register_lab(table: Table) -> None:
    """nac's survey tender on the Fleet page's design form: a laboratory with research
    capacity and passenger space (Support §4.3.2), and an EP store."""
    page = table.tab("nac", "fleet/")
    fields = {"Short name": "lab", "Name": "Survey tender", "Mass": "20", "NPV": "30"}
    fields |= {"Crew factors needed": "1", "System 1 name": "Laboratory", "System 1 points": "10"}
    fields |= {"System 1 count": "1", "System 1 amount 1": "20", "System 1 amount 2": "50"}
    fields |= {"System 2 name": "EP store", "System 2 points": "2", "System 2 amount 1": "4"}
    capacities = {"System 1 capacity 1": "research", "System 1 capacity 2": "passenger"}
    capacities |= {"System 2 capacity 1": "ep_storage", "Class": "civilian"}
    fill_in(page, fields, capacities)
    expect(page.get_by_test_id("npv-check")).to_contain_text("leaves 18 for hull and drives")
    page.get_by_role("button", name="Add the design to my orders").click()
    expect(page.locator(".messages")).to_contain_text("Design Survey tender is on your orders")


def record_battle(table: Table) -> None:
    """nac enters a battle at Avalon against esu (a frigate's Class 1 beam, system s1,
    destroyed) on its Battle records page; esu confirms it on its own."""
    page = table.tab("nac", "battles/")
    form = page.locator("#enter-battle")
    # picked, not typed (issue 29): the hex among nac's own, esu by name, the frigate's row
    form.get_by_label(NAMES["esu"], exact=True).check()
    avalon = form.get_by_label("Hex", exact=True).locator("option", has_text="Avalon")
    form.get_by_label("Hex", exact=True).select_option(label=avalon.text_content())
    row = form.locator("tr.roster-row").filter(has=page.locator("th", has_text=re.compile("^1-1")))
    row.get_by_label("Class 1 beam destroyed").fill("1")
    form.get_by_role("button", name="Enter the record").click()
    expect(page.locator("#battles-section")).to_contain_text("Awaiting others 1")
    page = table.tab("esu", "battles/")
    expect(page.locator("#battles-section")).to_contain_text("To confirm 1")
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("#battles-section")).to_contain_text("To confirm 0")


def save_hubs(page: Page, hub: str) -> None:
    card = page.locator(".agreement")
    card.locator("select[name=send_hub]").select_option(hub)
    card.locator("select[name=receive_hub]").select_option(hub)
    with page.expect_response(lambda r: r.url.endswith("/agreements/act/")):
        page.get_by_role("button", name="Save hubs").click()
    settled(page)  # the card is drawn anew with the hubs saved
    expect(page.locator(".agreement select[name=send_hub]")).to_have_value(hub)
    expect(page.locator(".agreement select[name=receive_hub]")).to_have_value(hub)


def make_agreement(table: Table) -> None:
    """nac proposes 5 Ore for esu's 2 Bio, deposited at Eris and delivered in round 2, so
    both legs are dispatched in round 1 (R-5.5: a round ahead within 20 hexes); esu accepts.
    Each names its guild hub."""
    page = table.tab("nac", "agreements/")
    propose_agreement(page, "esu", "0505", delivery=2, ore=5, bio=2)
    expect(page.locator(".agreement")).to_contain_text(f"waiting for {NAMES['esu']}")
    save_hubs(page, "nac-core")
    page = table.tab("esu", "agreements/")
    expect(page.locator(".agreement")).to_contain_text("your answer")
    save_hubs(page, "esu-core")
    page.get_by_role("button", name="Accept").click()
    expect(page.locator(".agreement")).to_have_attribute("data-status", "accepted")


def pass_motion(table: Table) -> None:
    """esu moves a 10 % tax on Ore sold for Bio, for every power (its yes cast with it); nac
    and nsl vote yes: three of four members (R-6.4)."""
    put_motion(table.tab("esu", "un/"), "tax", "ore>bio", "0.1")
    for power in ("nac", "nsl"):
        page = table.tab(power, "un/")
        page.locator(".motion").get_by_role("button", name="Yes").click()
        expect(page.locator(".motion")).to_contain_text("you voted yes")


def propose_pact(
    table: Table, power: str, kind: str, to: str, carrier: str, last: str = ""
) -> None:
    """A loan or transfer proposed on the Fleet page, by names (issue 30): the other power,
    and the group or static whose option starts with ``carrier``."""
    page = table.tab(power, "fleet/")
    form = page.locator("#propose-pact")
    form.get_by_label("Propose a").select_option(kind)
    form.get_by_label("To power").select_option(label=NAMES[to])
    carriers = form.get_by_label("Groups and statics")
    carriers.select_option(label=carriers.locator("option", has_text=carrier).text_content())
    if last:
        form.get_by_label("last round (loan)").fill(last)
    form.get_by_role("button", name="Propose").click()
    expect(page.locator("#fleet-pacts")).to_contain_text("proposed")


def lend_and_transfer(table: Table) -> None:
    """On the Fleet pages: fse lends its group fse-2 to nsl until the end of round 2, esu gives
    nsl its static esu-st2; nsl accepts both (Support 1.6)."""
    propose_pact(table, "fse", "loan", "nsl", "Group 2", last="2")
    propose_pact(table, "esu", "transfer", "nsl", "Static st2")
    page = table.tab("nsl", "fleet/")
    for left in (2, 1, 0):
        pending = page.locator("#fleet-pacts").get_by_role("button", name="Accept")
        expect(pending).to_have_count(left)
        if left:
            pending.first.click()


def play(table: Table, db: DemoFile) -> None:
    # round 1: the Fleet page's design form, the sheets, then the pages beside them
    register_lab(table)
    assert table.enter_orders(ROUND_1) == 1
    record_battle(table)
    make_agreement(table)
    pass_motion(table)
    lend_and_transfer(table)
    table.submit_all(1)
    check_round_1(db)

    assert table.enter_orders(ROUND_2) == 2
    table.submit_all(2)
    check_round_2(db)

    # round 3's draft: the shipment the sheet projects with the round's own rules
    assert table.enter_orders(ROUND_3) == 3
    expect(table.pages["nac"].locator("#projection")).to_contain_text(
        "10 Ore sent from hub Core to hub Westmark, arriving round 4"
    )


def check_round_1(db: DemoFile) -> None:
    """What round 1's resolution did, family by family: nothing refused, and each order's own
    rows and ledger lines (amounts that only the rule gives)."""
    assert db.rejected(1) == []
    # economy: a sale at rate 1, a transfer, research at 2 Gal a TP, conscription for Lena's PL
    assert db.ledger(1, "nac", "market") == [
        ("hub:nac-core", "ore", -20),
        ("hub:nac-core", "bio", 20),
    ]
    assert db.ledger(1, "esu", "market") == [("bank", "gal", -10), ("hub:esu-core", "ore", 10)]
    assert db.ledger(1, "nac", "gal transfer") == [("bank", "gal", -5)]
    assert db.ledger(1, "esu", "gal transfer") == [("bank", "gal", 5)]
    assert db.ledger(1, "nac", "research project") == [("bank", "gal", -4), ("bank", "tp", 2)]
    assert db.ledger(1, "esu", "conscription lena") == [("hub:esu-core", "pl", 4)]
    # hubs: Westmark set up for 20 Ore (no links), not yet in the guild
    assert db.ledger(1, "nac", "setup of hub nac-west") == [("hub:nac-core", "ore", -20)]
    assert db.one("SELECT name, guild FROM trade_tradehub WHERE key = 'nac-west'") == (
        "Westmark",
        0,
    )
    # designs and builds: both registered for 5 TP; the tender paid NPV 30 + 10 % while new
    assert db.ledger(1, "nac", "design nac-lab") == [("bank", "tp", -5)]
    assert db.ledger(1, "fse", "design fse-frigate-b") == [("bank", "tp", -5)]
    assert db.ledger(1, "nac", "into nac-lab1")[0] == ("hub:nac-core", "ore", -33)
    assert db.ledger(1, "nsl", "into nsl-hauler")[0] == ("hub:nsl-core", "ore", -40)
    tender = db.craft("nac-lab1")
    assert (tender["design"], tender["group"], tender["orbit"]) == ("nac-lab", None, True)
    # declarations: nac-2 holds orbit at Brigid, whose loyalty rises instead of falling
    assert db.one("SELECT col, row, \"order\" FROM powers_fleetgroup WHERE key = 'nac-2'") == (
        3,
        5,
        "maintain_orbit",
    )
    assert db.one("SELECT loyalty FROM powers_starsystem WHERE key = 'brigid'") == 15
    # officer: aboard as nac-1's commander
    assert (
        db.one(
            "SELECT g.key FROM powers_officer o JOIN powers_fleetgroup g ON g.id = o.group_id"
            " WHERE o.key = 'nac-adm'"
        )
        == "nac-1"
    )
    # battle record: confirmed by esu and applied at the start of the resolution
    assert db.craft("nac-1-1")["destroyed"] == {"s1": 1}
    # unbuild: 40 of the frigate's 60 NPV worked through at esu's yard
    assert db.one("SELECT kind, cost, worked FROM powers_build WHERE key = 'esu-scrap'") == (
        "unbuild",
        60,
        40,
    )
    # diplomat: aboard the freighter at Dunmore
    assert (
        db.one(
            "SELECT c.key FROM powers_diplomat d JOIN powers_craft c ON c.id = d.craft_id"
            " WHERE d.key = 'esu-envoy'"
        )
        == "esu-2-3"
    )
    # agreement: accepted, both legs dispatched (each paying 1 % over its 3 hexes)
    assert db.one(
        "SELECT status, a_status, b_status FROM trade_agreement WHERE key = 'agreement.1'"
    ) == ("accepted", "dispatched", "dispatched")
    assert db.ledger(1, "nac", "agreement agreement.1 to esu")[-1] == ("hub:nac-core", "ore", -5)
    # UN: the tax passed with three yes of four members, in force from round 2
    assert db.one("SELECT status, yes FROM trade_motion") == ("passed", 3)
    assert db.one("SELECT tax FROM trade_marketedge WHERE edge = 'ore>bio'") == 0.1
    # loan and transfer: fse-2 serves nsl until round 2; esu's static is nsl's for good
    assert db.owner("powers_fleetgroup", "fse-2") == "nsl"
    assert db.owner("powers_static", "esu-st2") == "nsl"


def check_round_2(db: DemoFile) -> None:
    """What round 2's resolution did with what round 1 made."""
    assert db.rejected(2) == []
    assert db.one("SELECT number FROM economy_round WHERE status = 'open'") == 3
    # economy under the UN's tax: 20 Ore at rate 1 less 10 % buy 18 Bio, not 20
    assert db.ledger(2, "nac", "market") == [
        ("hub:nac-core", "ore", -20),
        ("hub:nac-core", "bio", 18),
    ]
    # agreement: each leg delivered at the receiver's hub
    assert db.ledger(2, "nac", "shipment r1-esu-1 arrives")[-1] == ("hub:nac-core", "bio", 2)
    assert db.ledger(2, "esu", "shipment r1-nac-1 arrives")[-1] == ("hub:esu-core", "ore", 5)
    # repair: the beam's 3 points in Ore; done, with max(1, ceil(100 x 3 / 60)) = 5 % fatigue
    assert db.ledger(2, "nac", "into nac-fix")[0] == ("hub:nac-core", "ore", -3)
    frigate = db.craft("nac-1-1")
    assert (frigate["destroyed"], frigate["fatigue"]) == ({}, 5)
    # form, crew, supply EP, researchers: the tender in its own group, 1 civilian CF for 2 PL,
    # 1 EP for 1 Bio, 25 PL aboard as researchers
    tender = db.craft("nac-lab1")
    assert (tender["group"], tender["crew"], tender["consumables"]) == ("nac-survey", 1, {"pl": 25})
    assert db.one("SELECT kind, col, row, ep FROM powers_fleetgroup WHERE key = 'nac-survey'") == (
        "civilian",
        2,
        3,
        1,
    )
    assert db.ledger(2, "nac", "1 CF for nac-lab1")[0] == ("hub:nac-core", "pl", -2)
    assert db.ledger(2, "nac", "EP supplied to nac-survey")[0] == ("hub:nac-core", "bio", -1)
    assert db.ledger(2, "nac", "researchers aboard")[0] == ("hub:nac-core", "pl", -25)
    # hubs: Westmark joined the guild
    assert db.one("SELECT guild FROM trade_tradehub WHERE key = 'nac-west'") == 1
    # bubble: an HQ at Avalon, radius 3 (its officer's grade), 30 Ore
    assert db.one("SELECT hq_col, hq_row, radius FROM powers_commandbubble") == (2, 3, 3)
    assert db.ledger(2, "nac", "HQ nac-home") == [("hub:nac-core", "ore", -30)]
    # diplomat: the summit with nac is on record, awaiting the organiser's outcome
    assert db.one(
        "SELECT m.kind, m.declared, p.key FROM powers_mission m"
        " JOIN powers_power p ON p.id = m.target_id WHERE m.key = 'esu-talks'"
    ) == ("summit", 2, "nac")
    # make and restock: 4 fighters at 3 Ore each, loaded from the workshop into the hauler
    assert db.ledger(2, "nsl", "made 4 fighter")[0] == ("hub:nsl-core", "ore", -12)
    assert db.ledger(2, "nsl", "restocked nsl-hauler") == [
        ("workshop:nsl-y1", "fighter", -4),
        ("craft:nsl-hauler", "fighter", 4),
    ]
    assert db.craft("nsl-hauler")["consumables"] == {"fighter": 4}
    # refit: the variant's third beam (3 points) built; fse-1-1 is a Frigate B now
    assert db.ledger(2, "fse", "into fse-upgun")[0] == ("hub:fse-core", "ore", -3)
    assert db.craft("fse-1-1")["design"] == "fse-frigate-b"
    # unbuild: finished, the NPV of 60 back in Ore and its 3 military CF as 15 PL
    assert db.craft("esu-1-1") == {}
    assert db.ledger(2, "esu", "esu-1-1 unbuilt") == [
        ("craft:esu-1-1", "cf", -3),
        ("hub:esu-core", "ore", 60),
    ]
    assert db.ledger(2, "esu", "crew of esu-1-1") == [("hub:esu-core", "pl", 15)]
    # the loan ended with round 2's Support Phase: fse-2 is fse's again
    assert db.owner("powers_fleetgroup", "fse-2") == "fse"


def test_the_demo_is_played_for_two_rounds_with_every_order_family(
    demo: Demo, browser: Browser
) -> None:
    contexts: list[BrowserContext] = []
    failed: list[str] = []  # every answer of 500 or more, whatever page asked

    def heard(response: Response) -> None:
        if response.status >= 500:
            failed.append(f"{response.status} {response.request.method} {response.url}")

    try:
        for power in NAMES:
            contexts.append(log_in(browser, demo.url, power))
            contexts[-1].on("response", heard)
        pages = {power: c.pages[0] for power, c in zip(NAMES, contexts, strict=True)}
        assert open_sheet(pages["nac"]) == 1
        campaign = int(pages["nac"].url.split("/campaigns/")[1].split("/")[0])
        play(Table(demo.url, campaign, pages), DemoFile(demo.db))
    except (AssertionError, Error) as exc:  # say what the server said
        said = [s for s in demo.log.read_text().splitlines() if not re.search(r'" [23]\d\d ', s)]
        raise AssertionError(
            f"{exc}\n5xx answers: {failed}\nserver log:\n" + "\n".join(said[-60:])
        ) from None
    finally:
        for context in contexts:
            context.close()
    assert failed == []
    assert not SERVED_5XX.search(demo.log.read_text())  # the server's own line for each answer
