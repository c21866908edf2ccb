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

CASE_007 = json.loads(
    (
        Path(__file__).resolve().parent.parent / "cases" / "007-shipment-between-own-hubs.json"
    ).read_text()
)


def broken(path: list[Any], value: Any) -> dict[str, Any]:
    case = copy.deepcopy(CASE_007)
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


def test_dump_then_parse_round_trips() -> None:
    state = load_case(CASE_007).state
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


PATHS = _paths(CASE_007)


@settings(max_examples=200, deadline=None)
@given(path=st.sampled_from(PATHS), value=JSON)
def test_any_corruption_is_a_case_error_or_a_clean_run(path: tuple[Any, ...], value: Any) -> None:
    """Contracts §1: a malformed case is reported by path, never with a traceback."""
    case = broken(list(path), value)
    try:
        loaded = load_case(case)
    except CaseError as exc:
        assert exc.path
        return
    run_case(loaded)
