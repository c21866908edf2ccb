"""The Command page (issue 16): a power's officers with pay and post, its command bubbles with
their radii (the officer's grade, R-8.3a), sensors against the limit, patrols and Ore upkeep,
its research craft with the TP each would make (R-8.1), its diplomats and missions. Another
power gets a 404; the queries do not grow with the number of officers or bubbles."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from command import pages as command_pages
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    CommandBubble,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    MapHex,
    Power,
    StarSystem,
)
from powers.models.command import (
    CommandSettings,
    Diplomat,
    Mission,
    Officer,
    OutpostSensor,
    PostOfficer,
    PostPatrol,
)
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = pytest.mark.django_db


def officer(power: Power, key: str, rank: int, grade: int, name: str = "", **kw: object) -> Officer:
    return Officer.objects.create(
        campaign=power.campaign,
        power=power,
        key=f"{power.key}-{key}",
        name=name,
        rank=rank,
        grade=grade,
        **kw,
    )


def bubble(
    power: Power, key: str, col: int, row: int, hq: Officer, radius: int = 1
) -> CommandBubble:
    b = CommandBubble.objects.create(
        campaign=power.campaign,
        power=power,
        key=f"{power.key}-{key}",
        hq_col=col,
        hq_row=row,
        radius=radius,
    )
    PostOfficer.objects.create(bubble=b, officer=hq)
    return b


@pytest.fixture
def world() -> World:
    world = make_campaign("Command pages", n_powers=2, systems_per_power=3)
    add_fleet(world, groups=1)
    p0 = world.powers[0]
    # R-8.3a: the HQ's radius is its officer's grade (3), not the typed radius (1)
    admiral = officer(p0, "adm", 5, 3, "Admiral Vance", penalties=[{"rolls": -2, "until": 4}])
    captain = officer(p0, "cpt", 2, 2, "Captain Oro")
    officer(p0, "lt", 1, 1, "Lt Kade", craft=Craft.objects.get(key="p0-g0-f0"))
    b = bubble(p0, "north", 1, 1, admiral)
    BubbleSensor.objects.bulk_create(BubbleSensor(bubble=b, col=1, row=r) for r in (2, 3))
    outpost = BubbleOutpost.objects.create(bubble=b, col=1, row=4, radius=1)
    PostOfficer.objects.create(bubble=b, outpost=outpost, officer=captain)
    OutpostSensor.objects.create(outpost=outpost, col=1, row=5)
    PostPatrol.objects.create(bubble=b, group=FleetGroup.objects.get(key="p0-g0"))
    # a research craft (35 research, 60 passenger, 50 PL aboard) in a group on Hold-Research
    # in a dust cloud: floor(35/10) x floor(50/25) x 2 = 3 x 2 x 2 = 12 TP
    MapHex.objects.create(campaign=world.campaign, col=2, row=6, hex_type="dust_cloud")
    lab = Design.objects.create(
        campaign=world.campaign, power=p0, key="p0-lab", name="Lab ship", craft_class="civilian",
        mobility="mobile", mass=20, npv=40, crew=2, completed=True,
    )  # fmt: skip
    DesignSystem.objects.create(
        design=lab, position=0, key="rs", name="Labs", points=10, research=35, passenger=60
    )
    rg = FleetGroup.objects.create(
        campaign=world.campaign, power=p0, key="p0-rg", col=2, row=6, order="hold_research",
        points=40, ep=1,
    )  # fmt: skip
    lab_craft = Craft.objects.create(
        campaign=world.campaign, power=p0, key="p0-lab1", design=lab, group=rg, crew=2,
        consumables={"pl": 50},
    )  # fmt: skip
    Diplomat.objects.create(
        campaign=world.campaign, power=p0, key="p0-envoy", name="Envoy Sel", craft=lab_craft
    )
    target = world.powers[1]
    Mission.objects.create(
        campaign=world.campaign, power=p0, key="p0-m1", diplomat="p0-envoy", target=target,
        kind="summit", declared=1, spent={"gal": 30, "tp": 5},
        system=StarSystem.objects.get(key="s1-0"),
        outcome={"text": "The summit went well.", "reveal": [], "moves": [], "loyalty": []},
    )  # fmt: skip
    Mission.objects.create(
        campaign=world.campaign, power=p0, key="p0-m2", diplomat="p0-envoy", target=target,
        kind="reveal_hub", declared=2, spent={"pl": 10},
    )  # fmt: skip
    return world


def page(client: Client, world: World, who: int = 0, power: str = "p0") -> str:
    client.force_login(world.users[who])
    response = client.get(reverse("command", args=[world.campaign.pk, power]))
    assert response.status_code == 200
    return response.content.decode()


def text(html: str) -> str:
    """What a reader sees: the page without its tags (keys stay in data- attributes only)."""
    return re.sub(r"<[^>]+>", " ", html)


def row(html: str, attr: str, key: str) -> str:
    match = re.search(rf'<tr {attr}="{re.escape(key)}">(.*?)</tr>', html, re.S)
    assert match, f"no row {key}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip()


def test_officers_show_pay_points_penalties_and_posts(client: Client, world: World) -> None:
    html = page(client, world)
    assert row(html, "data-officer", "p0-adm") == (
        "Admiral Vance 5 3 250 5 Gal -2 to its rolls through round 4 "
        "commands the HQ of bubble north at 0101 senior officer of bubble north; over Captain Oro"
    )
    assert row(html, "data-officer", "p0-cpt") == (
        "Captain Oro 2 2 100 2 Gal none commands the outpost of bubble north at 0104 "
        "answers to Admiral Vance, at the HQ 0101"
    )
    assert row(html, "data-officer", "p0-lt") == (
        "Lt Kade 1 1 50 1 Gal none aboard craft g0-f0 (Frigate) of group g0 serves aboard"
    )
    assert '<td class="num" id="officers-pay">8 Gal</td>' in html  # the pay: 5 + 2 + 1


def test_a_penalty_past_its_round_is_not_shown(client: Client, world: World) -> None:
    world.campaign.current_round = 5
    world.campaign.save(update_fields=["current_round"])
    assert "to its rolls" not in page(client, world)


def test_bubbles_show_radius_sensors_patrols_and_upkeep(client: Client, world: World) -> None:
    html = page(client, world)
    assert "HQ 0101, System 0-0" in html
    assert row(html, "data-post", "0101") == (
        "HQ 0101 System 0-0 Admiral Vance 3 0102, 0103 (2 of 8 beyond the free array) g0 (1 of 5)"
    )
    assert row(html, "data-post", "0104") == (
        "Outpost 0104 deep space Captain Oro 2 0105 (1 of 4 beyond the free array) none (0 of 2)"
    )
    assert "Upkeep: <strong>15 Ore</strong> a round (3 sensors × 5 Ore)" in html


def test_research_shows_the_tp_at_its_hex(client: Client, world: World) -> None:
    html = page(client, world)
    assert row(html, "data-craft", "lab1") == (
        "lab1 rg 0206 dust cloud 35 60 50 Hold – Research ×2 12 TP"
    )
    # 24 researchers: floor(24 / 25) = 0, so no TP however good the hex
    Craft.objects.filter(key="p0-lab1").update(consumables={"pl": 24})
    assert row(page(client, world), "data-craft", "lab1").endswith("×2 0 TP")


def test_an_active_area_of_special_interest_gives_five(client: Client, world: World) -> None:
    CommandSettings.objects.update_or_create(
        campaign=world.campaign,
        defaults={"interest_col": 2, "interest_row": 6, "interest_announced": 1,
                  "interest_starts": 1, "interest_ends": 3},
    )  # fmt: skip
    html = page(client, world)
    # 3 x 2 x 5 = 30 TP (R-8.1: the Area of Special Interest replaces the dust cloud's 2)
    assert row(html, "data-craft", "lab1") == (
        "lab1 rg 0206 Area of Special Interest 35 60 50 Hold – Research ×5 30 TP"
    )
    assert "Area of Special Interest at 0206: announced in round 1, active rounds 1–3" in html


def test_a_group_not_on_hold_research_makes_none(client: Client, world: World) -> None:
    FleetGroup.objects.filter(key="p0-rg").update(order="maintain_orbit")
    cells = row(page(client, world), "data-craft", "lab1")
    assert "Maintain Orbit" in cells and "none (not on Hold – Research; 12 TP there" in cells


def test_diplomats_and_missions_with_outcomes(client: Client, world: World) -> None:
    html = page(client, world)
    assert row(html, "data-diplomat", "p0-envoy") == "Envoy Sel lab1 0206"
    assert row(html, "data-mission", "p0-m1") == (
        "Summit Envoy Sel Power 1 System 1-0 (0401) 1 30 Gal, 5 TP The summit went well."
    )
    assert row(html, "data-mission", "p0-m2") == (
        "Reveal a trade hub Envoy Sel Power 1 — 2 10 PL waiting for the admin's decision"
    )


def test_names_not_keys_and_nothing_of_another_power(client: Client, world: World) -> None:
    officer(world.powers[1], "spy", 3, 3, "Spymaster Ilo")
    officer(world.powers[0], "nameless", 1, 1, "p0-nameless")  # the engine names it by its id
    html = page(client, world)
    assert "p0-" not in text(html)
    assert row(html, "data-officer", "p0-nameless").startswith("nameless 1 1 50 1 Gal")
    assert "Spymaster" not in html and "p1-" not in html


def test_empty_states(client: Client, world: World) -> None:
    html = page(client, world, who=1, power="p1")
    assert "No officers yet." in html and "No command bubbles." in html
    assert "None of your craft has both research capacity" in html
    assert "No diplomats." in html and "You have declared no diplomatic missions." in html
    assert "Envoy Sel" not in html and "Admiral" not in html


def test_another_power_gets_a_404(client: Client, world: World) -> None:
    client.force_login(world.users[1])
    response = client.get(reverse("command", args=[world.campaign.pk, "p0"]))
    assert response.status_code == 404
    assert b"Admiral" not in response.content


def test_the_dashboard_and_fleet_page_link_to_it(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("command", args=[world.campaign.pk, "p0"])
    for name in ("dashboard", "fleet"):
        response = client.get(reverse(name, args=[world.campaign.pk, "p0"]))
        assert response.status_code == 200 and f'href="{url}"' in response.content.decode()


def _more(world: World, n: int) -> None:
    """``n`` more officers, each commanding a bubble of its own with an outpost, sensors and
    a patrol, far from the others."""
    p0 = world.powers[0]
    for i in range(n):
        hq = officer(p0, f"x{i}", 3, 1)
        junior = officer(p0, f"y{i}", 1, 1)
        b = bubble(p0, f"b{i}", 20 + 3 * i, 20, hq)
        BubbleSensor.objects.create(bubble=b, col=20 + 3 * i, row=21)
        o = BubbleOutpost.objects.create(bubble=b, col=20 + 3 * i, row=22)
        PostOfficer.objects.create(bubble=b, outpost=o, officer=junior)
        OutpostSensor.objects.create(outpost=o, col=20 + 3 * i, row=23)
        g = FleetGroup.objects.create(
            campaign=world.campaign, power=p0, key=f"p0-pg{i}", col=20 + 3 * i, row=20
        )
        PostPatrol.objects.create(bubble=b, outpost=o, group=g)


def test_queries_do_not_grow_with_officers_and_bubbles(client: Client, world: World) -> None:
    client.force_login(world.users[0])
    url = reverse("command", args=[world.campaign.pk, "p0"])
    counts = []
    for n in (0, 5):
        _more(world, n)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(ctx))
    assert "p0-" not in text(response.content.decode())
    assert counts == [QUERIES, QUERIES]
    power = Power.objects.select_related("campaign").get(pk=world.powers[0].pk)
    with CaptureQueriesContext(connection) as ctx:
        command_pages.command_page(power=power)
    assert len(ctx) == 20


# the selector's 20, the session, the user, the gate and the live round; issue 29: the
# navigation bar's count of what waits on the player, 8 (tests/web/test_query_counts.py);
# issue 31: its count of unread messages, 1
QUERIES = 33
