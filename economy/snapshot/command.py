"""The database side of command and intelligence (Support §4.3.2, §4.4, §5; R-8): officers,
bubble posts (officers, outposts' sensors, patrols), diplomats, missions and the Area of
Special Interest, loaded into ``State.command`` and the bubbles in 7 queries whatever the
campaign's size, and saved back after everything they point at (craft, groups, outposts)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from economy.engine.codec_command import derive, dump_command
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
from economy.engine.state import Bubble, State
from economy.snapshot.rows import by_key, sync, xy
from powers.db import hex_code
from powers.models import BubbleOutpost, Campaign, CommandBubble, Craft, FleetGroup, StarSystem
from powers.models.command import CommandSettings, OutpostSensor, PostOfficer, PostPatrol
from powers.models.command import Diplomat as DiplomatRow
from powers.models.command import Mission as MissionRow
from powers.models.command import Officer as OfficerRow

#: A post: its bubble's key and its outpost's hex ("" for the HQ).
Post = tuple[str, str]


def load_command(cid: int, power_key: dict[int, str], state: State) -> None:
    """Fill ``state.command`` and each bubble's posts from the campaign's rows, then derive
    radii and diplomat flags as the codec does (R-8.3a, Support §4.4.1)."""
    officers = [
        Officer(
            key,
            power_key[power_id],
            name,
            rank,
            grade,
            craft,
            group,
            commissioned,
            tuple(Penalty(p["rolls"], p["until"]) for p in penalties),
        )
        for key, power_id, name, rank, grade, craft, group, commissioned, penalties in (
            OfficerRow.objects.filter(campaign_id=cid)
            .order_by("key")
            .values_list(
                "key",
                "power_id",
                "name",
                "rank",
                "grade",
                "craft__key",
                "group__key",
                "commissioned",
                "penalties",
            )
        )
    ]
    diplomats = [
        Diplomat(key, power_key[power_id], name, craft)
        for key, power_id, name, craft in DiplomatRow.objects.filter(campaign_id=cid)
        .order_by("key")
        .values_list("key", "power_id", "name", "craft__key")
    ]
    missions = [
        Mission(
            m["key"],
            power_key[m["power_id"]],
            m["diplomat"],
            power_key[m["target_id"]],
            m["kind"],
            m["declared"],
            dict(m["spent"]),
            m["system__key"],
            _outcome(m["outcome"]) if m["outcome"] is not None else None,
        )
        for m in MissionRow.objects.filter(campaign_id=cid)
        .order_by("key")
        .values(
            "key",
            "power_id",
            "diplomat",
            "target_id",
            "kind",
            "declared",
            "spent",
            "system__key",
            "outcome",
        )
    ]
    settings = CommandSettings.objects.filter(campaign_id=cid).first()
    load_posts(cid, state.bubbles)
    derive(
        state,
        Command(
            officers,
            diplomats,
            missions,
            _special(settings),
            settings.special_interest_chance if settings else 0,
        ),
    )


def _special(settings: CommandSettings | None) -> SpecialInterest | None:
    if settings is None or settings.interest_col is None:
        return None
    return SpecialInterest(
        hex_code(settings.interest_col, settings.interest_row),
        settings.interest_announced,
        settings.interest_starts,
        settings.interest_ends,
    )


def _outcome(o: dict[str, Any]) -> Outcome:
    """R-8.4a: the stored outcome (the codec's object, checked when it was parsed)."""
    return Outcome(
        o["text"],
        tuple(o["reveal"]),
        tuple(Move(m["resource"], m["amount"], m["from"], m["to"]) for m in o["moves"]),
        tuple((lr["system"], lr["change"]) for lr in o["loyalty"]),
    )


def load_posts(cid: int, bubbles: list[Bubble]) -> None:
    """R-8.3a: each post's officer, sensors and patrols, in the order they were saved (3
    queries)."""
    officer: dict[Post, str] = {}
    for bubble, col, row, key in PostOfficer.objects.filter(bubble__campaign_id=cid).values_list(
        "bubble__key", "outpost__col", "outpost__row", "officer__key"
    ):
        officer[(bubble, hex_code(col, row))] = key
    patrols: dict[Post, list[str]] = defaultdict(list)
    for bubble, col, row, key in (
        PostPatrol.objects.filter(bubble__campaign_id=cid)
        .order_by("id")
        .values_list("bubble__key", "outpost__col", "outpost__row", "group__key")
    ):
        patrols[(bubble, hex_code(col, row))].append(key)
    sensors: dict[Post, list[str]] = defaultdict(list)
    for bubble, ocol, orow, col, row in (
        OutpostSensor.objects.filter(outpost__bubble__campaign_id=cid)
        .order_by("id")
        .values_list("outpost__bubble__key", "outpost__col", "outpost__row", "col", "row")
    ):
        sensors[(bubble, hex_code(ocol, orow))].append(hex_code(col, row))
    for b in bubbles:
        b.officer = officer.get((b.id, ""))
        b.patrols = tuple(patrols[(b.id, "")])
        for o in b.outposts:
            o.officer = officer.get((b.id, o.hex))
            o.patrols = tuple(patrols[(b.id, o.hex)])
            o.sensors = tuple(sensors[(b.id, o.hex)])


def save_command(campaign: Campaign, state: State, pid: dict[str, int]) -> None:
    """Write ``state.command`` and the bubbles' posts. Call after the fleet, groups and
    bubbles are saved: officers and diplomats point at craft and groups, posts at outposts."""
    cid = campaign.pk
    command = state.command
    craft = dict(Craft.objects.filter(campaign_id=cid).values_list("key", "id"))
    groups = dict(FleetGroup.objects.filter(campaign_id=cid).values_list("key", "id"))
    officers = sync(
        OfficerRow,
        campaign,
        {
            o.id: {
                "key": o.id,
                "power_id": pid[o.power],
                "name": o.name,
                "rank": o.rank,
                "grade": o.grade,
                "craft_id": craft[o.craft] if o.craft else None,
                "group_id": groups[o.group] if o.group else None,
                "commissioned": o.commissioned,
                "penalties": [{"rolls": p.rolls, "until": p.until} for p in o.penalties],
            }
            for o in command.officers
        },
        by_key(OfficerRow.objects.filter(campaign_id=cid)),
    )
    sync(
        DiplomatRow,
        campaign,
        {
            d.id: {
                "key": d.id,
                "power_id": pid[d.power],
                "name": d.name,
                "craft_id": craft[d.craft],
            }
            for d in command.diplomats
        },
        by_key(DiplomatRow.objects.filter(campaign_id=cid)),
    )
    systems = dict(StarSystem.objects.filter(campaign_id=cid).values_list("key", "id"))
    dumped = {m["id"]: m for m in dump_command(command)["missions"]}
    sync(
        MissionRow,
        campaign,
        {
            m.id: {
                "key": m.id,
                "power_id": pid[m.power],
                "diplomat": m.diplomat,
                "target_id": pid[m.target],
                "kind": m.kind,
                "declared": m.declared,
                "spent": dict(sorted(m.spent.items())),
                "system_id": systems[m.system] if m.system else None,
                "outcome": dumped[m.id]["outcome"],
            }
            for m in command.missions
        },
        by_key(MissionRow.objects.filter(campaign_id=cid)),
    )
    si = command.special_interest
    col, row = xy(si.hex) if si else (None, None)
    CommandSettings.objects.update_or_create(
        campaign=campaign,
        defaults={
            "special_interest_chance": command.special_interest_chance,
            "interest_col": col,
            "interest_row": row,
            "interest_announced": si.announced if si else 0,
            "interest_starts": si.starts if si else 0,
            "interest_ends": si.ends if si else 0,
        },
    )
    _save_posts(cid, state, {k: o.pk for k, o in officers.items()}, groups)


def _save_posts(cid: int, state: State, officers: dict[str, int], groups: dict[str, int]) -> None:
    """R-8.3a: posts are written anew each save (outposts are, ``_save_bubbles``)."""
    PostOfficer.objects.filter(bubble__campaign_id=cid).delete()
    PostPatrol.objects.filter(bubble__campaign_id=cid).delete()
    OutpostSensor.objects.filter(outpost__bubble__campaign_id=cid).delete()
    bubble_ids = dict(CommandBubble.objects.filter(campaign_id=cid).values_list("key", "id"))
    outpost_ids = {
        (bubble, hex_code(col, row)): pk
        for pk, bubble, col, row in BubbleOutpost.objects.filter(
            bubble__campaign_id=cid
        ).values_list("id", "bubble__key", "col", "row")
    }
    posts = [(b.id, "", None, b.officer, b.patrols, ()) for b in state.bubbles] + [
        (b.id, o.hex, outpost_ids[(b.id, o.hex)], o.officer, o.patrols, o.sensors)
        for b in state.bubbles
        for o in b.outposts
    ]
    PostOfficer.objects.bulk_create(
        PostOfficer(bubble_id=bubble_ids[b], outpost_id=outpost, officer_id=officers[officer])
        for b, _, outpost, officer, _, _ in posts
        if officer
    )
    PostPatrol.objects.bulk_create(
        PostPatrol(bubble_id=bubble_ids[b], outpost_id=outpost, group_id=groups[g])
        for b, _, outpost, _, patrols, _ in posts
        for g in patrols
    )
    OutpostSensor.objects.bulk_create(
        OutpostSensor(outpost_id=outpost, col=xy(s)[0], row=xy(s)[1])
        for _, _, outpost, _, _, sensors in posts
        if outpost is not None
        for s in sensors
    )
