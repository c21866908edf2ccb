"""Command bubbles and the Area of Special Interest on the maps (issue 16): a post's radius is
its officer's grade (R-8.3a), an outpost's sensors are drawn with the HQ's on the owner's map
only (Support §5.2.6, R-8.3), and the Area of Special Interest is on the public map and every
power's map while announced or active, with its rounds (R-8.1a)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns import map_selectors
from economy.engine.hexgrid import Hex, within
from powers.maps import render_svg
from powers.models import BubbleOutpost, BubbleSensor, CommandBubble, Power
from powers.models.command import CommandSettings, Officer, OutpostSensor, PostOfficer
from tests.web.factories import World, make_campaign
from tests.web.test_maps import assert_no_trace_of

pytestmark = pytest.mark.django_db

HQ, OUTPOST, HQ_SENSOR, OUTPOST_SENSOR, ASI = "3035", "3037", "3134", "3238", "2010"


def _officer(power: Power, key: str, rank: int, grade: int) -> Officer:
    return Officer.objects.create(
        campaign=power.campaign, power=power, key=f"{power.key}-{key}", name=key.upper(),
        rank=rank, grade=grade,
    )  # fmt: skip


@pytest.fixture
def world() -> World:
    """p1 has a bubble: the HQ under an officer of grade 3 (the typed radius is 1), an outpost
    under one of grade 2 (typed 1), a sensor of each."""
    world = make_campaign("Command maps", n_powers=3)
    p1 = world.powers[1]
    bubble = CommandBubble.objects.create(
        campaign=world.campaign, key="p1-hidden", power=p1, radius=1, hq_col=30, hq_row=35
    )
    outpost = BubbleOutpost.objects.create(bubble=bubble, col=30, row=37, radius=1)
    PostOfficer.objects.create(bubble=bubble, officer=_officer(p1, "chief", 4, 3))
    PostOfficer.objects.create(bubble=bubble, outpost=outpost, officer=_officer(p1, "jr", 2, 2))
    BubbleSensor.objects.create(bubble=bubble, col=31, row=34)
    OutpostSensor.objects.create(outpost=outpost, col=32, row=38)
    return world


def svg_of(world: World, who: int | None) -> str:
    if who is None:
        return render_svg(map_selectors.public_map(campaign=world.campaign))
    power = Power.objects.select_related("campaign").get(pk=world.powers[who].pk)
    return render_svg(map_selectors.private_map(power=power))


def test_radii_are_the_officers_grades_and_outpost_sensors_are_drawn(world: World) -> None:
    power = Power.objects.select_related("campaign").get(pk=world.powers[1].pk)
    data = map_selectors.private_map(power=power)
    assert data.private is not None
    (view,) = data.private.bubbles
    assert view.radius == 3 and view.outposts == ((Hex.parse(OUTPOST), 2),)
    assert view.sensors == (Hex.parse(HQ_SENSOR),)
    assert view.outpost_sensors == ((Hex.parse(OUTPOST_SENSOR), Hex.parse(OUTPOST)),)
    assert view.coverage == frozenset(within(Hex.parse(HQ), 3)) | frozenset(
        within(Hex.parse(OUTPOST), 2)
    )
    svg = svg_of(world, 1)
    assert "Command bubble hidden (HQ 3035, radius 3)" in svg
    assert f"Outpost {OUTPOST} (radius 2)" in svg
    assert f"Sensor {HQ_SENSOR} of the HQ {HQ}" in svg
    assert f"Sensor {OUTPOST_SENSOR} of the outpost {OUTPOST}" in svg
    assert 'class="sensor outpost-sensor"' in svg


def test_no_bubble_or_sensor_on_the_public_or_another_powers_map(world: World) -> None:
    for who in (None, 0, 2):
        svg = svg_of(world, who)
        assert_no_trace_of(svg, [HQ, OUTPOST, HQ_SENSOR, OUTPOST_SENSOR])
        assert "hidden" not in svg and "CHIEF" not in svg and 'class="sensor' not in svg


def test_the_legend_names_both_kinds_of_sensor(client: Client, world: World) -> None:
    client.force_login(world.users[1])
    response = client.get(reverse("map-private", args=[world.campaign.pk, "p1"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "• sensor of an HQ, ○ sensor of an outpost" in html
    panel = client.get(
        reverse("map-private-hex", args=[world.campaign.pk, "p1", OUTPOST_SENSOR]),
        headers={"HX-Request": "true"},
    )
    assert panel.status_code == 200
    assert "Sensor of bubble hidden, from its outpost 3037" in panel.content.decode()
    client.force_login(world.users[0])
    other = client.get(reverse("map-private-hex", args=[world.campaign.pk, "p0", OUTPOST_SENSOR]))
    assert other.status_code == 200 and "bubble" not in other.content.decode()


def _interest(world: World, announced: int, starts: int, ends: int) -> None:
    col, row = Hex.parse(ASI).col, Hex.parse(ASI).row
    CommandSettings.objects.update_or_create(
        campaign=world.campaign,
        defaults={"interest_col": col, "interest_row": row, "interest_announced": announced,
                  "interest_starts": starts, "interest_ends": ends},
    )  # fmt: skip


def _round(world: World, number: int) -> None:
    world.campaign.current_round = number
    world.campaign.save(update_fields=["current_round"])


def test_the_area_of_special_interest_is_public_while_announced_or_active(
    client: Client, world: World
) -> None:
    _interest(world, announced=1, starts=3, ends=4)
    _round(world, 2)  # announced, not yet active
    for who in (None, 0, 1, 2):
        svg = svg_of(world, who)
        assert f'<g class="special-interest" data-hex="{ASI}">' in svg
        assert "announced in round 1, active rounds 3–4 (active from round 3" in svg
    _round(world, 4)  # active
    assert "active rounds 3–4 (active now" in svg_of(world, None)
    response = client.get(reverse("map-public", args=[world.campaign.pk]))
    assert response.status_code == 200
    assert "ASI, dashed outline: Area of Special Interest at 2010" in response.content.decode()
    _round(world, 5)  # over: the engine drops it at the next resolution; no longer drawn
    for who in (None, 1):
        assert "special-interest" not in svg_of(world, who)
    response = client.get(reverse("map-public", args=[world.campaign.pk]))
    assert response.status_code == 200 and "ASI, dashed" not in response.content.decode()
