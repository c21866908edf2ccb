"""Trade agreements (R-5.5), the Common Market Report (R-6.3) and the UN Monetary Committee
(R-6.4) in the pure engine."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from economy.engine.agreements import dispatch_round
from economy.engine.codec import CaseError, dump_state, parse_state
from economy.engine.state import Motion
from economy.engine.un import decide, is_report_round, motion_errors, suggested_rate

from .factory import campaign, run, static, system


def trade_state(round_: int = 2, **agreement: Any) -> dict[str, Any]:
    ag = {
        "id": "ag",
        "a": "terra",
        "b": "vargr",
        "deposit": "0105",
        "delivery": 3,
        "legs": [{"from": "terra", "resource": "ore", "amount": 10}],
        "hubs": {"terra": {"send": "tw"}, "vargr": {"receive": "vh"}},
        **agreement,
    }
    return campaign(
        round=round_,
        powers={"terra": 50, "vargr": 50},
        systems=[system("a", "0101", "terra", 5), system("b", "0130", "vargr", 5)],
        statics=[static("s1", "terra", "0101"), static("s2", "vargr", "0130")],
        hubs=[
            {"id": "tw", "power": "terra", "centre": "0101", "guild": True, "pool": {"ore": 50}},
            {"id": "vh", "power": "vargr", "centre": "0130", "guild": True, "pool": {}},
        ],
        agreements=[ag],
    )


def leg(result: Any) -> dict[str, Any]:
    agreements = dump_state(result.state)["agreements"]
    return agreements[0]["legs"][0] if agreements else {}


def test_r_5_5_dispatch_round_by_distance() -> None:
    assert dispatch_round(10, 0) == 9  # at least one round
    assert dispatch_round(10, 20) == 9
    assert dispatch_round(10, 21) == 8
    assert dispatch_round(10, 41) == 7


def test_r_5_5_leg_waits_for_its_dispatch_round() -> None:
    result = run(trade_state(round_=1))
    assert leg(result)["status"] == "pending"
    assert dump_state(result.state)["shipments"] == []


def test_r_5_5_leg_dispatched_with_cost_and_delivery_round() -> None:
    result = run(trade_state())
    state = dump_state(result.state)
    assert leg(result)["status"] == "dispatched"
    (shipment,) = state["shipments"]
    assert shipment == {
        "id": "r2-terra-1",
        "power": "vargr",
        "sender": "terra",
        "from_hub": "tw",
        "to_hub": "vh",
        "resource": "ore",
        "amount": 10,
        "arrives": 3,
    }
    hub = next(h for h in state["hubs"] if h["id"] == "tw")
    assert hub["pool"]["ore"] == 50 - 10 - 1  # d=4: 1 % of 10, rounded up


def test_r_5_5_dispatch_round_passed_fails() -> None:
    result = run(trade_state(round_=2, delivery=2 + 1, deposit="0160"))  # d=59: 3 rounds
    assert leg(result)["status"] == "failed"
    assert "dispatch round 0 has passed" in leg(result)["note"]


def test_r_5_5_receiver_hub_of_another_power_fails() -> None:
    result = run(trade_state(hubs={"terra": {"send": "tw"}, "vargr": {"receive": "tw"}}))
    assert leg(result)["note"] == "receiving hub tw is not vargr's"


def test_r_5_5_delivered_agreement_leaves_the_state() -> None:
    result = run(trade_state(round_=3, legs=[]))
    assert dump_state(result.state)["agreements"] == []


def test_r_5_5_malformed_agreements_name_the_path() -> None:
    bad = trade_state(b="terra")
    with pytest.raises(CaseError, match=r"agreements\[0\]\.b"):
        parse_state(bad)
    bad = trade_state(hubs={"terra": {"send": "nowhere"}})
    with pytest.raises(CaseError, match=r"agreements\[0\]\.hubs\.terra\.send"):
        parse_state(bad)


def test_codec_round_trips_agreements_motions_and_bans() -> None:
    raw = trade_state()
    raw["un"] = {
        "motions": [
            {
                "id": "m1",
                "by": "terra",
                "kind": "tax",
                "edge": "all",
                "power": "vargr",
                "tax": "0.1",
            }
        ]
    }
    raw["market"] = {"banned": ["vargr"]}
    once = dump_state(parse_state(raw))
    assert dump_state(parse_state(once)) == once
    assert once["un"]["motions"][0]["tax"] == "0.1000"
    assert once["market"]["banned"] == ["vargr"]


def test_r_6_3_report_every_third_round() -> None:
    assert [n for n in range(1, 10) if is_report_round(n)] == [3, 6, 9]


def test_r_6_3_suggested_rate_follows_demand_within_bounds() -> None:
    one = Decimal(1)
    assert suggested_rate(one, 0, 100) == Decimal("1.1")  # no demand: cheaper to buy
    assert suggested_rate(one, 30, 100) == Decimal("1.0")  # demand share 10 %: unchanged
    assert suggested_rate(one, 10_000, 100) == Decimal("0.75")  # bounded at -25 %
    assert suggested_rate(Decimal(2), 0, 0) == Decimal("2.2")
    assert suggested_rate(Decimal(0), 50, 10) == Decimal(0)


def test_r_6_4_more_yes_than_half_of_all_members() -> None:
    members = ["a", "b", "c", "d"]
    motion = Motion("m", "a", "tax", "all", None, Decimal("0.1"), {"a": "yes", "b": "yes"})
    assert decide(motion, members, 1)[0] is False  # 2 of 4 is not more than half
    motion.votes["c"] = "yes"
    assert decide(motion, members, 1)[0] is True


def test_r_6_4_aimed_at_one_power_needs_every_other_yes() -> None:
    members = ["a", "b", "c"]
    votes = {"a": "yes", "b": "abstain", "c": "no"}
    motion = Motion("m", "a", "ban", None, "c", None, votes)
    passed, reason = decide(motion, members, 1)
    assert not passed and "b did not vote yes" in reason
    motion.votes["b"] = "yes"
    assert decide(motion, members, 1)[0] is True  # the target's own no does not count


def test_r_6_4_banned_power_is_refused_with_a_reason() -> None:
    raw = campaign(
        powers={"terra": 10},
        systems=[system("a", "0101", "terra", 5, stock={"ore": 5})],
        market={"banned": ["terra"]},
    )
    result = run(
        raw, {"terra": [{"type": "market_sell", "resource": "ore", "amount": 5, "from": "a"}]}
    )
    (rejection,) = result.rejected
    assert "banned from the Common Market by the UN" in rejection.error


def test_r_6_4_motion_entry_errors_name_the_field() -> None:
    powers = {"terra", "vargr"}
    assert motion_errors({"kind": "rate", "edge": "ore>bio", "rate": "1.25"}, powers) == []
    assert motion_errors({"kind": "rate", "edge": "x", "rate": "1.123456"}, powers) == [
        "edge: expected one of ore>bio, bio>gal, gal>ore, got 'x'",
        "rate: expected a decimal 0..10000 with at most 4 places, got '1.123456'",
    ]
    assert motion_errors({"kind": "tax", "edge": "all", "tax": "2"}, powers)[0].startswith("tax:")
    assert motion_errors({"kind": "ban", "power": "zz"}, powers) == ["power: unknown power 'zz'"]
    assert motion_errors({"kind": "coup"}, powers)[0].startswith("kind:")
