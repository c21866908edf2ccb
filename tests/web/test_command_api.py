"""The command API (issue 16): a power's officers, bubbles with their posts, diplomats and
missions, research craft, and the Area of Special Interest; each power sees its own only, a
mission against it only once resolved (R-8.4), a user of no campaign a 404 and a visitor a
401/403; the schema documents every route."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from powers.models import (
    BubbleOutpost,
    Campaign,
    CommandBubble,
    Craft,
    Design,
    DesignSystem,
    MapHex,
)
from powers.models.command import CommandSettings, Mission, Officer, PostOfficer
from tests.web.factories import World, make_campaign
from tests.web.test_access import clients
from tests.web.test_command_secrecy import CANARY, plant

pytestmark = pytest.mark.django_db

ROUTES = ("officers", "bubbles", "diplomats", "missions", "research-craft", "special-interest")


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=2)
    plant(world)
    return world


def api(world: World, who: str = "owner") -> tuple[Client, str]:
    return clients(world)[who], f"/api/campaigns/{world.campaign.pk}/"


def test_the_owner_reads_its_officers_bubbles_diplomats_and_missions(world: World) -> None:
    client, base = api(world)
    officers = client.get(base + "officers/").json()
    assert [(o["key"], o["name"], o["max_points"], o["value"], o["post"]) for o in officers] == [
        (f"p0-{CANARY}o1", "Zqcmd5Admiral Vantablack", 150, 150 + 250,
         {"bubble": f"p0-{CANARY}b", "hex": "0101"}),
        (f"p0-{CANARY}o2", "Zqcmd5Ensign Fulvous", 50, 50 + 50,
         {"bubble": f"p0-{CANARY}b", "hex": "0303"}),
    ]  # fmt: skip
    assert officers[0]["flag_officer"] is False and officers[0]["craft"] is None
    [bubble] = client.get(base + "bubbles/").json()
    assert bubble == {
        "key": f"p0-{CANARY}b",
        "hq": {"hex": "0101", "officer": f"p0-{CANARY}o1", "radius": 3, "sensors": ["0203"],
               "sensor_limit": 6, "patrols": [], "patrol_limit": 3},
        "outposts": [
            {"hex": "0303", "officer": f"p0-{CANARY}o2", "radius": 1, "sensors": ["0304"],
             "sensor_limit": 2, "patrols": [], "patrol_limit": 1}
        ],
    }  # fmt: skip
    assert client.get(base + "diplomats/").json() == [
        {"key": f"p0-{CANARY}d", "name": "Zqcmd5Envoy Glaucous", "craft": "p0-g0-f0"}
    ]
    [mission] = client.get(base + "missions/").json()
    assert mission["mine"] and mission["target"] == "p1" and mission["spent"] == {"gal": 7}
    assert mission["resolved"] is False and mission["outcome"] is None


def test_the_radius_is_the_officers_grade(world: World) -> None:
    """R-8.3a: derived, whatever the row says."""
    client, base = api(world)
    CommandBubble.objects.filter(key=f"p0-{CANARY}b").update(radius=1)
    assert client.get(base + "bubbles/").json()[0]["hq"]["radius"] == 3


def test_the_target_sees_a_mission_only_once_resolved_and_only_its_text(world: World) -> None:
    client, base = api(world, "other power")
    assert client.get(base + "missions/").json() == []
    Mission.objects.filter(key=f"p0-{CANARY}m").update(
        outcome={
            "text": "The hub's ledgers were copied.",
            "reveal": ["hub1 at 0401"],
            "moves": [{"resource": "gal", "amount": 5, "from": "p1", "to": "p0"}],
            "loyalty": [],
        }
    )
    [seen] = client.get(base + "missions/").json()
    assert seen == {
        "key": None,  # the id the sender chose stays the sender's
        "mine": False,
        "sender": "p0",
        "target": "p1",
        "kind": "reveal_hub",
        "declared": 1,
        "system": None,
        "diplomat": None,
        "spent": {},
        "resolved": True,
        "outcome": {"text": "The hub's ledgers were copied.", "reveal": [], "moves": [],
                    "loyalty": []},
    }  # fmt: skip
    owner, _ = api(world)
    assert owner.get(base + "missions/").json()[0]["outcome"]["reveal"] == ["hub1 at 0401"]


def test_another_power_sees_none_a_stranger_404_a_visitor_401(world: World) -> None:
    other, base = api(world, "other power")
    assert [o["key"] for o in other.get(base + "officers/").json()] == ["p1-o1"]
    for what in ("bubbles", "diplomats", "missions", "research-craft", "special-interest"):
        assert other.get(base + what + "/").json() == [], what
    stranger, _ = api(world, "other campaign")
    for what in ROUTES:
        assert stranger.get(base + what + "/").status_code == 404, what
        assert Client().get(base + what + "/").status_code in (401, 403), what


def test_research_craft_and_what_they_would_make(world: World) -> None:
    """Support §4.3.2: floor(capacity / 10) x floor(researchers / 25) x factor."""
    design = Design.objects.get(key="p0-frigate")
    DesignSystem.objects.create(
        design=design, position=9, key="lab", name="Lab", points=1, research=25, passenger=60
    )
    Craft.objects.filter(key="p0-g0-f0").update(consumables={"pl": 55})
    client, base = api(world)
    rows = {c["key"]: c for c in client.get(base + "research-craft/").json()}
    assert set(rows) == {"p0-g0-f0", "p0-g0-f1"}
    f0 = rows["p0-g0-f0"]
    assert (f0["research"], f0["passenger"], f0["researchers"]) == (25, 60, 55)
    assert (f0["hex"], f0["hex_type"]) == ("0101", "system") and f0["tp_per_round"] == 0
    MapHex.objects.filter(campaign=world.campaign, col=1, row=1).update(hex_type="dust_cloud")
    f0 = {c["key"]: c for c in client.get(base + "research-craft/").json()}["p0-g0-f0"]
    assert f0["tp_per_round"] == 2 * 2 * 2
    CommandSettings.objects.update_or_create(
        campaign=world.campaign,
        defaults={"interest_col": 1, "interest_row": 1, "interest_announced": 1,
                  "interest_starts": 1, "interest_ends": 3},
    )  # fmt: skip
    f0 = {c["key"]: c for c in client.get(base + "research-craft/").json()}["p0-g0-f0"]
    assert (f0["hex_type"], f0["tp_per_round"]) == ("special_interest", 2 * 2 * 5)


def test_the_area_of_special_interest_is_public_to_the_players(world: World) -> None:
    client, base = api(world, "other power")
    assert client.get(base + "special-interest/").json() == []
    CommandSettings.objects.update_or_create(
        campaign=world.campaign,
        defaults={"interest_col": 5, "interest_row": 5, "interest_announced": 1,
                  "interest_starts": 3, "interest_ends": 4},
    )  # fmt: skip
    assert client.get(base + "special-interest/").json() == [
        {"hex": "0505", "announced": 1, "starts": 3, "ends": 4, "active": False}
    ]
    CommandSettings.objects.update(interest_starts=1, interest_ends=1)
    assert client.get(base + "special-interest/").json()[0]["active"] is True
    Campaign.objects.filter(pk=world.campaign.pk).update(current_round=2)  # over (R-8.1a)
    assert client.get(base + "special-interest/").json() == []


def test_the_schema_lists_the_command_routes() -> None:
    world = make_campaign(n_powers=1)
    schema = Client().get("/api/schema/?format=json").json()
    for what in ROUTES:
        assert f"/api/campaigns/{{campaign_id}}/{what}/" in schema["paths"], what
    assert "Officer" in schema["components"]["schemas"]
    assert "Bubble" in schema["components"]["schemas"]
    assert world.campaign.pk


def test_the_reads_take_the_same_queries_however_many_bubbles_and_officers(world: World) -> None:
    client, base = api(world)

    def queries() -> list[int]:
        out = []
        for what in ROUTES:
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(base + what + "/").status_code == 200
            out.append(len(ctx))
        return out

    before = queries()
    p0 = world.powers[0]
    for i in range(3):
        bubble = CommandBubble.objects.create(
            campaign=world.campaign, key=f"p0-more{i}", power=p0, hq_col=8, hq_row=2 + 3 * i
        )
        outpost = BubbleOutpost.objects.create(bubble=bubble, col=9, row=2 + 3 * i)
        for post in (None, outpost):
            officer = Officer.objects.create(
                campaign=world.campaign, key=f"p0-x{i}{post is None}", power=p0, name="X",
                rank=2, grade=1,
            )  # fmt: skip
            PostOfficer.objects.create(bubble=bubble, outpost=post, officer=officer)
    assert queries() == before
