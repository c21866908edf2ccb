"""The order table is one declaration per order type (issue 28): what the entry check, the
forms, the schema and the sentences read of it, and the differences that used to lie between
the tables it replaced."""

from __future__ import annotations

from typing import Any

import pytest

from economy import entry, selectors, services
from economy.engine.catalog import Catalog, FleetCatalog
from economy.engine.orders import NAMES_PROMISED, SPECS, order_schemas
from economy.engine.orders.kinds import Choice, Kind, Ref
from economy.engine.validate import check_order
from economy.events import Names
from economy.orderforms import summary
from powers.models import Craft, Design
from tests.web.factories import World, add_fleet, make_campaign

pytestmark = pytest.mark.django_db


def test_each_field_of_each_type_is_of_a_declared_kind() -> None:
    """Every field's kind is one of the small set, with a widget the order form maps, and a
    reference knows the choices a page offers for it."""
    widgets = {"ref", "ids", "enum", "int", "bool", "text", "typed_id", "hex", "hexes"}
    widgets |= {"links", "powers", "shares", "counts", "systems"}
    for spec in SPECS.values():
        assert spec.sentence and spec.help and spec.cite, spec.type
        for f in spec.fields:
            assert isinstance(f.kind, Kind) and f.widget in widgets, (spec.type, f.name)
            if isinstance(f.kind, Ref):
                assert f.source, (spec.type, f.name)
            if isinstance(f.kind, Choice):
                assert f.options, (spec.type, f.name)


def test_the_schema_requires_what_the_rules_require() -> None:
    schemas = order_schemas()
    assert set(schemas) == set(SPECS)
    assert schemas["ship"]["required"] == ["type", "from_hub", "to_hub", "resource", "amount"]
    assert schemas["ship"]["properties"]["amount"]["maximum"] == 2**31 - 1  # a 32-bit column
    assert schemas["market_sell"]["properties"]["amount"]["maximum"] == 10**12
    assert schemas["hub_setup"]["properties"]["name"]["pattern"].endswith("{0,60}$")


def test_a_contract_order_with_a_system_that_is_no_object_is_named_not_a_crash() -> None:
    """A case file's design with a system that is not an object: the shape check leaves it to
    the engine, which names it (it used to raise AttributeError summing the design)."""
    order: dict[str, Any] = {"type": "register_design", "id": "d", "class": "military"}
    order |= {"mobility": "mobile", "mass": 10, "npv": 30}
    order["systems"] = ["0101", {"id": "s1", "points": 2}]
    assert entry.shape_errors(order, contract=True) == []
    assert entry.shape_errors(order) == ["systems: system 1: expected an object"]


def test_a_consumable_that_is_no_text_is_named_not_a_crash() -> None:
    """``make`` with a list for its consumable, as a case file may give it: the engine's rule
    names it (it used to raise TypeError looking it up in the catalogue's set)."""
    catalog = Catalog(set(), {}, {}, {}, {}, set())
    catalog.fleet = FleetCatalog(craft_owner={"y1": "p0"}, kinds={"fighter"})
    order = {"type": "make", "builder": "y1", "kind": ["fighter"], "count": 1}
    assert check_order(catalog, "p0", order) == [
        "kind: no consumable ['fighter'] in the catalogue (R-10.1a)"
    ]
    assert entry.shape_errors(order, contract=True) == ["kind: expected text"]


def test_a_repairer_reads_as_its_name() -> None:
    names = Names(craft={"p0-y1": "Forge of Ares", "p0-f1": "Lance"})
    order = {"type": "repair", "id": "p0-r1", "craft": "p0-f1", "repairer": "p0-y1"}
    assert summary(order, names) == "Repairs Lance at Forge of Ares (work p0-r1)"


def test_a_refit_may_name_a_variant_registered_on_the_same_sheet(world: World) -> None:
    """R-10.1a: a design registered this round may be refitted to at once, at entry as at
    resolution (the entry check offered the sheet's designs only to builds)."""
    assert "refit" in NAMES_PROMISED
    power = world.powers[0]
    lancer: dict[str, Any] = {"type": "register_design", "id": "lancer", "class": "military"}
    lancer |= {"mobility": "mobile", "mass": 20, "npv": 60}
    lancer["systems"] = [{"id": "s1", "name": "Hull", "points": 10}]
    assert services.add_order(power=power, payload=lancer, actor="t").error == ""
    frigate = Craft.objects.filter(power=power, design__key="p0-frigate").first()
    assert frigate is not None and Design.objects.filter(key="p0-lancer").count() == 0
    refit = {"type": "refit", "id": "r1", "craft": frigate.key, "builder": "p0-y1"}
    refit["design"] = "p0-lancer"
    assert entry.check(power, refit).errors == []
    other = {**refit, "design": "p1-lancer"}
    assert entry.check(power, other).errors == ["design: no such design of yours: 'p1-lancer'"]


@pytest.fixture
def world() -> World:
    world = make_campaign("Order specs", n_powers=2, systems_per_power=2)
    add_fleet(world)
    return world


def test_every_source_a_field_names_is_offered(world: World) -> None:
    """Each reference's choices come from ``selectors.choices_for``: no source is missing."""
    choices = selectors.choices_for(world.powers[0])
    offered = {"groups", "hubs", "held", "systems", "statics", "other_powers", "places"}
    offered |= {"carriers", *choices.fleet}
    sources = {f.source for spec in SPECS.values() for f in spec.fields if f.source}
    assert sources <= offered, sources - offered


def test_a_type_naming_what_the_power_lacks_is_not_offered(world: World) -> None:
    """The order chooser greys a type out when a thing it must name does not exist, with the
    kind's own words (a type needs no line of its own for it)."""
    why = selectors.unavailable(world.powers[0])
    assert why["remove_sensor"] == "you have no command bubbles"
    assert why["bubble_sensor"] == "you have no command bubbles: set up an HQ first"
    assert "restock" not in why  # it has craft
    bare = make_campaign("No fleet", n_powers=2, systems_per_power=1)
    assert selectors.unavailable(bare.powers[0])["restock"] == "you have no craft"
