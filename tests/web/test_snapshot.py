"""The database keeps every key of the contract's state (contracts §1): what is written is what
is exported, including the keys added by the rule amendments (issue 10)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from economy.snapshot import export_state, write_state
from powers.models import Campaign

pytestmark = pytest.mark.django_db

BASE: dict[str, Any] = {
    "round": 4,
    "seed": 9,
    "map": {
        "hexes": [{"hex": "0101", "type": "system"}, {"hex": "0303", "type": "system"}],
        "size": {"cols": 32, "rows": 40},
    },
    "powers": [{"id": "nac", "gal": 5, "tp": 0, "un_member": True}],
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
            "project": None,
            "free_ep": 0,
        },
        {
            "id": "b",
            "name": "B",
            "hex": "0303",
            "type": "basic",
            "holder": "nac",
            "loyalty": 3,
            "rates": {"ore": 1, "gal": 1, "bio": 1, "pl": 1},
            "stock": {"ore": 0, "bio": 0, "pl": 0},
            "project": None,
            "free_ep": 0,
        },
    ],
    "hubs": [
        {
            "id": "h1",
            "power": "nac",
            "centre": "0101",
            "nodes": ["0303"],
            "links": [["0101", "0303"]],
            "guild": True,
            "pool": {"ore": 3, "bio": 0, "pl": 0},
            "lost": ["0303"],
        },
    ],
    "groups": [
        {
            "id": "g1",
            "power": "nac",
            "hex": "0303",
            "order": "none",
            "points": 10,
            "ep": 0,
            "troops": 0,
            "troop_space": 0,
            "diplomat": False,
            "status": "none",
            "kind": "standard",
            "engages": ["esu"],
            "defending": True,
        },
    ],
    "shipments": [
        {
            "id": "s1",
            "power": "nac",
            "sender": "nac",
            "from_hub": None,
            "to_hub": None,
            "resource": "ore",
            "amount": 7,
            "arrives": 4,
            "waiting": True,
            "waiting_for": ["0505", "0606"],
        },
    ],
}


def test_new_contract_keys_round_trip() -> None:
    state = copy.deepcopy(BASE)
    state["powers"].append({"id": "esu", "gal": 0, "tp": 0, "un_member": True})
    campaign = Campaign.objects.create(name="Keys")
    write_state(campaign, state)
    out = export_state(campaign)
    assert out["map"]["size"] == {"cols": 32, "rows": 40}
    assert out["hubs"][0]["lost"] == ["0303"]
    assert {k: out["groups"][0][k] for k in ("engages", "defending")} == {
        "engages": ["esu"],
        "defending": True,
    }
    assert out["shipments"][0]["to_hub"] is None
    assert out["shipments"][0]["waiting_for"] == ["0505", "0606"]

    # Changes go through the bulk update path too (JSON columns included).
    out["hubs"][0]["lost"] = []
    out["groups"][0]["engages"] = []
    out["shipments"][0]["waiting_for"] = ["0707"]
    del out["map"]["size"]
    write_state(campaign, out)
    again = export_state(campaign)
    assert again["hubs"][0]["lost"] == []
    assert again["groups"][0]["engages"] == []
    assert again["shipments"][0]["waiting_for"] == ["0707"]
    assert "size" not in again["map"]
