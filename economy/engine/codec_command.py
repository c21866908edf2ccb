"""JSON <-> state for officers, command bubbles' posts, diplomats, missions, researchers aboard
craft and the Area of Special Interest (Support §4.3.2, §4.4, §5; documented in docs/rules.md,
"Command and intelligence"). Every key is optional: an old state loads as before."""

from __future__ import annotations

from typing import Any

from .command_state import (
    MAX_GRADE,
    MISSION_KINDS,
    Command,
    Diplomat,
    Mission,
    Move,
    Officer,
    Outcome,
    Penalty,
    SpecialInterest,
)
from .diplomats import flag_groups
from .posts import derive_radii, posts
from .reader import CaseError, _Context, _hex_list, _items, _Reader
from .state import Bubble, Outpost, State

BANK_RESOURCES = ("gal", "tp")
PLACED_RESOURCES = ("ore", "bio", "pl")


def parse_command(r: _Reader, ctx: _Context, state: State) -> Command:
    """The ``officers``, ``diplomats``, ``missions``, ``special_interest`` and ``command`` keys,
    the posts of ``bubbles`` and the ``passengers`` of ``craft``; radii and diplomat flags are
    derived (R-8.3a, Support §4.4.1)."""
    owner = {g.id: g.power for g in state.groups}
    craft_owner = {c.id: c.power for c in state.fleet.craft}
    for i, c in enumerate(_items(r, "craft")):
        passengers = c.int("passengers", 0)
        if passengers:
            state.fleet.craft[i].store["pl"] = passengers
    officers = [_officer(o, ctx, craft_owner, owner) for o in _items(r, "officers")]
    _posts(r, state, {o.id: o for o in officers}, owner)
    diplomats = [_diplomat(d, ctx, craft_owner) for d in _items(r, "diplomats")]
    places = {h.id for h in state.hubs} | {s.id for s in state.systems}
    missions = [_mission(m, ctx, places) for m in _items(r, "missions")]
    settings = r.sub("command", {})
    chance = settings.int("special_interest_chance", 0)
    if chance > 100:
        raise CaseError(settings.at("special_interest_chance"), f"expected 0..100, got {chance}")
    command = Command(officers, diplomats, missions, _special(r), chance)
    derive(state, command)
    return command


def _officer(
    o: _Reader, ctx: _Context, craft_owner: dict[str, str], group_owner: dict[str, str]
) -> Officer:
    ident = ctx.new_id(o)
    power = ctx.power(o, "power")
    grade = o.int("grade", minimum=1)
    if grade > MAX_GRADE:
        raise CaseError(o.at("grade"), f"expected at most {MAX_GRADE} (Support §5.1.3)")
    craft, group = o.opt_str("craft"), o.opt_str("group")
    if craft is not None and group is not None:
        raise CaseError(o.at("group"), "an officer is aboard a craft or commands a group")
    for key, value, table in (("craft", craft, craft_owner), ("group", group, group_owner)):
        if value is not None and table.get(value) != power:
            raise CaseError(o.at(key), f"no {key} {value!r} of {power}")
    penalties = tuple(
        Penalty(p.int("rolls", minimum=None), p.int("until")) for p in _items(o, "penalties")
    )
    return Officer(
        ident,
        power,
        o.text("name", ident),
        o.int("rank", minimum=1),
        grade,
        craft,
        group,
        o.int("commissioned", 0),
        penalties,
    )


def _posts(
    r: _Reader, state: State, officers: dict[str, Officer], group_owner: dict[str, str]
) -> None:
    """Support §5.2.1, R-8.3a: each post's officer (one post each, aboard nothing), its sensors
    and its patrols (groups of the bubble's power, at one post at most)."""
    posted: set[str] = set()
    patrolling: set[str] = set()
    for bubble, b in zip(state.bubbles, _items(r, "bubbles"), strict=True):
        outposts = []
        for o, post in zip(bubble.outposts, _items(b, "outposts"), strict=True):
            outposts.append(
                Outpost(
                    o.hex,
                    o.radius,
                    _post_officer(post, bubble.power, officers, posted),
                    tuple(_hex_list(post, "sensors")),
                    _patrols(post, bubble.power, group_owner, patrolling),
                )
            )
        bubble.outposts = tuple(outposts)
        bubble.officer = _post_officer(b, bubble.power, officers, posted)
        bubble.patrols = _patrols(b, bubble.power, group_owner, patrolling)


def _post_officer(
    post: _Reader, power: str, officers: dict[str, Officer], posted: set[str]
) -> str | None:
    ident = post.opt_str("officer")
    if ident is None:
        return None
    officer = officers.get(ident)
    if officer is None or officer.power != power:
        raise CaseError(post.at("officer"), f"no officer {ident!r} of {power}")
    if ident in posted or officer.craft or officer.group:
        raise CaseError(post.at("officer"), f"officer {ident} is posted or aboard elsewhere")
    posted.add(ident)
    return ident


def _patrols(
    post: _Reader, power: str, group_owner: dict[str, str], patrolling: set[str]
) -> tuple[str, ...]:
    out = []
    for i, gid in enumerate(post.list("patrols")):
        if not isinstance(gid, str) or group_owner.get(gid) != power or gid in patrolling:
            raise CaseError(f"{post.at('patrols')}[{i}]", f"no free group {gid!r} of {power}")
        patrolling.add(gid)
        out.append(gid)
    return tuple(out)


def _diplomat(d: _Reader, ctx: _Context, craft_owner: dict[str, str]) -> Diplomat:
    ident = ctx.new_id(d)
    power = ctx.power(d, "power")
    craft = d.text("craft")
    if craft_owner.get(craft) != power:
        raise CaseError(d.at("craft"), f"no craft {craft!r} of {power}")
    return Diplomat(ident, power, d.text("name", ident), craft)


def _mission(m: _Reader, ctx: _Context, places: set[str]) -> Mission:
    ident = ctx.new_id(m)
    system = m.opt_str("system")
    if system is not None and system not in ctx.systems:
        raise CaseError(m.at("system"), f"unknown system {system!r}")
    spent = m.sub("spent", {})
    return Mission(
        ident,
        ctx.power(m, "power"),
        m.text("diplomat"),
        ctx.power(m, "target"),
        m.choice("kind", MISSION_KINDS),
        m.int("declared", minimum=1),
        {k: n for k in ("gal", "tp", "pl") if (n := spent.int(k, 0))},
        system,
        _outcome(m.sub("outcome"), ctx, places) if m.raw("outcome", None) is not None else None,
    )


def _outcome(o: _Reader, ctx: _Context, places: set[str]) -> Outcome:
    """R-8.4a: the admin's outcome, from the fixed list of effects."""
    reveal = []
    for i, fact in enumerate(o.list("reveal")):
        if not isinstance(fact, str) or not fact:
            raise CaseError(f"{o.at('reveal')}[{i}]", f"expected a non-empty string, got {fact!r}")
        reveal.append(fact)
    moves = []
    for mv in _items(o, "moves"):
        res = mv.choice("resource", (*BANK_RESOURCES, *PLACED_RESOURCES))
        for key in ("from", "to"):
            value = mv.text(key)
            ok = value in ctx.powers if res in BANK_RESOURCES else value in places
            if not ok:
                what = "power" if res in BANK_RESOURCES else "hub or system"
                raise CaseError(mv.at(key), f"unknown {what} {value!r} for {res}")
        moves.append(Move(res, mv.int("amount", minimum=1), mv.text("from"), mv.text("to")))
    loyalty = []
    for lr in _items(o, "loyalty"):
        sid = lr.text("system")
        if sid not in ctx.systems:
            raise CaseError(lr.at("system"), f"unknown system {sid!r}")
        loyalty.append((sid, lr.int("change", minimum=None)))
    return Outcome(o.text("text"), tuple(reveal), tuple(moves), tuple(loyalty))


def _special(r: _Reader) -> SpecialInterest | None:
    if r.raw("special_interest", None) is None:
        return None
    si = r.sub("special_interest")
    announced = si.int("announced", minimum=1)
    starts = si.int("starts", minimum=announced + 1)
    return SpecialInterest(si.hex("hex"), announced, starts, si.int("ends", minimum=starts))


def derive(state: State, command: Command) -> None:
    """R-8.3a: a post's radius is its officer's grade; Support §4.4.1: which groups carry a
    diplomat."""
    officers = {o.id: o for o in command.officers}
    for b in state.bubbles:
        derive_radii(b, officers)
    state.command = command
    flag_groups(state)


def command_keys(state: State) -> list[str]:
    """The command keys a state uses with other than their defaults (tests/web/
    test_case_parity.py checks that every case using them runs through the database)."""
    c = state.command
    used = [k for k, v in (("officers", c.officers), ("diplomats", c.diplomats),
                           ("missions", c.missions), ("special_interest", c.special_interest),
                           ("command", c.special_interest_chance)) if v]  # fmt: skip
    if any(c.store.get("pl") for c in state.fleet.craft):
        used.append("craft[].passengers")
    if any(
        p.officer or p.patrols or (p.outpost and p.sensors) for b in state.bubbles for p in posts(b)
    ):
        used.append("bubbles[] posts")
    return used


# --- dump -------------------------------------------------------------------------------------


def dump_bubble(b: Bubble) -> dict[str, Any]:
    """The contract's bubble, with each post's officer, sensors and patrols (R-8.3a)."""
    return {
        "id": b.id,
        "power": b.power,
        "hq": b.hq,
        "radius": b.radius,
        "officer": b.officer,
        "outposts": [
            {
                "hex": o.hex,
                "radius": o.radius,
                "officer": o.officer,
                "sensors": list(o.sensors),
                "patrols": list(o.patrols),
            }
            for o in b.outposts
        ],
        "sensors": list(b.sensors),
        "patrols": list(b.patrols),
    }


def _dump_outcome(o: Outcome) -> dict[str, Any]:
    return {
        "text": o.text,
        "reveal": list(o.reveal),
        "moves": [
            {"resource": m.resource, "amount": m.amount, "from": m.source, "to": m.dest}
            for m in o.moves
        ],
        "loyalty": [{"system": s, "change": n} for s, n in o.loyalty],
    }


def dump_command(c: Command) -> dict[str, Any]:
    """The state keys of officers, diplomats, missions and the Area of Special Interest."""
    si = c.special_interest
    return {
        "officers": [
            {
                "id": o.id,
                "power": o.power,
                "name": o.name,
                "rank": o.rank,
                "grade": o.grade,
                "craft": o.craft,
                "group": o.group,
                "commissioned": o.commissioned,
                "penalties": [{"rolls": p.rolls, "until": p.until} for p in o.penalties],
            }
            for o in c.officers
        ],
        "diplomats": [
            {"id": d.id, "power": d.power, "name": d.name, "craft": d.craft} for d in c.diplomats
        ],
        "missions": [
            {
                "id": m.id,
                "power": m.power,
                "diplomat": m.diplomat,
                "target": m.target,
                "kind": m.kind,
                "system": m.system,
                "declared": m.declared,
                "spent": dict(m.spent),
                "outcome": _dump_outcome(m.outcome) if m.outcome else None,
            }
            for m in c.missions
        ],
        "special_interest": (
            {"hex": si.hex, "announced": si.announced, "starts": si.starts, "ends": si.ends}
            if si
            else None
        ),
        "command": {"special_interest_chance": c.special_interest_chance},
    }
