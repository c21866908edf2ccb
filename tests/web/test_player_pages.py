"""Player pages a newcomer can read (issue 17): names, not keys; orders as sentences; the rules
where the player acts, with an in-app guide; order types greyed with the reason; the UN and
agreement forms' wording; and a crawl of every page a player reaches after two demo rounds."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.demo import DEMO_NAME, SYSTEMS
from campaigns.sector_import import import_sectors
from economy import selectors, services
from economy.engine.orders import SPECS
from economy.engine.resolve import STEPS
from economy.events import Names
from economy.guide import STEP_OF, anchor, step_of
from economy.models import Round
from economy.orderforms import summary
from powers.models import Campaign, Craft, FleetGroup, Membership, Power, StarSystem
from tests.demo_rounds import BATTLE, ORDERS, Orders, enter_battle, play_rounds
from tests.routes.helpers import random_sector
from tests.web.factories import World, make_user
from trade import services as trade_services
from trade.chart import market_chart
from trade.models import Vote

pytestmark = pytest.mark.django_db

POWERS = ("nac", "esu", "nsl", "fse")
# an imported sector, generated as full as a real one: each power's homeworld and the world its
# group orbits, placed among the random ones
SECTOR_POWERS = ["imp", "zho"]  # keys an organiser would choose
SECTOR_HOMES = [("1910", "1909"), ("1705", "1706")]
SECTOR_WORLDS = {
    "1910": ("Meridian", "A788899-C"),
    "1909": ("Hollow", "C560757-A"),
    "1705": ("Tarn", "A867974-C"),
    "1706": ("Vesper", "B56789C-B"),
}
SECTOR_NAMES = ["Meridian (1910)", "Tarn (1705)"]


def raw_keys(powers: Iterable[str], systems: Iterable[str]) -> list[re.Pattern[str]]:
    """What must never show where a name belongs: a stored key (``<power>-<id>``), a system
    key, a round step's name, a field key, an exception's class name, a generated key."""
    return [
        re.compile(r"\b(?:" + "|".join(map(re.escape, powers)) + r")-[a-z0-9]"),
        re.compile(r"\b(?:" + "|".join(map(re.escape, systems)) + r")\b"),
        re.compile(r"\b(?:resource|support|fleet)\.\d"),
        re.compile(r"\b[a-z]+_[a-z_]+\b"),
        re.compile(r"\b[A-Z]\w*(?:Error|Exception|DoesNotExist)\b"),
        re.compile(r"\b(?:agreement|motion)\.\d|\br\d+-[a-z]|\bbr-[0-9a-f]{8}\b"),
    ]


RAW = raw_keys(POWERS, [s[0] for s in SYSTEMS])


def visible(body: str) -> str:
    """What a reader sees: the text outside tags, scripts and styles (SVG drawings keep keys
    for their scripts; their labels are checked on the map pages' own tests), and not what a
    text box holds: the lines a player typed to amend a battle record, ids as typed."""
    body = re.sub(r"(?s)<(script|style|svg|textarea)\b.*?</\1>", " ", body)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def around(text: str, found: re.Match[str] | None) -> str:
    """A key found and the words around it, to see where it stood."""
    if found is None:
        return ""
    return " ".join(text[max(0, found.start() - 80) : found.end() + 80].split())


def nav_links(body: str) -> list[str]:
    """The pages a power's tabs (``nav.tabs``) link to, downloads and in-page anchors aside:
    a page added to the tabs is crawled and checked without naming it here."""
    found = re.search(r'(?s)<nav class="tabs">(.*?)</nav>', body)
    assert found is not None, "no tabs"
    hrefs = [html.unescape(h) for h in re.findall(r'href="([^"#]+)', found.group(1))]
    return [h for h in hrefs if not re.search(r"\.(csv|json|svg)$", h)]


def crawl(client: Client, start: str, hexes: set[str] | None = None) -> dict[str, str]:
    """Every page of the site a player reaches by links from ``start`` (the top bar's too),
    the maps' hex pages included (only those of ``hexes`` when given: a whole sector's map
    links hundreds), downloads aside; url -> body."""
    seen: dict[str, str] = {}
    pending = [start]
    while pending:
        url = pending.pop()
        hx = re.search(r"/hex/(\d{4})/", url)
        if url in seen or (hx and hexes is not None and hx.group(1) not in hexes):
            continue
        response = client.get(url, follow=True)  # the brand link goes on to my campaigns
        assert response.status_code == 200, (url, response.status_code)
        seen[url] = response.content.decode()
        for href in re.findall(r'href="([^"#]+)', seen[url]):
            href = html.unescape(href)
            # same-site pages: not the admin, the login pages, the API, feeds or downloads
            wanted = href.startswith("/") and not re.match(
                r"/(admin|accounts|api|static)/|.*/feed/", href
            )
            if wanted and not re.search(r"\.(csv|json|svg|xml)$", href):
                pending.append(href)
    return seen


def test_every_order_type_says_what_it_does_and_when() -> None:
    for kind, spec in SPECS.items():
        assert len(spec.help) > 40, kind
        assert spec.step in STEP_OF, kind
        assert spec.sentence, kind
    assert {key for key, _ in STEPS} == set(STEP_OF)


def test_ledger_steps_read_as_the_guides_steps() -> None:
    assert step_of("resource.2.3").key == "resource.2.2-2.4"
    assert step_of("support.1.1").key == "support.1"
    assert step_of("support.4").key == "support.4 primaries"
    assert step_of("support.4.3.1").key == "support.4.3.1"


def test_the_rules_guide_has_every_order_type_and_step(client: Client) -> None:
    page = client.get(reverse("rules")).content.decode()
    for kind in SPECS:
        assert f'id="{anchor("order", kind)}"' in page
    for key, _ in STEPS:
        assert f'id="{anchor("step", key)}"' in page
    assert "docs/" not in page


def test_orders_read_as_sentences_with_names() -> None:
    names = Names.of_state(
        {"hubs": [{"id": "nac-core"}], "groups": [{"id": "nac-2"}]},
        {"nac": "New Anglian Confederation", "esu": "Eurasian Solar Union"},
    )
    sell = {"type": "market_sell", "resource": "ore", "amount": 20, "from": "nac-core"}
    assert summary(sell, names) == "Sells 20 Ore from hub Core for Bio"
    declare = {"type": "declare_group", "group": "nac-2", "hex": "0505", "order": "hold_restock"}
    assert summary(declare, names) == "Declares Group 2 at 0505: Hold – Restock"
    assert summary({"type": "gal_transfer", "to": "esu", "amount": 5}, names) == (
        "Transfers 5 Gal to Eurasian Solar Union"
    )
    gal = {"type": "market_sell", "resource": "gal", "amount": 3, "to": "nac-core"}
    assert summary(gal, names) == "Sells 3 Gal for Ore, delivered to hub Core"


def test_order_form_explains_the_order_and_links_the_guide(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("order-form", args=[world.campaign.pk, "p0"])
    page = client.get(url, {"type": "market_sell"}).content.decode()
    assert SPECS["market_sell"].help in html.unescape(page)
    assert f'href="/rules/#{anchor("step", "resource.4")}"' in page
    assert f'href="/rules/#{anchor("order", "market_sell")}"' in page


def test_order_types_a_power_cannot_use_are_greyed_with_the_reason(
    client: Client, world: World
) -> None:
    Craft.objects.filter(power=world.powers[0]).delete()
    client.force_login(world.users[0])
    page = client.get(reverse("orders", args=[world.campaign.pk, "p0"])).content.decode()
    assert '<option value="build"' not in page  # listed apart with the reason (issue 30)
    assert re.search(r"<li [^>]*><strong>Build a craft</strong> — you have no builders", page)
    market = re.search(r'<option value="market_sell"[^>]*>', page)
    assert market is not None and "disabled" not in market.group(0)


def test_the_proposer_votes_yes_by_proposing(world: World) -> None:
    power = world.powers[0]
    draft = trade_services.draft_motion(
        power=power, fields={"kind": "tax", "edge": "all", "tax": "0.1"}, actor="t"
    )
    assert not Vote.objects.exists()
    motion = trade_services.submit_motion(power=power, key=draft.key, actor="t")
    assert Vote.objects.get(motion=motion, member=power).choice == "yes"
    trade_services.vote(power=power, key=motion.key, choice="no", actor="t")
    assert Vote.objects.get(motion=motion, member=power).choice == "no"


def test_a_rate_motion_is_closed_outside_report_rounds(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    page = client.get(reverse("un-committee", args=[world.campaign.pk, "p0"])).content.decode()
    rate = re.search(r'<option value="rate"[^>]*>[^<]*', page)
    assert rate is not None and "disabled" in rate.group(0)
    assert "the next is round 3" in rate.group(0)
    Campaign.objects.filter(pk=world.campaign.pk).update(current_round=3)
    page = client.get(reverse("un-committee", args=[world.campaign.pk, "p0"])).content.decode()
    rate = re.search(r'<option value="rate"[^>]*>', page)
    assert rate is not None and "disabled" not in rate.group(0)


@pytest.fixture
def demo() -> Campaign:
    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name=DEMO_NAME)
    client = Client()
    play_rounds(client, campaign.pk, ORDERS)
    client.force_login(get_user_model().objects.get(username="nac"))
    enter_battle(client, campaign.pk)
    # an agreement waiting for an answer and a motion before the committee
    esu = Power.objects.get(campaign=campaign, key="esu")
    terms = trade_services.Terms("0505", 5, "ore", 10, "bio", 5)
    trade_services.propose_agreement(power=esu, partner_key="nac", terms=terms, actor="esu")
    draft = trade_services.draft_motion(
        power=esu, fields={"kind": "tax", "edge": "all", "tax": "0.1"}, actor="esu"
    )
    trade_services.submit_motion(power=esu, key=draft.key, actor="esu")
    return campaign


def test_every_player_page_reads_in_names(client: Client, demo: Campaign) -> None:
    """As each player of the demo after two rounds played through the pages: every page
    reached by links from "my campaigns", each tab of the power's pages among them."""
    for username in POWERS:
        client.force_login(get_user_model().objects.get(username=username))
        pages = crawl(client, reverse("my-campaigns"))
        power = Power.objects.get(campaign=demo, key=username)
        dashboard = reverse("dashboard", args=[demo.pk, username])
        tabs = nav_links(pages[dashboard]) + nav_links(
            pages[reverse("fleet", args=[demo.pk, username])]
        )
        assert reverse("battles", args=[demo.pk, username]) in tabs
        assert set(tabs) <= set(pages), username
        assert reverse("report", args=[demo.pk, username, 2]) in pages
        assert reverse("rules") in pages
        for url, body in pages.items():
            assert re.search(r"\bdocs/\S*\.md", body) is None, url  # no repository file
            text = visible(body)
            for raw in RAW:
                found = raw.search(text)
                assert found is None, (url, around(text, found), username)
        assert power.name in pages[dashboard]
        if username in BATTLE["powers"]:  # the battle entered on its page, in names
            battles = " ".join(visible(pages[reverse("battles", args=[demo.pk, username])]).split())
            assert "Battle at 0505 · round 3 · entered by New Anglian Confederation" in battles


def test_statements_name_places_steps_and_events(client: Client, demo: Campaign) -> None:
    nac = Power.objects.get(campaign=demo, key="nac")
    statement = selectors.round_statement(nac, 1)
    assert statement is not None
    words = [e["words"] for e in statement.events]
    assert "New Anglian Confederation sells 20 Ore for 20 Bio" in words
    assert any(w.startswith("Brigid (0305) loyalty 14 → 13 (−1: no group") for w in words)
    steps = statement.ledger_in_words()
    titles = [s["step"].title for s in steps]
    assert "Common Market" in titles and "Production" in titles
    market = next(s for s in steps if s["step"].title == "Common Market")
    assert {(line["where"], line["reason"]) for line in market["lines"]} >= {
        ("hub Core", "market sale Ore → Bio")
    }
    # the API keeps the keys
    assert any(line["where"] == "hub:nac-core" for _, lines in statement.steps for line in lines)


def test_an_imported_sector_reads_in_names(client: Client, tmp_path: Path) -> None:
    """A sector of 400 worlds imported as organisers do (its systems keyed ``test-<hex>``), two
    powers playing two rounds through their sheets: every page each player reaches reads in
    names."""
    sector = random_sector(tmp_path, "Outer Reach", seed=2, fixed=SECTOR_WORLDS)
    import_sectors(campaign_name="Imported", files=[sector])
    campaign = Campaign.objects.get(name="Imported")
    orders: Orders = {}
    for key, (home, post) in zip(SECTOR_POWERS, SECTOR_HOMES, strict=True):
        power = Power.objects.create(campaign=campaign, key=key, name=key.title(), gal=50)
        Membership.objects.create(campaign=campaign, user=make_user(key), power=power)
        system = StarSystem.objects.get(campaign=campaign, key=f"test-{home}")
        system.holder, system.loyalty, system.system_type = power, 20, "homeworld"
        system.save()
        col, row = int(post[:2]), int(post[2:])
        FleetGroup.objects.create(
            campaign=campaign, key=f"{key}-g", power=power, col=col, row=row, troops=50
        )
        declare = {"type": "declare_group", "group": f"{key}-g", "hex": post}
        conscript = {"type": "conscript", "system": f"test-{home}", "loyalty": 1}
        orders[key] = ([{**declare, "order": "maintain_orbit"}, conscript], [conscript])
    play_rounds(client, campaign.pk, orders)
    keys = StarSystem.objects.filter(campaign=campaign).values_list("key", flat=True)
    raw = raw_keys(SECTOR_POWERS, keys)
    hexes = {h for pair in SECTOR_HOMES for h in pair}
    for key, name in zip(SECTOR_POWERS, SECTOR_NAMES, strict=True):
        client.force_login(get_user_model().objects.get(username=key))
        pages = crawl(client, reverse("my-campaigns"), hexes)
        assert reverse("report", args=[campaign.pk, key, 2]) in pages
        assert set(nav_links(pages[reverse("dashboard", args=[campaign.pk, key])])) <= set(pages)
        assert any("/hex/" in url for url in pages)
        for url, body in pages.items():
            text = visible(body)
            for pattern in raw:
                found = pattern.search(text)
                assert found is None, (url, around(text, found), key)
        assert name in html.unescape(pages[reverse("dashboard", args=[campaign.pk, key])])
    statement = selectors.round_statement(Power.objects.get(campaign=campaign, key="imp"), 1)
    assert statement is not None
    assert any("Meridian (1910) conscripts" in e["words"] for e in statement.events) or any(
        "Meridian (1910)" in row.label for row in statement.stocks
    )


def test_orders_the_projection_rejects_are_marked_and_submitting_asks(
    client: Client, world: World
) -> None:
    p0 = world.powers[0]
    services.add_order(power=p0, payload={"type": "research_project", "gal": 2}, actor="t")
    # each sale within the hub's 7 Ore at entry, but with the sheet's others beyond what it
    # holds now (issue 30: a warning, kept); the fifth is more than the 29 Ore the hub will
    # have after production, and only the projection knows it will be rejected
    sale = {"type": "market_sell", "resource": "ore", "amount": 7, "from": "hub0"}
    added = [services.add_order(power=p0, payload=sale, actor="t") for _ in range(5)]
    assert [o.error for o in added] == [""] * 5
    assert added[0].warning == ""
    assert all(o.warning.startswith("amount: with the ") for o in added[1:])
    client.force_login(world.users[0])
    page = client.get(reverse("projection", args=[world.campaign.pk, "p0"])).content.decode()
    marks = dict(re.findall(r'id="projected-(\d)" hx-swap-oob="true"[^>]*>(.*?)</span>', page))
    assert [marks[str(n)] for n in range(5)] == [""] * 5
    assert marks["5"].startswith(
        '<span class="error">⚠ would be rejected if the round resolved now: hub Hub0 has'
    )
    assert "1 of your orders would be rejected if the round resolved now" in page
    sheet = client.get(reverse("orders", args=[world.campaign.pk, "p0"])).content.decode()
    assert 'id="projected-5"' in sheet and 'id="submit-warning"' in sheet
    assert "js/sheet.js" in sheet  # asks before submitting them


def test_the_dashboard_warns_of_loyalty_drains_before_they_happen(client: Client) -> None:
    """R-3.4: a held system with no group or static of its holder loses 1 LR; the dashboard
    names those systems, with this round's declarations counted."""
    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name=DEMO_NAME)
    nac = Power.objects.get(campaign=campaign, key="nac")
    client.force_login(get_user_model().objects.get(username="nac"))
    url = reverse("dashboard", args=[campaign.pk, "nac"])
    page = html.unescape(client.get(url).content.decode())
    assert "2 systems will lose 1 loyalty this round" in page
    assert "(Brigid (0305), Cornwall (0102))" in page
    declare = {"type": "declare_group", "group": "nac-1", "hex": "0305", "order": "none"}
    services.set_declaration(power=nac, payload=declare, actor="nac")
    page = html.unescape(client.get(url).content.decode())
    assert "1 system will lose 1 loyalty this round" in page and "(Cornwall (0102))" in page
    # and the round does what the warning said
    for power in Power.objects.filter(campaign=campaign):
        services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=campaign, number=1)
    if rnd.status != "resolved":
        services.resolve_round(round_id=rnd.pk)
    lost = {
        e["data"]["system"]
        for e in (selectors.round_statement(nac, 1) or selectors.Statement("", [], [])).events
        if e["kind"] == "loyalty.changed" and "abandoned" in e["data"]["why"]
    }
    assert lost == {"cornwall"}


def test_the_market_chart_keeps_equal_rates_apart_and_ticks_round() -> None:
    rates = {e: (Decimal("1.0000"), 0) for e in ("ore>bio", "bio>gal", "gal>ore")}
    svg = market_chart([("1", rates), ("2", rates), ("3 (now)", rates)])
    ticks = re.findall(r'class="tick">([\d.]+)</text>', svg)
    assert ticks[:4] == ["0.00", "0.50", "1.00", "1.50"]  # rates, then volumes
    assert ticks[4:9] == ["0", "1", "2", "3", "4"]  # then the rounds
    lines = re.findall(r"<polyline [^>]*>", svg)
    assert len({re.sub(r'points="[^"]*"', "", line) for line in lines}) == 3
    radii = set(re.findall(r'<circle [^>]*? r="([\d.]+)"', svg))
    assert len(radii) == 3  # a ring, a dot and a small dot on one point all show


def test_agreement_forms_and_errors_speak_of_what_each_side_sends(
    client: Client, world: World
) -> None:
    """The terms read "what you send" / "what they send"; a refusal names those, never the
    field keys; the partner sees the counter-proposal form."""
    client.force_login(world.users[0])
    url = reverse("agreement-propose", args=[world.campaign.pk, "p0"])
    terms = {"partner": "p1", "deposit": "0201", "delivery": "3"}
    nothing = {**terms, "send_amount": "0", "send_resource": "ore", "receive_amount": "0"}
    page = html.unescape(client.post(url, {**nothing, "receive_resource": "bio"}).content.decode())
    assert "Amount you send: at least one side must send something" in page
    negative = {**terms, "send_amount": "-3", "send_resource": "ore", "receive_amount": "5"}
    page = html.unescape(client.post(url, {**negative, "receive_resource": "bio"}).content.decode())
    assert "Amount you send: expected 0.." in page
    assert re.search(r"\b(?:send|receive|[ab])_(?:amount|resource)\b", visible(page)) is None
    assert "What you send" in page and "What they send" in page
    good = {**terms, "send_amount": "3", "send_resource": "ore", "receive_amount": "5"}
    assert client.post(url, {**good, "receive_resource": "bio"}).status_code == 302
    client.force_login(world.users[1])
    page = client.get(reverse("agreements", args=[world.campaign.pk, "p1"])).content.decode()
    counter = re.search(r'(?s)<section class="counter">.*?</section>', page)
    assert counter is not None and "Or counter with other terms" in counter.group(0)
    assert 'value="counter"' in counter.group(0) and "What you send" in counter.group(0)


def test_the_rate_motion_form_says_when_rate_motions_pass(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("un-committee", args=[world.campaign.pk, "p0"])
    help_text = re.search(r'(?s)id="motion-help">(.*?)</p>', client.get(url).content.decode())
    assert help_text is not None
    assert "passes only at a report round: the next is round 3" in help_text.group(1)
    assert "your yes vote is cast with it" in help_text.group(1)
    Campaign.objects.filter(pk=world.campaign.pk).update(current_round=3)
    help_text = re.search(r'(?s)id="motion-help">(.*?)</p>', client.get(url).content.decode())
    assert help_text is not None and "can pass this round" in help_text.group(1)


def test_command_events_and_page_name_officers_and_bubbles(client: Client, demo: Campaign) -> None:
    """Support §5: the demo's officer put in command of a group in round 1 and given a bubble's
    HQ in round 2, read by name in the statements and on the Command page."""
    nac = Power.objects.get(campaign=demo, key="nac")
    first, second = selectors.round_statement(nac, 1), selectors.round_statement(nac, 2)
    assert first is not None and second is not None
    assert "Officer Ada Brandt takes command of Group 1" in [e["words"] for e in first.events]
    assert "Command bubble home: HQ set up at 0203" in [e["words"] for e in second.events]
    assert not second.rejected
    client.force_login(get_user_model().objects.get(username="nac"))
    page = visible(client.get(reverse("command", args=[demo.pk, "nac"])).content.decode())
    assert "Ada Brandt" in page and "nac-adm" not in page
