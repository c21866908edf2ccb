"""The chain of command checked at entry, not only at resolution (issue 16; R-2b, R-8.2,
R-8.3, R-8.3a): an officer aboard a craft above its maximum points or without the flag bridge
a flag officer needs, a group's officers above the campaign's value limit, a post under an
officer of too little seniority, and a bubble overlapping another — any power's, hidden — are
refused when entered, naming the field, and nothing is written. The rules are the engine's
own (``economy.engine.command_entry`` calls the steps' rule functions); the cases 402, 404
and 413 are the same orders refused at resolution."""

from __future__ import annotations

from typing import Any

import pytest

from economy import services
from economy.models import Order
from powers.models import CommandBubble, Craft, FleetGroup, Power
from powers.models.command import Officer
from tests.web.test_command_entry import errors_of, powers_of

pytestmark = pytest.mark.django_db


def refused(power: Power, payload: dict[str, Any]) -> list[str]:
    """Through the API's door (strict): refused, with no order and no officer changed."""
    orders = Order.objects.count()
    officers = list(Officer.objects.order_by("pk").values())
    with pytest.raises(services.OrderInvalid) as err:
        services.add_order(power=power, payload=payload, actor="t", strict=True)
    assert Order.objects.count() == orders
    assert list(Officer.objects.order_by("pk").values()) == officers
    return err.value.errors


def accepted(power: Power, payload: dict[str, Any]) -> None:
    assert services.add_order(power=power, payload=payload, actor="t", strict=True).error == ""


def test_an_officer_aboard_a_craft_above_its_maximum_points_is_refused() -> None:
    terra = powers_of("413")["terra"]
    errors = refused(terra, {"type": "assign_officer", "officer": "a", "craft": "f1"})
    assert len(errors) == 1 and errors[0].startswith("craft: f1 (")
    assert "larger than rank 1 may be aboard (50, Support §5.1.1)" in errors[0]
    accepted(terra, {"type": "assign_officer", "officer": "b", "craft": "f1"})


def test_a_flag_officer_needs_a_flag_bridge() -> None:
    terra = powers_of("413")["terra"]
    errors = refused(terra, {"type": "assign_officer", "officer": "f", "craft": "cr1"})
    assert errors == ["craft: a flag officer (rank 14) needs a flag bridge; cr1 has none"]
    accepted(terra, {"type": "assign_officer", "officer": "f", "craft": "fl1"})


def test_a_groups_officers_within_the_campaigns_value_limit() -> None:
    terra = powers_of("413")["terra"]
    ga = FleetGroup.objects.get(campaign=terra.campaign, key="ga")
    accepted(terra, {"type": "assign_officer", "officer": "b", "group": "ga"})  # 200 of 500
    Officer.objects.filter(power=terra, key__in=["a", "c"]).update(group=ga)  # 100 + 300
    errors = refused(terra, {"type": "assign_officer", "officer": "b", "group": "ga"})
    assert errors == [
        "group: officers worth 600 exceed the standard group limit of 500 (R-2b, Support §5.1.3)"
    ]


def test_a_post_under_an_officer_of_too_little_seniority_is_refused() -> None:
    terra = powers_of("402")["terra"]
    # j (rank 3, grade 3) may not serve under the HQ's h (rank 3, grade 3)
    errors = refused(
        terra, {"type": "bubble_outpost", "bubble": "tb", "hex": "0201", "officer": "j"}
    )
    assert errors == [
        "officer: chain of command: j (rank 3, grade 3) may not serve under h (rank 3, "
        "grade 3) (R-8.2)"
    ]
    # k (rank 2, grade 2) commands the outpost 0102: n (rank 1) may not command the HQ over it
    errors = refused(
        terra, {"type": "post_officer", "bubble": "tb", "post": "0101", "officer": "n"}
    )
    assert errors[0].startswith("officer: chain of command: k (rank 2, grade 2)")
    accepted(terra, {"type": "bubble_outpost", "bubble": "tb", "hex": "0103", "officer": "n"})
    accepted(terra, {"type": "post_officer", "bubble": "tb", "post": "0101", "officer": "m"})


def test_a_bubble_overlapping_another_powers_hidden_one_says_only_that() -> None:
    powers = powers_of("404")
    terra, vega = powers["terra"], powers["vega"]
    hidden = CommandBubble.objects.get(campaign=terra.campaign, key="vb")
    errors = refused(terra, {"type": "bubble_hq", "id": "t1", "hex": "0303", "officer": "a"})
    assert errors == ["hex: overlaps another bubble"]
    assert not {"vb", "vega", "Vega", hidden.hq, "0505"} & set(" ".join(errors).split())
    # one's own bubbles too, and vega meeting terra's the same way
    assert refused(terra, {"type": "bubble_hq", "id": "t5", "hex": "0108", "officer": "f"}) == [
        "hex: overlaps another bubble"
    ]
    assert refused(vega, {"type": "bubble_hq", "id": "v9", "hex": "0211", "officer": "c"}) == [
        "hex: overlaps another bubble"
    ]
    accepted(terra, {"type": "bubble_hq", "id": "t3", "hex": "0115", "officer": "d"})


def test_a_sensor_beyond_its_posts_limit_is_refused() -> None:
    terra = powers_of("402")["terra"]
    # h: rank 3 + grade 3 = 6 sensors at the HQ; the seventh is refused
    for hx in ("0102", "0103", "0201", "0202", "0302", "0301"):
        accepted(terra, {"type": "bubble_sensor", "bubble": "tb", "post": "0101", "hex": hx})
    bubble = CommandBubble.objects.get(campaign=terra.campaign, key="tb")
    for hx in ("0102", "0103", "0201", "0202", "0302", "0301"):
        bubble.sensors.create(col=int(hx[:2]), row=int(hx[2:]))
    errors = refused(
        terra, {"type": "bubble_sensor", "bubble": "tb", "post": "0101", "hex": "0104"}
    )
    assert errors == ["hex: HQ 0101 of tb may have 6 sensors (rank + grade of h), not 7 (R-8.3)"]


def test_a_promotion_or_demotion_the_post_or_craft_would_not_allow_is_refused() -> None:
    terra = powers_of("402")["terra"]
    # k commands the outpost 0102 under h (rank 3, grade 3): rank 3, grade 3 is not junior
    errors = refused(terra, {"type": "promote", "officer": "k", "rank": 3, "grade": 3})
    assert errors == [
        "rank: chain of command: k (rank 3, grade 3) may not serve under h (rank 3, grade 3) "
        "(R-8.2)"
    ]
    accepted(terra, {"type": "promote", "officer": "k", "rank": 3, "grade": 2})
    # h demoted below k's rank and grade breaks it the other way
    accepted(terra, {"type": "demote", "officer": "h", "rank": 2})  # (2, 3) over (2, 2)
    errors = refused(terra, {"type": "demote", "officer": "h", "rank": 1})
    assert errors[0].startswith("rank: chain of command: k (rank 2, grade 2)")
    # aboard a craft: b (rank 2) aboard f1 may not drop to rank 1
    terra = powers_of("413")["terra"]
    Officer.objects.filter(power=terra, key="b").update(
        craft=Craft.objects.get(campaign=terra.campaign, key="f1")
    )
    errors = refused(terra, {"type": "demote", "officer": "b", "rank": 1})
    assert "larger than rank 1 may be aboard" in errors[0] and errors[0].startswith("rank: f1")


def test_a_promotion_whose_wider_radius_would_overlap_says_only_that() -> None:
    powers = powers_of("404")
    terra = powers["terra"]
    # e (grade 1) commands tb's HQ at 0110; at grade 5 its radius reaches vega's hidden bubble
    errors = refused(terra, {"type": "promote", "officer": "e", "grade": 5})
    assert errors == ["grade: overlaps another bubble"]
    accepted(terra, {"type": "promote", "officer": "e", "grade": 2})


def test_entry_is_never_stricter_than_resolution() -> None:
    """A post set up earlier on the same sheet, and an officer commanding a post already, are
    left to the step (which knows the sheet's order and names the officer's post)."""
    terra = powers_of("402")["terra"]
    accepted(terra, {"type": "bubble_outpost", "bubble": "tb", "hex": "0103", "officer": "n"})
    accepted(terra, {"type": "bubble_sensor", "bubble": "tb", "post": "0103", "hex": "0104"})
    order = {"type": "bubble_outpost", "bubble": "tb", "hex": "0201", "officer": "k"}
    assert errors_of(terra, order) == ""
