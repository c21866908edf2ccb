"""Entering the command and intelligence orders (issue 16) through the one entry check both
front doors use: a bad field is named and nothing is written; another power's officer,
bubble or diplomat reads as none of yours; the forms offer only the power's own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.cases import campaign_from_case
from economy import services
from economy.models import Order
from economy.selectors import choices_for
from powers.models import Power

pytestmark = pytest.mark.django_db
CASES = Path(__file__).resolve().parents[1] / "cases"


def powers_of(stem: str) -> dict[str, Power]:
    """The case's campaign without its orders, by power key."""
    case = json.loads(next(CASES.glob(f"{stem}-*.json")).read_text())
    case["orders"] = {}
    campaign = campaign_from_case(case, name=stem)
    return {p.key: p for p in Power.objects.filter(campaign=campaign)}


def refused(power: Power, payload: dict[str, Any]) -> list[str]:
    before = Order.objects.count()
    with pytest.raises(services.OrderInvalid) as err:
        services.add_order(power=power, payload=payload, actor="t", strict=True)
    assert Order.objects.count() == before  # nothing written
    return err.value.errors


def errors_of(power: Power, payload: dict[str, Any]) -> str:
    """A browser entry: kept on the sheet with its error (empty: accepted)."""
    return services.add_order(power=power, payload=payload, actor="t").error


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"type": "commission", "id": "n1", "rank": 1, "grade": 11}, "grade"),
        ({"type": "commission", "id": "n1", "rank": "one", "grade": 1}, "rank"),
        ({"type": "demote", "officer": "t1", "rank": 0}, "rank"),
        ({"type": "bubble_hq", "id": "nb", "hex": "99xx", "officer": "t1"}, "hex"),
        ({"type": "dismiss", "officer": "t1", "ship": "x"}, "ship"),
    ],
)
def test_a_bad_field_is_named_and_nothing_changes(payload: dict[str, Any], field: str) -> None:
    terra = powers_of("414")["terra"]
    errors = refused(terra, payload)
    assert any(e.startswith(f"{field}:") for e in errors), errors


@pytest.mark.parametrize(
    ("payload", "field", "what"),
    [
        ({"type": "promote", "officer": "v1", "rank": 2}, "officer", "officer"),
        ({"type": "dismiss", "officer": "v1"}, "officer", "officer"),
        ({"type": "bubble_sensor", "bubble": "vb", "post": "0909", "hex": "0910"}, "bubble",
         "bubble"),
        ({"type": "post_officer", "bubble": "vb", "post": "0909", "officer": "t1"}, "bubble",
         "bubble"),
    ],
)  # fmt: skip
def test_another_powers_officer_or_bubble_is_none_of_yours(
    payload: dict[str, Any], field: str, what: str
) -> None:
    terra = powers_of("414")["terra"]
    assert f"{field}: no such {what} of yours: " in " ".join(refused(terra, payload))


def test_another_powers_diplomat_is_none_of_yours() -> None:
    vega = powers_of("411")["vega"]
    errors = refused(vega, {"type": "recall_diplomat", "diplomat": "d1"})
    assert errors == ["diplomat: no such diplomat of yours: 'd1'"]


def test_own_officers_and_what_the_sheet_commissions_are_accepted() -> None:
    terra = powers_of("414")["terra"]
    assert errors_of(terra, {"type": "dismiss", "officer": "t1"}) == ""
    assert errors_of(terra, {"type": "commission", "id": "n2", "rank": 1, "grade": 2}) == ""
    # Support §5: commissioned in §5.1, posted in §5.2 of the same round (its stored key)
    bubble = {"type": "bubble_hq", "id": "nb", "hex": "0101", "officer": "terra-n2"}
    assert errors_of(terra, bubble) == ""


def test_the_forms_offer_only_the_powers_own() -> None:
    powers = powers_of("414")
    terra, vega = choices_for(powers["terra"]), choices_for(powers["vega"])
    assert [k for k, _ in terra.get("officers")] == ["t1"]
    assert [k for k, _ in vega.get("officers")] == ["v1"]
    assert terra.get("bubbles") == [] and [k for k, _ in vega.get("bubbles")] == ["vb"]
    assert [k for k, _ in choices_for(powers_of("411")["vega"]).get("diplomats")] == []
