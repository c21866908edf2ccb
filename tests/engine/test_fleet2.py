"""Fleets II (issue 15): battle records, repair and rebuild, refits, restock, loans, transfers
and design study — what the cases cannot show: who reads the events, the contract shape of the
new state, malformed records, entry checks, and the rules' arithmetic on its own."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from economy.engine.case import load_case, run_case
from economy.engine.codec import CaseError, dump_state, parse_state
from economy.engine.navy import Navy
from economy.engine.refit import kept_units, refit_cost
from economy.engine.repair import repair_fatigue
from economy.engine.resolve import Result, resolve
from economy.engine.validate import Catalog, check_order

CASES = Path(__file__).resolve().parents[1] / "cases"


def case(number: int) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(next(CASES.glob(f"{number}-*.json")).read_text())
    return loaded


def run(raw: dict[str, Any], orders: dict[str, list[dict[str, Any]]] | None = None) -> Result:
    return run_case(load_case({"format": "ftcamp-case/1", "state": raw, "orders": orders or {}}))


def craft_of(result: Result, ident: str) -> dict[str, Any] | None:
    return next((c for c in dump_state(result.state)["craft"] if c["id"] == ident), None)


# --- arithmetic --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "npv", "fatigue"),
    [(3, 73, 5), (1, 300, 1), (73, 73, 100), (6, 73, 9), (200, 100, 200)],
)
def test_repair_fatigue_is_the_percentage_repaired_rounded_up(
    points: int, npv: int, fatigue: int
) -> None:
    """Support 1.2, R-10.2: the seed's beam (3 of 73) is 5 %; at least 1 %; over 100 allowed."""
    assert repair_fatigue(points, npv) == fatigue


def test_refit_cost_counts_new_units_and_the_rise_of_the_rest() -> None:
    """Support 1.5: same system (id, points, capacity) keeps its units; a changed one is built
    anew; hull and drives (NPV less systems) count when they rise, never as a refund."""
    state = load_case(case(307)).state
    old = next(d for d in state.fleet.designs if d.id == "frigate")
    bigger = copy.deepcopy(old)
    assert refit_cost(old, bigger) == 0
    raw = case(307)
    new_fields = raw["orders"]["terra"][0]
    variant = parse_state(
        {**raw["state"], "designs": [*raw["state"]["designs"], {**new_fields, "power": "terra"}]}
    ).fleet.designs[-1]
    assert kept_units(old, variant) == {"hull": 8, "eps": 1}
    assert refit_cost(old, variant) == 6 + (80 - 16) - (73 - 18)
    # back again: the beams are new, the hull boxes above 8 new, the rest falls (no refund)
    assert refit_cost(variant, old) == 2 * 3 + 2 * 1


# --- the contract shape of the new state ----------------------------------------------------


def full_state() -> dict[str, Any]:
    """Case 305's state with every new key: a record, a loan, a transfer, work of each kind."""
    raw: dict[str, Any] = copy.deepcopy(case(305)["state"])
    raw["designs"][0]["studied_from"] = "vfrig"
    raw["groups"].append({"id": "lg", "power": "terra", "hex": "0101", "order": "none"})
    raw["craft"].append(
        {"id": "f9", "power": "terra", "design": "frigate", "group": "lg", "destroyed": {"b1": 1}}
    )
    raw["loans"] = [{"id": "l1", "owner": "terra", "borrower": "vega", "groups": ["fg"], "last": 5}]
    raw["transfers"] = [
        {"id": "t1", "owner": "terra", "receiver": "vega", "carriers": ["lg"], "crew_to": "sol"}
    ]
    raw["builds"].append(
        {"id": "r1", "power": "terra", "kind": "repair", "craft": "f9", "builders": ["y1"],
         "cost": 3, "paid": 1, "started": 3, "systems": {"b1": 1}}
    )  # fmt: skip
    raw["builds"].append(
        {"id": "r2", "power": "terra", "kind": "rebuild", "craft": "f1", "builders": ["y1"],
         "cost": 40, "paid": 5, "started": 3, "fatigue": 30}
    )  # fmt: skip
    return raw


def test_new_state_keys_round_trip() -> None:
    state = parse_state(full_state())
    dumped = dump_state(state)
    assert dump_state(parse_state(dumped)) == dumped
    assert dumped["battles"][0]["craft"][0] == {
        "craft": "f1", "destroyed": False, "cf_lost": 1,
        "systems_destroyed": {"b1": 1}, "systems_disabled": {"hull": 2},
    }  # fmt: skip
    assert dumped["loans"] == [
        {"id": "l1", "owner": "terra", "borrower": "vega", "groups": ["fg"], "last": 5,
         "active": False}
    ]  # fmt: skip
    assert dumped["transfers"][0]["crew_to"] == "sol"
    work = {b["id"]: b for b in dumped["builds"]}
    assert work["r1"]["systems"] == {"b1": 1} and work["r2"]["fatigue"] == 30
    assert dumped["designs"][0]["studied_from"] == "vfrig"
    assert next(c for c in dumped["craft"] if c["id"] == "f1")["unready"] == {"amt": 1}


def test_a_state_without_the_new_keys_has_none() -> None:
    """Old cases stay valid: every new key is optional."""
    raw = case(206)["state"]
    dumped = dump_state(parse_state(raw))
    assert dumped["battles"] == dumped["loans"] == dumped["transfers"] == []


def _broken(change: Any) -> dict[str, Any]:
    raw = full_state()
    change(raw)
    return raw


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda r: r["battles"][0].update(powers=["terra"]), "state.battles[0].powers"),
        (
            lambda r: r["battles"][0]["craft"].append({"craft": "f1"}),
            "state.battles[0].craft[4].craft",
        ),
        (lambda r: r["battles"][0].update(powers=["terra", "terra"]), "state.battles[0].powers"),
        (
            lambda r: r["battles"][0]["craft"][0].update(captured_by="terra", into="fg"),
            "state.battles[0].craft[0].captured_by",
        ),
        (
            lambda r: r["battles"][0]["craft"][1].update(destroyed=False, captured_by="terra"),
            "state.battles[0].craft[1].into",
        ),
        (
            lambda r: r["battles"][0]["craft"][1].update(
                destroyed=False, captured_by="terra", into="base"
            ),
            "state.battles[0].craft[1].into",
        ),
        (
            lambda r: r["battles"][0]["craft"][0].update(systems_destroyed={"b1": 3}),
            "state.battles[0].craft[0].systems_destroyed",
        ),
        (lambda r: r["loans"][0].update(groups=["vg"]), "state.loans[0].groups[0]"),
        (lambda r: r["loans"][0].update(last=3), "state.loans[0].last"),
        (lambda r: r["loans"][0].update(borrower="terra"), "state.loans[0].borrower"),
        (lambda r: r["transfers"][0].update(carriers=["fg"]), "state.transfers[0].carriers[0]"),
        (lambda r: r["transfers"][0].update(crew_to="nowhere"), "state.transfers[0].crew_to"),
        (lambda r: r["builds"][2].update(builders=["y1", "vy1"]), "state.builds[2].builders"),
        (lambda r: r["builds"][2].update(paid=3), "state.builds[2].cost"),
        (
            lambda r: r["builds"][3].update(kind="refit", design="yard"),
            "state.builds[3].design",
        ),
    ],
)
def test_malformed_records_and_work_name_their_path(change: Any, path: str) -> None:
    with pytest.raises(CaseError) as err:
        parse_state(_broken(change), "state")
    assert err.value.path == path


# --- who reads what (secrecy) ----------------------------------------------------------------


def test_a_battle_is_public_only_as_its_hex() -> None:
    """Issue 15: each power sees only the records it is in; the public sees that a battle
    happened at a hex, never its contents."""
    raw = copy.deepcopy(case(305)["state"])
    raw["powers"].append({"id": "zhodani", "gal": 0, "tp": 0})
    result = run(raw)
    battle = [e for e in result.events if e.kind.startswith("battle.")]
    public = [e for e in battle if e.public]
    assert [(e.kind, dict(e.data)) for e in public] == [("battle.fought", {"hex": "0101"})]
    assert all(e.powers == ("terra", "vega") for e in battle if not e.public)
    assert not any("zhodani" in e.powers for e in result.events)
    assert {e.kind for e in battle} >= {"battle.damaged", "battle.destroyed"}


def test_loan_events_reach_its_two_powers_and_a_failure_keeps_the_owners_reason() -> None:
    raw = copy.deepcopy(case(310)["state"])
    raw["powers"].append({"id": "zhodani", "gal": 0, "tp": 0})
    result = run(raw)
    loans = [e for e in result.events if e.kind.startswith("loan.")]
    assert loans and not any("zhodani" in e.powers for e in loans)
    failed = {e.powers: e.data["why"] for e in loans if e.kind == "loan.failed"}
    assert "r9" in failed[("terra",)]
    assert failed[("vega",)] == "terra could not hand the craft over"


# --- state carried between rounds -----------------------------------------------------------


def test_unready_systems_are_ready_once_the_battle_is_over() -> None:
    """Support 2.0: systems restocked while engaged begin *that* battle disabled; the next
    round starts after it, record or not."""
    raw = copy.deepcopy(case(309)["state"])
    first = run(raw, case(309)["orders"])
    assert craft_of(first, "cd")["unready"] == {"fighter": 6}  # type: ignore[index]
    again = resolve(first.state, [])
    assert craft_of(again, "cd")["unready"] == {}  # type: ignore[index]


def test_a_destroyed_builder_drops_out_of_an_external_build_lost_with_the_last() -> None:
    """R-10.6: an external build keeps its other builders; without any it is lost."""
    raw = copy.deepcopy(case(305)["state"])
    raw["statics"].append({"id": "base2", "power": "terra", "hex": "0101"})
    raw["craft"].append({"id": "y2", "power": "terra", "design": "yard", "static": "base2"})
    raw["builds"] = [
        {"id": "xb", "power": "terra", "design": "frigate", "builders": ["y1", "y2"],
         "inside": False, "hex": "0101", "cost": 73, "paid": 10, "started": 3},
        {"id": "xc", "power": "terra", "design": "frigate", "builders": ["y1"],
         "inside": False, "hex": "0101", "cost": 73, "paid": 20, "started": 3},
    ]  # fmt: skip
    raw["battles"][0]["craft"] = [{"craft": "y1", "destroyed": True}]
    result = run(raw)
    builds = {b["id"]: b for b in dump_state(result.state)["builds"]}
    assert builds["xb"]["builders"] == ["y2"]
    assert "xc" not in builds
    lost = [line for line in result.ledger if line.where == "build:xc"]
    assert [(line.amount, line.rule) for line in lost] == [(-20, "R-10.6")]


def test_a_captured_builder_takes_the_craft_in_orbit_with_it() -> None:
    """R-10.6: craft in orbit with a captured builder are captured with it, still in orbit."""
    raw = copy.deepcopy(case(305)["state"])
    raw["builds"] = []
    raw["battles"][0]["craft"] = [{"craft": "vy1", "captured_by": "terra", "into": "base"}]
    result = run(raw)
    orbiting = craft_of(result, "vo")
    assert orbiting is not None
    assert (orbiting["power"], orbiting["orbit"], orbiting["captured"]) == ("terra", "vy1", True)
    assert craft_of(result, "vy1")["static"] == "base"  # type: ignore[index]


def test_a_loan_ending_ends_the_borrowers_work_on_its_craft() -> None:
    """R-10.5a: the group returns; the borrower's repair on it ends, its Ore lost."""
    raw = copy.deepcopy(case(311)["state"])
    raw["craft"][0]["destroyed"] = {"b1": 2, "hull": 9}  # 15 points: more than rigel's 5 Ore
    result = run(raw, {"vega": [{"type": "repair", "id": "r1", "craft": "f1", "repairer": "vt1"}]})
    assert dump_state(result.state)["builds"] == []
    ended = [line for line in result.ledger if line.where == "build:r1"]
    assert [line.amount for line in ended] == [5, -5]
    assert ended[-1].rule == "R-10.5a"


# --- entry checks ----------------------------------------------------------------------------


def test_entry_sees_the_battle_records_applied() -> None:
    """R-10.6: orders are checked against the owners after the records: the captor orders a
    captured craft and the group it goes into; the loser no longer can."""
    state = load_case(case(306)).state
    catalog = Catalog.of(state)
    unbuild = {"type": "unbuild", "id": "u9", "craft": "v1", "builder": "y1"}
    assert check_order(catalog, "terra", unbuild) == []
    assert check_order(catalog, "terra", {"type": "declare_group", "group": "prize"}) == []
    assert check_order(catalog, "vega", {**unbuild, "builder": "v1"}) == [
        "craft: no such craft of yours: 'v1'",
        "builder: no such craft of yours: 'v1'",
    ]


def test_entry_refuses_what_a_borrower_may_not_order() -> None:
    """Support 1.6.1, R-2a: refused at entry (the web forms and the API use the same check)."""
    state = load_case(case(311)).state
    catalog = Catalog.of(state)
    assert check_order(catalog, "vega", {"type": "declare_group", "group": "lg"}) == []
    refused = {
        "engages": {"type": "declare_group", "group": "lg", "engages": ["terra"]},
        "crew": {"type": "crew", "craft": "f1"},
        "craft": {"type": "refit", "id": "x", "craft": "f1", "builder": "vt1", "design": "vtender"},
        "builders": {"type": "build", "id": "x", "design": "vtender", "builders": ["f1"]},
    }
    for field, order in refused.items():
        problems = check_order(catalog, "vega", order)
        assert len(problems) == 1 and problems[0].startswith(f"{field}: "), problems
        assert "on loan from terra" in problems[0]


def test_a_transfers_receiver_may_crew_and_supply_it_in_the_same_round() -> None:
    state = load_case(case(312)).state
    catalog = Catalog.of(state)
    assert check_order(catalog, "vega", {"type": "crew", "group": "tg"}) == []
    assert check_order(catalog, "terra", {"type": "crew", "group": "tg"}) == [
        "group: no such group of yours: 'tg'"
    ]


def test_a_transfers_crew_goes_to_the_nearest_held_system_when_the_named_one_is_not_held() -> None:
    """R-10.5a: "to the owner's held system the transfer names (default: its nearest)"."""
    raw = copy.deepcopy(case(312)["state"])
    raw["transfers"] = [raw["transfers"][0] | {"crew_to": "rigel"}]  # vega's, not terra's
    result = run(raw)
    home = [(line.where, line.amount) for line in result.ledger if line.resource == "pl"]
    assert home[:2] == [("system:vesta", 15), ("system:vesta", 4)]  # 0104 is 1 from 0103


def test_a_transfer_not_made_leaves_the_receivers_crew_and_ep_orders_refused() -> None:
    """Support 1.6.2: the receiver may crew and supply what it is given in §3 — only if the
    transfer was made; otherwise the carriers are still the owner's."""
    raw = copy.deepcopy(case(312)["state"])
    raw["builds"] = [
        {"id": "r1", "power": "terra", "kind": "repair", "craft": "f1", "builders": ["y2"],
         "cost": 3, "paid": 1, "started": 1, "systems": {"b1": 1}}
    ]  # fmt: skip
    raw["craft"][0]["destroyed"] = {"b1": 1}
    result = run(raw, case(312)["orders"])
    assert [r.error for r in result.rejected] == [
        "group: no group tg of yours this round",
        "into: no group or static tg of yours this round",
    ]
    assert (
        next(g for g in dump_state(result.state)["groups"] if g["id"] == "tg")["power"] == "terra"
    )


def test_inside_mass_follows_work_added_and_removed() -> None:
    """R-10.1a: a builder's workshop mass in use, indexed once, follows work added and removed
    (a build finished and a new one started in the same Support Phase)."""
    raw = case(202)
    state = run(raw["state"], raw["orders"]).state
    navy = Navy(state, {g.id: g for g in state.groups}, {s.id: s for s in state.statics})
    inside = [b for b in state.fleet.builds if b.inside and b.kind == "build"]
    assert inside, "case 202 leaves inside builds in progress"
    builder = inside[0].builders[0]
    mass = {b.id: navy.designs[b.design].mass for b in inside if b.builders[0] == builder}
    assert navy.inside_mass(builder) == sum(mass.values())
    first = inside[0]
    navy.remove_build(first)
    assert navy.inside_mass(builder) == sum(mass.values()) - mass[first.id]
    navy.add_build(first)
    assert navy.inside_mass(builder) == sum(mass.values())
