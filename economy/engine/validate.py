"""Order entry validation (contracts §1 order table): field types, ids and ownership.

``check_order`` returns a list of errors, each naming the field; the web forms and the API reuse
it. Checks that depend on how the round unfolds (holdings, loyalty after the Resource Phase, hubs
set up earlier in the same round) are made again by the step that applies the order (R-0.2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .codec import CaseError, is_hex, parse_design_systems
from .command_state import MAX_GRADE, MISSION_KINDS
from .designs import npv_problem
from .hexgrid import on_map
from .rules import hex_of, map_bounds
from .state import (
    CRAFT_CLASSES,
    GROUP_KINDS,
    GROUP_ORDERS,
    GROUP_STATUSES,
    MOBILITIES,
    Fleet,
    Order,
    State,
)

REQUIRED = True
OPTIONAL = False


@dataclass(slots=True)
class Catalog:
    """Who owns what at the start of the round, for entry validation."""

    powers: set[str]
    group_owner: dict[str, str]
    static_owner: dict[str, str]
    hub_owner: dict[str, str]
    system_holder: dict[str, str | None]
    ids: set[str]
    bounds: tuple[int, int] | None = None  # contracts §1 ``map.size`` (cols, rows)
    fleet: FleetCatalog = field(default_factory=lambda: FleetCatalog())
    command: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> id -> power

    @classmethod
    def of(cls, state: State, sheets: Iterable[tuple[str, int, Any]] = ()) -> Catalog:
        """``sheets`` (power, index, raw order) add the ids their orders create (R-10.1a)."""
        cat = cls(
            {p.id for p in state.powers},
            {g.id: g.power for g in state.groups},
            {s.id: s.power for s in state.statics},
            {h.id: h.power for h in state.hubs},
            {s.id: s.holder for s in state.systems},
            state_ids(state),
            map_bounds(state.map_size, state.hexes),
            FleetCatalog.of(state, sheets),
            command_owners(state),
        )
        after_pacts(cat, state.fleet)
        return cat


def state_ids(state: State) -> set[str]:
    """Every id in use (contracts §1: unique across every object of a state)."""
    ids = {p.id for p in state.powers}
    for objs in (state.systems, state.hubs, state.groups, state.statics, state.shipments):
        ids.update(o.id for o in objs)
    ids.update(b.id for b in state.bubbles)
    ids.update(a.id for a in state.agreements)
    ids.update(m.id for m in state.motions)
    for fleet_objs in (state.fleet.designs, state.fleet.craft, state.fleet.builds):
        ids.update(o.id for o in fleet_objs)
    c = state.command
    for command_objs in (c.officers, c.diplomats, c.missions):
        ids.update(o.id for o in command_objs)
    return ids


def command_owners(state: State) -> dict[str, dict[str, str]]:
    """Support §4.4, §5: who owns each officer, bubble and diplomat."""
    c = state.command
    return {
        "officer": {o.id: o.power for o in c.officers},
        "bubble": {b.id: b.power for b in state.bubbles},
        "diplomat": {d.id: d.power for d in c.diplomats},
    }


PROMISES = {
    "register_design": "design",
    "build": "craft",
    "form_group": "carrier",
    "commission": "officer",  # Support §5: commissioned in §5.1, posted in §5.2
    "bubble_hq": "bubble",
    "appoint_diplomat": "diplomat",  # Support §4.4: appointed, then given a mission
}


@dataclass(slots=True)
class FleetCatalog:
    """R-10: owners of designs, craft and work, the catalogue's kinds, and what this round's
    sheets will create (a design registered, a craft finished, a group formed: R-10.1a lets
    them be built, crewed, supplied and grouped in the same Support Phase)."""

    design_owner: dict[str, str] = field(default_factory=dict)
    craft_owner: dict[str, str] = field(default_factory=dict)
    build_owner: dict[str, str] = field(default_factory=dict)
    kinds: set[str] = field(default_factory=set)
    promised: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (kind, power)
    lent: dict[str, str] = field(default_factory=dict)  # loaned group or craft -> owner
    captured: set[str] = field(default_factory=set)  # Support 1.6.3: never studied
    given: dict[str, str] = field(default_factory=dict)  # a transfer's carrier -> its receiver

    @classmethod
    def of(cls, state: State, sheets: Iterable[tuple[str, int, Any]]) -> FleetCatalog:
        fleet = state.fleet
        out = cls(
            {d.id: d.power for d in fleet.designs},
            {c.id: c.power for c in fleet.craft},
            {b.id: b.power for b in fleet.builds},
            set(fleet.catalogue),
        )
        for b in fleet.builds:
            if b.kind == "build":
                out.promised[b.id] = ("craft", b.power)
        for power, _, raw in sheets:
            kind = PROMISES.get(str(raw.get("type"))) if isinstance(raw, dict) else None
            if kind and isinstance(raw.get("id"), str):
                out.promised.setdefault(raw["id"], (kind, power))
        return out


Check = Callable[[Catalog, str, Any], "str | None"]


def _posint(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        return f"expected a positive integer, got {v!r}"
    return None


def _pct(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
        return f"expected an integer 0..100, got {v!r}"
    return None


def hex_problem(value: Any, bounds: tuple[int, int] | None) -> str | None:
    """R-0.5, contracts §1 ``map.size``: why ``value`` is not a hex on the map, or ``None``.

    ``bounds`` is (cols, rows) as ``rules.map_bounds`` gives it; the shell may call this for
    any hex a player types."""
    if not is_hex(value):
        return f"expected hex XXYY, got {value!r}"
    if bounds is not None and not on_map(hex_of(value), bounds):
        return f"hex {value} is outside the map ({bounds[0]} × {bounds[1]})"
    return None


def _first_off_map(cat: Catalog, hexes: Iterable[str]) -> str | None:
    return next((p for hx in hexes if (p := hex_problem(hx, cat.bounds))), None)


def _hex(cat: Catalog, __: str, v: Any) -> str | None:
    return hex_problem(v, cat.bounds)


def _hexes(cat: Catalog, __: str, v: Any) -> str | None:
    if not isinstance(v, list) or not all(is_hex(h) for h in v):
        return f"expected a list of hexes XXYY, got {v!r}"
    return _first_off_map(cat, v)


def _links(cat: Catalog, __: str, v: Any) -> str | None:
    ok = isinstance(v, list) and all(
        isinstance(p, list) and len(p) == 2 and all(is_hex(h) for h in p) for p in v
    )
    if not ok:
        return f"expected a list of hex pairs, got {v!r}"
    return _first_off_map(cat, (h for pair in v for h in pair))


def _bool(_: Catalog, __: str, v: Any) -> str | None:
    return None if isinstance(v, bool) else f"expected true or false, got {v!r}"


def _shares(cat: Catalog, __: str, v: Any) -> str | None:
    ok = isinstance(v, list) and all(
        isinstance(s, dict)
        and is_hex(s.get("hex"))
        and all(
            isinstance(s.get(r, 0), int) and not isinstance(s.get(r, 0), bool) and s.get(r, 0) >= 0
            for r in ("ore", "bio")
        )
        for s in v
    )
    if not ok:
        return f"expected a list of {{hex, ore, bio}} with amounts >= 0, got {v!r}"
    return _first_off_map(cat, (s["hex"] for s in v))


def _engages(cat: Catalog, power: str, v: Any) -> str | None:
    """R-2a: the powers a group engages, other than its own."""
    if not isinstance(v, list) or not all(isinstance(p, str) for p in v):
        return f"expected a list of power ids, got {v!r}"
    unknown = [p for p in v if p not in cat.powers]
    if unknown:
        return f"unknown power {unknown[0]!r}"
    return f"a group cannot engage its own power {power}" if power in v else None


def _enum(*options: str) -> Check:
    def check(_: Catalog, __: str, v: Any) -> str | None:
        return None if v in options else f"expected one of {', '.join(options)}, got {v!r}"

    return check


def _owned(kind: str, table: str) -> Check:
    # Another power's object and no object at all get the same answer: a refusal must not
    # tell a player what others hold (issue 11).
    def check(cat: Catalog, power: str, v: Any) -> str | None:
        owners: dict[str, Any] = getattr(cat, table)
        if not isinstance(v, str) or owners.get(v, power + "?") != power:
            return f"no such {kind} of yours: {v!r}"
        return None

    return check


def _system(cat: Catalog, _: str, v: Any) -> str | None:
    return None if isinstance(v, str) and v in cat.system_holder else f"unknown system {v!r}"


def _any_of(*checks: Check, kinds: str) -> Check:
    def check(cat: Catalog, power: str, v: Any) -> str | None:
        if any(c(cat, power, v) is None for c in checks):
            return None
        return f"no such {kinds} of yours: {v!r}"

    return check


def _other_power(cat: Catalog, power: str, v: Any) -> str | None:
    if not isinstance(v, str) or v not in cat.powers:
        return f"unknown power {v!r}"
    return "cannot transfer to yourself" if v == power else None


def _new_id(cat: Catalog, _: str, v: Any) -> str | None:
    if not isinstance(v, str) or not v:
        return f"expected a new id, got {v!r}"
    return f"id {v!r} is already used" if v in cat.ids else None


def _power(cat: Catalog, _: str, v: Any) -> str | None:
    return None if isinstance(v, str) and v in cat.powers else f"unknown power {v!r}"


def _count(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        return f"expected an integer >= 0, got {v!r}"
    return None


def _text(_: Catalog, __: str, v: Any) -> str | None:
    return None if isinstance(v, str) and v else f"expected a non-empty string, got {v!r}"


def _systems(_: Catalog, __: str, v: Any) -> str | None:
    """R-10.0: a design's systems, each ``{id, name, points, count, <capacity>: n}``."""
    try:
        parse_design_systems(v)
    except CaseError as exc:
        return str(exc)
    return None


def _kind(cat: Catalog, _: str, v: Any) -> str | None:
    return None if v in cat.fleet.kinds else f"no consumable {v!r} in the catalogue (R-10.1a)"


def _loadout(cat: Catalog, power: str, v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"expected an object of consumable kind -> count, got {v!r}"
    return next(
        (
            f"{k}: {p}"
            for k, n in v.items()
            if (p := _kind(cat, power, k) or _posint(cat, power, n))
        ),
        None,
    )


def _fleet_id(kind: str, *tables: Callable[[Catalog], dict[str, str]], promise: str = "") -> Check:
    """An id of ``kind`` the power owns; with ``promise``, also one its sheet (or its work in
    progress) creates this round (R-10.1a)."""

    def check(cat: Catalog, power: str, v: Any) -> str | None:
        owner = None
        if isinstance(v, str):
            owner = next((t(cat)[v] for t in tables if v in t(cat)), None)
            made = cat.fleet.promised.get(v)
            if owner is None and made is not None and made[0] == promise:
                owner = made[1]
            if promise == "carrier" and v in cat.fleet.given:  # Support 1.6.2: §1.6 is before §3
                owner = cat.fleet.given[v]
        # Another power's and none at all get the same answer (issue 11: no leak).
        return None if owner == power else f"no such {kind} of yours: {v!r}"

    return check


def _id_list(check: Check) -> Check:
    def many(cat: Catalog, power: str, v: Any) -> str | None:
        if not isinstance(v, list) or not v or len(set(map(str, v))) != len(v):
            return f"expected a non-empty list of distinct ids, got {v!r}"
        return next((p for item in v if (p := check(cat, power, item))), None)

    return many


def _craft_table(cat: Catalog) -> dict[str, str]:
    return cat.fleet.craft_owner


_design = _fleet_id("design", lambda cat: cat.fleet.design_owner, promise="design")
_craft = _fleet_id("craft", _craft_table)
_finished = _fleet_id("craft", _craft_table, promise="craft")
_work = _fleet_id("build", lambda cat: cat.fleet.build_owner)
_crew_group = _fleet_id("group", lambda cat: cat.group_owner, promise="carrier")
_ep_into = _fleet_id(
    "group or static", lambda cat: cat.group_owner, lambda cat: cat.static_owner, promise="carrier"
)
_builders = _id_list(_craft)
_finished_list = _id_list(_finished)
_group = _owned("group", "group_owner")
_hub = _owned("hub", "hub_owner")
_static = _owned("static", "static_owner")
_held = _owned("system", "system_holder")
_place = _any_of(_hub, _held, kinds="hub or system")
_carrier = _any_of(_group, _static, kinds="group or static")
_ore_bio_gal = _enum("ore", "gal", "bio")

FIELDS: dict[str, dict[str, tuple[Check, bool]]] = {
    "declare_group": {
        "group": (_group, REQUIRED),
        "hex": (_hex, OPTIONAL),
        "order": (_enum(*GROUP_ORDERS), OPTIONAL),
        "status": (_enum(*GROUP_STATUSES), OPTIONAL),
        "engages": (_engages, OPTIONAL),
        "defending": (_bool, OPTIONAL),
    },
    "send_troops": {"group": (_group, REQUIRED), "troops": (_posint, REQUIRED)},
    "recover_troops": {
        "group": (_group, REQUIRED),
        "system": (_system, REQUIRED),
        "troops": (_posint, REQUIRED),
    },
    "convert_invasion": {"system": (_system, REQUIRED)},
    "conscript": {"system": (_held, REQUIRED), "loyalty": (_posint, REQUIRED)},
    "market_sell": {
        "resource": (_enum("ore", "bio", "gal"), REQUIRED),
        "amount": (_posint, REQUIRED),
        "from": (_place, OPTIONAL),
        "to": (_place, OPTIONAL),
    },
    "ship": {
        "from_hub": (_hub, REQUIRED),
        "to_hub": (_hub, REQUIRED),
        "resource": (_enum("ore", "bio", "pl"), REQUIRED),
        "amount": (_posint, REQUIRED),
        "payer": (_enum("sender", "receiver"), OPTIONAL),
    },
    "gal_transfer": {"to": (_other_power, REQUIRED), "amount": (_posint, REQUIRED)},
    "distribute": {"hub": (_hub, REQUIRED), "shares": (_shares, REQUIRED)},
    "hub_setup": {
        "id": (_new_id, REQUIRED),
        "centre": (_hex, REQUIRED),
        "nodes": (_hexes, OPTIONAL),
        "links": (_links, OPTIONAL),
        "pay_from": (_place, OPTIONAL),
    },
    "hub_maintain": {
        "hub": (_hub, REQUIRED),
        "keep_nodes": (_hexes, OPTIONAL),
        "keep_links": (_links, OPTIONAL),
        "close": (_bool, OPTIONAL),
    },
    "hub_extend": {
        "hub": (_hub, REQUIRED),
        "nodes": (_hexes, OPTIONAL),
        "links": (_links, REQUIRED),
    },
    "guild_join": {"hub": (_hub, REQUIRED)},
    "guild_leave": {"hub": (_hub, REQUIRED)},
    "designate_primary": {"system": (_held, REQUIRED)},
    "drop_primary": {"system": (_held, REQUIRED)},
    "nominate_homeworld": {"system": (_held, REQUIRED)},
    "research_project": {"gal": (_posint, REQUIRED)},
    "recruit_troops": {
        "at": (_place, REQUIRED),
        "troops": (_posint, REQUIRED),
        "into": (_carrier, REQUIRED),
    },
    "embark": {"at": (_place, REQUIRED), "pl": (_posint, REQUIRED), "into": (_static, REQUIRED)},
    "home_defense": {
        "system": (_held, REQUIRED),
        "troops": (_posint, REQUIRED),
        "invader": (_power, OPTIONAL),
    },
    "register_design": {
        "id": (_new_id, REQUIRED),
        "name": (_text, OPTIONAL),
        "class": (_enum(*CRAFT_CLASSES), REQUIRED),
        "mobility": (_enum(*MOBILITIES), REQUIRED),
        "mass": (_posint, REQUIRED),
        "npv": (_posint, REQUIRED),
        "crew": (_count, OPTIONAL),
        "systems": (_systems, REQUIRED),
        "loadout": (_loadout, OPTIONAL),
    },
    "build": {
        "id": (_new_id, REQUIRED),
        "design": (_design, REQUIRED),
        "builders": (_builders, REQUIRED),
        "ore": (_count, OPTIONAL),
    },
    "adjust_build": {
        "build": (_work, REQUIRED),
        "ore": (_count, OPTIONAL),
        "builders": (_builders, OPTIONAL),
        "cancel": (_bool, OPTIONAL),
    },
    "unbuild": {
        "id": (_new_id, REQUIRED),
        "craft": (_craft, REQUIRED),
        "builder": (_craft, REQUIRED),
    },
    "make": {
        "builder": (_craft, REQUIRED),
        "kind": (_kind, REQUIRED),
        "count": (_posint, REQUIRED),
    },
    "form_group": {
        "id": (_new_id, REQUIRED),
        "craft": (_finished_list, REQUIRED),
        "kind": (_enum(*GROUP_KINDS), OPTIONAL),
    },
    "crew": {
        "group": (_crew_group, OPTIONAL),
        "craft": (_finished, OPTIONAL),
        "cf": (_posint, OPTIONAL),
    },
    "supply_ep": {"into": (_ep_into, REQUIRED), "ep": (_posint, REQUIRED)},
    "planetary_project": {
        "system": (_held, REQUIRED),
        "source": (_ore_bio_gal, REQUIRED),
        "target": (_ore_bio_gal, REQUIRED),
        "pct": (_pct, REQUIRED),
    },
}


# Fleets II (issue 15): repair, rebuild, refit, restock, design study (R-10.2-R-10.5)
FIELDS.update(
    {
        "repair": {
            "id": (_new_id, REQUIRED),
            "craft": (_craft, REQUIRED),
            "repairer": (_craft, REQUIRED),
            "ore": (_count, OPTIONAL),
        },
        "rebuild": {
            "id": (_new_id, REQUIRED),
            "craft": (_craft, REQUIRED),
            "builder": (_craft, REQUIRED),
            "remove_fatigue": (_bool, OPTIONAL),
            "ore": (_count, OPTIONAL),
        },
        "refit": {
            "id": (_new_id, REQUIRED),
            "craft": (_craft, REQUIRED),
            "builder": (_craft, REQUIRED),
            "design": (_design, REQUIRED),
            "ore": (_count, OPTIONAL),
        },
        "restock": {
            "source": (_craft, REQUIRED),
            "target": (_craft, REQUIRED),
            "items": (_loadout, OPTIONAL),
            "if_engaged": (_enum("abandon", "disabled"), OPTIONAL),
        },
        "study_design": {
            "id": (_new_id, REQUIRED),
            "craft": (_craft, REQUIRED),
            "builder": (_craft, REQUIRED),
        },
    }
)


def after_pacts(cat: Catalog, fleet: Fleet) -> None:
    """Who owns what for the round's orders: confirmed battle records apply before any order
    (R-10.6: destroyed craft are gone, captured ones the captor's, with the craft in orbit with
    them, and a new carrier they go into too); a transfer's carriers are the receiver's to crew
    and supply (promised, §1.6 comes before §3); loaned groups and craft keep their owner."""
    owners = cat.fleet.craft_owner
    orbit: dict[str, list[str]] = {}
    for c in fleet.craft:
        if c.orbit is not None:
            orbit.setdefault(c.orbit, []).append(c.id)
        if c.captured:
            cat.fleet.captured.add(c.id)
    designs = {d.id: d for d in fleet.designs}
    mobility = {c.id: designs[c.design].mobility for c in fleet.craft}
    for record in fleet.battles:
        for e in record.craft:
            for cid in (e.craft, *orbit.get(e.craft, ())):
                if e.destroyed:
                    owners.pop(cid, None)
                elif e.captured_by is not None:
                    owners[cid] = e.captured_by
                    cat.fleet.captured.add(cid)
            if e.captured_by is not None and e.into is not None:
                table = cat.group_owner if mobility[e.craft] == "mobile" else cat.static_owner
                table.setdefault(e.into, e.captured_by)
                cat.ids.add(e.into)
    for transfer in fleet.transfers:
        for cid in transfer.carriers:
            cat.fleet.given[cid] = transfer.receiver
    lent = cat.fleet.lent
    lent.update((gid, loan.owner) for loan in fleet.loans if loan.active for gid in loan.groups)
    lent.update((c.id, lent[c.group]) for c in fleet.craft if c.group in lent)


def _pact_checks(cat: Catalog, power: str, kind: str, o: dict[str, Any]) -> Iterable[str]:
    """Support 1.6.1, R-2a, R-10.5: what a borrower may not order for a loaned group, and
    Support 1.6.3: captured craft are never studied."""
    lent = cat.fleet.lent
    if kind == "declare_group" and (owner := lent.get(o["group"])) in o.get("engages", ()):
        yield f"engages: {o['group']} is on loan from {owner} and may not engage it (R-2a)"
    elif kind == "crew" and (owner := lent.get(str(o.get("group") or o.get("craft")))):
        yield f"crew: on loan from {owner}: the borrower cannot re-crew it (Support 1.6.1)"
    elif kind in ("unbuild", "refit") and (owner := lent.get(o["craft"])):
        yield f"craft: {o['craft']} is on loan from {owner}: only its owner may {kind} it"
    elif kind == "build" and (lent_builder := next((b for b in o["builders"] if b in lent), None)):
        yield (
            f"builders: {lent_builder} is on loan from {lent[lent_builder]}: it repairs and"
            " makes for the borrower, but does not build (its craft would stay in orbit with"
            " it when it returns)"
        )
    elif kind == "study_design" and o["craft"] in cat.fleet.captured:
        yield f"craft: {o['craft']} was captured: captured craft can never be studied"


# --- command and intelligence (Support §3.3, §4.4, §5; docs/rules.md) -------------------------


def _command_id(kind: str) -> Check:
    return _fleet_id(kind, lambda cat: cat.command.get(kind, {}), promise=kind)


def _grade(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_GRADE:
        return f"expected an integer 1..{MAX_GRADE} (Support §5.1.3), got {v!r}"
    return None


def _target(cat: Catalog, power: str, v: Any) -> str | None:
    if not isinstance(v, str) or v not in cat.powers:
        return f"unknown power {v!r}"
    return "a diplomat's mission targets another power" if v == power else None


_officer = _command_id("officer")
_bubble = _command_id("bubble")
_diplomat = _command_id("diplomat")

#: Support §3.3, §4.4, §5: the engine's command orders (their web forms: economy.orderforms).
COMMAND_FIELDS: dict[str, dict[str, tuple[Check, bool]]] = {
    "commission": {
        "id": (_new_id, REQUIRED),
        "rank": (_posint, REQUIRED),
        "grade": (_grade, REQUIRED),
        "name": (_text, OPTIONAL),
    },
    "promote": {
        "officer": (_officer, REQUIRED),
        "rank": (_posint, OPTIONAL),
        "grade": (_grade, OPTIONAL),
        "tp": (_bool, OPTIONAL),
    },
    "demote": {"officer": (_officer, REQUIRED), "rank": (_posint, REQUIRED)},
    "dismiss": {"officer": (_officer, REQUIRED)},
    "assign_officer": {
        "officer": (_officer, REQUIRED),
        "craft": (_finished, OPTIONAL),
        "group": (_crew_group, OPTIONAL),
    },
    "bubble_hq": {
        "id": (_new_id, REQUIRED),
        "hex": (_hex, REQUIRED),
        "officer": (_officer, REQUIRED),
    },
    "bubble_outpost": {
        "bubble": (_bubble, REQUIRED),
        "hex": (_hex, REQUIRED),
        "officer": (_officer, REQUIRED),
    },
    "bubble_sensor": {
        "bubble": (_bubble, REQUIRED),
        "post": (_hex, REQUIRED),
        "hex": (_hex, REQUIRED),
    },
    "post_officer": {
        "bubble": (_bubble, REQUIRED),
        "post": (_hex, REQUIRED),
        "officer": (_officer, REQUIRED),
    },
    "patrol": {
        "group": (_group, REQUIRED),
        "bubble": (_bubble, REQUIRED),
        "post": (_hex, REQUIRED),
    },
    "researchers": {"craft": (_finished, REQUIRED), "pl": (_posint, REQUIRED)},
    "appoint_diplomat": {
        "id": (_new_id, REQUIRED),
        "craft": (_finished, REQUIRED),
        "name": (_text, OPTIONAL),
    },
    "recall_diplomat": {"diplomat": (_diplomat, REQUIRED)},
    "diplomatic_mission": {
        "id": (_new_id, REQUIRED),
        "diplomat": (_diplomat, REQUIRED),
        "target": (_target, REQUIRED),
        "kind": (_enum(*MISSION_KINDS), REQUIRED),
        "system": (_system, OPTIONAL),
        "gal": (_count, OPTIONAL),
        "tp": (_count, OPTIONAL),
        "pl": (_count, OPTIONAL),
    },
}
FIELDS.update(COMMAND_FIELDS)

#: The order types that name a design, craft, work, group or static: who owns those changes
#: with battle records, loans and transfers (``after_pacts``); no other order reads them.
FLEET_CHECKS = {_design, _craft, _finished, _work, _crew_group, _ep_into, _builders, _group}
FLEET_CHECKS |= {_finished_list, _static, _carrier}
NAMES_FLEET = frozenset(
    kind for kind, fields in FIELDS.items() if any(c in FLEET_CHECKS for c, _ in fields.values())
)


def _cross_checks(power: str, kind: str, o: dict[str, Any]) -> Iterable[str]:
    """Rules between fields of one order (contracts §1 order table)."""
    if kind == "market_sell":
        if o["resource"] == "gal":
            if "from" in o:
                yield "from: Gal is sold from the bank, omit 'from' (R-6.1)"
            if "to" not in o:
                yield "to: missing: where the Ore bought arrives (R-6.1)"
        else:
            if "from" not in o:
                yield f"from: missing: the hub or system the {o['resource']} is sold from"
            if "to" in o:
                yield f"to: only for Gal sales; {o['resource']} proceeds arrive where sold (R-6.1)"
    elif kind == "ship" and o["from_hub"] == o["to_hub"]:
        yield "to_hub: must differ from from_hub"
    elif kind == "planetary_project" and o["source"] == o["target"]:
        yield "target: must differ from source (Support §6.1)"
    elif kind == "research_project" and o["gal"] % 2:
        yield f"gal: 2 Gal buy 1 TP, so the amount must be even, got {o['gal']} (Support §4.3.1)"
    elif kind == "gal_transfer" and o["to"] == power:
        yield "to: cannot transfer to yourself"
    elif kind == "hub_extend" and not o["links"]:
        yield "links: an extension adds at least one link (R-5.1a)"
    elif kind == "register_design" and (
        problem := npv_problem(o["npv"], parse_design_systems(o["systems"]))
    ):
        yield f"npv: {problem}"
    elif kind == "crew" and ("group" in o) == ("craft" in o):
        yield "craft: give either a group or a craft"
    elif kind == "adjust_build" and (o.get("cancel") is True) == any(
        k in o for k in ("ore", "builders")
    ):
        yield "cancel: either cancel, or give the ore and/or builders for this round (R-10.7)"


def check_order(catalog: Catalog, power: str, raw: Any) -> list[str]:
    """Entry errors of one order of ``power``; an empty list means it may go to resolution."""
    if not isinstance(raw, dict):
        return ["order: expected an object"]
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        return [f"type: unknown order type {kind!r}"]
    spec = FIELDS[kind]
    errors = []
    for name, (check, required) in spec.items():
        if name not in raw:
            if required:
                errors.append(f"{name}: missing")
            continue
        problem = check(catalog, power, raw[name])
        if problem:
            errors.append(f"{name}: {problem}")
    if not errors:
        errors.extend(_cross_checks(power, kind, raw))
        errors.extend(_pact_checks(catalog, power, kind, raw))
    return errors


def created_id(raw: Any) -> str | None:
    """The new id an order creates (its ``id`` field checked by ``_new_id``), or ``None``."""
    if not isinstance(raw, dict):
        return None
    spec = FIELDS.get(str(raw.get("type")))
    new = raw.get("id")
    if spec is None or spec.get("id", (None,))[0] is not _new_id or not isinstance(new, str):
        return None
    return new


def check_orders(
    state: State, sheets: Iterable[tuple[str, int, Any]]
) -> tuple[list[Order], list[tuple[str, int, str]]]:
    """Split (power, index, raw order) into accepted ``Order``s and (power, index, error).

    Contracts §1: ids are unique across the state, so two orders of a round creating the same
    id (a hub and a design, say) cannot both stand: the first by (power, index) keeps it."""
    sheets = list(sheets)
    catalog = Catalog.of(state, sheets)
    checked = [
        (power, index, raw, check_order(catalog, power, raw)) for power, index, raw in sheets
    ]
    claims: dict[str, tuple[str, int]] = {}
    for power, index, raw, errors in sorted(checked, key=lambda c: (c[0], c[1])):
        new = created_id(raw)
        if new is not None and not errors:
            claims.setdefault(new, (power, index))
    accepted: list[Order] = []
    refused: list[tuple[str, int, str]] = []
    for power, index, raw, errors in checked:
        new = created_id(raw)
        if not errors and new is not None and claims[new] != (power, index):
            errors = [f"id: id {new!r} is already used"]
        if errors:
            refused.append((power, index, "; ".join(errors)))
            continue
        fields = {k: v for k, v in raw.items() if k != "type"}
        accepted.append(Order(power, index, raw["type"], fields))
    return accepted, refused
