"""The API says what it does (issue 32, item 9): a ban motion's edge is null, which its schema
allows, not ``""`` outside the edge enum; a query parameter given twice is a 400 naming it, not
silently its last value; the ledger's ``round`` has the minimum the API keeps (1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.web.factories import World, make_campaign
from trade import services

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def world() -> World:
    return make_campaign(n_powers=3)


def _schema(client: Client) -> dict[str, Any]:
    schema: dict[str, Any] = client.get("/api/schema/?format=json").json()
    return schema


def _allowed(schema: dict[str, Any], prop: dict[str, Any]) -> tuple[set[Any], bool]:
    """The enum values a property allows, and whether it allows null (OpenAPI 3.0)."""
    values: set[Any] = set(prop.get("enum", []))
    nullable = bool(prop.get("nullable"))
    for part in [*prop.get("allOf", []), *prop.get("oneOf", []), *prop.get("anyOf", [])]:
        if "$ref" in part:
            part = schema["components"]["schemas"][part["$ref"].rsplit("/", 1)[1]]
        more, null = _allowed(schema, part)
        values |= more
        nullable = nullable or null or part.get("enum") == [None]
    return values - {None}, nullable or None in prop.get("enum", [])


def test_a_ban_motion_answers_an_edge_its_schema_allows(player: Client, world: World) -> None:
    services.draft_motion(power=world.powers[0], fields={"kind": "ban", "power": "p1"}, actor="t")
    drafts = player.get(f"/api/campaigns/{world.campaign.pk}/un/").json()["drafts"]
    assert [d["kind"] for d in drafts] == ["ban"]
    schema = _schema(player)
    values, nullable = _allowed(
        schema, schema["components"]["schemas"]["Motion"]["properties"]["edge"]
    )
    edge = drafts[0]["edge"]
    assert edge is None and nullable
    assert values == {"ore>bio", "bio>gal", "gal>ore", "all"}


def test_a_repeated_query_parameter_is_a_400_naming_it(player: Client, world: World) -> None:
    r = player.get(f"/api/campaigns/{world.campaign.pk}/ledger/?round=1&round=2")
    assert r.status_code == 400
    assert "round" in r.json() and "more than once" in r.json()["detail"]
    assert player.get(f"/api/campaigns/{world.campaign.pk}/ledger/?round=1").status_code == 200


def test_the_ledger_round_has_a_minimum_of_1(player: Client, world: World) -> None:
    schema = _schema(player)
    ledger = schema["paths"]["/api/campaigns/{campaign_id}/ledger/"]["get"]
    (round_param,) = [p for p in ledger["parameters"] if p["name"] == "round"]
    assert round_param["schema"] == {"type": "integer", "minimum": 1}
    for bad in ("0", "", "-1"):
        r = player.get(f"/api/campaigns/{world.campaign.pk}/ledger/", {"round": bad})
        assert r.status_code == 400 and "round" in r.json(), bad
