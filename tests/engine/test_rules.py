"""One test per rule, named after it (style.md); expectations worked out from the rules."""

from __future__ import annotations

from decimal import Decimal

from economy.engine import rules
from economy.engine.codec import dump_state
from economy.engine.hexgrid import Hex, bounding_size, on_map
from economy.engine.market import received
from economy.engine.production import system_output
from economy.engine.projects import setup_cost
from economy.engine.resolve import round_rng
from economy.engine.state import Project, System
from economy.engine.validate import hex_problem

from .factory import campaign, find, group, run, static, system


def _sys(lr: int, kind: str = "basic", project: Project | None = None, **r: int) -> System:
    rates = {k: r.get(k, 0) for k in ("ore", "gal", "bio", "pl")}
    return System(
        "s", "S", "0101", kind, "terra", lr, rates, {"ore": 0, "bio": 0, "pl": 0}, project
    )


def test_r_0_1_costs_round_up_production_rounds_down() -> None:
    assert rules.trade_cost(101, 10) == 3  # ceil(101 * 2 / 100) = ceil(2.02)
    assert received(7, Decimal("1.5"), Decimal("0.1")) == 9  # floor(9.45)
    assert rules.with_bonus(13, 16) == 15  # floor(15.6)


def test_r_0_3_rng_is_seeded_from_seed_and_round() -> None:
    a = round_rng(12345, 3).random()
    assert a == round_rng(12345, 3).random()
    assert a != round_rng(12345, 4).random()


def test_r_0_5_distance_uses_odd_up_columns() -> None:
    assert rules.hex_distance("0101", "0201") == 1
    assert rules.hex_distance("0201", "0102") == 1
    assert rules.hex_distance("0101", "0202") == 2
    assert rules.hex_distance("0101", "1106") == 10


def test_r_3_2_max_loyalty_by_type() -> None:
    assert [rules.max_loyalty(t) for t in ("homeworld", "primary", "standard", "basic")] == [
        30,
        20,
        15,
        10,
    ]
    assert rules.derived_type("basic", 15) == "standard"
    assert rules.derived_type("standard", 14) == "basic"
    assert rules.derived_type("primary", 3) == "primary"


def test_r_3_3_bands_and_bonus() -> None:
    assert [rules.bonus_pct(lr) for lr in (10, 11, 15, 16, 21, 26, 30)] == [
        0,
        10,
        10,
        20,
        30,
        40,
        40,
    ]
    assert [rules.max_shift_pct(lr) for lr in (10, 11, 16, 21, 30)] == [0, 25, 50, 75, 75]
    assert system_output(_sys(1, ore=10, pl=5), 1).ore == 0
    half = system_output(_sys(3, "homeworld", ore=11, gal=7, bio=5, pl=9), 3)
    assert (half.ore, half.gal, half.bio, half.pl, half.tp) == (5, 3, 2, 0, 25)


def test_r_4_1_bonus_then_shift_then_band() -> None:
    out = system_output(_sys(16, project=Project("ore", "gal", 40), ore=100, gal=25, bio=13), 16)
    assert (out.ore, out.gal, out.bio) == (72, 78, 15)  # the Support §6.1 example


def test_r_9_1_shift_capped_when_loyalty_falls() -> None:
    # LR 12 allows 25 %: the 40 % project moves floor(110 * 25 / 100) = 27.
    out = system_output(_sys(12, project=Project("ore", "gal", 40), ore=100), 12)
    assert (out.ore, out.gal) == (83, 27)
    assert setup_cost(100, 16, 40) == 96


def test_r_4_2_tp_homeworld_and_primary() -> None:
    assert system_output(_sys(20, "homeworld"), 20).tp == 50
    assert system_output(_sys(20, "primary"), 20).tp == 10
    assert system_output(_sys(20, "standard", pl=15), 20).tp == 0


def test_r_5_2_maintenance_formula() -> None:
    assert rules.hub_maintenance(0, 0, 0) == 1
    assert rules.hub_maintenance(4, 2, 2) == 20
    assert rules.hub_setup_cost([2, 2]) == 24


def test_r_5_4_trade_cost_and_time() -> None:
    assert rules.trade_cost_pct(0) == 1
    assert rules.trade_cost_pct(11) == 3
    assert rules.travel_rounds(0) == 1
    assert rules.travel_rounds(21) == 2


def test_r_6_1_received_is_exact_decimal() -> None:
    # 0.1 * 3 is not exact in binary floating point; Decimal keeps floor(30 * 0.1 * 1) = 3.
    assert received(30, Decimal("0.1"), Decimal(0)) == 3
    assert received(40, Decimal("1.5"), Decimal("0.1")) == 54


def test_resource_1_2_troops_spent() -> None:
    state = campaign(
        systems=[system("mars", "0101", "terra", 5)],
        groups=[group("g1", "terra", "0101", troops=60, troop_space=100)],
    )
    result = run(state, {"terra": [{"type": "send_troops", "group": "g1", "troops": 60}]})
    assert find(result.state, "systems", "mars")["loyalty"] == 8
    assert find(result.state, "groups", "g1")["troops"] == 0
    assert any(line.amount == -60 and line.rule == "R-3.4" for line in result.ledger)


def test_r_3_4_changes_computed_from_start_and_applied_together() -> None:
    # +1 own Maintain Orbit, -1 enemy Maintain Orbit: net 0, whatever order they are looked at.
    # LR 7 of a basic system's 10, so a missing -1 shows as 8 instead of hiding under the clamp.
    state = campaign(
        powers={"terra": 0, "vargr": 0},
        systems=[system("a", "0101", "terra", 7)],
        groups=[group("t", "terra", "0101"), group("v", "vargr", "0101")],
    )
    assert find(run(state).state, "systems", "a")["loyalty"] == 7


def test_r_3_4_enemy_maintain_orbit_below_maximum() -> None:
    # Only the enemy's -1 (terra's static keeps the system from being abandoned): 7 -> 6.
    state = campaign(
        powers={"terra": 0, "vargr": 0},
        systems=[system("a", "0101", "terra", 7)],
        groups=[group("v", "vargr", "0101")],
        statics=[static("s", "terra", "0101")],
    )
    assert find(run(state).state, "systems", "a")["loyalty"] == 6


def test_r_3_4_loyalty_clamped_to_maximum() -> None:
    state = campaign(
        systems=[system("a", "0101", "terra", 10)],
        groups=[group("g", "terra", "0101", troops=100, troop_space=100)],
    )
    result = run(state, {"terra": [{"type": "send_troops", "group": "g", "troops": 100}]})
    assert find(result.state, "systems", "a")["loyalty"] == 10  # basic max 10


def test_r_1_3_pl_lost_at_tidy_up_but_invaders_stay() -> None:
    state = campaign(
        powers={"terra": 0, "vargr": 0},
        systems=[system("a", "0101", "terra", 9, pl=5)],
        statics=[static("s", "terra", "0101")],
        invasions=[{"system": "a", "power": "vargr", "troops": 30}],
    )
    result = run(state)
    assert find(result.state, "systems", "a")["stock"]["pl"] == 0
    assert [i.troops for i in result.state.invasions] == [30]


def test_r_1_2_hub_systems_pool_their_stockpiles() -> None:
    state = campaign(
        powers={"terra": 10},
        systems=[system("a", "0101", "terra", 5, ore=3, stock={"ore": 7, "bio": 2})],
        hubs=[{"id": "h", "power": "terra", "centre": "0101"}],
        statics=[static("s", "terra", "0101")],
    )
    result = run(state)
    assert find(result.state, "systems", "a")["stock"] == {"ore": 0, "bio": 0, "pl": 0}
    assert find(result.state, "hubs", "h")["pool"] == {"ore": 10, "bio": 2, "pl": 0}


def test_r_5_1_new_hub_active_next_round() -> None:
    state = campaign(
        powers={"terra": 10},
        systems=[system("a", "0101", "terra", 5, ore=5, stock={"ore": 20})],
        statics=[static("s", "terra", "0101")],
    )
    first = run(state, {"terra": [{"type": "hub_setup", "id": "h", "centre": "0101"}]})
    assert find(first.state, "systems", "a")["stock"]["ore"] == 5  # 20 + 5 - 20 setup
    assert find(first.state, "powers", "terra")["gal"] == 9  # first maintenance at once
    second = run(dump_state(first.state))
    assert find(second.state, "hubs", "h")["pool"]["ore"] == 10  # 5 joined + 5 produced


def test_r_5_9_setup_before_maintenance_before_guild() -> None:
    state = campaign(
        powers={"terra": 7},
        systems=[
            system("a", "0101", "terra", 5, stock={"ore": 20}),
            system("b", "0301", "terra", 5),
        ],
        hubs=[{"id": "old", "power": "terra", "centre": "0301", "guild": True}],
        statics=[static("s", "terra", "0101"), static("t", "terra", "0301")],
    )
    result = run(state, {"terra": [{"type": "hub_setup", "id": "new", "centre": "0101"}]})
    steps = [line.step for line in result.ledger if line.resource == "gal"]
    assert steps == ["support.4.1.2", "support.4.1.2", "support.4.2"]
    assert find(result.state, "powers", "terra")["gal"] == 7 - 1 - 1 - 5
    assert find(result.state, "hubs", "old")["guild"] is True


def test_r_0_2_failed_order_changes_nothing() -> None:
    state = campaign(
        powers={"terra": 0},
        systems=[system("a", "0101", "terra", 5, stock={"ore": 10})],
        statics=[static("s", "terra", "0101")],
    )
    orders = {"terra": [{"type": "market_sell", "resource": "ore", "amount": 11, "from": "a"}]}
    result = run(state, orders)
    assert result.ledger == ()
    assert [(r.power, r.index) for r in result.rejected] == [("terra", 0)]
    assert "has 10 ore" in result.rejected[0].error


def test_r_4_6a_capture_exactly_once_over_two_rounds() -> None:
    # Round 1: vargr's Maintain Orbit takes b from LR 1 to 0: node 0103 is captured (40 // 2 = 20)
    # and recorded in lost. Round 2, from the result: b is still lost, and nothing is captured.
    state = campaign(
        powers={"terra": 50, "vargr": 0},
        systems=[
            system("a", "0101", "terra", 5),
            system("b", "0103", "terra", 1),
            system("v", "0301", "vargr", 5),
        ],
        hubs=[{"id": "h", "power": "terra", "centre": "0101", "nodes": ["0103"],
               "links": [["0101", "0103"]], "pool": {"ore": 40}}],
        groups=[group("g", "vargr", "0103")],
        statics=[static("s1", "terra", "0101"), static("s2", "terra", "0103"),
                 static("sv", "vargr", "0301")],
    )  # fmt: skip
    first = run(state)
    assert find(first.state, "hubs", "h")["lost"] == ["0103"]
    assert find(first.state, "systems", "v")["stock"]["ore"] == 20
    second = run(dump_state(first.state))
    assert not [line for line in second.ledger if line.rule == "R-4.6"]
    assert find(second.state, "hubs", "h")["pool"]["ore"] == 20
    assert find(second.state, "hubs", "h")["lost"] == ["0103"]


def test_r_5_1a_extension_active_from_the_next_round() -> None:
    # Round 1 extends h to c (link 0103-0104, length 1 Ore); c's 6 ore stay in c. Round 2: c's
    # stockpile joins the pool.
    state = campaign(
        powers={"terra": 50},
        systems=[
            system("a", "0101", "terra", 5),
            system("b", "0103", "terra", 5),
            system("c", "0104", "terra", 5, stock={"ore": 6}),
        ],
        hubs=[{"id": "h", "power": "terra", "centre": "0101", "nodes": ["0103"],
               "links": [["0101", "0103"]], "pool": {"ore": 10}}],
        statics=[static("s1", "terra", "0101"), static("s2", "terra", "0103"),
                 static("s3", "terra", "0104")],
    )  # fmt: skip
    orders = {"terra": [{"type": "hub_extend", "hub": "h", "nodes": ["0104"],
                         "links": [["0103", "0104"]]}]}  # fmt: skip
    first = run(state, orders)
    assert find(first.state, "hubs", "h")["pool"]["ore"] == 9
    assert find(first.state, "systems", "c")["stock"]["ore"] == 6
    second = run(dump_state(first.state))
    assert find(second.state, "hubs", "h")["pool"]["ore"] == 15
    assert find(second.state, "systems", "c")["stock"]["ore"] == 0


def test_map_size_on_map_and_default_bounds() -> None:
    assert on_map(Hex(32, 40), (32, 40))
    assert not on_map(Hex(33, 40), (32, 40))
    assert not on_map(Hex(32, 41), (32, 40))
    assert on_map(Hex(99, 99), None)
    assert bounding_size([Hex(1, 1), Hex(5, 3), Hex(2, 8)]) == (5, 8)
    assert bounding_size([]) is None
    assert rules.map_bounds((32, 40), ["0101"]) == (32, 40)
    assert rules.map_bounds(None, ["0101", "0508"]) == (5, 8)
    assert hex_problem("9999", (32, 40)) == "hex 9999 is outside the map (32 × 40)"
    assert hex_problem("abcd", (32, 40)) == "expected hex XXYY, got 'abcd'"
    assert hex_problem("3240", (32, 40)) is None
