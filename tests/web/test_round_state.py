"""Issue 13: the projected statement reuses the live round's parsed state, cached per process
under (round id, state version); every write to the state bumps the version in its own
transaction (PostgreSQL triggers), so the cache never serves a state older than the
database's."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from economy import selectors, services
from economy.engine.codec import dump_state
from economy.models import Round
from economy.snapshot import load_state, round_state
from powers.models import (
    BubbleOutpost,
    CommandBubble,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    Power,
    StarSystem,
)
from powers.models.command import OutpostSensor
from tests.helpers import postgresql_only
from tests.web.factories import World, add_fleet, make_campaign
from trade import services as trade_services
from trade.models import TradeHub

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=3, systems_per_power=3)
    add_fleet(world, groups=2)
    TradeHub.objects.filter(campaign=world.campaign).update(guild=True)
    Power.objects.filter(campaign=world.campaign).update(un_member=True)
    return world


def live(world: World) -> Round:
    return Round.objects.get(campaign=world.campaign, status="open")


@postgresql_only
def test_a_state_is_parsed_once_per_version(world: World) -> None:
    first = round_state(world.campaign, live(world))
    with CaptureQueriesContext(connection) as ctx:
        again = round_state(world.campaign, live(world))
    assert again is first
    assert len(ctx.captured_queries) == 1  # the round's version only


def _edit_system(world: World) -> None:
    system = StarSystem.objects.get(campaign=world.campaign, key="s0-1")
    system.stock_ore += 7
    system.save()


def _agree(world: World) -> None:
    p0, p1 = world.powers[:2]
    agreement = trade_services.propose_agreement(
        power=p0,
        partner_key="p1",
        terms=trade_services.Terms(
            deposit="0201",
            delivery=2,
            a_resource="ore",
            a_amount=10,
            b_resource="bio",
            b_amount=4,
        ),
        actor="t",
    )
    for power, hub in ((p0, "hub0"), (p1, "hub1")):
        trade_services.name_hubs(
            power=power, key=agreement.key, send_hub=hub, receive_hub=hub, actor="t"
        )
    trade_services.answer_agreement(power=p1, key=agreement.key, accept=True, actor="t")


def _motion(world: World) -> None:
    drafted = trade_services.draft_motion(
        power=world.powers[0], fields={"kind": "ban", "power": "p1"}, actor="t"
    )
    trade_services.submit_motion(power=world.powers[0], key=drafted.key, actor="t")


def _rename_hub(world: World) -> None:
    hub = TradeHub.objects.get(campaign=world.campaign, key="hub1")
    hub.pool_bio += 3
    hub.save()


def _drop_group(world: World) -> None:
    Craft.objects.filter(campaign=world.campaign, group__key="p1-g1").delete()
    FleetGroup.objects.get(campaign=world.campaign, key="p1-g1").delete()


def _design_system(world: World) -> None:
    # a child row without a campaign of its own: found through its design
    design = Design.objects.get(campaign=world.campaign, key="p0-frigate")
    DesignSystem.objects.create(design=design, position=9, key="b2", name="Beam", points=1)


def _bulk_update(world: World) -> None:
    # no model signal sees this: the database's trigger does
    StarSystem.objects.filter(campaign=world.campaign, holder__key="p1").update(loyalty=1)


def _raw_sql(world: World) -> None:
    with connection.cursor() as cur:
        cur.execute(
            f"UPDATE {Power._meta.db_table} SET tp = tp + 1 WHERE campaign_id = %s",  # noqa: S608
            [world.campaign.pk],
        )


def _map_size(world: World) -> None:
    world.campaign.map_cols, world.campaign.map_rows = 40, 40
    world.campaign.save()


WRITES: dict[str, Callable[[World], None]] = {
    "a system edited (the admin)": _edit_system,
    "an agreement accepted": _agree,
    "a motion put to the committee": _motion,
    "a hub's pool changed": _rename_hub,
    "a group deleted": _drop_group,
    "a design's system added": _design_system,
    "the map's size set": _map_size,
    "systems updated in bulk": _bulk_update,
    "powers updated by raw SQL": _raw_sql,
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_to_the_state_makes_the_cache_miss(
    world: World, write: Callable[[World], None]
) -> None:
    before = round_state(world.campaign, live(world))
    write(world)
    world.campaign.refresh_from_db()
    after = round_state(world.campaign, live(world))
    fresh = dump_state(load_state(world.campaign))
    assert after.start == fresh
    assert before.start != fresh  # the write changed the state, and the cache saw it


def test_the_projection_shows_a_change_made_after_it_was_cached(
    client: Client, world: World
) -> None:
    power = world.powers[0]
    services.add_order(power=power, payload={"type": "research_project", "gal": 2}, actor="t")
    client.force_login(world.users[0])
    url = reverse("api-projection", args=[world.campaign.pk])
    bank = [s for s in client.get(url).json()["stocks"] if s["where"] == "bank"]
    assert bank and bank[0]["before"] == 100  # make_campaign: p0 has 100 Gal
    power.gal = 150
    power.save()
    response = client.get(url)
    assert response.status_code == 200
    bank = [s for s in response.json()["stocks"] if s["where"] == "bank"]
    assert [(s["resource"], s["before"]) for s in bank] == [("gal", 150), ("tp", 0)]


def test_resolution_and_rollback_start_afresh(world: World) -> None:
    power = world.powers[0]
    selectors.projected_statement(power)  # cached under round 1
    for p in world.powers:
        services.submit_sheet(power=p, actor="t")
    first = live(world)
    assert services.resolve_round(round_id=first.pk)
    second = live(world)
    assert second.pk != first.pk  # a new round: a new key
    world.campaign.refresh_from_db()
    assert round_state(world.campaign, second).start == dump_state(load_state(world.campaign))
    version = Round.objects.get(pk=first.pk).state_version
    services.rollback_to(campaign=world.campaign, number=1, actor="gm")
    assert Round.objects.get(pk=first.pk).state_version > version


@postgresql_only
def test_every_table_of_the_state_has_its_triggers() -> None:
    """A new model of the state needs the triggers (economy migration 0004's ``install``)."""
    from django.apps import apps

    triggers = importlib.import_module("economy.migrations.0004_state_version_triggers")
    expected = {table for table, _ in triggers.state_tables(apps)}
    with connection.cursor() as cur:
        cur.execute(
            "SELECT c.relname, count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE t.tgname LIKE 'ftcamp_state_%%' GROUP BY c.relname"
        )
        installed = dict(cur.fetchall())
    assert installed == {table: 3 for table in expected}
    assert {"powers_starsystem", "trade_hublink", "powers_designsystem"} <= expected


@postgresql_only
def test_a_grandchild_row_finds_its_campaign(world: World) -> None:
    """An outpost's sensor has no campaign and neither has its outpost: the trigger goes
    through the outpost to the bubble (migration 0004's four-argument form)."""
    bubble = CommandBubble.objects.create(
        campaign=world.campaign, power=world.powers[0], key="p0-b9", hq_col=1, hq_row=1
    )
    outpost = BubbleOutpost.objects.create(bubble=bubble, col=2, row=1)
    before = live(world).state_version
    OutpostSensor.objects.create(outpost=outpost, col=3, row=1)
    assert live(world).state_version == before + 1
