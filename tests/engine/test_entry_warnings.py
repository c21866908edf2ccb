"""Issue 30: at entry, an amount beyond what the power holds where the field draws is warned
of, in words naming the field; never another power's holdings. The fields that draw come
from the order table (``Field.draws``), not a list per order type."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from economy.engine.catalog import Holdings
from economy.engine.codec import parse_state
from economy.engine.orders import SPECS
from economy.engine.orders.kinds import BANKED, Int
from economy.engine.validate import Catalog, draw_warnings

from .factory import campaign, group, static, system

STATE = parse_state(
    campaign(
        map={"size": {"cols": 32, "rows": 40}},
        powers={"terra": 57, "vargr": 9000},
        systems=[
            system("a", "0101", "terra", 5, stock={"ore": 40, "bio": 6, "pl": 30}),
            system("b", "0105", "terra", 5, stock={"bio": 2}),
            system("v", "0103", "vargr", 5, stock={"ore": 9000, "pl": 9000}),
        ],
        hubs=[
            {"id": "h", "power": "terra", "centre": "0105", "pool": {"bio": 25, "ore": 3}},
            {"id": "vh", "power": "vargr", "centre": "0103", "pool": {"bio": 9000}},
        ],
        groups=[
            group("g", "terra", "0101", troops=12),
            group("far", "terra", "0105"),
            group("deep", "terra", "0909"),
            group("vg", "vargr", "0103", troops=9000),
        ],
        statics=[static("st", "terra", "0101"), static("vs", "vargr", "0103")],
    )
)
TERRA = replace(Catalog.of(STATE), holdings=Holdings.of(STATE, "terra"))


def warnings(order: dict[str, Any]) -> list[str]:
    return draw_warnings(TERRA, order)


def test_every_drawing_field_is_an_amount_whose_place_and_resource_the_order_names() -> None:
    """The tags are data the check reads: each names fields its own order type has."""
    tagged = 0
    for spec in SPECS.values():
        names = {f.name for f in spec.fields}
        for f in spec.fields:
            if f.draws is None:
                continue
            tagged += 1
            assert isinstance(f.kind, Int), (spec.type, f.name)
            assert bool(f.draws.resource) != bool(f.draws.of), (spec.type, f.name)
            assert f.draws.of in names | {""}, (spec.type, f.name)
            banked = f.draws.resource in BANKED
            assert (f.draws.place in names) != banked, (spec.type, f.name)
    assert tagged >= 11


def test_r_5_6_a_transfer_beyond_the_treasury_is_warned_of_in_words() -> None:
    assert warnings({"type": "gal_transfer", "to": "vargr", "amount": 100_000}) == [
        "amount: 100,000 Gal is more than the 57 Gal your treasury holds"
    ]


def test_an_amount_within_the_holding_is_no_warning() -> None:
    assert warnings({"type": "gal_transfer", "to": "vargr", "amount": 57}) == []
    assert warnings({"type": "research_project", "gal": 56}) == []
    assert warnings({"type": "send_troops", "group": "g", "troops": 12}) == []


def test_each_place_is_its_own_stockpile() -> None:
    assert warnings({"type": "send_troops", "group": "g", "troops": 13}) == [
        "troops: 13 troops is more than the 12 troops group:g holds"
    ]
    ore = {"type": "market_sell", "resource": "ore", "amount": 41, "from": "a"}
    assert warnings(ore) == ["amount: 41 Ore is more than the 40 Ore system:a holds"]
    assert warnings({**ore, "amount": 4, "from": "h"}) == [
        "amount: 4 Ore is more than the 3 Ore hub:h holds"
    ]
    ship = {"type": "ship", "from_hub": "h", "to_hub": "h2", "resource": "bio", "amount": 26}
    assert warnings(ship) == ["amount: 26 Bio is more than the 25 Bio hub:h holds"]


def test_gal_sold_comes_from_the_bank_whatever_place_is_named() -> None:
    sale = {"type": "market_sell", "resource": "gal", "amount": 58, "to": "a"}
    assert warnings(sale) == ["amount: 58 Gal is more than the 57 Gal your treasury holds"]


def test_troops_raised_from_pl_say_what_they_need() -> None:
    recruit = {"type": "recruit_troops", "at": "a", "troops": 31, "into": "g"}
    assert warnings(recruit) == ["troops: 31 troops need 31 PL, more than the 30 PL system:a holds"]
    assert warnings({"type": "home_defense", "system": "a", "troops": 30}) == []


def test_r_1_4_ep_is_paid_in_bio_from_what_reaches_the_hex() -> None:
    """Bio reaches ``far`` from the hub covering its hex (25) rather than its system (2); the
    warning is against the most that may reach it, never more than is held there."""
    supply = {"type": "supply_ep", "into": "far", "ep": 1_000_000}
    assert warnings(supply) == [
        "ep: 1,000,000 EP need 1,000,000 Bio, more than the 25 Bio that can reach the hex of "
        "group:far"
    ]
    assert warnings({**supply, "ep": 25}) == []
    assert warnings({**supply, "into": "st", "ep": 7}) == [
        "ep: 7 EP need 7 Bio, more than the 6 Bio that can reach the hex of static:st"
    ]
    assert warnings({**supply, "into": "deep", "ep": 1}) == [
        "ep: 1 EP need 1 Bio, more than the 0 Bio that can reach the hex of group:deep"
    ]


def test_several_fields_each_get_their_own_warning() -> None:
    mission = {"type": "diplomatic_mission", "gal": 58, "tp": 1, "pl": 10**6}
    assert warnings(mission) == [
        "gal: 58 Gal is more than the 57 Gal your treasury holds",
        "tp: 1 TP is more than the 0 TP your treasury holds",
    ]


@pytest.mark.parametrize(
    "order",
    [
        {"type": "send_troops", "group": "vg", "troops": 13},
        {"type": "market_sell", "resource": "ore", "amount": 41, "from": "v"},
        {"type": "ship", "from_hub": "vh", "to_hub": "h", "resource": "bio", "amount": 26},
        {"type": "supply_ep", "into": "vs", "ep": 1_000_000},
        {"type": "embark", "at": "nowhere", "pl": 10**9, "into": "st"},
    ],
)
def test_another_powers_holdings_are_never_told(order: dict[str, Any]) -> None:
    """Another power's place (or none at all) gives no warning, so no word of what it holds;
    the entry rules already say "no such ... of yours" for it."""
    assert warnings(order) == []


@pytest.mark.parametrize(
    "amount", ["100000", 1.5, True, None, [3]], ids=["text", "float", "bool", "none", "list"]
)
def test_an_amount_that_is_no_whole_number_is_left_to_the_rules(amount: Any) -> None:
    assert warnings({"type": "gal_transfer", "to": "vargr", "amount": amount}) == []


def test_an_order_without_a_drawing_field_is_no_warning() -> None:
    assert warnings({"type": "guild_join", "hub": "h"}) == []
    assert draw_warnings(TERRA, ["not", "an", "order"]) == []
    assert draw_warnings(TERRA, {"type": "teleport", "amount": 10**9}) == []
