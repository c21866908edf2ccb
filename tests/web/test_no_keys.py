"""No key typed, no key shown (issue 30, item 1): the loan and transfer forms offer powers,
groups and statics by name, and nothing a player reads — a page, a download (the ledger as CSV
or JSON, a report), the notices or the private Atom feed — shows a stored key, a generated key
or a rule's key where a name belongs. Machine-read fields (ids, a ledger line's ``where``) may
keep their keys; every human-readable field is checked."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from economy import selectors, services
from economy.events import Names, describe
from economy.models import Round, RoundStatus
from economy.orderforms import summary
from notices import services as notice_services
from notices.models import Notice
from powers.models import Campaign, FleetGroup, Loan, Officer, StarSystem, Transfer
from tests.web.factories import World, add_fleet, make_campaign
from tests.web.test_player_pages import POWERS, RAW, around, crawl, demo, visible
from trade.models import TradeHub

pytestmark = pytest.mark.django_db

__all__ = ["demo"]  # the played demo fixture, shared with the pages' crawl

#: Fields of a download a person reads; the others (ids, places, steps, rules) are for machines.
TEXT_FIELDS = {"reason", "words", "text", "place", "title", "summary", "body", "description"}


def key_patterns(campaign: Campaign) -> list[re.Pattern[str]]:
    """Beyond the pages' crawl (``RAW``): a power's key alone (``fse -> nac``), an id as its
    power typed it where the name differs (an officer ``adm``, a hub ``core``), a battle
    record's key, a shipment's key, and a rule's or a field's snake_case key."""
    typed = {
        key.partition("-")[2]
        for model in (Officer, TradeHub)
        for key in model.objects.filter(campaign=campaign).values_list("key", flat=True)
    }
    return [
        *RAW,
        re.compile(r"\b(?:" + "|".join(POWERS) + r")\b"),
        re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, typed))) + r")\b"),
        re.compile(r"\bbr-[0-9a-f]{8}\b"),
        re.compile(r"\br\d+-[a-z]+-\d+\b"),
        re.compile(r"\b[a-z]+_[a-z_]+\b"),
    ]


def texts(value: Any, field: str = "") -> Iterator[tuple[str, str]]:
    """(field, text) for every human-readable string in a JSON document."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v, field)
    elif isinstance(value, str) and field in TEXT_FIELDS:
        yield field, value


def download_texts(name: str, body: str) -> Iterator[tuple[str, str]]:
    """(field, text) of a CSV's or a JSON's human-readable columns or fields."""
    if name.endswith(".csv"):
        rows = list(csv.reader(io.StringIO(body)))
        header = rows[0]
        for row in rows[1:]:
            yield from ((f, v) for f, v in zip(header, row, strict=True) if f in TEXT_FIELDS)
    else:
        yield from texts(json.loads(body))


def feed_texts(body: str) -> str:
    """What a feed reader shows: titles, subtitles and entry bodies (never ids or links)."""
    parts = re.findall(r"(?s)<(title|subtitle|summary|content)\b[^>]*>(.*?)</\1>", body)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html.unescape(t))) for _, t in parts)


def leaks(patterns: list[re.Pattern[str]], where: str, text: str) -> list[tuple[str, str]]:
    """Each key found, with the words around it."""
    return [(where, around(text, m)) for p in patterns for m in p.finditer(text)]


def test_nothing_a_player_reads_or_downloads_shows_a_key(client: Client, demo: Campaign) -> None:
    """As each player of the demo after two rounds: every page, every download linked from
    them, the notices of the resolved rounds, their emails and the player's private feed."""
    for rnd in Round.objects.filter(campaign=demo, status=RoundStatus.RESOLVED):
        notice_services.deliver("round_resolved", {"round": rnd.pk})
    patterns = key_patterns(demo)
    found: list[tuple[str, str]] = []
    emails = [notice_services.email_for(n) for n in Notice.objects.filter(campaign=demo)]
    assert emails, "the demo's players are told of the rounds resolved"
    for message in emails:
        # the emails' footers link the settings page; a link is for the mail reader, not read
        words = re.sub(r"https?://\S+", " ", f"{message.subject}\n{message.body}")
        found += leaks(patterns, f"email {message.subject!r} to {message.to}", words)
    for username in POWERS:
        client.force_login(get_user_model().objects.get(username=username))
        pages = crawl(client, reverse("my-campaigns"))
        assert reverse("notice-settings") in pages
        downloads = {
            html.unescape(h)
            for body in pages.values()
            for h in re.findall(r'href="(/[^"#]+\.(?:csv|json))"', body)
        }
        assert reverse("ledger-export", args=[demo.pk, username, "csv"]) in downloads
        assert reverse("ledger-export", args=[demo.pk, username, "json"]) in downloads
        for url, body in pages.items():
            # the top bar's login name is what the player chose (the demo's are power keys)
            text = visible(body).replace(f"Log out {username}", "Log out")
            found += leaks(patterns, url, text)
        for url in sorted(downloads):
            response = client.get(url)
            assert response.status_code == 200, url
            for field, text in download_texts(url, response.getvalue().decode()):
                found += leaks(patterns, f"{url} {field}", text)
        feed = re.search(r'value="([^"]*/notices/feed/[^"]+)"', pages[reverse("notice-settings")])
        assert feed is not None
        body = client.get(html.unescape(feed.group(1))).content.decode()
        assert "<entry>" in body
        found += leaks(patterns, f"feed of {username}", feed_texts(body))
    assert not found, "\n".join(f"{w}: {t}" for w, t in dict.fromkeys(found))


@pytest.fixture
def world() -> World:
    world = make_campaign("Pacts in names", n_powers=3, systems_per_power=2)
    add_fleet(world, groups=2)
    return world


def fleet_page(client: Client, world: World, n: int = 0) -> str:
    client.force_login(world.users[n])
    return client.get(reverse("fleet", args=[world.campaign.pk, f"p{n}"])).content.decode()


def options(page: str, name: str) -> dict[str, str]:
    """A form's <select name=...> in the propose form: value -> label."""
    form = re.search(r'(?s)<form[^>]*id="propose-pact".*?</form>', page)
    assert form is not None
    select = re.search(rf'(?s)<select name="{name}"[^>]*>(.*?)</select>', form.group(0))
    assert select is not None, name
    return {
        v: html.unescape(label).strip()
        for v, label in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)', select.group(1))
        if v  # not the "choose one" prompt
    }


def test_the_pact_forms_offer_powers_groups_and_statics_by_name(
    client: Client, world: World
) -> None:
    page = fleet_page(client, world)
    powers = options(page, "other")
    assert powers == {"p1": world.powers[1].name, "p2": world.powers[2].name}
    carriers = options(page, "carriers")
    groups = FleetGroup.objects.filter(power=world.powers[0]).values_list("key", flat=True)
    assert set(groups) <= set(carriers)
    assert all(not re.search(r"\bp\d-", label) for label in carriers.values()), carriers
    assert not re.search(r'<input name="(other|carriers|crew_to)"', page)
    held = StarSystem.objects.filter(holder=world.powers[0]).select_related("hex")
    assert options(page, "crew_to") == {s.key: f"{s.name} ({s.hex.code})" for s in held}


def test_a_refused_offer_keeps_what_was_chosen_and_writes_nothing(
    client: Client, world: World
) -> None:
    cid = world.campaign.pk
    client.force_login(world.users[0])
    chosen = {"kind": "loan", "other": "p2", "carriers": ["p0-g0", "p0-g1"], "last": "x"}
    page = client.post(reverse("pact-propose", args=[cid, "p0"]), chosen, follow=True)
    body = page.content.decode()
    assert "last: the last round of the loan" in body
    assert not Loan.objects.exists() and not Transfer.objects.exists()
    form = re.search(r'(?s)<form[^>]*id="propose-pact".*?</form>', body)
    assert form is not None
    for value in ("p2", "p0-g0", "p0-g1"):
        assert re.search(rf'<option value="{value}"[^>]*selected', form.group(0)), value
    assert re.search(r'name="last"[^>]*value="x"', form.group(0))
    # chosen once: the page read again offers a fresh form
    again = fleet_page(client, world)
    assert not re.search(r'<option value="p2"[^>]*selected', again)


def test_an_offer_made_through_the_form_names_what_it_lends(client: Client, world: World) -> None:
    cid = world.campaign.pk
    client.force_login(world.users[0])
    chosen = {"kind": "loan", "other": "p1", "carriers": ["p0-g0"], "last": "3"}
    body = client.post(reverse("pact-propose", args=[cid, "p0"]), chosen, follow=True)
    text = " ".join(visible(body.content.decode()).split())
    loan = Loan.objects.get()
    assert (loan.borrower.key, loan.groups, loan.last) == ("p1", ["p0-g0"], 3)
    assert f"Loan proposed to {world.powers[1].name}." in text
    assert loan.key not in text and "p0-g0" not in text and not re.search(r"\bp1\b", text)
    assert "Group g0" in text and world.powers[1].name in text
    client.force_login(world.users[1])
    body = client.post(
        reverse("pact-act", args=[cid, "p1"]), {"key": loan.key, "action": "accept"},
        follow=True,
    )  # fmt: skip
    text = visible(body.content.decode())
    assert "Loan accepted." in text and loan.key not in text
    assert f"{world.powers[0].name}" in text and "Group g0" in text  # the loan in, in names
    # the group lent already: refused, named as typed
    client.force_login(world.users[0])
    body = client.post(reverse("pact-propose", args=[cid, "p0"]), chosen, follow=True)
    text = visible(body.content.decode())
    assert "groups: g0 is already lent or given" in text and "p0-g0" not in text


# --- each leak, named where it is made (economy.events.Names) -----------------------------

POWER_NAMES = {"nac": "New Anglian Confederation", "esu": "Eurasian Solar Union"}
STATE = {
    "round": 3,
    "powers": [{"id": "nac"}, {"id": "esu"}],
    "hubs": [{"id": "nac-core", "power": "nac"}, {"id": "esu-core", "power": "esu"}],
    "officers": [{"id": "nac-hale", "name": "Ada Hale"}],
    "battles": [{"id": "br-400c95b5", "hex": "0505", "powers": ["nac", "esu"], "craft": []}],
}


def test_another_powers_hub_is_never_read_as_the_readers_own() -> None:
    """Every power's first hub is "core": nac read esu's as "hub Core", its own (issue 30)."""
    names = Names.of_state(STATE, POWER_NAMES, {"nac-core": ""}, "nac")
    assert names.words("guild fee hub nac-core") == "guild fee hub Core"
    assert names.words("esu-core's centre") == "hub Core of Eurasian Solar Union's centre"
    assert names.place("hub:esu-core") == "hub Core of Eurasian Solar Union"
    # the sheet's names know only the reader's own hubs (``names_for``): the same for the rest
    sheet = Names(powers=POWER_NAMES, viewer="nac")
    gal = {"type": "market_sell", "resource": "gal", "amount": 3, "to": "esu-core"}
    assert (
        summary(gal, sheet) == "Sells 3 Gal for Ore, delivered to hub Core of Eurasian Solar Union"
    )
    assert sheet.words("esu-2 moves") == "2 of Eurasian Solar Union moves"
    assert sheet.words("nac-f9 completed") == "f9 completed"


def test_another_powers_groups_in_the_state_name_their_power() -> None:
    """esu's group 2 read "Group 2" to nac, as if it were nac's own (issue 30)."""
    state = {
        **STATE,
        "groups": [{"id": "esu-2", "power": "esu"}, {"id": "nac-1", "power": "nac"}],
        "statics": [{"id": "esu-yard", "power": "esu"}],
        "designs": [{"id": "esu-frigate", "name": "Frigate"}],
        "craft": [{"id": "esu-f1", "power": "esu", "design": "esu-frigate"}],
    }
    names = Names.of_state(state, POWER_NAMES, {}, "nac")
    assert names.name("groups", "esu-2") == "Group 2 of Eurasian Solar Union"
    assert names.name("groups", "nac-1") == "Group 1"
    assert names.name("statics", "esu-yard") == "Static yard of Eurasian Solar Union"
    assert names.name("craft", "esu-f1") == "f1 (Frigate) of Eurasian Solar Union"
    # with no reader (the organiser, a case) nothing is qualified
    assert Names.of_state(state, POWER_NAMES).name("groups", "esu-2") == "Group 2"


def test_officers_battles_shipments_and_mission_kinds_read_in_words() -> None:
    names = Names.of_state(STATE, POWER_NAMES, {}, "nac")
    assert names.words("pay of nac-hale") == "pay of Ada Hale"
    assert summary({"type": "assign_officer", "officer": "nac-hale", "group": "nac-1"}, names) == (
        "Assigns Ada Hale to command Group 1"
    )
    assert names.words("CF lost in battle br-400c95b5") == "CF lost in battle at 0505 (round 3)"
    destroyed = {"kind": "battle.destroyed", "data": {"battle": "br-400c95b5", "craft": "x"}}
    assert describe(destroyed, names) == "Battle record at 0505 (round 3): x was destroyed"
    unapplied = {
        "kind": "battle.not_applied",
        "data": {"battle": "br-400c95b5", "hex": "0505", "why": "it was expired"},
    }
    assert describe(unapplied, names) == (  # the hex once (its name says it)
        "Battle record at 0505 (round 3) was not applied: it was expired"
    )
    assert names.place("shipment:r6-esu-1") == "in transit: shipment 1 of round 6"
    assert names.words("goods r6-esu-1 arrive") == "goods shipment 1 of round 6 arrive"
    mission = {"type": "diplomatic_mission", "id": "m1", "diplomat": "nac-d", "target": "esu"}
    assert "on a terror cells mission" in summary({**mission, "kind": "terror_cells"}, names)


def test_an_officer_commissioned_this_round_is_named_on_the_sheet(
    client: Client, world: World
) -> None:
    p0 = world.powers[0]
    commission = {"type": "commission", "id": "hale", "rank": 1, "grade": 1, "name": "Ada Hale"}
    services.add_order(power=p0, payload=commission, actor="t")
    names = selectors.names_for(p0)
    assert names.name("officers", "p0-hale") == "Ada Hale"
    assert names.words("pay of p0-hale") == "pay of Ada Hale"
