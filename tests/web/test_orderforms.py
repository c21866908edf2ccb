"""The browser's order forms ask for exactly the fields the engine validates."""

from __future__ import annotations

import pytest

from economy.engine.validate import FIELDS
from economy.orderforms import ORDER_TYPES, form_values, payload_from


def test_every_engine_order_type_has_a_form_with_the_same_fields() -> None:
    assert set(ORDER_TYPES) == set(FIELDS)
    for kind, spec in ORDER_TYPES.items():
        assert {f.name for f in spec.fields if f.engine} == set(FIELDS[kind]), kind


@pytest.mark.parametrize(
    ("kind", "data", "payload"),
    [
        (
            "market_sell",
            {"resource": "ore", "amount": "40", "from": "core", "to": ""},
            {"type": "market_sell", "resource": "ore", "amount": 40, "from": "core"},
        ),
        (
            "gal_transfer",
            {"to": "p1", "amount": "-3"},
            {"type": "gal_transfer", "to": "p1", "amount": -3},
        ),
        (
            "gal_transfer",
            {"to": "p1", "amount": "ten"},
            {"type": "gal_transfer", "to": "p1", "amount": "ten"},
        ),
        (
            "hub_setup",
            {"id": "h", "centre": "0101", "nodes": "0203, 0305", "links": "0101-0203 0203-0305"},
            {
                "type": "hub_setup",
                "id": "h",
                "centre": "0101",
                "nodes": ["0203", "0305"],
                "links": [["0101", "0203"], ["0203", "0305"]],
            },
        ),
        (
            "distribute",
            {"hub": "core", "shares": "0101 10 5; 0203 20 0"},
            {
                "type": "distribute",
                "hub": "core",
                "shares": [
                    {"hex": "0101", "ore": 10, "bio": 5},
                    {"hex": "0203", "ore": 20, "bio": 0},
                ],
            },
        ),
        (
            "declare_group",
            {"group": "g1", "hex": "0203", "engages": "vargr, zhodani", "defending": "on"},
            {
                "type": "declare_group",
                "group": "g1",
                "hex": "0203",
                "engages": ["vargr", "zhodani"],
                "defending": True,
            },
        ),
        (
            "hub_extend",
            {"hub": "core", "nodes": "0406", "links": "0305-0406"},
            {"type": "hub_extend", "hub": "core", "nodes": ["0406"], "links": [["0305", "0406"]]},
        ),
        (
            "hub_maintain",
            {"hub": "core", "close": "on"},
            {"type": "hub_maintain", "hub": "core", "close": True},
        ),
    ],
)
def test_form_data_round_trips_to_the_order_object(kind: str, data: dict, payload: dict) -> None:
    assert payload_from(kind, data) == payload
    assert payload_from(kind, form_values(payload)) == payload
