"""Case parsing (malformed paths), dumping, and the ``expect`` comparison (contracts §1)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from economy.engine.case import check_expect, load_case, run_case
from economy.engine.codec import CaseError, dump_state, parse_state

CASES = Path(__file__).resolve().parent.parent / "cases"
CASE_007 = json.loads((CASES / "007-shipment-between-own-hubs.json").read_text())
FLEET = json.loads(
    (CASES / "204-r-10-1a-gantry-lost-when-moving-statics-need-none.json").read_text()
)
ORBITS = json.loads(
    (CASES / "211-r-7-4a-orbiting-craft-statics-and-out-of-supply.json").read_text()
)


def broken(path: list[Any], value: Any, base: dict[str, Any] = CASE_007) -> dict[str, Any]:
    case = copy.deepcopy(base)
    target = case
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return case


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (["state", "systems", 1, "rates", "ore"], "ten", "state.systems[1].rates.ore"),
        (["state", "systems", 0, "rates", "gal"], KeyError, "state.systems[0].rates.gal"),
        (["state", "systems", 0, "hex"], "01A1", "state.systems[0].hex"),
        (["state", "systems", 0, "holder"], "nobody", "state.systems[0].holder"),
        (["state", "hubs", 0, "links"], [["0101"]], "state.hubs[0].links[0]"),
        (["state", "hubs", 1, "id"], "a", "state.hubs[1].id"),
        (["state", "powers", 0, "gal"], 1.5, "state.powers[0].gal"),
        (["state", "market", "rates", "ore>bio"], "1.00001", "state.market.rates.ore>bio"),
        (["state", "market", "tax", "ore>bio"], "2", "state.market.tax.ore>bio"),
        (["state", "round"], KeyError, "state.round"),
        (["state", "systems"], {"a": 1}, "state.systems"),
        (["orders", "ghost"], [], "orders.ghost"),
        (["orders", "terra"], {"type": "ship"}, "orders.terra"),
        (["format"], "ftcamp-case/2", "format"),
        (["expect"], [], "expect"),
    ],
)
def test_malformed_case_names_the_path(path: list[Any], value: Any, where: str) -> None:
    with pytest.raises(CaseError) as info:
        load_case(broken(path, value))
    assert info.value.path == where
    assert str(info.value).startswith(where + ":")


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (["state", "craft", 1, "static"], "base", "state.craft[1].group"),
        (["state", "craft", 1, "design"], "ghost", "state.craft[1].design"),
        (["state", "craft", 1, "group"], "nowhere", "state.craft[1].group"),
        (["state", "craft", 0, "static"], "ghost", "state.craft[0].static"),
        (["state", "craft", 1, "destroyed"], {"cs": 2}, "state.craft[1].destroyed"),
        (["state", "craft", 1, "disabled"], {"zz": 1}, "state.craft[1].disabled.zz"),
        (["state", "craft", 1, "consumables"], {"torpedo": 1},
         "state.craft[1].consumables.torpedo"),
        (["state", "craft", 1, "gantry"], "0000", "state.craft[1].gantry"),
        (["state", "designs", 0, "npv"], 10, "state.designs[0].npv"),
        (["state", "designs", 0, "class"], "pirate", "state.designs[0].class"),
        (["state", "designs", 0, "systems", 1, "id"], "cy", "state.designs[0].systems[1].id"),
        (["state", "designs", 0, "loadout"], {"torpedo": 1}, "state.designs[0].loadout.torpedo"),
        (["state", "catalogue", 0, "kind"], "ore", "state.catalogue[0].kind"),
        (["state", "builds", 0, "paid"], 41, "state.builds[0].cost"),
        (["state", "builds", 0, "builders"], ["ghost"], "state.builds[0].builders[0]"),
        (["state", "builds", 1, "builders"], ["t1", "t2"], "state.builds[1].builders"),
        (["state", "builds", 0, "hex"], KeyError, "state.builds[0].hex"),
        (["state", "builds", 0, "design"], "ghost", "state.builds[0].design"),
        (["state", "fleet", "group_limits"], {"armada": {"points": 1}},
         "state.fleet.group_limits.armada"),
    ],
)  # fmt: skip
def test_malformed_fleet_names_the_path(path: list[Any], value: Any, where: str) -> None:
    """R-10: craft in exactly one place, designs whose NPV covers their systems, work in
    progress at its power's builders, consumables from the catalogue."""
    with pytest.raises(CaseError) as info:
        load_case(broken(path, value, FLEET))
    assert info.value.path == where


def test_a_craft_orbits_only_a_builder() -> None:
    with pytest.raises(CaseError, match=r"state.craft\[1\].orbit: 'hull2' is not a builder"):
        load_case(broken(["state", "craft", 1, "orbit"], "hull2", ORBITS))
    with pytest.raises(CaseError, match=r"state.craft\[1\].orbit: 'fresh' is not a builder"):
        load_case(broken(["state", "craft", 1, "orbit"], "fresh", ORBITS))


def test_group_figures_follow_their_craft() -> None:
    """R-10.7: a group's points, troop space and EP storage derive from its craft; a bare
    ``points`` group keeps its own figures (old cases stay valid)."""
    state = load_case(ORBITS).state
    ge = next(g for g in state.groups if g.id == "ge")
    assert (ge.points, ge.troop_space, ge.ep_storage) == (160, 0, 10)  # 8 + fresh's 2 in orbit
    bare = load_case(CASE_007).state
    assert all(g.ep_storage is None for g in bare.groups)


def test_two_homeworlds_for_one_power_is_malformed() -> None:
    case = broken(["state", "systems", 0, "type"], "homeworld")
    case["state"]["systems"][1]["type"] = "homeworld"
    with pytest.raises(CaseError, match=r"state.systems\[1\].type: terra already has Homeworld a"):
        load_case(case)


def test_shipment_to_unknown_hub_is_dangling() -> None:
    case = broken(["state", "shipments"], [
        {"id": "x", "power": "terra", "to_hub": "nowhere", "resource": "ore", "amount": 1,
         "arrives": 2},
    ])  # fmt: skip
    with pytest.raises(CaseError, match=r"state.shipments\[0\].to_hub: unknown hub"):
        load_case(case)


@pytest.mark.parametrize("base", [CASE_007, FLEET, ORBITS], ids=["007", "204", "211"])
def test_dump_then_parse_round_trips(base: dict[str, Any]) -> None:
    state = load_case(base).state
    dumped = dump_state(state)
    assert dump_state(parse_state(json.loads(json.dumps(dumped)))) == dumped


def expect_mismatches(expect: dict[str, Any]) -> list[str]:
    case = load_case({**CASE_007, "expect": expect})
    return check_expect(expect, run_case(case))


def test_expect_partial_by_id_and_nested() -> None:
    assert expect_mismatches({"hubs": [{"id": "west", "pool": {"ore": 98}}]}) == []
    assert expect_mismatches({"hubs": [{"id": "west", "pool": {"ore": 97}}]}) == [
        "hubs[id=west].pool.ore: expected 97, got 98"
    ]
    assert expect_mismatches({"hubs": [{"id": "ghost"}]}) == [
        'hubs[id=ghost]: expected {"id": "ghost"}, got nothing'
    ]


def test_expect_empty_list_means_empty() -> None:
    assert expect_mismatches({"invasions": []}) == []
    assert expect_mismatches({"shipments": []})[0].startswith("shipments: expected [], got")


def test_expect_decimals_by_value_and_plain_lists_as_multisets() -> None:
    assert expect_mismatches({"market": {"rates": {"ore>bio": "1"}}}) == []
    assert expect_mismatches({"market": {"rates": {"ore>bio": "1.5"}}}) != []
    case = load_case(CASE_007)
    result = run_case(case)
    result.state.hubs[0].nodes = ["0103", "0105"]
    assert check_expect({"hubs": [{"id": "west", "nodes": ["0105", "0103"]}]}, result) == []
    assert check_expect({"hubs": [{"id": "west", "nodes": ["0105"]}]}, result) != []


def test_expect_idless_lists_need_distinct_matches() -> None:
    case = load_case(CASE_007)
    result = run_case(case)
    from economy.engine.state import Invasion

    result.state.invasions = [Invasion("a", "terra", {"troops": 5})]
    ok = {"invasions": [{"system": "a"}]}
    assert check_expect(ok, result) == []
    twice = {"invasions": [{"system": "a"}, {"system": "a"}]}
    assert check_expect(twice, result) != []


def test_expect_rejected_is_exact_and_ledger_contains() -> None:
    assert expect_mismatches({"rejected": []}) == []
    assert expect_mismatches({"rejected": [{"power": "terra", "index": 0}]}) != []
    line = {"step": "resource.5.2", "where": "hub:west", "amount": -2, "rule": "R-5.4"}
    assert expect_mismatches({"ledger_contains": [line]}) == []
    assert expect_mismatches({"ledger_contains": [{**line, "amount": -3}]}) == [
        'ledger_contains[0]: expected {"amount": -3, "rule": "R-5.4", "step": "resource.5.2", '
        '"where": "hub:west"}, got no such line'
    ]


def test_expect_rejected_reason_must_appear_in_the_error() -> None:
    """Contracts §1: ``reason`` is a phrase of the error, case-insensitive."""
    case = load_case({**CASE_007, "orders": {"terra": [{"type": "teleport"}]}})
    result = run_case(case)
    assert result.rejected[0].error == "type: unknown order type 'teleport'"
    ok = {"rejected": [{"power": "terra", "index": 0, "reason": "Unknown Order TYPE"}]}
    assert check_expect(ok, result) == []
    wrong = {"rejected": [{"power": "terra", "index": 0, "reason": "not enough gal"}]}
    assert check_expect(wrong, result) == [
        f'rejected[0].reason: expected "not enough gal", got "{result.rejected[0].error}"'
    ]


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (["state", "hubs", 0, "lost"], ["0111"], "state.hubs[0].lost[0]"),
        (["state", "map", "size"], {"cols": 0, "rows": 5}, "state.map.size.cols"),
        (["state", "map", "size"], {"cols": 5, "rows": 100}, "state.map.size.rows"),
        (["state", "map", "size"], {"cols": 5}, "state.map.size.rows"),
        (["state", "shipments"], [{"id": "x", "power": "terra", "to_hub": None, "resource": "ore",
                                   "amount": 1, "arrives": 2}], "state.shipments[0].to_hub"),
        (["state", "shipments"], [{"id": "x", "power": "terra", "to_hub": None, "resource": "ore",
                                   "amount": 1, "arrives": 2, "waiting_for": ["1"]}],
         "state.shipments[0].waiting_for[0]"),
        (["state", "groups"], [{"id": "g", "power": "terra", "hex": "0101",
                                "engages": ["ghost"]}], "state.groups[0].engages[0]"),
        (["state", "groups"], [{"id": "g", "power": "terra", "hex": "0101",
                                "engages": [["terra"]]}], "state.groups[0].engages[0]"),
        (["state", "groups"], [{"id": "g", "power": "terra", "hex": "0101",
                                "defending": 1}], "state.groups[0].defending"),
    ],
)  # fmt: skip
def test_malformed_new_keys_name_the_path(path: list[Any], value: Any, where: str) -> None:
    """R-4.6a ``lost`` (members only), ``map.size``, R-5.4a ``waiting_for``, R-2a keys."""
    with pytest.raises(CaseError) as info:
        load_case(broken(path, value))
    assert info.value.path == where


def test_new_keys_round_trip_and_default() -> None:
    """States written before the keys existed still load; the keys survive a round trip."""
    plain = dump_state(load_case(CASE_007).state)
    assert "size" not in plain["map"]
    assert [h["lost"] for h in plain["hubs"]] == [[], []]
    rich = broken(["state", "map", "size"], {"cols": 32, "rows": 40})
    rich["state"]["hubs"][1]["lost"] = ["0111"]
    rich["state"]["shipments"] = [
        {"id": "x", "power": "terra", "to_hub": None, "resource": "ore", "amount": 1,
         "arrives": 2, "waiting_for": ["0105"]},
    ]  # fmt: skip
    dumped = dump_state(load_case(rich).state)
    assert dumped["map"]["size"] == {"cols": 32, "rows": 40}
    assert dumped["hubs"][1]["lost"] == ["0111"]
    assert dumped["shipments"][0]["to_hub"] is None
    assert dumped["shipments"][0]["waiting"] is True
    assert dumped["shipments"][0]["waiting_for"] == ["0105"]
    assert dump_state(parse_state(json.loads(json.dumps(dumped)))) == dumped


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 200)
    | st.floats(allow_nan=True)
    | st.text(max_size=5)
    | st.sampled_from(["0101", "1.5", "terra", "west", "a", "ore"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


# 007, and cases carrying the newer keys: lost, waiting_for, engages/defending, map.size, fleet,
# battle records, officers, bubbles with posts and patrols, diplomats, missions with outcomes
BASES = [CASE_007] + [
    json.loads(next(CASES.glob(f"{n}-*.json")).read_text())
    for n in ("077", "088", "090", "091", "204", "211", "305", "402", "406", "411", "412")
]
PATHS = [(i, path) for i, base in enumerate(BASES) for path in _paths(base)]


@settings(max_examples=500, deadline=None)
@given(where=st.sampled_from(PATHS), value=JSON)
def test_any_corruption_is_a_case_error_or_a_clean_run(
    where: tuple[int, tuple[Any, ...]], value: Any
) -> None:
    """Contracts §1: a malformed case is reported by path, never with a traceback."""
    base, path = where
    case = broken(list(path), value, BASES[base])
    try:
        loaded = load_case(case)
    except CaseError as exc:
        assert exc.path
        return
    run_case(loaded)
