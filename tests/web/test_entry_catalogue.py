"""Issue 13: the entry check reads only what the order names, answers exactly as the check on
the whole state would, and runs before the round row is locked (the lock covers the write)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from economy import catalogue, services
from economy.engine.validate import Catalog, catalog_of, check_order
from economy.models import Order, Round
from economy.snapshot import load_state
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

# Orders of p0 naming its own things, p1's things and things nobody has: every kind of lookup
# the engine's entry rules make (owner, holder, id taken, kind, power, map bounds, promises).
ORDERS: list[dict[str, Any]] = [
    {"type": "send_troops", "group": "p0-g0", "troops": 1},
    {"type": "send_troops", "group": "p1-g0", "troops": 1},
    {"type": "send_troops", "group": "nope", "troops": 1},
    {"type": "conscript", "system": "s0-1", "loyalty": 1},
    {"type": "conscript", "system": "s1-1", "loyalty": 1},
    {"type": "recover_troops", "group": "p0-g0", "system": "s1-2", "troops": 1},
    {"type": "market_sell", "resource": "ore", "amount": 3, "from": "hub0"},
    {"type": "market_sell", "resource": "ore", "amount": 3, "from": "hub1"},
    {"type": "gal_transfer", "to": "p1", "amount": 5},
    {"type": "gal_transfer", "to": "p9", "amount": 5},
    {"type": "hub_setup", "id": "p0-new", "centre": "0102", "nodes": ["0103"]},
    {"type": "hub_setup", "id": "hub1", "centre": "0102"},
    {"type": "hub_setup", "id": "p0-far", "centre": "9999"},
    {"type": "ship", "from_hub": "hub0", "to_hub": "hub1", "resource": "ore", "amount": 1},
    {"type": "recruit_troops", "at": "hub0", "troops": 1, "into": "p0-base"},
    {"type": "declare_group", "group": "p0-g0", "engages": ["p1", "p7"], "hex": "0101"},
    {"type": "build", "id": "p0-x1", "design": "p0-frigate", "builders": ["p0-y1"]},
    {"type": "build", "id": "p0-x2", "design": "p1-frigate", "builders": ["p1-y1"]},
    {"type": "build", "id": "p0-x3", "design": "p0-made", "builders": ["p0-y1"]},
    {"type": "make", "builder": "p0-y1", "kind": "fighter", "count": 2},
    {"type": "make", "builder": "p0-y1", "kind": "torpedo", "count": 2},
    {"type": "crew", "craft": "p0-b0"},
    {"type": "crew", "craft": "p1-b0"},
    {"type": "crew", "group": "p0-formed"},
    {"type": "adjust_build", "build": "p0-b0", "ore": 2},
    {"type": "form_group", "id": "p0-g9", "craft": ["p0-g0-f0", "p1-g0-f0"]},
    {"type": "supply_ep", "into": "p0-base", "ep": 1},
    {
        "type": "register_design",
        "id": "p0-d2",
        "class": "military",
        "mobility": "mobile",
        "mass": 10,
        "npv": 40,
        "systems": [{"id": "b1", "points": 3}],
        "loadout": {"fighter": 1, "mine": 2},
    },
]


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=2, systems_per_power=3)
    add_fleet(world, groups=1)
    # what p0's sheet creates this round (R-10.1a): a design and a group
    services.add_order(
        power=world.powers[0],
        payload={
            "type": "register_design",
            "id": "made",
            "class": "military",
            "mobility": "mobile",
            "mass": 10,
            "npv": 40,
            "systems": [{"id": "b1", "points": 3}],
        },
        actor="t",
    )
    services.add_order(
        power=world.powers[0],
        payload={"type": "form_group", "id": "formed", "craft": ["p0-g0-f0"]},
        actor="t",
    )
    return world


def whole_state_catalogue(world: World) -> Catalog:
    """What resolution checks against: the whole state, with p0's sheet's promises."""
    sheet = Order.objects.filter(sheet__power=world.powers[0]).order_by("position")
    return catalog_of(load_state(world.campaign), [("p0", o.position, o.payload) for o in sheet])


def test_the_narrow_catalogue_answers_as_the_whole_state_does(world: World) -> None:
    reference = whole_state_catalogue(world)
    power = world.powers[0]
    answers = [
        (
            check_order(catalogue.catalog_for(power, o), "p0", o),
            check_order(reference, "p0", o),
        )
        for o in ORDERS
    ]
    assert [narrow for narrow, _ in answers] == [whole for _, whole in answers]
    # the list exercises refusals and acceptances alike
    assert sum(1 for narrow, _ in answers if narrow) >= 10
    assert sum(1 for narrow, _ in answers if not narrow) >= 10


def test_the_catalogue_holds_only_what_the_order_names(world: World) -> None:
    order = {"type": "recover_troops", "group": "p0-g0", "system": "s1-2", "troops": 1}
    cat = catalogue.catalog_for(world.powers[0], order)
    assert cat.group_owner == {"p0-g0": "p0"}
    assert cat.system_holder == {"s1-2": "p1"}
    assert cat.ids == {"p0-g0", "s1-2"}
    assert cat.hub_owner == {} and cat.powers == set()
    assert cat.bounds is None  # no hex in this order: the map is not read


def test_an_order_naming_nothing_reads_nothing(world: World) -> None:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        cat = catalogue.catalog_for(world.powers[0], {"type": "research_project", "gal": 2})
    assert len(ctx.captured_queries) == 0
    assert cat.ids == set()


def test_the_map_bounds_come_from_its_hexes(world: World) -> None:
    # make_campaign: p0 in column 1, p1 in column 4, three rows each
    cat = catalogue.catalog_for(world.powers[0], {"type": "hub_setup", "centre": "0101"})
    assert cat.bounds == (4, 3)
    world.campaign.map_cols, world.campaign.map_rows = 20, 30
    assert catalogue.catalog_for(world.powers[0], {"type": "hub_setup"}).bounds == (20, 30)


def _round_is_free(campaign_id: int) -> bool:
    """From another connection: can the open round row be locked right now?"""
    free: list[bool] = []

    def probe() -> None:
        try:
            with transaction.atomic():
                Round.objects.select_for_update(nowait=True).get(
                    campaign_id=campaign_id, status="open"
                )
            free.append(True)
        except DatabaseError:
            free.append(False)
        finally:
            connection.close()

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join(30)
    return free == [True]


@pytest.mark.django_db(transaction=True)
def test_the_entry_check_runs_before_the_round_is_locked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = make_campaign("lock", n_powers=2, systems_per_power=2)
    power = world.powers[0]
    real = catalogue.catalog_for
    during: list[bool] = []

    def watched(p: Any, stored: dict[str, Any]) -> Catalog:
        during.append(_round_is_free(p.campaign_id))
        return real(p, stored)

    monkeypatch.setattr(catalogue, "catalog_for", watched)
    order = {"type": "send_troops", "group": "nope", "troops": 1}
    services.add_order(power=power, payload=order, actor="t")
    services.update_order(power=power, position=0, payload=order, actor="t")
    declaration = {"type": "declare_group", "group": "g"}
    services.set_declaration(power=power, payload=declaration, actor="t")
    assert during == [True, True, True]
    # and the order was still checked: kept with its error
    assert Order.objects.get(sheet__power=power, position=0).error.startswith("group: no such")
