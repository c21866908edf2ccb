"""Keys and labels the command order forms may offer a power (the order kinds' sources
``officers``, ``bubbles``, ``diplomats``): its own only (R-8.3: bubbles are secret), with what
its sheet commissions, sets up or appoints this round (Support §5, §4.4)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Q

from economy.engine.command_state import FLAG_RANK, SpecialInterest
from economy.engine.command_state import Officer as OfficerState
from economy.engine.missions import hex_factor, mission_tp
from economy.engine.navy import Navy
from economy.engine.officers import max_points, value
from economy.snapshot import load_power_fleet
from fleet.selectors import sheet_payloads, shown
from powers.db import hex_code
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    Campaign,
    CommandBubble,
    MapHex,
    Power,
)
from powers.models.command import (
    CommandSettings,
    Diplomat,
    Mission,
    Officer,
    OutpostSensor,
    PostOfficer,
    PostPatrol,
)

#: what each source's sheet promise is made by (validate.PROMISES)
_MADE_BY = {"officers": "commission", "bubbles": "bubble_hq", "diplomats": "appoint_diplomat"}


def _named(power: Power, key: str, name: str) -> str:
    """The engine names a character commissioned without a name by its (stored) id."""
    return name if name and name != key else shown(power, key)


def command_choices(power: Power) -> dict[str, list[tuple[str, str]]]:
    made = sheet_payloads(power, *_MADE_BY.values())
    out = {
        "officers": [
            (o.key, f"{_named(power, o.key, o.name)} (rank {o.rank}, grade {o.grade})")
            for o in Officer.objects.filter(power=power).order_by("key")
        ],
        "bubbles": [
            (b.key, f"{shown(power, b.key)} (HQ {b.hq})")
            for b in CommandBubble.objects.filter(power=power).order_by("key")
        ],
        "diplomats": [
            (d.key, _named(power, d.key, d.name))
            for d in Diplomat.objects.filter(power=power).order_by("key")
        ],
    }
    for source, kind in _MADE_BY.items():
        out[source] += [
            (p["id"], f"{p.get('name') or shown(power, p['id'])} (this round)")
            for p in made
            if p.get("type") == kind and isinstance(p.get("id"), str)
        ]
    return out


# --- the command API's reads (issue 16): one power's own, in a fixed number of queries -------


def _post_hex(outpost: BubbleOutpost | None) -> str | None:
    return str(outpost) if outpost is not None else None


def officers_of(power: Power) -> list[dict[str, Any]]:
    """Support §5.1: the power's officers, where each serves (a craft, a group, a post or the
    reserve), its maximum points aboard (rank x 50), its value (R-8.2) and its penalties."""
    rows = (
        Officer.objects.filter(power=power)
        .select_related("craft", "group", "post__bubble", "post__outpost")
        .order_by("key")
    )
    out = []
    for o in rows:
        post = getattr(o, "post", None)
        state = OfficerState(o.key, power.key, o.name, o.rank, o.grade)
        out.append(
            {
                "key": o.key,
                "name": o.name,
                "rank": o.rank,
                "grade": o.grade,
                "flag_officer": o.rank >= FLAG_RANK,
                "craft": o.craft.key if o.craft else None,
                "group": o.group.key if o.group else None,
                "post": None
                if post is None
                else {"bubble": post.bubble.key, "hex": _post_hex(post.outpost) or post.bubble.hq},
                "max_points": max_points(o.rank),
                "value": value(state),
                "commissioned": o.commissioned,
                "penalties": list(o.penalties),
            }
        )
    return out


def bubbles_of(power: Power) -> list[dict[str, Any]]:
    """Support §5.2, R-8.3a: the power's own bubbles (never another's, Support §5.2.6): the HQ
    and each outpost with its officer, its radius (the officer's grade, derived), its sensors
    and groups on patrol."""
    bubbles = list(CommandBubble.objects.filter(power=power).order_by("key"))
    ids = [b.pk for b in bubbles]
    outposts: dict[int, list[BubbleOutpost]] = defaultdict(list)
    for o in BubbleOutpost.objects.filter(bubble_id__in=ids).order_by("id"):
        outposts[o.bubble_id].append(o)
    hq_sensors: dict[int, list[str]] = defaultdict(list)
    for s in BubbleSensor.objects.filter(bubble_id__in=ids).order_by("id"):
        hq_sensors[s.bubble_id].append(str(s))
    post_sensors: dict[int, list[str]] = defaultdict(list)
    for ps in OutpostSensor.objects.filter(outpost__bubble_id__in=ids).order_by("id"):
        post_sensors[ps.outpost_id].append(str(ps))
    officer: dict[tuple[int, int | None], Officer] = {
        (p.bubble_id, p.outpost_id): p.officer
        for p in PostOfficer.objects.filter(bubble_id__in=ids).select_related("officer")
    }
    patrols: dict[tuple[int, int | None], list[str]] = defaultdict(list)
    for p in PostPatrol.objects.filter(bubble_id__in=ids).select_related("group").order_by("id"):
        patrols[(p.bubble_id, p.outpost_id)].append(p.group.key)

    def post(bubble: CommandBubble, outpost: BubbleOutpost | None) -> dict[str, Any]:
        at = (bubble.pk, outpost.pk if outpost else None)
        commander = officer.get(at)
        stored = outpost.radius if outpost else bubble.radius
        limit = commander.rank + commander.grade if commander else None
        return {
            "hex": _post_hex(outpost) or bubble.hq,
            "officer": commander.key if commander else None,
            "radius": commander.grade if commander else stored,  # R-8.3a
            "sensors": post_sensors[outpost.pk] if outpost else hq_sensors[bubble.pk],
            "sensor_limit": limit,  # rank + grade beyond the free array
            "patrols": patrols[at],
            "patrol_limit": commander.rank if commander else None,
        }

    return [
        {
            "key": b.key,
            "hq": post(b, None),
            "outposts": [post(b, o) for o in outposts[b.pk]],
        }
        for b in bubbles
    ]


def diplomats_of(power: Power) -> list[dict[str, Any]]:
    """Support §4.4.1: the power's diplomats and the craft each is aboard."""
    return [
        {"key": d.key, "name": d.name, "craft": d.craft.key}
        for d in Diplomat.objects.filter(power=power).select_related("craft").order_by("key")
    ]


def missions_of(power: Power) -> list[dict[str, Any]]:
    """R-8.4: the power's own missions, with what they spent and the admin's outcome once
    decided; and the missions against it that the admin has resolved, and only those (the
    target learns of a mission when it is resolved), without the sender's diplomat, costs or
    the facts revealed to the sender."""
    rows = (
        Mission.objects.filter(
            Q(power=power) | Q(target=power, outcome__isnull=False), campaign_id=power.campaign_id
        )
        .select_related("power", "target", "system")
        .order_by("declared", "key")
    )
    out = []
    for m in rows:
        mine = m.power_id == power.pk
        outcome = m.outcome
        out.append(
            {
                "key": m.key if mine else None,  # the id the sender chose is its own
                "mine": mine,
                "sender": m.power.key,
                "target": m.target.key,
                "kind": m.kind,
                "declared": m.declared,
                "system": m.system.key if m.system else None,
                "diplomat": m.diplomat if mine else None,
                "spent": dict(m.spent) if mine else {},
                "resolved": outcome is not None,
                "outcome": None
                if outcome is None
                else outcome
                if mine
                else {"text": outcome["text"], "reveal": [], "moves": [], "loyalty": []},
            }
        )
    return out


def research_craft_of(power: Power) -> list[dict[str, Any]]:
    """Support §4.3.2, R-8.1: the power's craft with research capacity and passenger space,
    the researchers aboard, their group's order and what a mission would make at the hex now:
    floor(capacity / 10) x floor(researchers / 25) x the hex's factor (an active Area of
    Special Interest's 5 replacing the dust cloud's 2)."""
    fleet = load_power_fleet(power)
    groups = {g.id: g for g in fleet.groups}
    navy = Navy(fleet, groups, {s.id: s for s in fleet.statics})
    craft = [
        c
        for c in sorted(fleet.fleet.craft, key=lambda c: c.id)
        if navy.capacity(c, "research") and navy.capacity(c, "passenger")
    ]
    hexes = {navy.hex_of(c) for c in craft if navy.carrier(c) is not None}
    where = Q()
    for h in hexes:
        where |= Q(col=int(h[:2]), row=int(h[2:]))
    types = (
        {
            hex_code(col, row): kind
            for col, row, kind in MapHex.objects.filter(
                where, campaign_id=power.campaign_id
            ).values_list("col", "row", "hex_type")
        }
        if hexes
        else {}
    )
    special = special_interest(power.campaign)
    out = []
    for c in craft:
        hx = navy.hex_of(c) if navy.carrier(c) is not None else None
        group = groups.get(c.group or "")
        kind = types.get(hx or "", "deep_space")
        in_area = special is not None and special["active"] and special["hex"] == hx
        if in_area:
            kind = "special_interest"
        capacity, aboard = navy.capacity(c, "research"), c.store.get("pl", 0)
        out.append(
            {
                "key": c.id,
                "design": c.design,
                "group": c.group,
                "group_order": group.order if group else None,
                "hex": hx,
                "hex_type": kind,
                "research": capacity,
                "passenger": navy.capacity(c, "passenger"),
                "researchers": aboard,
                "tp_per_round": mission_tp(capacity, aboard, hex_factor(kind, in_area)),
            }
        )
    return out


def special_interest(campaign: Campaign) -> dict[str, Any] | None:
    """R-8.1a: the Area of Special Interest announced (public: its hex and rounds), or None."""
    s = CommandSettings.objects.filter(campaign=campaign).first()
    if s is None or s.interest_col is None or s.interest_row is None:
        return None
    now = campaign.current_round
    area = SpecialInterest(
        hex_code(s.interest_col, s.interest_row),
        s.interest_announced,
        s.interest_starts,
        s.interest_ends,
    )
    if not area.shown(now):
        return None
    return {
        "hex": area.hex,
        "announced": area.announced,
        "starts": area.starts,
        "ends": area.ends,
        "active": area.active(now),
    }
