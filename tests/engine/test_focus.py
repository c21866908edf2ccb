"""The projected statement runs the engine on one power's part of the campaign
(``engine.focus``, issue 13): for every power of every golden case and of generated campaigns
it must give exactly what the whole campaign gives that power — its ledger lines, rejected
orders, own events, and the holder and LR of the systems it held before or after."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.engine import build, campaign
from economy.engine.case import load_case, read_case
from economy.engine.focus import focus, power_part
from economy.engine.resolve import resolve
from economy.engine.state import State

CASES = sorted((Path(__file__).resolve().parent.parent / "cases").glob("*.json"))


def differences(state: State, orders: list[tuple[str, int, Any]]) -> list[str]:
    """For each power given only its own orders: what its focused statement gets wrong."""
    out = []
    for p in state.powers:
        mine = [o for o in orders if o[0] == p.id]
        whole = power_part(state, resolve(state, mine), p.id)
        part = power_part(state, resolve(focus(state, p.id, [o[2] for o in mine]), mine), p.id)
        out += [f"{p.id} {key}" for key in whole if whole[key] != part[key]]
    return out


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_power_of_every_case(path: Path) -> None:
    case = read_case(path)
    assert differences(case.state, case.orders) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_campaigns(seed: int) -> None:
    """The engine benchmark's campaign (hubs, groups on others' systems, invasions, yards and
    builds, fleet orders) at 400 systems and 8 powers, each power with its 60 first orders."""
    state, sheets = campaign(400, seed=seed, n_powers=8)
    counted: dict[str, int] = {}
    orders = []
    for key, index, order in sheets:
        counted[key] = counted.get(key, 0) + 1
        if counted[key] <= 60:
            orders.append((key, index, order))
    assert differences(state, orders) == []


def test_the_part_is_smaller() -> None:
    """What it is for: a power of a 900-system campaign gets a part of it."""
    state, sheets = build(900, n_powers=20)
    part = focus(state, "p03", [o for k, _, o in sheets if k == "p03"][:50])
    assert len(part.systems) < len(state.systems) / 3
    assert len(part.fleet.craft) < len(state.fleet.craft) / 3


def test_a_member_resource_1_can_just_take_is_capturable() -> None:
    """R-3.4 then R-4.6: a hub member at LR 2, abandoned (-1) with an enemy on Maintain Orbit
    (-1), is lost; its share goes to the captor's nearest held system, far from the hub."""
    raw = json.loads((CASES[0].parent / "054-r-4-6-capture-without-hub.json").read_text())
    state = raw["state"]
    b = next(s for s in state["systems"] if s["id"] == "b")
    b["loyalty"] = 2
    state["statics"] = [s for s in state["statics"] if s["id"] != "s2"]  # terra leaves 0103
    case = load_case({**raw, "orders": {}})
    whole = resolve(case.state, [])
    assert any(e.kind == "hub.node_lost" and e.data["captor"] == "vargr" for e in whole.events)
    assert differences(case.state, []) == []


def _capture_case() -> dict[str, Any]:
    """Case 054: vargr's group on Maintain Orbit takes terra's hub member at 0103 (LR 1)."""
    raw: dict[str, Any] = json.loads(
        (CASES[0].parent / "054-r-4-6-capture-without-hub.json").read_text()
    )
    return raw


def _system(sid: str, hx: str, holder: str | None, lr: int) -> dict[str, Any]:
    return {
        "id": sid,
        "name": sid.upper(),
        "hex": hx,
        "type": "basic",
        "holder": holder,
        "loyalty": lr,
        "rates": {"ore": 0, "gal": 0, "bio": 0, "pl": 0},
        "stock": {"ore": 0, "bio": 0, "pl": 0},
        "project": None,
        "free_ep": 0,
    }


def _destination_of_the_share(raw: dict[str, Any]) -> str:
    case = load_case({**raw, "orders": {}})
    assert differences(case.state, []) == []
    lost = [e for e in resolve(case.state, []).events if e.kind == "hub.node_lost"]
    return str(lost[0].data["where"])


def test_the_captors_nearest_hub_may_lose_its_centre() -> None:
    """R-4.6: the captor's nearest hub loses its centre in Resource §1 (LR 1, abandoned), so
    the share goes to its next hub: both are in the part."""
    raw = _capture_case()
    state = raw["state"]
    state["statics"] = [s for s in state["statics"] if s["id"] != "s3"]  # vargr leaves 0104
    for s in state["systems"]:
        if s["id"] == "d":
            s["loyalty"] = 1
    state["hubs"] += [
        {
            "id": h,
            "power": "vargr",
            "centre": c,
            "nodes": [],
            "links": [],
            "guild": False,
            "pool": {"ore": 0, "bio": 0, "pl": 0},
        }
        for h, c in (("near", "0104"), ("far", "0110"))
    ]
    assert "far" in _destination_of_the_share(raw)


def test_the_captor_may_claim_its_nearest_system_in_resource_1() -> None:
    """R-3.4c then R-4.6: a neutral system next to the lost member, claimed by the captor's
    group on Maintain Orbit in Resource §1, is its nearest held system by Resource §2.0."""
    raw = _capture_case()
    state = raw["state"]
    state["systems"] = [s for s in state["systems"] if s["id"] != "d"]
    state["statics"] = [s for s in state["statics"] if s["id"] != "s3"]
    state["systems"].append(_system("n", "0104", None, 0))
    orbit = next(g for g in state["groups"] if g["id"] == "g1")
    state["groups"].append({**orbit, "id": "g2", "hex": "0104"})
    assert _destination_of_the_share(raw) == "system:n"


def test_a_hub_drawn_in_makes_its_members_hexes_hot() -> None:
    """The fixed point: vargr's group on Maintain Orbit at 0103 (terra's hub member) makes
    0103 hot, which draws in terra's hub ``core``; only then are its other members' hexes hot,
    so terra's system and static at the centre 0101 are kept on the next pass. A terra system
    on no hot hex (0120) stays out."""
    raw = _capture_case()
    raw["state"]["systems"].append(_system("f", "0120", "terra", 5))
    case = load_case({**raw, "orders": {}})
    part = focus(case.state, "vargr")
    assert [h.id for h in part.hubs] == ["core"]
    assert {s.id for s in part.systems} == {"a", "b", "d", "e"}
    assert {s.id for s in part.statics} == {"s1", "s2", "s3", "s4"}
    assert differences(case.state, []) == []
