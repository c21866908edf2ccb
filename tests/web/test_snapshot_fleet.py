"""The database keeps every fleet key of the contract's state (issue 14): designs with their
systems, craft wherever they are, work in progress with its builders in order, the catalogue
and the campaign's settings; and a later state that drops or moves them is written too (what is
referenced is written first, what is stale goes last)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from economy.snapshot import export_state, write_state
from powers.models import BuildBuilder, Campaign, Craft, Design, DesignSystem, FleetGroup
from tests.web.test_case_parity import canonical

pytestmark = pytest.mark.django_db


def _design(
    ident: str, mobility: str, systems: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    return {
        "id": ident,
        "power": "nac",
        "name": ident.title(),
        "class": "military",
        "mobility": mobility,
        "mass": 20,
        "npv": 100,
        "crew": 2,
        "systems": systems,
        "loadout": {},
        "completed": True,
        **extra,
    }


def _craft(ident: str, design: str, **where: Any) -> dict[str, Any]:
    place = {"group": None, "static": None, "orbit": None, **where}
    return {"id": ident, "power": "nac", "design": design, **place, "crew": 1}


STATE: dict[str, Any] = {
    "round": 3,
    "seed": 1,
    "map": {"hexes": [{"hex": "0101", "type": "system"}]},
    "powers": [{"id": "nac", "gal": 10, "tp": 5, "un_member": True}],
    "systems": [
        {
            "id": "a",
            "name": "A",
            "hex": "0101",
            "type": "basic",
            "holder": "nac",
            "loyalty": 3,
            "rates": {"ore": 1, "gal": 1, "bio": 1, "pl": 1},
            "stock": {"ore": 0, "bio": 0, "pl": 0},
        }
    ],
    "groups": [
        {"id": "g1", "power": "nac", "hex": "0101", "order": "hold_build", "points": 0, "ep": 1},
        {"id": "g2", "power": "nac", "hex": "0202", "order": "none", "points": 0, "ep": 0},
    ],
    "statics": [{"id": "st", "power": "nac", "hex": "0101", "ep": 4}],
    "catalogue": [{"kind": "fighter", "mass": 2, "ore": 7}, {"kind": "mine", "mass": 1, "ore": 1}],
    "designs": [
        _design(
            "yard",
            "static",
            [
                {"id": "cy", "name": "Yard", "points": 40, "construction": 30, "workshop": 50},
                {"id": "eps", "name": "EP store", "points": 5, "count": 2, "ep_storage": 5},
            ],
        ),
        _design(
            "tender",
            "mobile",
            [
                {"id": "cy", "name": "Gantry", "points": 20, "construction": 10},
                {"id": "hull", "name": "Hull box", "points": 1, "count": 10, "troop": 2},
            ],
            loadout={"fighter": 2},
        ),
        _design("frigate", "mobile", [{"id": "b1", "name": "Beam", "points": 3}], completed=False),
    ],
    "craft": [
        _craft("y1", "yard", static="st"),
        {
            **_craft("t1", "tender", group="g1"),
            "fatigue": 12,
            "destroyed": {"hull": 2},
            "disabled": {"cy": 1},
            "consumables": {"fighter": 2},
            "workshop": {"mine": 3},
            "gantry": "0101",
        },
        _craft("t2", "tender", group="g1"),
        _craft("f1", "frigate", orbit="y1"),
        _craft("f2", "frigate", group="g2"),
    ],
    "builds": [
        {
            "id": "in1",
            "power": "nac",
            "design": "frigate",
            "builders": ["y1"],
            "inside": True,
            "cost": 110,
            "surcharge": 10,
            "paid": 30,
            "started": 2,
        },
        {
            "id": "ex1",
            "power": "nac",
            "design": "tender",
            "builders": ["t2", "y1"],
            "hex": "0101",
            "cost": 114,
            "paid": 0,
            "started": 3,
        },
        {
            "id": "un1",
            "power": "nac",
            "kind": "unbuild",
            "craft": "f2",
            "builders": ["t1"],
            "cost": 100,
            "worked": 40,
            "started": 2,
        },
    ],
    "fleet": {"design_tp": 3, "group_limits": {"patrol": {"points": 500, "officers": None}}},
}


def test_fleet_keys_round_trip() -> None:
    campaign = Campaign.objects.create(name="Fleet keys")
    write_state(campaign, copy.deepcopy(STATE))
    out = export_state(campaign)
    assert canonical(out) == canonical(STATE)
    # what the engine derives is stored and loaded: points, troop space, EP storage
    g1 = next(g for g in out["groups"] if g["id"] == "g1")
    assert (g1["points"], g1["troop_space"], g1["ep_storage"]) == (200, 36, 0)
    assert next(s for s in out["statics"] if s["id"] == "st")["ep"] == 4
    assert [b["builders"] for b in out["builds"] if b["id"] == "ex1"] == [["t2", "y1"]]
    assert Design.objects.get(key="yard").systems.count() == 2


def test_a_later_state_moves_and_drops_what_it_no_longer_has() -> None:
    campaign = Campaign.objects.create(name="Fleet changes")
    write_state(campaign, copy.deepcopy(STATE))
    later = copy.deepcopy(STATE)
    # the unbuild completed: f2 and its group are gone; the frigate in orbit joined g1
    later["builds"] = [b for b in later["builds"] if b["id"] != "un1"]
    later["craft"] = [c for c in later["craft"] if c["id"] != "f2"]
    later["groups"] = [g for g in later["groups"] if g["id"] != "g2"]
    later["craft"][3].update(orbit=None, group="g1")
    # the pooled build's builders change order; the inside build finishes as a craft in orbit
    later["builds"][1]["builders"] = ["y1", "t2"]
    later["builds"] = [b for b in later["builds"] if b["id"] != "in1"]
    later["craft"].append(_craft("in1", "frigate", orbit="y1"))
    # a design changes its systems; an unused one is dropped with the catalogue's mine
    later["designs"][0]["systems"][1]["count"] = 3
    later["catalogue"] = [{"kind": "fighter", "mass": 2, "ore": 7}]
    later["craft"][1]["workshop"] = {}
    later["fleet"] = {"design_tp": 0, "group_limits": {}}
    write_state(campaign, later)
    assert canonical(export_state(campaign)) == canonical(later)
    assert not FleetGroup.objects.filter(campaign=campaign, key="g2").exists()
    assert list(Craft.objects.filter(campaign=campaign, key="in1").values_list("orbit__key")) == [
        ("y1",)
    ]
    ex1 = BuildBuilder.objects.filter(build__key="ex1").order_by("position")
    assert [b.craft.key for b in ex1] == ["y1", "t2"]
    assert DesignSystem.objects.get(design__key="yard", key="eps").count == 3

    # and back again (a rollback writes the state a round started from)
    write_state(campaign, copy.deepcopy(STATE))
    assert canonical(export_state(campaign)) == canonical(STATE)


def test_loading_derives_a_groups_figures_from_its_craft_as_they_are() -> None:
    """R-10.7: an admin's change to a craft shows in its group's points at the next load, as
    when a state is parsed (nothing stale is kept)."""
    campaign = Campaign.objects.create(name="Fleet derived")
    write_state(campaign, copy.deepcopy(STATE))
    Craft.objects.filter(campaign=campaign, key="t2").update(
        group=FleetGroup.objects.get(campaign=campaign, key="g2")
    )
    out = {g["id"]: g for g in export_state(campaign)["groups"]}
    assert (out["g1"]["points"], out["g1"]["troop_space"]) == (100, 16)
    assert (out["g2"]["points"], out["g2"]["troop_space"]) == (200, 20)
