"""The browser's order forms ask for exactly the fields the engine validates."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from economy.engine.orders import SPECS
from economy.events import Names
from economy.orderforms import form_values, payload_from, summary


def test_every_order_type_reads_back_from_its_own_form() -> None:
    """A form shows a stored order (``form_values``) as the player would type it: read back
    (``payload_from``), it is the same order, for every field of every order type."""
    for kind, spec in SPECS.items():
        payload = {"type": kind, **{f.name: SAMPLES[f.widget] for f in spec.fields}}
        assert payload_from(kind, form_values(payload)) == payload, kind


SAMPLES = {
    "ref": "p0-core",
    "ids": ["p0-y1", "p0-y2"],
    "enum": "ore",
    "int": 12,
    "bool": True,
    "text": "Free Hold",
    "typed_id": "west",
    "hex": "0203",
    "hexes": ["0203", "0305"],
    "links": [["0101", "0203"]],
    "powers": ["p1", "p2"],
    "shares": [{"hex": "0101", "ore": 10, "bio": 5}],
    "counts": {"fighter": 6, "missile": 2},
    "systems": [{"id": "s1", "name": "Hull box", "points": 1, "count": 10}],
}


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
        (
            "register_design",
            {
                "id": "dart",
                "class": "military",
                "mobility": "mobile",
                "mass": "30",
                "npv": "73",
                "systems": "Class 1 beam: 3 x2\nHull box: 1 x10; EP store: 2, ep storage 2",
                "loadout": "fighter 6, missile 2",
            },
            {
                "type": "register_design",
                "id": "dart",
                "class": "military",
                "mobility": "mobile",
                "mass": 30,
                "npv": 73,
                "systems": [
                    {"id": "s1", "name": "Class 1 beam", "points": 3, "count": 2},
                    {"id": "s2", "name": "Hull box", "points": 1, "count": 10},
                    {"id": "s3", "name": "EP store", "points": 2, "ep_storage": 2},
                ],
                "loadout": {"fighter": 6, "missile": 2},
            },
        ),
        (
            "register_design",
            {"id": "x", "systems": "Yard: 40, construction 30, workshop ten"},
            {
                "type": "register_design",
                "id": "x",
                "systems": [
                    {
                        "id": "s1",
                        "name": "Yard",
                        "points": 40,
                        "construction": 30,
                        "workshop": "ten",
                    }
                ],
            },
        ),
        (
            "build",
            {"id": "n1", "design": "nac-dart", "builders": "y1 y2", "ore": "20"},
            {
                "type": "build",
                "id": "n1",
                "design": "nac-dart",
                "builders": ["y1", "y2"],
                "ore": 20,
            },
        ),
        (
            "adjust_build",
            {"build": "b1", "cancel": "on"},
            {"type": "adjust_build", "build": "b1", "cancel": True},
        ),
        (
            "form_group",
            {"id": "ng", "craft": ["n1", "n2"], "kind": "standard"},
            {"type": "form_group", "id": "ng", "craft": ["n1", "n2"], "kind": "standard"},
        ),
    ],
)
def test_form_data_round_trips_to_the_order_object(
    kind: str, data: dict[str, str], payload: dict[str, object]
) -> None:
    assert payload_from(kind, data) == payload
    assert payload_from(kind, form_values(payload)) == payload


def test_several_craft_come_from_a_multiple_select() -> None:
    data = QueryDict(mutable=True)
    data.setlist("builders", ["y1", "y2"])
    data.update({"id": "n1", "design": "d"})
    assert payload_from("build", data)["builders"] == ["y1", "y2"]


def test_a_system_line_that_does_not_parse_is_left_for_the_engine_to_name() -> None:
    payload = payload_from("register_design", {"systems": "a beam, three points"})
    assert payload["systems"] == [{"id": "s1", "name": "a beam", "points": "a beam"}]


def test_command_orders_read_officers_diplomats_and_bubbles_by_name() -> None:
    """Issue 17 on the command orders (Support §4.4, §5): characters by their names, bubbles
    and typed ids without their power's key."""
    state = {
        "powers": [{"id": "nac"}, {"id": "esu"}],
        "officers": [{"id": "nac-adm", "name": "Ada Brandt"}, {"id": "nac-o2", "name": ""}],
        "diplomats": [{"id": "nac-d1", "name": "Mara Voss"}],
        "bubbles": [{"id": "nac-home"}],
    }
    names = Names.of_state(state, {"nac": "New Anglia", "esu": "Eurasia"})
    hq = {"type": "bubble_hq", "id": "west", "hex": "0406", "officer": "nac-adm"}  # as typed
    assert summary(hq, names) == "Sets up the HQ of bubble west at 0406 under Ada Brandt"
    post = {"type": "post_officer", "officer": "nac-o2", "bubble": "nac-home", "post": "0203"}
    assert summary(post, names) == "Posts o2 to the post of home at 0203"
    recall = {"type": "recall_diplomat", "diplomat": "nac-d1"}
    assert summary(recall, names) == "Recalls Mara Voss"
