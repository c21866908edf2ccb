"""Round statements agree with the ledger and with the holdings (R-0.4; issue 10, item 1).

Four rounds are played through the services: a shipment between own hubs (in transit across a
round boundary), a two-leg trade agreement (dispatched in round 2, delivered in round 3), a
neutral system claimed by Maintain Orbit (its stockpile passes to the new holder, R-1.5), and a
second shipment still in transit at the end. For every row of every statement, ``before`` is the
power's holding at the start of the round, ``after`` its holding at the end, and both equal the
opening holdings plus the power's ledger export up to that round.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse

from campaigns.cases import campaign_from_case
from economy import selectors, services
from economy.models import Round, RoundRecord
from economy.snapshot import export_state
from powers.models import Membership, Power
from tests.web.factories import make_user

pytestmark = pytest.mark.django_db

SYSTEM = {"type": "basic", "rates": {"ore": 4, "gal": 2, "bio": 3, "pl": 0}, "free_ep": 0}
STATE: dict[str, Any] = {
    "round": 1,
    "seed": 5,
    "map": {
        "hexes": [{"hex": h, "type": "system"} for h in ("0101", "0110", "0301", "0501", "0505")]
    },
    "powers": [
        {"id": "esu", "gal": 60, "tp": 0, "un_member": True},
        {"id": "nac", "gal": 80, "tp": 0, "un_member": True},
    ],
    "systems": [
        {
            **SYSTEM,
            "id": "core",
            "name": "Core",
            "hex": "0101",
            "holder": "nac",
            "loyalty": 6,
            "stock": {"ore": 0, "bio": 0, "pl": 0},
        },
        {
            **SYSTEM,
            "id": "west",
            "name": "West",
            "hex": "0110",
            "holder": "nac",
            "loyalty": 6,
            "stock": {"ore": 0, "bio": 0, "pl": 0},
        },
        {
            **SYSTEM,
            "id": "eris",
            "name": "Eris",
            "hex": "0301",
            "holder": None,
            "loyalty": 0,
            "stock": {"ore": 15, "bio": 0, "pl": 0},
        },
        {
            **SYSTEM,
            "id": "east",
            "name": "East",
            "hex": "0501",
            "holder": "esu",
            "loyalty": 6,
            "stock": {"ore": 0, "bio": 0, "pl": 0},
        },
        {
            **SYSTEM,
            "id": "rim",
            "name": "Rim",
            "hex": "0505",
            "holder": "esu",
            "loyalty": 6,
            "stock": {"ore": 9, "bio": 2, "pl": 0},
        },
    ],
    "hubs": [
        {
            "id": "nac-core",
            "power": "nac",
            "centre": "0101",
            "nodes": [],
            "links": [],
            "guild": True,
            "pool": {"ore": 100, "bio": 0, "pl": 0},
        },
        {
            "id": "nac-west",
            "power": "nac",
            "centre": "0110",
            "nodes": [],
            "links": [],
            "guild": True,
            "pool": {"ore": 0, "bio": 0, "pl": 0},
        },
        {
            "id": "esu-east",
            "power": "esu",
            "centre": "0501",
            "nodes": [],
            "links": [],
            "guild": True,
            "pool": {"ore": 0, "bio": 80, "pl": 0},
        },
    ],
    "groups": [
        {
            "id": "nac-g1",
            "power": "nac",
            "hex": "0301",
            "order": "maintain_orbit",
            "points": 100,
            "ep": 0,
            "troops": 0,
            "troop_space": 0,
            "diplomat": False,
            "status": "none",
        },
    ],
    "agreements": [
        {
            "id": "ag1",
            "a": "nac",
            "b": "esu",
            "deposit": "0303",
            "delivery": 3,
            "legs": [
                {"from": "nac", "resource": "ore", "amount": 20, "status": "pending"},
                {"from": "esu", "resource": "bio", "amount": 10, "status": "pending"},
            ],
            "hubs": {
                "nac": {"send": "nac-core", "receive": "nac-core"},
                "esu": {"send": "esu-east", "receive": "esu-east"},
            },
        },
    ],
}
SHIP = {"type": "ship", "from_hub": "nac-core", "to_hub": "nac-west", "resource": "ore"}
ORDERS = {  # round -> power -> orders
    1: {"nac": [{**SHIP, "amount": 40}]},
    4: {"nac": [{**SHIP, "amount": 12}]},
}


def holdings(state: dict[str, Any], power: str) -> Counter[tuple[str, str]]:
    """What ``power`` holds in a contract §1 state, by (ledger where, resource) — written out
    here rather than taken from the selectors under test."""
    out: Counter[tuple[str, str]] = Counter()
    for p in state["powers"]:
        if p["id"] == power:
            out["bank", "gal"], out["bank", "tp"] = p["gal"], p["tp"]
    for s in state["systems"]:
        if s["holder"] == power:
            out.update({(f"system:{s['id']}", r): n for r, n in s["stock"].items()})
    for h in state["hubs"]:
        if h["power"] == power:
            out.update({(f"hub:{h['id']}", r): n for r, n in h["pool"].items()})
    for sh in state["shipments"]:
        if sh["power"] == power:
            out[f"shipment:{sh['id']}", sh["resource"]] += sh["amount"]
    for g in state["groups"]:
        if g["power"] == power:
            out[f"group:{g['id']}", "troops"] += g["troops"]
    return out


def play(campaign: Any, number: int) -> None:
    for power in Power.objects.filter(campaign=campaign).order_by("key"):
        for payload in ORDERS.get(number, {}).get(power.key, []):
            services.add_order(power=power, payload=payload, actor="test")
        services.submit_sheet(power=power, actor="test")
    rnd = Round.objects.get(campaign=campaign, number=number)
    assert services.resolve_round(round_id=rnd.pk)


def test_statement_rows_match_holdings_and_ledger_over_four_rounds(client: Any) -> None:
    campaign = campaign_from_case(
        {"format": "ftcamp-case/1", "state": copy.deepcopy(STATE), "orders": {}}, name="Books"
    )
    opening = export_state(campaign)
    for n in range(1, 5):
        play(campaign, n)
    campaign.refresh_from_db()
    states = {r.round.number: r.state for r in RoundRecord.objects.select_related("round")}
    states[5] = export_state(campaign)
    # The play exercised what the statement must carry across rounds.
    assert any(s["id"] == "eris" and s["holder"] == "nac" for s in states[2]["systems"])
    assert {s["id"] for s in states[2]["shipments"]} >= {"r1-nac-1"}
    assert len(states[3]["shipments"]) == 2  # the agreement's legs, in transit
    assert [s["id"] for s in states[5]["shipments"]] == ["r4-nac-1"]

    checked = 0
    for power in Power.objects.filter(campaign=campaign):
        user = make_user(f"reader-{power.key}")
        Membership.objects.create(campaign=campaign, user=user, power=power)
        client.force_login(user)
        url = reverse("ledger-export", args=[campaign.pk, power.key, "json"])
        response = client.get(url)
        assert response.status_code == 200
        exported = response.json()
        for n in range(1, 5):
            statement = selectors.round_statement(power, n)
            assert statement is not None
            upto_before = holdings(opening, power.key)
            upto_before.update(_sums(exported, below=n))  # update keeps negatives; + would not
            upto_after = holdings(opening, power.key)
            upto_after.update(_sums(exported, below=n + 1))
            start, end = holdings(states[n], power.key), holdings(states[n + 1], power.key)
            for row in statement.stocks:
                if row.resource == "LR":
                    continue
                key = (row.where, row.resource)
                assert row.before + row.change == row.after
                assert row.before == start[key] == upto_before[key], (n, power.key, row)
                assert row.after == end[key] == upto_after[key], (n, power.key, row)
                checked += 1
        client.logout()
    assert checked >= 20


def _sums(lines: list[dict[str, Any]], *, below: int) -> Counter[tuple[str, str]]:
    out: Counter[tuple[str, str]] = Counter()
    for line in lines:
        if line["round_number"] < below and line["resource"] != "lr":
            out[line["where"], line["resource"]] += line["amount"]
    return out
