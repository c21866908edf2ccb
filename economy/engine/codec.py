"""JSON <-> state for ``ftcamp-case/1`` (contracts §1), with errors that name the bad path."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .codec_command import dump_bubble, dump_command, parse_command
from .designs import npv_problem
from .navy import Navy
from .pacts import Battle, BattleCraft, Loan, Transfer

# The readers live in ``reader`` (shared with ``codec_command``); the public names stay
# importable from here.
from .reader import CaseError as CaseError
from .reader import _Context, _hex_list, _items, _Reader, _stock
from .reader import is_hex as is_hex
from .reader import parse_decimal as parse_decimal
from .rules import derived_type
from .state import (
    CAPACITIES,
    CRAFT_CLASSES,
    EDGES,
    GROUP_KINDS,
    GROUP_ORDERS,
    GROUP_STATUSES,
    HEX_TYPES,
    LEG_STATUSES,
    MOBILITIES,
    MOTION_KINDS,
    SYSTEM_TYPES,
    VOTES,
    WORK_KINDS,
    Agreement,
    Bubble,
    Build,
    Consumable,
    Craft,
    Design,
    DesignSystem,
    Fleet,
    Group,
    GroupLimit,
    Hub,
    Invasion,
    Leg,
    Market,
    Motion,
    Outpost,
    Power,
    Project,
    Shipment,
    State,
    Static,
    System,
    Workshop,
)


def parse_state(obj: object, path: str = "state") -> State:
    """Parse a contract state; raises ``CaseError`` naming the first bad path. One small
    parser per object; each sees the powers, hubs and systems parsed before it."""
    r = _Reader(obj, path)
    ctx = _Context()
    hexes, map_size = _map(r.sub("map", {}))
    powers = [_power(p, ctx) for p in _items(r, "powers")]
    ctx.powers = {p.id for p in powers}
    systems = [_system(s, ctx) for s in _items(r, "systems")]
    _one_homeworld_each(r, systems)
    ctx.systems = {s.id for s in systems}
    hubs = [_hub(h, ctx) for h in _items(r, "hubs")]
    ctx.hubs = {h.id for h in hubs}
    groups = [_group(g, ctx) for g in _items(r, "groups")]
    statics = [_static(s, ctx) for s in _items(r, "statics")]
    state = State(
        r.int("round", minimum=1),
        r.int("seed", 0, minimum=None),
        hexes,
        powers,
        systems,
        hubs,
        groups,
        statics,
        _invasions(r, ctx),
        _market(r.sub("market", {}), ctx),
        [_shipment(s, ctx) for s in _items(r, "shipments")],
        [_bubble(b, ctx) for b in _items(r, "bubbles")],
        [_agreement(a, ctx) for a in _items(r, "agreements")],
        [_motion(m, ctx) for m in _items(r.sub("un", {}), "motions")],
        map_size,
        _fleet(r, ctx, groups, statics),
    )
    Navy(state, {g.id: g for g in groups}, {s.id: s for s in statics}).refresh_all()
    state.command = parse_command(r, ctx, state)  # Support §4.3.2, §4.4, §5
    return state


def _map(m: _Reader) -> tuple[dict[str, str], tuple[int, int] | None]:
    hexes = {h.hex("hex"): h.choice("type", HEX_TYPES) for h in _items(m, "hexes")}
    if m.raw("size", None) is None:
        return hexes, None
    size_r = m.sub("size")
    size = (size_r.int("cols", minimum=1), size_r.int("rows", minimum=1))
    for key, n in zip(("cols", "rows"), size, strict=True):
        if n > 99:  # contracts §1: hexes are XXYY, up to 99 x 99
            raise CaseError(size_r.at(key), f"expected at most 99, got {n}")
    return hexes, size


def _power(p: _Reader, ctx: _Context) -> Power:
    return Power(
        ctx.new_id(p), {"gal": p.int("gal", 0), "tp": p.int("tp", 0)}, p.bool("un_member", True)
    )


def _system(s: _Reader, ctx: _Context) -> System:
    sid = ctx.new_id(s)
    rates_in = s.sub("rates")
    rate = {res: rates_in.int(res) for res in ("ore", "gal", "bio", "pl")}
    holder = ctx.power_or_none(s, "holder")
    loyalty = s.int("loyalty", 0)
    if holder is None or loyalty == 0:
        holder, loyalty = None, 0  # LR 0 is neutral, and a neutral system has LR 0
    return System(
        sid,
        s.text("name", sid),
        s.hex("hex"),
        derived_type(s.choice("type", SYSTEM_TYPES, "basic"), rate["pl"]),
        holder,
        loyalty,
        rate,
        _stock(s, "stock", ("ore", "bio", "pl")),
        _project(s),
        s.int("free_ep", 0),
    )


def _project(s: _Reader) -> Project | None:
    if s.raw("project", None) is None:
        return None
    pr = s.sub("project")
    source = pr.choice("source", ("ore", "gal", "bio"))
    target = pr.choice("target", ("ore", "gal", "bio"))
    if source == target:
        raise CaseError(pr.at("target"), "target must differ from source")
    pct = pr.int("pct")
    if pct > 100:
        raise CaseError(pr.at("pct"), f"expected 0..100, got {pct}")
    return Project(source, target, pct) if pct else None


def _one_homeworld_each(r: _Reader, systems: list[System]) -> None:
    """R-3.2: a power has at most one Homeworld."""
    homeworld_of: dict[str, str] = {}
    for i, s in enumerate(systems):
        if s.type != "homeworld" or s.holder is None:
            continue
        if s.holder in homeworld_of:
            raise CaseError(
                f"{r.at('systems')}[{i}].type",
                f"{s.holder} already has Homeworld {homeworld_of[s.holder]} (R-3.2)",
            )
        homeworld_of[s.holder] = s.id


def _hub(h: _Reader, ctx: _Context) -> Hub:
    hid = ctx.new_id(h)
    nodes = _hex_list(h, "nodes")
    links = []
    for i, link in enumerate(h.list("links")):
        if not (isinstance(link, list) and len(link) == 2 and all(map(is_hex, link))):
            raise CaseError(f"{h.at('links')}[{i}]", f"expected a pair of hexes, got {link!r}")
        links.append((link[0], link[1]))
    centre = h.hex("centre")
    lost: list[str] = []
    for i, hx in enumerate(h.list("lost")):  # R-4.6a: absent in older states
        if hx not in (centre, *nodes):
            raise CaseError(f"{h.at('lost')}[{i}]", f"{hx!r} is not a member of hub {hid}")
        if hx not in lost:
            lost.append(hx)
    return Hub(
        hid,
        ctx.power(h, "power"),
        centre,
        nodes,
        links,
        h.bool("guild", False),
        _stock(h, "pool", ("ore", "bio", "pl")),
        lost,
    )


def _group(g: _Reader, ctx: _Context) -> Group:
    engages = ctx.power_list(g, "engages")  # R-2a
    return Group(
        ctx.new_id(g),
        ctx.power(g, "power"),
        g.hex("hex"),
        g.choice("order", GROUP_ORDERS, "none"),
        g.int("points", 0),
        {"troops": g.int("troops", 0), "ep": g.int("ep", 0)},
        g.int("troop_space", 0),
        g.bool("diplomat", False),
        g.choice("status", GROUP_STATUSES, "none"),
        g.choice("kind", GROUP_KINDS, "standard"),
        tuple(sorted(set(engages))),
        g.bool("defending", False),
        g.opt_int("ep_storage"),
        g.bool("out_of_supply", False),
    )


def _static(s: _Reader, ctx: _Context) -> Static:
    return Static(
        ctx.new_id(s),
        ctx.power(s, "power"),
        s.hex("hex"),
        s.bool("civilian", True),
        s.int("passenger_space", 0),
        s.int("troop_space", 0),
        {"pl": s.int("passengers", 0), "troops": s.int("troops", 0), "ep": s.int("ep", 0)},
        s.bool("out_of_supply", False),
    )


def _invasions(r: _Reader, ctx: _Context) -> list[Invasion]:
    landed: dict[tuple[str, str], Invasion] = {}
    for inv in _items(r, "invasions"):
        sid = inv.text("system")
        if sid not in ctx.systems:
            raise CaseError(inv.at("system"), f"unknown system {sid!r}")
        who = ctx.power(inv, "power")
        troops = inv.int("troops")
        if (sid, who) in landed:  # one record per (system, invader): add them up
            landed[(sid, who)].store["troops"] += troops
        elif troops:
            landed[(sid, who)] = Invasion(sid, who, {"troops": troops})
    return list(landed.values())


def _tax(r: _Reader, edge: str) -> Decimal:
    t = r.decimal(edge)
    if not 0 <= t <= 1:
        raise CaseError(r.at(edge), f"tax must be within 0..1, got {t}")
    return t


def _market(m: _Reader, ctx: _Context) -> Market:
    rates_r = m.sub("rates", {})
    tax_r = m.sub("tax", {})
    rates = {e: rates_r.decimal(e) if e in rates_r.obj else Decimal(1) for e in EDGES}
    tax = {e: _tax(tax_r, e) if e in tax_r.obj else Decimal(0) for e in EDGES}
    for e, rt in rates.items():
        if rt < 0:
            raise CaseError(rates_r.at(e), f"rate must not be negative, got {rt}")
    power_tax: dict[str, dict[str, Decimal]] = {}
    pt = m.sub("power_tax", {})
    for who in sorted(pt.obj):
        if who not in ctx.powers:
            raise CaseError(pt.at(who), f"unknown power {who!r}")
        per = pt.sub(who)
        power_tax[who] = {e: _tax(per, e) for e in EDGES if e in per.obj}
    vol = m.sub("volume", {})
    banned = sorted(set(ctx.power_list(m, "banned")))
    return Market(rates, tax, power_tax, {e: vol.int(e, 0) for e in EDGES}, banned)


def _shipment(s: _Reader, ctx: _Context) -> Shipment:
    power = ctx.power(s, "power")
    to_hub = s.opt_str("to_hub")
    if to_hub is not None and to_hub not in ctx.hubs:
        raise CaseError(s.at("to_hub"), f"unknown hub {to_hub!r}")
    waiting_for = _hex_list(s, "waiting_for")  # R-5.4a
    if to_hub is None and not waiting_for:
        raise CaseError(s.at("to_hub"), "null needs waiting_for (the old hub's members)")
    res = s.choice("resource", ("ore", "bio", "pl"))
    return Shipment(
        ctx.new_id(s),
        power,
        ctx.power(s, "sender") if "sender" in s.obj else power,
        s.opt_str("from_hub"),
        to_hub,
        res,
        {res: s.int("amount")},
        s.int("arrives"),
        to_hub is None or s.bool("waiting", False),
        waiting_for,
    )


def _bubble(b: _Reader, ctx: _Context) -> Bubble:
    return Bubble(
        ctx.new_id(b),
        ctx.power(b, "power"),
        b.hex("hq"),
        b.int("radius", 0),  # R-8.3a: derived from the HQ officer's grade when it has one
        tuple(Outpost(o.hex("hex"), o.int("radius", 0)) for o in _items(b, "outposts")),
        tuple(_hex_list(b, "sensors")),
    )


def _agreement(a: _Reader, ctx: _Context) -> Agreement:
    """R-5.5: an accepted agreement; hub choices may be null (a leg without one fails)."""
    ident = ctx.new_id(a)
    parties = [ctx.power(a, "a"), ctx.power(a, "b")]
    if parties[0] == parties[1]:
        raise CaseError(a.at("b"), "an agreement is between two different powers")
    legs: list[Leg] = []
    for leg in _items(a, "legs"):
        sender = leg.choice("from", tuple(parties))
        if any(x.sender == sender for x in legs):
            raise CaseError(leg.at("from"), f"{sender} already has a leg (one per party)")
        res = leg.choice("resource", ("ore", "bio", "pl"))
        legs.append(
            Leg(
                sender,
                res,
                leg.int("amount", minimum=1),
                leg.choice("status", LEG_STATUSES, "pending"),
                leg.opt_str("shipment"),
                str(leg.raw("note", "") or ""),
            )
        )
    hubs: dict[str, dict[str, str | None]] = {p: {"send": None, "receive": None} for p in parties}
    hub_r = a.sub("hubs", {})
    for who in sorted(hub_r.obj):
        if who not in parties:
            raise CaseError(hub_r.at(who), f"{who!r} is not a party to {ident}")
        choice = hub_r.sub(who)
        for end in ("send", "receive"):
            hub = choice.opt_str(end)
            if hub is not None and hub not in ctx.hubs:
                raise CaseError(choice.at(end), f"unknown hub {hub!r}")
            hubs[who][end] = hub
    return Agreement(
        ident, parties[0], parties[1], a.hex("deposit"), a.int("delivery", minimum=1), legs, hubs
    )


def _motion(m: _Reader, ctx: _Context) -> Motion:
    """R-6.4: a motion before the committee, with each member's vote."""
    ident = ctx.new_id(m)
    by = ctx.power(m, "by")
    kind = m.choice("kind", MOTION_KINDS)
    edge = power = None
    value = None
    if kind == "rate":
        edge = m.choice("edge", EDGES)
        value = m.decimal("rate")
        if value < 0:
            raise CaseError(m.at("rate"), f"rate must not be negative, got {value}")
    elif kind in ("tax", "lift_tax"):
        edge = m.choice("edge", (*EDGES, "all"))
        power = m.opt_str("power")
        if kind == "tax":
            value = m.decimal("tax")
            if not 0 <= value <= 1:
                raise CaseError(m.at("tax"), f"tax must be within 0..1, got {value}")
    else:
        power = m.text("power")
    if power is not None and power not in ctx.powers:
        raise CaseError(m.at("power"), f"unknown power {power!r}")
    votes: dict[str, str] = {}
    vr = m.sub("votes", {})
    for who in sorted(vr.obj):
        if who not in ctx.powers:
            raise CaseError(vr.at(who), f"unknown power {who!r}")
        votes[who] = vr.choice(who, VOTES)
    return Motion(ident, by, kind, edge, power, value, votes)


def dump_motion(m: Motion) -> dict[str, Any]:
    """The contract shape of a motion (R-6.4)."""
    out: dict[str, Any] = {"id": m.id, "by": m.by, "kind": m.kind}
    if m.edge is not None:
        out["edge"] = m.edge
    if m.power is not None:
        out["power"] = m.power
    if m.value is not None:
        out["rate" if m.kind == "rate" else "tax"] = _decimal_text(m.value)
    out["votes"] = dict(sorted(m.votes.items()))
    return out


def dump_agreement(a: Agreement) -> dict[str, Any]:
    """The contract shape of an agreement (R-5.5)."""
    return {
        "id": a.id,
        "a": a.a,
        "b": a.b,
        "deposit": a.deposit,
        "delivery": a.delivery,
        "legs": [
            {
                "from": leg.sender,
                "resource": leg.resource,
                "amount": leg.amount,
                "status": leg.status,
                **({"shipment": leg.shipment} if leg.shipment else {}),
                **({"note": leg.note} if leg.note else {}),
            }
            for leg in a.legs
        ],
        "hubs": {p: dict(h) for p, h in sorted(a.hubs.items())},
    }


# --- fleet (R-10, Support §1) ----------------------------------------------------------------

#: Ledger resources: a consumable kind may not take one of these names (R-10.1a).
LEDGER_RESOURCES = ("ore", "gal", "bio", "pl", "tp", "troops", "cf", "ep", "lr")


def _known(item: _Reader, key: str, table: dict[str, Any] | set[str], what: str) -> str:
    value = item.text(key)
    if value not in table:
        raise CaseError(item.at(key), f"unknown {what} {value!r}")
    return value


def _counts(r: _Reader, key: str, allowed: dict[str, Any] | set[str], what: str) -> dict[str, int]:
    """A ``{name: count}`` object whose names must be ``allowed``; zero counts are left out."""
    sub = r.sub(key, {})
    out = {}
    for name in sorted(sub.obj):
        if name not in allowed:
            raise CaseError(sub.at(name), f"unknown {what} {name!r}")
        if n := sub.int(name):
            out[name] = n
    return out


def _catalogue(r: _Reader) -> dict[str, Consumable]:
    """R-10.1a: the campaign's consumables, ``{kind, mass, ore}``."""
    out: dict[str, Consumable] = {}
    for c in _items(r, "catalogue"):
        kind = c.text("kind")
        if kind in out or kind in LEDGER_RESOURCES:
            raise CaseError(c.at("kind"), f"kind {kind!r} is already a consumable or a resource")
        out[kind] = Consumable(kind, c.int("mass"), c.int("ore"))
    return out


def _design_systems(r: _Reader, key: str = "systems") -> tuple[DesignSystem, ...]:
    """R-10.0: a design's systems ``{id, name, points, count, <capacity>: amount per unit}``."""
    systems: list[DesignSystem] = []
    for s in _items(r, key):
        sid = s.text("id")
        if any(x.id == sid for x in systems):
            raise CaseError(s.at("id"), f"duplicate system id {sid!r}")
        gives = {k: s.int(k) for k in CAPACITIES if k in s.obj}
        systems.append(
            DesignSystem(
                sid,
                s.text("name", sid),
                s.int("points"),
                s.int("count", 1, minimum=1),
                {k: n for k, n in gives.items() if n},
            )
        )
    return tuple(systems)


def _design(d: _Reader, power: str, catalogue: dict[str, Consumable]) -> Design:
    """R-10.0: a design in the contract shape: a state's ``designs[]`` entry or the fields of a
    ``register_design`` order."""
    systems = _design_systems(d)
    npv = d.int("npv", minimum=1)
    if problem := npv_problem(npv, systems):
        raise CaseError(d.at("npv"), problem)
    ident = d.text("id")
    return Design(
        ident,
        power,
        d.text("name", ident),
        d.choice("class", CRAFT_CLASSES),
        d.choice("mobility", MOBILITIES),
        d.int("mass", minimum=1),
        npv,
        d.int("crew", 0),
        systems,
        _counts(d, "loadout", catalogue, "consumable"),
        d.bool("completed", False),
        d.opt_str("studied_from"),
    )


def parse_design_systems(value: object) -> tuple[DesignSystem, ...]:
    """R-10.0: a ``systems`` list (of a ``register_design`` order); ``CaseError`` names the
    entry."""
    return _design_systems(_Reader({"systems": value}, ""))


def parse_design(fields: dict[str, Any], power: str, catalogue: dict[str, Consumable]) -> Design:
    """R-10.0: a new design from the fields of a ``register_design`` order (never completed)."""
    design = _design(_Reader(fields, ""), power, catalogue)
    design.completed = False
    return design


def _craft(
    c: _Reader,
    ctx: _Context,
    designs: dict[str, Design],
    carriers: dict[str, Group | Static],
    catalogue: dict[str, Consumable],
) -> Craft:
    """R-10.0: a craft in exactly one of a group (mobile), a static (static) or orbit."""
    ident = ctx.new_id(c)
    power = ctx.power(c, "power")
    design = designs[_known(c, "design", designs, "design")]
    where = {k: c.opt_str(k) for k in ("group", "static", "orbit")}
    if sum(v is not None for v in where.values()) != 1:
        raise CaseError(c.at("group"), "a craft is in exactly one of a group, a static, orbit")
    for key, kind, mobility in (("group", Group, "mobile"), ("static", Static, "static")):
        if (cid := where[key]) is None:
            continue
        carrier = carriers.get(cid)
        if not isinstance(carrier, kind):
            raise CaseError(c.at(key), f"unknown {key} {cid!r}")
        if carrier.power != power:
            raise CaseError(c.at(key), f"{key} {cid} belongs to {carrier.power}, not {power}")
        if design.mobility != mobility:
            raise CaseError(c.at(key), f"a {design.mobility} design cannot be in a {key}")
    systems = {s.id: s.count for s in design.systems}
    destroyed = _counts(c, "destroyed", systems, "system")
    disabled = _counts(c, "disabled", systems, "system")
    for sid, count in systems.items():
        if destroyed.get(sid, 0) + disabled.get(sid, 0) > count:
            raise CaseError(c.at("destroyed"), f"{sid}: more damaged than its {count} units")
    gantry = c.hex("gantry") if c.raw("gantry", None) is not None else None
    return Craft(
        ident,
        power,
        design.id,
        where["group"],
        where["static"],
        where["orbit"],
        {"cf": c.int("crew", 0), **_counts(c, "consumables", catalogue, "consumable")},
        c.int("fatigue", 0),
        destroyed,
        disabled,
        c.bool("captured", False),
        gantry,
        Workshop(ident, _counts(c, "workshop", catalogue, "consumable")),
        _counts(c, "unready", catalogue, "consumable"),
    )


def _build(b: _Reader, ctx: _Context, designs: dict[str, Design], craft: dict[str, Craft]) -> Build:
    """R-10.1, R-10.3: work in progress; an unbuild's design is its craft's."""
    ident = ctx.new_id(b)
    power = ctx.power(b, "power")
    kind = b.choice("kind", WORK_KINDS, "build")
    if kind in REPAIR_KINDS:
        return _repair_work(b, ident, power, kind, designs, craft)
    builders = []
    for i, cid in enumerate(b.list("builders")):
        if not isinstance(cid, str) or cid not in craft or craft[cid].power != power:
            raise CaseError(f"{b.at('builders')}[{i}]", f"no craft {cid!r} of {power}")
        builders.append(cid)
    inside = b.bool("inside", False)
    if not builders or ((kind == "unbuild" or inside) and len(builders) > 1):
        raise CaseError(b.at("builders"), "one builder (pooled builders only outside)")
    cost = b.int("cost", minimum=1)
    target = None
    if kind == "unbuild":
        target = craft.get(_known(b, "craft", craft, "craft"))
        if target is None or target.power != power:
            raise CaseError(b.at("craft"), f"craft {b.obj['craft']} is not {power}'s")
        design = designs[target.design]
    else:
        design = designs[_known(b, "design", designs, "design")]
        if design.power != power:
            raise CaseError(b.at("design"), f"design {design.id} belongs to {design.power}")
    worked = b.int("worked", 0)
    paid = b.int("paid", 0) if kind == "build" else 0
    if max(paid, worked) >= cost:
        raise CaseError(b.at("cost"), f"work done in full ({cost}) is no longer in progress")
    return Build(
        ident,
        power,
        kind,
        design.id,
        builders,
        inside,
        None if inside or kind == "unbuild" else b.hex("hex"),
        cost,
        b.int("surcharge", 0),
        b.int("started", 1, minimum=1),
        {"ore": paid},
        target.id if target else None,
        worked,
    )


def _fleet(r: _Reader, ctx: _Context, groups: list[Group], statics: list[Static]) -> Fleet:
    """R-10: catalogue, designs, craft (orbits checked once all are read), work in progress and
    the campaign's settings (``fleet``: ``design_tp``, ``group_limits``)."""
    catalogue = _catalogue(r)
    designs: dict[str, Design] = {}
    for d in _items(r, "designs"):
        ctx.new_id(d)
        designs[d.text("id")] = _design(d, ctx.power(d, "power"), catalogue)
    carriers: dict[str, Group | Static] = {g.id: g for g in groups}
    carriers.update((s.id, s) for s in statics)
    craft: dict[str, Craft] = {}
    for c in _items(r, "craft"):
        made = _craft(c, ctx, designs, carriers, catalogue)
        craft[made.id] = made
    for i, made in enumerate(craft.values()):
        builder = craft.get(made.orbit) if made.orbit is not None else None
        if made.orbit is not None and (
            builder is None
            or builder.power != made.power
            or builder.orbit is not None
            or not any(s.capacity.get("construction") for s in designs[builder.design].systems)
        ):
            where = f"{r.at('craft')}[{i}].orbit"
            raise CaseError(where, f"{made.orbit!r} is not a builder of {made.power}")
    builds = [_build(b, ctx, designs, craft) for b in _items(r, "builds")]
    settings = r.sub("fleet", {})
    limits_r = settings.sub("group_limits", {})
    limits = {}
    for kind in sorted(limits_r.obj):
        if kind not in GROUP_KINDS:
            raise CaseError(limits_r.at(kind), f"expected a group kind, got {kind!r}")
        lim = limits_r.sub(kind)
        limits[kind] = GroupLimit(lim.opt_int("points"), lim.opt_int("officers"))
    return Fleet(
        list(designs.values()),
        list(craft.values()),
        builds,
        catalogue,
        settings.int("design_tp", 0),
        limits,
        *_pacts(r, ctx, craft, designs, carriers),
    )


# --- Fleets II: repairs, rebuilds, refits; battle records, loans, transfers (R-10.2-R-10.6) ---

REPAIR_KINDS = ("repair", "rebuild", "refit")


def _repair_work(
    b: _Reader,
    ident: str,
    power: str,
    kind: str,
    designs: dict[str, Design],
    craft: dict[str, Craft],
) -> Build:
    """R-10.2, Support 1.5: a repair, rebuild or refit of ``craft`` at one builder or repairer:
    ``systems`` the destroyed units it restores, ``fatigue`` what a rebuild removes; a refit's
    ``design`` is the variant the craft becomes (the power's, of the same mobility)."""
    target = craft.get(_known(b, "craft", craft, "craft"))
    builders = b.list("builders")
    if len(builders) != 1 or builders[0] not in craft or craft[builders[0]].power != power:
        raise CaseError(b.at("builders"), f"expected one craft of {power}, got {builders!r}")
    if target is None or target.power != power:
        raise CaseError(b.at("craft"), f"craft {b.obj['craft']} is not {power}'s")
    design = designs[target.design]
    if kind == "refit":
        design = designs[_known(b, "design", designs, "design")]
        if design.power != power or design.mobility != designs[target.design].mobility:
            raise CaseError(b.at("design"), f"not a {power} design of the craft's mobility")
    units = {s.id: s.count for s in designs[target.design].systems}
    cost = b.int("cost", minimum=1)
    paid = b.int("paid", 0)
    if paid >= cost:
        raise CaseError(b.at("cost"), f"work done in full ({cost}) is no longer in progress")
    return Build(
        ident, power, kind, design.id, [builders[0]], False, None, cost, 0,
        b.int("started", 1, minimum=1), {"ore": paid}, target.id, 0,
        _counts(b, "systems", units, "system") if kind != "refit" else {},
        b.int("fatigue", 0) if kind == "rebuild" else 0,
    )  # fmt: skip


def _pacts(
    r: _Reader,
    ctx: _Context,
    craft: dict[str, Craft],
    designs: dict[str, Design],
    carriers: dict[str, Group | Static],
) -> tuple[list[Battle], list[Loan], list[Transfer]]:
    """R-10.5, R-10.6: confirmed battle records, loans and transfers (docs/rules.md)."""
    new_into: dict[str, tuple[str, str]] = {}  # a new carrier of captured craft: (power, mobility)
    battles = [_battle(b, ctx, craft, designs, carriers, new_into) for b in _items(r, "battles")]
    taken: dict[str, str] = {}  # a carrier in a loan or transfer: which one

    def claim(item: _Reader, key: str, ids: list[str], owner: str) -> None:
        for i, cid in enumerate(ids):
            where = f"{item.at(key)}[{i}]"
            carrier = carriers.get(cid)
            if carrier is None or carrier.power != owner:
                raise CaseError(where, f"no group or static {cid!r} of {owner}")
            if cid in taken:
                raise CaseError(where, f"{cid} is already in {taken[cid]}")
            taken[cid] = item.path

    round_ = r.int("round", minimum=1)
    loans = []
    for item in _items(r, "loans"):
        ident = ctx.new_id(item)
        owner, borrower = ctx.power(item, "owner"), ctx.power(item, "borrower")
        if owner == borrower:
            raise CaseError(item.at("borrower"), "a power cannot lend to itself")
        active = item.bool("active", False)
        groups = [str(g) for g in item.list("groups")]
        if not groups or not all(isinstance(carriers.get(g), Group) for g in groups):
            raise CaseError(item.at("groups"), f"expected a list of group ids, got {groups!r}")
        claim(item, "groups", groups, borrower if active else owner)
        loans.append(Loan(ident, owner, borrower, groups, item.int("last", minimum=round_), active))
    transfers = []
    for item in _items(r, "transfers"):
        ident = ctx.new_id(item)
        owner, receiver = ctx.power(item, "owner"), ctx.power(item, "receiver")
        if owner == receiver:
            raise CaseError(item.at("receiver"), "a power cannot transfer to itself")
        ids = [str(c) for c in item.list("carriers")]
        if not ids:
            raise CaseError(item.at("carriers"), "expected at least one group or static")
        claim(item, "carriers", ids, owner)
        crew_to = item.opt_str("crew_to")
        if crew_to is not None and crew_to not in ctx.systems:
            raise CaseError(item.at("crew_to"), f"unknown system {crew_to!r}")
        transfers.append(Transfer(ident, owner, receiver, tuple(ids), crew_to))
    return battles, loans, transfers


def _battle(
    b: _Reader,
    ctx: _Context,
    craft: dict[str, Craft],
    designs: dict[str, Design],
    carriers: dict[str, Group | Static],
    new_into: dict[str, tuple[str, str]],
) -> Battle:
    """R-10.6: a record's powers (at least two) and its craft, each a craft of one of them."""
    ident = ctx.new_id(b)
    powers = ctx.power_list(b, "powers")
    if len(set(powers)) < 2 or len(set(powers)) != len(powers):
        raise CaseError(b.at("powers"), f"expected two or more distinct powers, got {powers!r}")
    entries: list[BattleCraft] = []
    for e in _items(b, "craft"):
        target = craft.get(_known(e, "craft", craft, "craft"))
        assert target is not None
        if target.power not in powers:
            raise CaseError(e.at("craft"), f"{target.id} belongs to {target.power}, not in it")
        if any(x.craft == target.id for x in entries):
            raise CaseError(e.at("craft"), f"{target.id} is listed twice")
        design = designs[target.design]
        units = {s.id: s.count for s in design.systems}
        destroyed = _counts(e, "systems_destroyed", units, "system")
        disabled = _counts(e, "systems_disabled", units, "system")
        for sid, count in units.items():
            if destroyed.get(sid, 0) + disabled.get(sid, 0) > count:
                raise CaseError(e.at("systems_destroyed"), f"{sid}: more than its {count} units")
        captor = ctx.power_or_none(e, "captured_by")
        into = e.opt_str("into")
        if captor is not None:
            if captor == target.power or captor not in powers or e.bool("destroyed", False):
                raise CaseError(e.at("captured_by"), "another power in the battle, not destroyed")
            if into is None:
                raise CaseError(e.at("into"), "a captured craft goes into a group or static")
            _check_into(e, into, captor, design.mobility, carriers, ctx, new_into)
        entries.append(
            BattleCraft(
                target.id,
                e.bool("destroyed", False),
                "systems_destroyed" in e.obj or "systems_disabled" in e.obj,
                destroyed,
                disabled,
                e.int("cf_lost", 0),
                captor,
                into if captor else None,
            )
        )
    return Battle(ident, b.hex("hex"), tuple(powers), tuple(entries))


def _check_into(
    e: _Reader,
    into: str,
    captor: str,
    mobility: str,
    carriers: dict[str, Group | Static],
    ctx: _Context,
    new_into: dict[str, tuple[str, str]],
) -> None:
    """R-10.6: captured craft go into a carrier of the captor of their mobility, or a new one."""
    carrier = carriers.get(into)
    kind = Group if mobility == "mobile" else Static
    if carrier is not None:
        if carrier.power != captor or not isinstance(carrier, kind):
            raise CaseError(e.at("into"), f"{into} is not a {kind.__name__.lower()} of {captor}")
    elif into in ctx.seen or new_into.get(into, (captor, mobility)) != (captor, mobility):
        raise CaseError(e.at("into"), f"id {into!r} is already used")
    else:
        new_into[into] = (captor, mobility)


def dump_pacts(f: Fleet) -> dict[str, Any]:
    """The contract shape of battle records, loans and transfers (docs/rules.md, issue 15)."""
    return {
        "battles": [
            {
                "id": b.id,
                "hex": b.hex,
                "powers": list(b.powers),
                "craft": [_dump_battle_craft(e) for e in b.craft],
            }
            for b in f.battles
        ],
        "loans": [
            {
                "id": x.id,
                "owner": x.owner,
                "borrower": x.borrower,
                "groups": list(x.groups),
                "last": x.last,
                "active": x.active,
            }
            for x in f.loans
        ],
        "transfers": [
            {
                "id": t.id,
                "owner": t.owner,
                "receiver": t.receiver,
                "carriers": list(t.carriers),
                "crew_to": t.crew_to,
            }
            for t in f.transfers
        ],
    }


def _dump_battle_craft(e: BattleCraft) -> dict[str, Any]:
    out: dict[str, Any] = {"craft": e.craft, "destroyed": e.destroyed, "cf_lost": e.cf_lost}
    if e.damage:
        out.update(systems_destroyed=dict(e.systems_destroyed))
        out.update(systems_disabled=dict(e.systems_disabled))
    if e.captured_by:
        out.update(captured_by=e.captured_by, into=e.into)
    return out


def dump_design(d: Design) -> dict[str, Any]:
    """The contract shape of a design (R-10.0)."""
    return {
        "id": d.id,
        "power": d.power,
        "name": d.name,
        "class": d.cls,
        "mobility": d.mobility,
        "mass": d.mass,
        "npv": d.npv,
        "crew": d.crew,
        "systems": [
            {"id": s.id, "name": s.name, "points": s.points, "count": s.count, **s.capacity}
            for s in d.systems
        ],
        "loadout": dict(sorted(d.loadout.items())),
        "completed": d.completed,
        "studied_from": d.studied_from,
    }


def dump_craft(c: Craft) -> dict[str, Any]:
    """The contract shape of a craft (R-10.0)."""
    return {
        "id": c.id,
        "power": c.power,
        "design": c.design,
        "group": c.group,
        "static": c.static,
        "orbit": c.orbit,
        "crew": c.crew,
        "fatigue": c.fatigue,
        "destroyed": dict(sorted(c.destroyed.items())),
        "disabled": dict(sorted(c.disabled.items())),
        "consumables": {k: n for k, n in sorted(c.store.items()) if k not in ("cf", "pl") and n},
        "passengers": c.store.get("pl", 0),  # researchers and staff aboard (Support §3.3)
        "workshop": {k: n for k, n in sorted(c.workshop.store.items()) if n},
        "captured": c.captured,
        "gantry": c.gantry,
        "unready": dict(sorted(c.unready.items())),
    }


def dump_build(b: Build) -> dict[str, Any]:
    """The contract shape of work in progress (R-10.1, R-10.3)."""
    out: dict[str, Any] = {
        "id": b.id,
        "power": b.power,
        "kind": b.kind,
        "design": b.design,
        "builders": list(b.builders),
        "inside": b.inside,
        "hex": b.hex,
        "cost": b.cost,
        "surcharge": b.surcharge,
        "started": b.started,
    }
    if b.kind == "unbuild":
        out.update(craft=b.craft, worked=b.worked)
    else:
        out["paid"] = b.paid
    if b.kind in REPAIR_KINDS:
        out.update(craft=b.craft, systems=dict(sorted(b.systems.items())), fatigue=b.fatigue)
    return out


def dump_fleet(f: Fleet) -> dict[str, Any]:
    """The fleet keys of a state (R-10, R-10.1a, R-2b)."""
    return {
        "catalogue": [
            {"kind": c.kind, "mass": c.mass, "ore": c.ore} for _, c in sorted(f.catalogue.items())
        ],
        "designs": [dump_design(d) for d in f.designs],
        "craft": [dump_craft(c) for c in f.craft],
        "builds": [dump_build(b) for b in f.builds],
        **dump_pacts(f),
        "fleet": {
            "design_tp": f.design_tp,
            "group_limits": {
                k: {"points": lim.points, "officers": lim.officers}
                for k, lim in sorted(f.group_limits.items())
            },
        },
    }


def _decimal_text(d: Decimal) -> str:
    return f"{d:.4f}"


def dump_state(state: State) -> dict[str, Any]:
    """The contract shape of a state; systems also carry ``effective_loyalty`` (R-3.4)."""
    reduction: dict[str, int] = {}
    holders = {s.id: s.holder for s in state.systems}
    for inv in state.invasions:
        if inv.power != holders.get(inv.system):
            reduction[inv.system] = reduction.get(inv.system, 0) + inv.troops // 25
    market: dict[str, Any] = {
        "rates": {e: _decimal_text(v) for e, v in state.market.rates.items()},
        "tax": {e: _decimal_text(v) for e, v in state.market.tax.items()},
        "volume": {e: state.market.volume.get(e, 0) for e in EDGES},
    }
    if state.market.power_tax:
        market["power_tax"] = {
            p: {e: _decimal_text(v) for e, v in t.items()}
            for p, t in state.market.power_tax.items()
        }
    if state.market.banned:
        market["banned"] = sorted(state.market.banned)
    map_out: dict[str, Any] = {
        "hexes": [{"hex": h, "type": t} for h, t in sorted(state.hexes.items())]
    }
    if state.map_size is not None:
        map_out["size"] = {"cols": state.map_size[0], "rows": state.map_size[1]}
    return {
        "round": state.round,
        "seed": state.seed,
        "map": map_out,
        "powers": [
            {"id": p.id, "gal": p.store["gal"], "tp": p.store["tp"], "un_member": p.un_member}
            for p in state.powers
        ],
        "systems": [
            {
                "id": s.id,
                "name": s.name,
                "hex": s.hex,
                "type": s.type,
                "holder": s.holder,
                "loyalty": s.loyalty,
                "effective_loyalty": max(0, s.loyalty - reduction.get(s.id, 0)),
                "rates": dict(s.rates),
                "stock": dict(s.store),
                "project": (
                    {"source": s.project.source, "target": s.project.target, "pct": s.project.pct}
                    if s.project
                    else None
                ),
                "free_ep": s.free_ep,
            }
            for s in state.systems
        ],
        "hubs": [
            {
                "id": h.id,
                "power": h.power,
                "centre": h.centre,
                "nodes": list(h.nodes),
                "links": [list(link) for link in h.links],
                "guild": h.guild,
                "pool": dict(h.store),
                "lost": sorted(h.lost),
            }
            for h in state.hubs
        ],
        "groups": [
            {
                "id": g.id,
                "power": g.power,
                "hex": g.hex,
                "order": g.order,
                "points": g.points,
                "ep": g.ep,
                "troops": g.troops,
                "troop_space": g.troop_space,
                "diplomat": g.diplomat,
                "status": g.status,
                "kind": g.kind,
                "engages": list(g.engages),
                "defending": g.defending,
                "ep_storage": g.ep_storage,
                "out_of_supply": g.out_of_supply,
            }
            for g in state.groups
        ],
        "statics": [
            {
                "id": s.id,
                "power": s.power,
                "hex": s.hex,
                "civilian": s.civilian,
                "passenger_space": s.passenger_space,
                "passengers": s.store["pl"],
                "troop_space": s.troop_space,
                "troops": s.store["troops"],
                "ep": s.store["ep"],
                "out_of_supply": s.out_of_supply,
            }
            for s in state.statics
        ],
        "invasions": [
            {"system": i.system, "power": i.power, "troops": i.troops} for i in state.invasions
        ],
        "market": market,
        "shipments": [
            {
                "id": s.id,
                "power": s.power,
                "sender": s.sender,
                "from_hub": s.from_hub,
                "to_hub": s.to_hub,
                "resource": s.resource,
                "amount": s.amount,
                "arrives": s.arrives,
                **({"waiting": True, "waiting_for": list(s.waiting_for)} if s.waiting else {}),
            }
            for s in state.shipments
        ],
        "bubbles": [dump_bubble(b) for b in state.bubbles],
        "agreements": [dump_agreement(a) for a in state.agreements],
        "un": {"motions": [dump_motion(m) for m in state.motions]},
        **dump_fleet(state.fleet),
        **dump_command(state.command),
    }


def parse_orders(obj: object, state: State, path: str = "orders") -> list[tuple[str, int, Any]]:
    """The order sheets as (power, index, raw order), powers in id order (R-0.3).

    Only the container shape makes a case malformed; the content of each order is checked by
    ``validate`` and a bad order is rejected, not fatal.
    """
    if obj is None:
        return []
    if not isinstance(obj, dict):
        raise CaseError(path, "expected object of power id -> list of orders")
    power_ids = {p.id for p in state.powers}
    out: list[tuple[str, int, Any]] = []
    for power in sorted(obj):
        if power not in power_ids:
            raise CaseError(f"{path}.{power}", f"unknown power {power!r}")
        sheet = obj[power]
        if not isinstance(sheet, list):
            raise CaseError(f"{path}.{power}", "expected list of orders")
        for i, order in enumerate(sheet):
            if not isinstance(order, dict):
                raise CaseError(f"{path}.{power}[{i}]", "expected object")
            out.append((power, i, order))
    return out
