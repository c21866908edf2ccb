"""The database side of command and intelligence (issue 16): officers with penalties, bubble
posts (officers, outposts' sensors, patrols), diplomats, missions with what they spent and
their outcome, and the Area of Special Interest survive a save and a load unchanged, and
loading them takes the same number of queries at any size."""

from __future__ import annotations

from functools import partial

import pytest
from django.db import transaction

from economy.engine.codec import dump_state
from economy.engine.codec_command import derive
from economy.engine.command_state import (
    Command,
    Diplomat,
    Mission,
    Move,
    Officer,
    Outcome,
    Penalty,
    SpecialInterest,
)
from economy.engine.state import Bubble, Outpost, State
from economy.snapshot import load_state, save_state
from powers.models.command import CommandSettings, OutpostSensor, PostOfficer, PostPatrol
from powers.models.command import Officer as OfficerRow
from tests.web.factories import World, add_fleet, make_campaign
from tests.web.test_query_counts import EXPORT_QUERIES, count

pytestmark = pytest.mark.django_db


def with_command(world: World, n: int) -> State:
    """The world's state with ``n`` officers per power (one commanding each group, one aboard
    each yard, one at each post), a bubble of ``n`` outposts per power with sensors and
    patrols, a diplomat, a mission with an outcome and an Area of Special Interest."""
    state = load_state(world.campaign)
    officers, diplomats, missions, bubbles = [], [], [], []
    for p in state.powers:
        groups = [g.id for g in state.groups if g.power == p.id]
        yard = next(c.id for c in state.fleet.craft if c.power == p.id and c.static)
        mine = [f"{p.id}-o{i}" for i in range(n + 2)]
        officers += [
            Officer(mine[0], p.id, "Aboard", 3, 2, craft=yard, penalties=(Penalty(-1, 4),)),
            Officer(mine[1], p.id, "At the HQ", 9, 4, commissioned=2),
        ]
        officers += [
            Officer(key, p.id, f"Officer {key}", 5, 3, group=groups[i] if i < len(groups) else None)
            for i, key in enumerate(mine[2:])
        ]
        col = 40 + 10 * state.powers.index(p)
        outposts = tuple(
            Outpost(
                f"{col:02d}{20 + 3 * i:02d}",
                1,
                mine[2 + i] if i >= len(groups) else None,
                (f"{col + 1:02d}{20 + 3 * i:02d}", f"{col:02d}{21 + 3 * i:02d}"),
                (groups[i],) if 0 < i < len(groups) else (),
            )
            for i in range(n)
        )
        bubbles.append(
            Bubble(
                f"{p.id}-b",
                p.id,
                f"{col:02d}10",
                1,
                outposts,
                (f"{col:02d}11",),
                mine[1],
                (groups[0],) if groups else (),
            )
        )
        diplomats.append(Diplomat(f"{p.id}-d", p.id, "Envoy", yard))
    first, second = state.powers[0].id, state.powers[1].id
    missions.append(
        Mission(
            "m1",
            first,
            f"{first}-d",
            second,
            "summit",
            2,
            {"gal": 3, "tp": 1},
            state.systems[0].id,
            Outcome(
                "Agreed", ("hub",), (Move("gal", 2, second, first),), ((state.systems[0].id, -1),)
            ),
        )
    )
    missions.append(Mission("m2", second, f"{second}-d", first, "reveal_hub", 3, {"pl": 1}))
    state.bubbles = bubbles
    derive(state, Command(officers, diplomats, missions, SpecialInterest("0505", 2, 3, 5), 25))
    return state


def sized(name: str, n: int) -> tuple[World, State]:
    world = make_campaign(name, n_powers=2, systems_per_power=5)
    add_fleet(world, groups=max(1, n // 2))
    state = with_command(world, n)
    with transaction.atomic():
        save_state(world.campaign, state)
    return world, state


def test_command_round_trips_through_the_database() -> None:
    world, state = sized("command", 4)
    loaded = load_state(world.campaign)
    assert dump_state(loaded) == dump_state(state)
    assert loaded.command.officers[0].penalties == (Penalty(-1, 4),)
    assert loaded.command.special_interest == SpecialInterest("0505", 2, 3, 5)
    assert loaded.command.special_interest_chance == 25
    assert PostOfficer.objects.filter(bubble__campaign=world.campaign).count() == 2 + 2 * 2
    assert PostPatrol.objects.filter(bubble__campaign=world.campaign).count() == 2 * 2
    assert OutpostSensor.objects.filter(outpost__bubble__campaign=world.campaign).count() == 16


def test_saving_again_changes_only_what_changed() -> None:
    """An officer promoted, one dismissed, a mission settled and the Area ended: the next load
    shows exactly that."""
    world, state = sized("again", 2)
    promoted = state.command.officers[0]
    promoted.rank, promoted.penalties = promoted.rank + 1, ()
    dismissed = state.command.officers.pop()
    for b in state.bubbles:
        for o in b.outposts:
            if o.officer == dismissed.id:
                o.officer = None  # a dismissed officer leaves its post
    state.command.missions = state.command.missions[1:]
    state.command.special_interest = None
    state.command.special_interest_chance = 0
    with transaction.atomic():
        save_state(world.campaign, state)
    loaded = load_state(world.campaign)
    assert dump_state(loaded) == dump_state(state)
    assert not OfficerRow.objects.filter(campaign=world.campaign, key=dismissed.id).exists()
    settings = CommandSettings.objects.get(campaign=world.campaign)
    assert (settings.special_interest_chance, settings.interest_col) == (0, None)


def test_loading_command_does_not_grow_with_the_campaign() -> None:
    small, large = sized("small", 2)[0], sized("large", 12)[0]
    counts = [count(partial(load_state, w.campaign)) for w in (small, large)]
    assert counts == [EXPORT_QUERIES, EXPORT_QUERIES]
