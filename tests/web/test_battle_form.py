"""The structured battle record (issue 29, item 1): the roster of a battle — the craft of the
powers named at the hex, by name, with their designs' systems and the CF aboard — read in a
fixed number of queries, shown only to a power in the battle, at a hex where it was, and only
of the powers it named there; the page's form that enters and amends a record by picking (no
id typed), sending only the rows touched, keeping what was typed when refused; the API's
roster and the record's schema field by field."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from economy import services
from economy.models import Round
from fleet import selectors
from fleet.selectors import battle_roster
from ftcamp.errors import Refused
from powers.models import BattleRecord, Craft, FleetGroup
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def world() -> World:
    """p0's group g0 (frigates f0, f1) and base (the yard y1) at 0101, p1's group g0 moved
    there; p2's own at its homeworld 0701, and p2's group g0 at 0101 too (not named below)."""
    world = make_campaign("Battle form", n_powers=3, systems_per_power=2)
    add_fleet(world)
    FleetGroup.objects.filter(key__in=["p1-g0", "p2-g0"]).update(col=1, row=1)
    return world


def p(world: World, i: int) -> Any:
    return world.powers[i]


def page_client(world: World, i: int) -> Client:
    client = Client()
    client.force_login(world.users[i])
    return client


def visible(body: str) -> str:
    body = re.sub(r"(?s)<(script|style|textarea)\b.*?</\1>", " ", body)
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


# --- the roster -----------------------------------------------------------------------------


def test_the_roster_names_the_craft_of_the_named_powers_at_the_hex(world: World) -> None:
    Craft.objects.filter(key="p0-g0-f0").update(destroyed={"b1": 1}, crew=2)
    Craft.objects.filter(key="p1-g0-f1").update(destroyed={"eps": 1})
    roster = battle_roster(p(world, 0), "0101", ["p1", "p0"])
    assert roster.hex == "0101"
    assert [(c.name, c.design, c.power_name, c.where) for c in roster.craft] == [
        ("g0-f0", "Frigate", "Power 0", "Group g0"),
        ("g0-f1", "Frigate", "Power 0", "Group g0"),
        ("y1", "Yard", "Power 0", "Static base"),
        ("g0-f0", "Frigate", "Power 1", "Group g0"),
        ("g0-f1", "Frigate", "Power 1", "Group g0"),
    ]  # p2's group at the hex is not listed: p2 was not named
    f0 = roster.craft[0]
    assert [(s.key, s.name, s.count) for s in f0.systems] == [
        ("b1", "Class 1 beam", 1),
        ("eps", "EP store", 1),
    ]
    assert (f0.cf, f0.destroyed, f0.disabled, f0.static) == (2, {"b1": 1}, {}, False)
    theirs = roster.craft[4]
    assert (theirs.cf, theirs.destroyed, theirs.disabled) == (3, None, None)  # not shown
    assert roster.craft[2].static
    assert [(x.key, x.name) for x in roster.powers] == [("p0", "Power 0"), ("p1", "Power 1")]
    assert [(u.key, u.name, u.static, u.new) for u in roster.powers[1].carriers] == [
        ("p1-g0", "Group g0", False, False),
        ("p1-prizes-0101-r1", "a new group", False, True),
        ("p1-prize-base-0101-r1", "a new static", True, True),
    ]


def test_the_roster_lists_craft_in_orbit_with_their_builder(world: World) -> None:
    frigate = Craft.objects.get(key="p0-g0-f1")
    frigate.group, frigate.orbit = None, Craft.objects.get(key="p0-y1")
    frigate.save()
    roster = battle_roster(p(world, 0), "0101", ["p0", "p1"])
    where = {c.key: c.where for c in roster.craft}
    assert where["p0-g0-f1"] == "Static base, in orbit with y1"


def test_a_named_power_is_shown_only_at_that_hex(world: World) -> None:
    """The product decision (docs/decisions.md): a player may name any power of the campaign;
    the roster shows that power's craft at the battle's hex and nothing of it elsewhere."""
    roster = battle_roster(p(world, 0), "0101", ["p0", "p2"])
    assert {c.key for c in roster.craft if c.power == "p2"} == {"p2-g0-f0", "p2-g0-f1"}
    assert not {c.key for c in roster.craft} & {"p2-y1", "p1-g0-f0"}  # elsewhere; not named


@pytest.mark.parametrize(
    ("hex_", "powers", "text"),
    [
        ("9999", ["p0", "p1"], "hex: hex 9999 is outside the map"),
        ("01", ["p0", "p1"], "hex: expected hex XXYY"),
        ("0101", ["p1", "p2"], "powers: your own power is one of the powers in the battle"),
        ("0101", ["p0", "zz"], "powers: no such power: zz"),
        ("0101", "p0", "powers: expected a list of up to 20 power ids"),
        # p1's homeworld: p0 has nothing there, so it sees nothing there
        ("0401", ["p0", "p1"], "hex: you have no group, static or system at 0401"),
    ],
)
def test_the_roster_refuses_naming_the_field(
    world: World, hex_: str, powers: Any, text: str
) -> None:
    with pytest.raises(Refused) as refused:
        battle_roster(p(world, 0), hex_, powers)
    assert text in "; ".join(refused.value.errors)


def test_a_system_held_is_a_place_a_power_fought_at(world: World) -> None:
    """A power defending its system with no craft there may still see who attacked it."""
    FleetGroup.objects.filter(key="p0-g0").update(col=4, row=2)  # at p1's second system
    roster = battle_roster(p(world, 1), "0402", ["p1", "p0"])
    assert [c.key for c in roster.craft] == ["p0-g0-f0", "p0-g0-f1"]


def sized(name: str, systems: int) -> World:
    world = make_campaign(name, n_powers=2, systems_per_power=systems)
    add_fleet(world, groups=systems // 5)
    FleetGroup.objects.filter(key="p1-g0").update(col=1, row=1)
    return world


def test_the_roster_takes_the_same_queries_whatever_the_size() -> None:
    counts = []
    for name, systems in (("small", 5), ("large", 150)):
        world = sized(name, systems)
        power = p(world, 0)
        with CaptureQueriesContext(connection) as ctx:
            roster = battle_roster(power, "0101", ["p0", "p1"])
        assert len(roster.craft) >= 5
        counts.append(len(ctx.captured_queries))
        with CaptureQueriesContext(connection) as ctx:
            selectors.battle_sites(power)
        counts.append(len(ctx.captured_queries))
    assert counts[:2] == counts[2:], counts
    assert counts[0] <= 7


# --- the page's form ------------------------------------------------------------------------


def enter_url(world: World, power: str = "p0") -> str:
    return reverse("battle-enter", args=[world.campaign.pk, power])


def roster_url(world: World, power: str = "p0") -> str:
    return reverse("battle-roster", args=[world.campaign.pk, power])


PICKED = {"hex": "0101", "hex_other": "", "powers": ["p0", "p1"], "craft": ""}


def test_the_form_offers_the_hexes_and_powers_by_name(world: World) -> None:
    html = page_client(world, 0).get(reverse("battles", args=[world.campaign.pk, "p0"]))
    body = html.content.decode()
    form = body[body.index('id="enter-battle"') :]
    assert '<option value="0101">0101 · System 0-0 · Group g0, Static base</option>' in form
    assert 'disabled name="powers" value="p0" checked> Power 0' in form  # its own, fixed
    assert '<input type="hidden" name="powers" value="p0">' in form
    assert 'name="powers" value="p2"> Power 2' in form
    assert '<details class="shortcut"><summary>' in form  # the text lines, folded away


def test_the_roster_on_the_page_is_in_names(world: World) -> None:
    client = page_client(world, 0)
    body = client.get(roster_url(world), PICKED).content.decode()
    text = visible(body)
    assert "g0-f0 Frigate · Power 1 · Group g0" in text
    assert "y1 Yard · Power 0 · Static base" in text
    assert "p0-" not in text and "p1-" not in text and "b1" not in text  # no key shown
    assert 'name="lost:p0-g0-f0:b1" min="0" max="1" value="0" aria-label="Class 1 beam' in body
    assert 'name="cf:p1-g0-f0" min="0" max="3" value="0"' in body
    # the captor is one of the others; into: its groups at the hex, or a new one
    row = body[body.index('name="captor:p1-g0-f0"') :]
    row = row[: row.index("</tr>")]
    assert '<option value="p0">Power 0</option>' in row and "Power 1</option>" not in row
    assert '<option value="p0-g0">Group g0</option>' in row
    assert '<option value="p0-prizes-0101-r1">a new group</option>' in row
    assert "a new static" not in row  # a frigate goes into a group
    # picking the captor narrows into to its carriers, the first chosen
    picked = client.get(roster_url(world), {**PICKED, "captor:p1-g0-f0": "p0"}).content.decode()
    row = picked[picked.index('name="into:p1-g0-f0"') :]
    assert '<option value="p0-g0" selected>Group g0</option>' in row[: row.index("</tr>")]
    # a problem is said in the roster's place
    refused = client.get(roster_url(world), {**PICKED, "hex_other": "0401"}).content.decode()
    assert "you have no group, static or system at 0401" in refused
    assert "Pick the hex" in client.get(roster_url(world)).content.decode()


def test_only_the_power_itself_fetches_its_roster(world: World) -> None:
    for i in (1, 2):
        response = page_client(world, i).get(roster_url(world, "p0"), PICKED)
        assert response.status_code == 404
    stranger = Client()
    assert stranger.get(roster_url(world, "p0"), PICKED).status_code == 302  # to log in


def test_the_form_enters_a_record_by_picking_and_sends_only_rows_touched(world: World) -> None:
    client = page_client(world, 0)
    response = client.post(
        enter_url(world),
        {
            **PICKED,
            # every row as the form shows it: only three were changed
            **{f"cf:{k}": "0" for k in ("p0-g0-f0", "p0-g0-f1", "p0-y1", "p1-g0-f0")},
            "cf:p0-g0-f0": "1",
            "lost:p0-g0-f0:b1": "1",
            "lost:p0-g0-f0:eps": "0",
            "disabled:p0-g0-f1:b1": "0",
            "destroyed:p1-g0-f0": "1",
            "captor:p1-g0-f1": "p0",
            "into:p1-g0-f1": "p0-prizes-0101-r1",
            "captor:p0-g0-f1": "",
            "into:p0-g0-f1": "",
        },
    )
    assert response.status_code == 302, response.content.decode()
    record = BattleRecord.objects.get()
    lines = [
        (c.craft_key, c.destroyed, c.systems_destroyed, c.systems_disabled, c.cf_lost, c.into)
        for c in record.craft.order_by("position")
    ]
    assert lines == [
        ("p0-g0-f0", False, {"b1": 1}, {}, 1, ""),
        ("p1-g0-f0", True, {}, {}, 0, ""),
        ("p1-g0-f1", False, {}, {}, 0, "p0-prizes-0101-r1"),
    ]
    assert [p.power.key for p in record.parties.order_by("position")] == ["p0", "p1"]
    # the other power confirms it; it applies at the resolution, the prize in a new group
    page_client(world, 1).post(
        reverse("battle-act", args=[world.campaign.pk, "p1"]),
        {"record": record.key, "action": "confirm"},
    )
    assert BattleRecord.objects.get().status == "confirmed"
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    services.resolve_round(round_id=Round.objects.get(campaign=world.campaign, status="open").pk)
    assert not Craft.objects.filter(key="p1-g0-f0").exists()
    prize = Craft.objects.select_related("group", "power").get(key="p1-g0-f1")
    assert prize.group is not None
    assert (prize.power.key, prize.group.key) == ("p0", "p0-prizes-0101-r1")
    assert (prize.group.col, prize.group.row) == (1, 1)


def test_own_damage_starts_filled_in_and_is_sent_only_when_changed(world: World) -> None:
    Craft.objects.filter(key="p0-g0-f0").update(destroyed={"eps": 1})
    client = page_client(world, 0)
    body = client.get(roster_url(world), PICKED).content.decode()
    assert 'name="lost:p0-g0-f0:eps" min="0" max="1" value="1"' in body
    kept = {"lost:p0-g0-f0:b1": "0", "lost:p0-g0-f0:eps": "1", "cf:p0-g0-f0": "2"}
    assert client.post(enter_url(world), {**PICKED, **kept}).status_code == 302
    line = BattleRecord.objects.get().craft.get()
    assert (line.damage, line.cf_lost) == (False, 2)  # its damage left as it was
    BattleRecord.objects.all().delete()
    changed = {"lost:p0-g0-f0:b1": "1", "lost:p0-g0-f0:eps": "1"}
    assert client.post(enter_url(world), {**PICKED, **changed}).status_code == 302
    line = BattleRecord.objects.get().craft.get()
    assert (line.damage, line.systems_destroyed) == (True, {"b1": 1, "eps": 1})  # the sheet


def test_a_refused_record_keeps_what_was_typed_and_names_the_craft(world: World) -> None:
    client = page_client(world, 0)
    response = client.post(
        enter_url(world),
        {**PICKED, "cf:p1-g0-f0": "9", "lost:p1-g0-f0:b1": "1", "craft": "p1-g0-f1 destroyed"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert response.status_code == 200 and not BattleRecord.objects.exists()
    errors = visible(body[: body.index("</ul>")])
    assert "g0-f0 (Frigate, Power 1)" in errors and "CF lost" in errors, errors
    assert "p1-g0-f0" not in errors
    assert '<option value="0101" selected>' in body
    assert 'value="p1" checked> Power 1' in body
    assert 'name="cf:p1-g0-f0" min="0" max="3" value="9"' in body
    assert 'name="lost:p1-g0-f0:b1" min="0" max="1" value="1"' in body
    assert '<details class="shortcut" open>' in body and "p1-g0-f1 destroyed</textarea>" in body
    # a typed hex is kept where it was typed
    typed = client.post(
        enter_url(world),
        {**PICKED, "hex": "", "hex_other": "0401"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert 'name="hex_other" size="5" maxlength="4"' in typed and 'value="0401"' in typed
    assert "you have no group, static or system at 0401" in typed


def test_a_typed_line_keeps_its_number(world: World) -> None:
    body = (
        page_client(world, 0)
        .post(
            enter_url(world),
            {**PICKED, "cf:p1-g0-f0": "1", "craft": "p1-g0-f1 cf x"},
            headers={"HX-Request": "true"},
        )
        .content.decode()
    )
    assert "craft: typed line 1, CF lost: expected an integer" in body


def test_the_entering_power_amends_by_the_same_form(world: World) -> None:
    client = page_client(world, 0)
    client.post(enter_url(world), {**PICKED, "destroyed:p1-g0-f0": "1"})
    record = BattleRecord.objects.get()
    page = reverse("battles", args=[world.campaign.pk, "p0"])
    # the page offers it closed, fetched as it is opened; ?amend= opens it in the page
    closed = client.get(page).content.decode()
    assert f"{page}?part=amend&amp;amend={record.key}" in closed
    assert 'name="action" value="amend"' not in closed
    opened = client.get(page, {"amend": record.key}).content.decode()
    assert '<details class="amend" open>' in opened
    body = client.get(page, {"part": "amend", "amend": record.key}).content.decode()
    assert "<html" not in body
    amend = body
    assert f'<input type="hidden" name="record" value="{record.key}">' in amend
    assert 'name="destroyed:p1-g0-f0" value="1" aria-label="Destroyed" checked' in amend
    assert '<option value="0101" selected>' in amend
    act = reverse("battle-act", args=[world.campaign.pk, "p0"])
    client.post(
        act,
        {**PICKED, "record": record.key, "action": "amend", "cf:p1-g0-f0": "2"},
    )
    line = BattleRecord.objects.get().craft.get()
    assert (line.craft_key, line.destroyed, line.cf_lost) == ("p1-g0-f0", False, 2)
    client.post(act, {"record": record.key, "action": "withdraw"})
    assert BattleRecord.objects.get().status == "withdrawn"


def test_the_page_takes_the_same_queries_whatever_the_records_to_amend(world: World) -> None:
    """Each amend form reads its roster, so they come as they are opened (issue 30)."""
    client = page_client(world, 0)
    page = reverse("battles", args=[world.campaign.pk, "p0"])
    client.post(enter_url(world), {**PICKED, "destroyed:p1-g0-f0": "1"})
    client.get(page)
    with CaptureQueriesContext(connection) as one:
        client.get(page)
    client.post(enter_url(world), {**PICKED, "powers": ["p0", "p2"], "destroyed:p2-g0-f0": "1"})
    assert BattleRecord.objects.filter(status="proposed").count() == 2
    with CaptureQueriesContext(connection) as two:
        client.get(page)
    assert len(two.captured_queries) == len(one.captured_queries)
    other = client.get(page, {"part": "amend", "amend": "br-none"})
    assert other.status_code == 404


def test_the_record_shows_systems_by_name(world: World) -> None:
    client = page_client(world, 0)
    client.post(enter_url(world), {**PICKED, "disabled:p1-g0-f0:b1": "1"})
    for i in (0, 1):
        page = page_client(world, i).get(reverse("battles", args=[world.campaign.pk, f"p{i}"]))
        record = page.content.decode()
        record = record[record.index('class="card battle"') :]
        assert "Class 1 beam ×1" in visible(record[: record.index("</table>")])


# --- the API --------------------------------------------------------------------------------


def test_the_api_roster(world: World) -> None:
    base = f"/api/campaigns/{world.campaign.pk}/battles/roster/"
    r = page_client(world, 1).get(base, {"hex": "0101", "powers": "p1,p0"})
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["hex"] == "0101"
    assert [c["key"] for c in body["craft"]] == [
        "p1-g0-f0",
        "p1-g0-f1",
        "p0-g0-f0",
        "p0-g0-f1",
        "p0-y1",
    ]
    first = body["craft"][0]
    assert first["systems"][0] == {"id": "b1", "name": "Class 1 beam", "count": 1}
    assert (first["cf"], first["destroyed"], body["craft"][2]["destroyed"]) == (3, {}, None)
    assert body["powers"][1]["carriers"][0] == {
        "key": "p0-g0",
        "name": "Group g0",
        "static": False,
        "new": False,
    }
    r = page_client(world, 1).get(base, {"hex": "0101", "powers": "p0,p2"})
    assert r.status_code == 400 and "your own power" in json.dumps(r.json()["powers"])
    assert page_client(world, 1).get(base, {"powers": "p1,p0"}).status_code == 400
    # a player of another campaign, and nobody: 404 and 401/403
    other = make_campaign("Elsewhere", n_powers=1)
    assert page_client(other, 0).get(base, {"hex": "0101", "powers": "p0"}).status_code == 404
    assert Client().get(base, {"hex": "0101", "powers": "p0,p1"}).status_code in (401, 403)


def test_the_roster_record_goes_to_the_api_as_it_is(world: World) -> None:
    """A bot does what the page does: the roster's keys in a record."""
    client = page_client(world, 0)
    base = f"/api/campaigns/{world.campaign.pk}/battles/"
    roster = client.get(base + "roster/", {"hex": "0101", "powers": "p0,p1"}).json()
    target = next(c for c in roster["craft"] if c["power"] == "p1")
    system = target["systems"][0]
    record = {
        "hex": roster["hex"],
        "powers": [x["key"] for x in roster["powers"]],
        "craft": [
            {
                "craft": target["key"],
                "systems_destroyed": {system["id"]: system["count"]},
                "systems_disabled": {},
                "cf_lost": target["cf"],
            }
        ],
    }
    r = client.post(base, json.dumps(record), content_type="application/json")
    assert r.status_code == 201, r.json()


def test_the_schema_documents_the_record_field_by_field(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    record = schema["components"]["schemas"]["RecordInput"]["properties"]
    assert record["hex"]["pattern"] == "^[0-9]{4}$"
    assert record["powers"]["type"] == "array" and record["powers"]["minItems"] == 2
    line = record["craft"]["items"]
    assert line["required"] == ["craft"] and line["additionalProperties"] is False
    assert set(line["properties"]) == {
        "craft",
        "destroyed",
        "systems_destroyed",
        "systems_disabled",
        "cf_lost",
        "captured_by",
        "into",
    }
    counts = line["properties"]["systems_destroyed"]["additionalProperties"]
    assert (counts["type"], counts["minimum"]) == ("integer", 0)
    assert line["properties"]["cf_lost"]["minimum"] == 0
    assert line["properties"]["destroyed"]["type"] == "boolean"
    answer = schema["components"]["schemas"]["AnswerInput"]["properties"]
    assert answer["craft"]["items"] == line
    roster = schema["paths"]["/api/campaigns/{campaign_id}/battles/roster/"]["get"]
    assert {p["name"] for p in roster["parameters"]} == {"campaign_id", "hex", "powers"}
    assert "RosterCraft" in schema["components"]["schemas"]


def test_the_api_still_takes_what_it_took(world: World) -> None:
    """The schema documents; the service decides: a record is refused by it as before."""
    client = page_client(world, 0)
    base = f"/api/campaigns/{world.campaign.pk}/battles/"
    r = client.post(base, json.dumps({"hex": 101}), content_type="application/json")
    assert r.status_code == 400 and set(r.json()) >= {"hex", "powers", "craft"}
