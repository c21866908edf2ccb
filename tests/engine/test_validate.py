"""Order entry validation: each error names the field (contracts §1 order table)."""

from __future__ import annotations

from typing import Any

import pytest

from economy.engine.codec import parse_state
from economy.engine.orders import SPECS
from economy.engine.validate import Catalog, catalog_of, check_order

from .factory import campaign, group, system

STATE = parse_state(
    campaign(
        map={"size": {"cols": 32, "rows": 40}},
        powers={"terra": 10, "vargr": 0},
        systems=[system("a", "0101", "terra", 5), system("v", "0103", "vargr", 5)],
        hubs=[
            {"id": "h", "power": "terra", "centre": "0101"},
            {"id": "vh", "power": "vargr", "centre": "0103"},
        ],
        groups=[group("g", "terra", "0101"), group("vg", "vargr", "0103")],
    )
)
CATALOG = Catalog.of(STATE)


def errors(order: dict[str, Any], power: str = "terra") -> list[str]:
    return check_order(CATALOG, power, order)


def test_every_core_order_type_is_known() -> None:
    core = {
        "declare_group", "send_troops", "recover_troops", "convert_invasion", "conscript",
        "market_sell", "ship", "gal_transfer", "hub_setup", "hub_maintain", "guild_join",
        "guild_leave", "designate_primary", "drop_primary", "nominate_homeworld",
        "research_project", "recruit_troops", "home_defense", "planetary_project",
    }  # fmt: skip
    assert core <= set(SPECS)


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ({"type": "gal_transfer", "to": "vargr", "amount": 0}, "amount: expected a positive"),
        ({"type": "gal_transfer", "to": "vargr", "amount": -3}, "amount: expected a positive"),
        ({"type": "gal_transfer", "to": "vargr", "amount": 1.5}, "amount: expected a positive"),
        ({"type": "gal_transfer", "to": "vargr", "amount": True}, "amount: expected a positive"),
        ({"type": "gal_transfer", "to": "vargr", "amount": "5"}, "amount: expected a positive"),
        ({"type": "gal_transfer", "to": "ghost", "amount": 5}, "to: unknown power 'ghost'"),
        ({"type": "gal_transfer", "amount": 5}, "to: missing"),
        ({"type": "send_troops", "group": "vg", "troops": 5}, "group: no such group of yours"),
        ({"type": "send_troops", "group": "zz", "troops": 5}, "group: no such group of yours"),
        ({"type": "ship", "from_hub": "h", "to_hub": "vh", "resource": "ore", "amount": 1},
         "to_hub: no such hub of yours: 'vh'"),
        ({"type": "ship", "from_hub": "h", "to_hub": "h", "resource": "ore", "amount": 1},
         "to_hub: must differ"),
        ({"type": "ship", "from_hub": "h", "to_hub": "h", "resource": "gal", "amount": 1},
         "resource: expected one of ore, bio, pl"),
        ({"type": "conscript", "system": "v", "loyalty": 1}, "system: no such system"),
        ({"type": "market_sell", "resource": "gal", "amount": 5}, "to: missing"),
        ({"type": "market_sell", "resource": "ore", "amount": 5}, "from: missing"),
        ({"type": "market_sell", "resource": "ore", "amount": 5, "from": "vh"},
         "from: no such hub or system of yours: 'vh'"),
        ({"type": "hub_setup", "id": "a", "centre": "0105"}, "id: id 'a' is already used"),
        ({"type": "hub_setup", "id": "n", "centre": "105"}, "centre: expected hex XXYY"),
        ({"type": "hub_setup", "id": "n", "centre": "0105", "links": [["0105"]]},
         "links: expected a list of hex pairs"),
        ({"type": "research_project", "gal": 3}, "gal: 2 Gal buy 1 TP"),
        ({"type": "planetary_project", "system": "a", "source": "ore", "target": "ore",
          "pct": 10}, "target: must differ"),
        ({"type": "planetary_project", "system": "a", "source": "ore", "target": "gal",
          "pct": 101}, "pct: expected an integer 0..100"),
        ({"type": "declare_group", "group": "g", "order": "fly"}, "order: expected one of"),
        ({"type": "declare_group", "group": "g", "hex": "abcd"}, "hex: expected hex XXYY"),
        ({"type": "declare_group", "group": "g", "hex": "9999"},
         "hex: hex 9999 is outside the map (32 × 40)"),
        ({"type": "declare_group", "group": "g", "engages": ["terra"]},
         "engages: a group cannot engage its own power terra"),
        ({"type": "declare_group", "group": "g", "engages": ["ghost"]},
         "engages: unknown power 'ghost'"),
        ({"type": "declare_group", "group": "g", "engages": "vargr"},
         "engages: expected a list of power ids"),
        ({"type": "declare_group", "group": "g", "defending": "yes"},
         "defending: expected true or false"),
        ({"type": "hub_setup", "id": "n", "centre": "3301"}, "centre: hex 3301 is outside the map"),
        ({"type": "hub_extend", "hub": "h", "links": []}, "links: an extension adds at least one"),
        ({"type": "hub_extend", "hub": "vh", "links": [["0103", "0105"]]},
         "hub: no such hub of yours"),
        ({"type": "hub_extend", "hub": "h", "nodes": ["0141"], "links": [["0101", "0141"]]},
         "nodes: hex 0141 is outside the map"),
        ({"type": "hub_maintain", "hub": "h", "keep_links": [["0101", "0141"]]},
         "keep_links: hex 0141 is outside the map"),
        ({"type": "distribute", "hub": "h", "shares": [{"hex": "3301", "ore": 0}]},
         "shares: hex 3301 is outside the map"),
        ({"type": "teleport"}, "type: unknown order type 'teleport'"),
        ({"group": "g"}, "type: unknown order type None"),
    ],
)  # fmt: skip
def test_bad_orders_name_the_field(order: dict[str, Any], message: str) -> None:
    found = errors(order)
    assert any(message in e for e in found), found


@pytest.mark.parametrize(
    "order",
    [
        {"type": "gal_transfer", "to": "vargr", "amount": 5},
        {"type": "declare_group", "group": "g"},
        {"type": "market_sell", "resource": "gal", "amount": 2, "to": "h"},
        {"type": "market_sell", "resource": "ore", "amount": 2, "from": "a"},
        {"type": "hub_maintain", "hub": "h", "keep_nodes": [], "keep_links": []},
        {"type": "planetary_project", "system": "a", "source": "ore", "target": "gal", "pct": 0},
        {"type": "recruit_troops", "at": "h", "troops": 1, "into": "g"},
        {"type": "distribute", "hub": "h", "shares": [{"hex": "0101", "ore": 0}]},
        {"type": "hub_maintain", "hub": "h", "close": True},
        {
            "type": "declare_group",
            "group": "g",
            "hex": "3240",
            "engages": ["vargr"],
            "defending": False,
        },
        {"type": "hub_extend", "hub": "h", "nodes": ["0102"], "links": [["0101", "0102"]]},
    ],
)
def test_good_orders_pass(order: dict[str, Any]) -> None:
    assert errors(order) == []


def test_default_bounds_are_the_listed_hexes_and_old_catalogs_have_none() -> None:
    state = parse_state(campaign(map={"hexes": [{"hex": "0508", "type": "system"}]}))
    catalog = Catalog.of(state)
    assert catalog.bounds == (5, 8)
    order = {"type": "declare_group", "group": "g", "hex": "0509"}
    assert check_order(catalog, "terra", order) == [
        "group: no such group of yours: 'g'",
        "hex: hex 0509 is outside the map (5 × 8)",
    ]
    # a catalog built without bounds (the shell's old call) checks the shape only
    bare = Catalog(set(), {}, {}, {}, {}, set())
    assert bare.bounds is None


FLEET = parse_state(
    campaign(
        powers={"terra": 0, "vargr": 0},
        systems=[system("a", "0101", "terra", 5)],
        groups=[group("g", "terra", "0101", "hold_build")],
        statics=[{"id": "st", "power": "terra", "hex": "0101"}],
        catalogue=[{"kind": "fighter", "mass": 2, "ore": 7}],
        designs=[
            {"id": "yard", "power": "terra", "class": "civilian", "mobility": "static",
             "mass": 90, "npv": 50, "systems": [{"id": "cy", "points": 20, "construction": 30}]},
            {"id": "vd", "power": "vargr", "class": "military", "mobility": "mobile",
             "mass": 9, "npv": 9, "systems": []},
        ],
        craft=[{"id": "y", "power": "terra", "design": "yard", "static": "st"}],
        builds=[{"id": "b", "power": "terra", "design": "yard", "builders": ["y"], "inside": True,
                 "cost": 50}],
    )
)  # fmt: skip
NEW_DESIGN = {"type": "register_design", "id": "d", "class": "military", "mobility": "mobile",
              "mass": 9, "npv": 30, "systems": [{"id": "s", "points": 20}]}  # fmt: skip


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (NEW_DESIGN | {"npv": 19}, "npv: NPV 19 is below its systems' point cost 20 (R-10.0)"),
        (NEW_DESIGN | {"systems": [{"id": "s"}]}, "systems: systems[0].points: missing"),
        (NEW_DESIGN | {"loadout": {"fighter": 0}}, "loadout: fighter: expected a positive"),
        (NEW_DESIGN | {"id": "y"}, "id: id 'y' is already used"),
        ({"type": "build", "id": "n", "design": "vd", "builders": ["y"]},
         "design: no such design of yours: 'vd'"),
        ({"type": "build", "id": "n", "design": "yard", "builders": ["y", "y"]},
         "builders: expected a non-empty list of distinct ids"),
        ({"type": "build", "id": "n", "design": "yard", "builders": ["b"]},
         "builders: no such craft of yours: 'b'"),
        ({"type": "build", "id": "n", "design": "yard", "builders": ["y"], "ore": -1},
         "ore: expected an integer >= 0"),
        ({"type": "adjust_build", "build": "b"}, "cancel: either cancel"),
        ({"type": "crew", "craft": "ghost"}, "craft: no such craft of yours: 'ghost'"),
        ({"type": "crew"}, "craft: give either a group or a craft"),
        ({"type": "supply_ep", "into": "y", "ep": 1},
         "into: no such group or static of yours: 'y'"),
        ({"type": "make", "builder": "y", "kind": "fighter", "count": 0}, "count: expected"),
        ({"type": "form_group", "id": "f", "craft": ["y"], "kind": "armada"}, "kind: expected"),
    ],
)  # fmt: skip
def test_bad_fleet_orders_name_the_field(order: dict[str, Any], message: str) -> None:
    found = check_order(Catalog.of(FLEET), "terra", order)
    assert any(message in e for e in found), found


@pytest.mark.parametrize(
    "order",
    [
        NEW_DESIGN,
        NEW_DESIGN | {"loadout": {"fighter": 2}, "crew": 0, "name": "Dart"},
        {"type": "build", "id": "n", "design": "yard", "builders": ["y"], "ore": 0},
        {"type": "adjust_build", "build": "b", "ore": 5, "builders": ["y"]},
        {"type": "adjust_build", "build": "b", "cancel": True},
        {"type": "unbuild", "id": "u", "craft": "y", "builder": "y"},
        {"type": "make", "builder": "y", "kind": "fighter", "count": 3},
        {"type": "crew", "craft": "b"},  # R-10.1a: the craft work in progress becomes
        {"type": "crew", "group": "g", "cf": 2},
        {"type": "supply_ep", "into": "st", "ep": 4},
    ],
)
def test_good_fleet_orders_pass(order: dict[str, Any]) -> None:
    assert check_order(Catalog.of(FLEET), "terra", order) == []


def test_ids_a_sheet_creates_can_be_named_in_it() -> None:
    """R-10.1a: a design registered, a craft finished and a group formed this round can be
    built, crewed, supplied and grouped by later orders of the same sheet (not another's)."""
    sheet = [
        ("terra", 0, NEW_DESIGN),
        ("terra", 1, {"type": "build", "id": "nb", "design": "d", "builders": ["y"]}),
        ("terra", 2, {"type": "form_group", "id": "ng", "craft": ["nb"]}),
        ("terra", 3, {"type": "crew", "group": "ng"}),
        ("terra", 4, {"type": "supply_ep", "into": "ng", "ep": 2}),
        ("vargr", 0, {"type": "crew", "group": "ng"}),
        ("terra", 5, {"type": "declare_group", "group": "ng"}),
    ]
    catalog = catalog_of(FLEET, sheet)
    found = {(p, i): check_order(catalog, p, raw) for p, i, raw in sheet}
    assert [k for k, e in found.items() if e] == [("vargr", 0), ("terra", 5)]
    assert found[("vargr", 0)] == ["group: no such group of yours: 'ng'"]
    assert found[("terra", 5)] == ["group: no such group of yours: 'ng'"]
