"""Reads for the Fleet page, the fleet order forms and the fleet API (issue 14): one power's
designs, groups and statics with their craft, builders with their work in progress, and what a
fleet order costs and where it is paid from. Only the power's own objects are read (nothing of
another power's fleet is ever loaded here), in a fixed number of queries whatever the size of
the campaign; the figures come from the engine's own rules (``economy.engine.designs``,
``economy.engine.navy``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from economy.engine.codec import CaseError, parse_design
from economy.engine.designs import (
    build_cost,
    capacity,
    ep_need,
    fatigue_cost,
    pl_per_cf,
    reclaim,
)
from economy.engine.navy import Navy
from economy.engine.refit import refit_cost
from economy.engine.repair import WORK, destroyed_points, repair_fatigue
from economy.engine.rules import ceil_div
from economy.engine.state import Build, Craft, Design, Group, State, Static
from economy.events import ORDERS, hub_name, own
from economy.models import Order, RoundStatus
from economy.snapshot import load_power_fleet
from powers.models import GroupKind, Power, StarSystem
from trade.models import HubNode

MAX_ROUNDS = 99  # "rounds to finish" beyond this reads as "many"
KINDS = dict(GroupKind.choices)


def shown(power: Power | str, key: str) -> str:
    """A key as its power (or power key) typed it: ``<power>-frigate`` reads ``frigate``
    (economy.entry), and a set-up's ``nac-1`` reads ``1`` (issue 17: no raw keys on pages)."""
    return own(key, [power if isinstance(power, str) else power.key])


def _words(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(counts.items()) if n) or "—"


# --- the fleet as the engine sees it ------------------------------------------------------


@dataclass
class PowerFleet:
    """One power's fleet, indexed by the engine's ``Navy`` (figures derived from craft)."""

    power: Power
    state: State
    navy: Navy
    groups: dict[str, Group]
    statics: dict[str, Static]

    @classmethod
    def of(cls, power: Power) -> PowerFleet:
        state = load_power_fleet(power)
        groups = {g.id: g for g in state.groups}
        statics = {s.id: s for s in state.statics}
        return cls(power, state, Navy(state, groups, statics), groups, statics)

    def craft_hex(self, craft: Craft) -> str | None:
        carrier = self.navy.carrier(craft)
        return carrier.hex if carrier is not None else None

    def builders(self) -> list[Craft]:
        """Craft with a working construction system that are not in orbit (R-10.1)."""
        return [
            c
            for c in sorted(self.state.fleet.craft, key=lambda c: c.id)
            if c.orbit is None and self.navy.capacity(c, "construction")
        ]


# --- the Fleet page -----------------------------------------------------------------------


@dataclass(frozen=True)
class SystemRow:
    name: str
    points: int
    count: int
    gives: str  # capacities per unit, in words


@dataclass(frozen=True)
class DesignRow:
    key: str
    shown: str
    name: str
    cls: str
    mobility: str
    mass: int
    npv: int
    crew: int
    systems: list[SystemRow]
    system_points: int
    loadout: str
    completed: bool
    cost: int  # Ore to build one now: NPV, +10 % while new, the loadout
    surcharge: int
    craft: int  # how many the power has


@dataclass(frozen=True)
class CraftRow:
    key: str
    shown: str
    design: str
    crew: int
    crew_needed: int
    fatigue: int
    damage: str
    carried: str
    orbiting: bool = False

    @property
    def short_of_crew(self) -> bool:
        return self.crew < self.crew_needed


@dataclass(frozen=True)
class UnitRow:
    """A group or a static with its craft, EP and crew (R-7.4, R-7.4a, R-7.5)."""

    key: str
    shown: str
    hex: str
    kind: str
    order: str
    points: int
    craft: list[CraftRow]
    orbiting: list[CraftRow]
    ep: int
    ep_storage: int | None  # None: not limited (a group given without craft)
    ep_needed: int  # at the start of the next round
    free_ep: int  # of those, served by the free EP of a held system there
    out_of_supply: bool
    crew: int
    crew_needed: int
    troops: int
    troop_space: int

    @property
    def short_of_crew(self) -> bool:
        return self.crew < self.crew_needed

    @property
    def ep_short(self) -> int:
        """EP it will lack next round unless supplied: needed less free EP less stored."""
        return max(0, self.ep_needed - self.free_ep - self.ep)


@dataclass(frozen=True)
class WorkRow:
    key: str
    shown: str
    kind: str  # "build" or "unbuild"
    design: str
    where: str  # "inside <builder>" or "at <hex>"
    builders: str
    cost: int
    done: int  # Ore paid (a build) or NPV worked through (an unbuild)
    surcharge: int
    rate: int  # Ore a round its builders can put in now
    rounds: int | None  # to finish at that rate (if the Ore is there); None: nothing works on it
    started: int

    @property
    def percent(self) -> int:
        return self.done * 100 // self.cost if self.cost else 100


@dataclass(frozen=True)
class BuilderRow:
    key: str
    shown: str
    design: str
    where: str  # group or static
    hex: str
    rating: int
    workshop: int
    acts: str  # when it works, in words
    gantry: str | None
    queue: list[WorkRow] = field(default_factory=list)
    ordered: list[str] = field(default_factory=list)  # builds on this round's sheet


@dataclass(frozen=True)
class FleetPage:
    power: Power
    designs: list[DesignRow]
    groups: list[UnitRow]
    statics: list[UnitRow]
    builders: list[BuilderRow]
    work: list[WorkRow]
    catalogue: list[tuple[str, int, int]]  # kind, mass, Ore
    design_tp: int


def _craft_row(fleet: PowerFleet, c: Craft, *, orbiting: bool = False) -> CraftRow:
    design = fleet.navy.design(c)
    damage = {
        **{f"{k} destroyed": n for k, n in c.destroyed.items()},
        **{f"{k} disabled": n for k, n in c.disabled.items()},
    }
    return CraftRow(
        c.id,
        shown(fleet.power, c.id),
        design.name,
        c.crew,
        design.crew,
        c.fatigue,
        _words(damage),
        _words({k: n for k, n in c.store.items() if k != "cf"}),
        orbiting,
    )


def _systems_at(power: Power, hexes: set[str]) -> tuple[dict[str, int], set[str]]:
    """The free EP of the power's held systems at ``hexes`` (R-7.4: effective LR > 0 assumed
    from the stored LR) and which of those hexes hold a system at all (one query)."""
    at = Q(pk__in=[])
    for hx in hexes:
        at |= Q(hex__col=int(hx[:2]), hex__row=int(hx[2:]))
    free: dict[str, int] = {}
    system_hexes: set[str] = set()
    for col, row, holder, lr, free_ep in StarSystem.objects.filter(
        at, campaign_id=power.campaign_id
    ).values_list("hex__col", "hex__row", "holder_id", "loyalty", "free_ep"):
        hx = f"{col:02d}{row:02d}"
        system_hexes.add(hx)
        if holder == power.pk and lr > 0:
            free[hx] = free.get(hx, 0) + free_ep
    return free, system_hexes


def _units(fleet: PowerFleet) -> tuple[list[UnitRow], list[UnitRow]]:
    navy = fleet.navy
    units: list[Group | Static] = sorted(
        [*fleet.groups.values(), *fleet.statics.values()], key=lambda u: u.id
    )
    free, system_hexes = _systems_at(fleet.power, {u.hex for u in units})
    groups: list[UnitRow] = []
    statics: list[UnitRow] = []
    for unit in units:  # free EP serve the groups and statics at the hex in id order
        need = ep_need(navy.ep_points(unit, deep_space=unit.hex not in system_hexes))
        served = min(need, free.get(unit.hex, 0))
        free[unit.hex] = free.get(unit.hex, 0) - served
        craft = navy.members(unit)
        orbiting = navy.orbiting(unit)
        crewed = [*craft, *orbiting]
        row = UnitRow(
            unit.id,
            shown(fleet.power, unit.id),
            unit.hex,
            KINDS.get(unit.kind, unit.kind) if isinstance(unit, Group) else "Static",
            ORDERS.get(unit.order, unit.order) if isinstance(unit, Group) else "—",
            unit.points if isinstance(unit, Group) else navy.npv(craft),
            [_craft_row(fleet, c) for c in craft],
            [_craft_row(fleet, c, orbiting=True) for c in orbiting],
            unit.store["ep"],
            navy.ep_storage(unit),
            need,
            served,
            unit.out_of_supply,
            sum(c.crew for c in crewed),
            sum(navy.design(c).crew for c in crewed),
            unit.store["troops"],
            unit.troop_space,
        )
        (groups if isinstance(unit, Group) else statics).append(row)
    return groups, statics


def _works(fleet: PowerFleet, craft: Craft, build: Build) -> bool:
    """Whether a builder would work on a build this round as things stand (R-10.1a, R-10.7):
    a static always at its hex; a mobile one on Hold-Build, inside, or with its gantry at the
    build's hex."""
    if craft.static is not None:
        return build.inside or fleet.craft_hex(craft) == build.hex
    group = fleet.groups.get(craft.group or "")
    if group is None or group.order != "hold_build":
        return False
    return build.inside or (craft.gantry == build.hex and group.hex == build.hex)


def _work(fleet: PowerFleet) -> list[WorkRow]:
    """Work in progress, oldest first, with the rounds to finish at the builders' ratings
    filled oldest first and in listed order (R-10.7), if the Ore is there."""
    navy = fleet.navy
    builds = sorted(fleet.state.fleet.builds, key=lambda b: (b.started, b.id))
    ratings = {c.id: navy.capacity(c, "construction") for c in fleet.builders()}
    left = {b.id: b.cost - (b.worked if b.kind == "unbuild" else b.paid) for b in builds}
    hands = {
        b.id: [c for c in b.builders if c in navy.craft and _works(fleet, navy.craft[c], b)]
        for b in builds
    }
    finished: dict[str, int] = {}
    for n in range(1, MAX_ROUNDS + 1):
        rating = dict(ratings)
        for b in builds:
            for c in hands[b.id] if b.id not in finished else ():
                take = min(left[b.id], rating.get(c, 0))
                rating[c] = rating.get(c, 0) - take
                left[b.id] -= take
            if b.id not in finished and left[b.id] <= 0:
                finished[b.id] = n
        if len(finished) == len(builds) or not any(hands.values()):
            break
    rows = []
    for b in builds:
        names = [shown(fleet.power, c) for c in b.builders]
        rows.append(
            WorkRow(
                b.id,
                shown(fleet.power, b.id),
                b.kind,
                navy.designs[b.design].name if b.design in navy.designs else b.design,
                f"inside {names[0]}"
                if b.inside or b.kind == "unbuild"
                else f"at {b.hex or names[0]}",
                ", ".join(names),
                b.cost,
                b.worked if b.kind == "unbuild" else b.paid,
                b.surcharge,
                sum(ratings.get(c, 0) for c in hands[b.id]),
                finished.get(b.id),
                b.started,
            )
        )
    return rows


def _builders(fleet: PowerFleet, work: list[WorkRow]) -> list[BuilderRow]:
    navy = fleet.navy
    ordered: dict[str, list[str]] = defaultdict(list)
    for p in sheet_payloads(fleet.power, "build"):
        builders, design = p.get("builders"), navy.designs.get(str(p.get("design")))
        for c in builders if isinstance(builders, list) else ():
            ordered[str(c)].append(f"{shown(fleet.power, str(p.get('id')))} ({design.name})"
                                   if design else shown(fleet.power, str(p.get("id"))))  # fmt: skip
    by_builder: dict[str, list[WorkRow]] = defaultdict(list)
    builds = {b.id: b for b in fleet.state.fleet.builds}
    for row in work:
        for c in builds[row.key].builders:
            by_builder[c].append(row)
    out = []
    for c in fleet.builders():
        carrier = navy.carrier(c)
        static = c.static is not None
        out.append(
            BuilderRow(
                c.id,
                shown(fleet.power, c.id),
                navy.design(c).name,
                f"static {shown(fleet.power, c.static or '')}"
                if static
                else f"group {shown(fleet.power, c.group or '')}",
                carrier.hex if carrier else "",
                navy.capacity(c, "construction"),
                navy.capacity(c, "workshop"),
                "every round (a static never needs orders)"
                if static
                else "while its group is on Hold-Build; building outside its workshop needs a "
                "gantry, set up by one round on Hold-Build at its hex",
                c.gantry,
                by_builder.get(c.id, []),
                ordered.get(c.id, []),
            )
        )
    return out


def _design_rows(fleet: PowerFleet) -> list[DesignRow]:
    navy = fleet.navy
    counts: dict[str, int] = defaultdict(int)
    for c in fleet.state.fleet.craft:
        counts[c.design] += 1
    rows = []
    for d in sorted(fleet.state.fleet.designs, key=lambda d: d.name.lower()):
        cost, extra = build_cost(d, navy.fleet.catalogue, not d.completed)
        rows.append(
            DesignRow(
                d.id,
                shown(fleet.power, d.id),
                d.name,
                d.cls,
                d.mobility,
                d.mass,
                d.npv,
                d.crew,
                [SystemRow(s.name, s.points, s.count, _words(s.capacity)) for s in d.systems],
                sum(s.points * s.count for s in d.systems),
                _words(d.loadout),
                d.completed,
                cost,
                extra,
                counts[d.id],
            )
        )
    return rows


def fleet_page(*, power: Power) -> FleetPage:
    """Everything on a power's Fleet page (``power`` from the access gate): 12 queries."""
    fleet = PowerFleet.of(power)
    groups, statics = _units(fleet)
    work = _work(fleet)
    return FleetPage(
        power=power,
        designs=_design_rows(fleet),
        groups=groups,
        statics=statics,
        builders=_builders(fleet, work),
        work=work,
        catalogue=[(c.kind, c.mass, c.ore) for c in fleet.state.fleet.catalogue.values()],
        design_tp=fleet.state.fleet.design_tp,
    )


# --- choices for the fleet order forms ----------------------------------------------------


def sheet_payloads(power: Power, *types: str) -> list[dict[str, Any]]:
    """The power's orders of ``types`` on its sheet for the open round (one query)."""
    return [
        p
        for p in Order.objects.filter(
            sheet__power=power, sheet__round__status=RoundStatus.OPEN, payload__type__in=types
        )
        .order_by("position")
        .values_list("payload", flat=True)
        if isinstance(p, dict)
    ]


def fleet_choices(power: Power) -> dict[str, list[tuple[str, str]]]:
    """Keys and labels the fleet order forms may offer (the order kinds' sources): the
    power's own designs, builders, work, craft and kinds, and what its sheet creates this
    round (R-10.1a)."""
    fleet = PowerFleet.of(power)
    navy = fleet.navy
    made = sheet_payloads(power, "register_design", "build", "form_group")

    def craft_label(c: Craft) -> str:
        return f"{shown(power, c.id)} ({navy.design(c).name}) at {fleet.craft_hex(c)}"

    craft = sorted(fleet.state.fleet.craft, key=lambda c: c.id)
    designs = [(d.id, d.name) for d in sorted(navy.fleet.designs, key=lambda d: d.name.lower())]
    designs += [
        (p["id"], f"{p.get('name') or shown(power, p['id'])} (registered this round)")
        for p in made
        if p.get("type") == "register_design" and isinstance(p.get("id"), str)
    ]
    finishing = [
        (b.id, f"{shown(power, b.id)} ({navy.designs[b.design].name}, when it is finished)")
        for b in sorted(navy.fleet.builds, key=lambda b: b.id)
        if b.kind == "build"
    ] + [
        (p["id"], f"{shown(power, p['id'])} (when it is built)")
        for p in made
        if p.get("type") == "build" and isinstance(p.get("id"), str)
    ]
    new_groups = [
        (p["id"], f"Group {shown(power, p['id'])} (formed this round)")
        for p in made
        if p.get("type") == "form_group" and isinstance(p.get("id"), str)
    ]
    groups = [(g.id, f"Group {shown(power, g.id)} at {g.hex}") for g in fleet.groups.values()]
    statics = [(s.id, f"Static {shown(power, s.id)} at {s.hex}") for s in fleet.statics.values()]
    return {
        "designs": designs,
        "builders": [(c.id, craft_label(c)) for c in fleet.builders()],
        "repairers": [
            (c.id, craft_label(c))
            for c in craft
            if c.orbit is None and (navy.capacity(c, "repair") or navy.capacity(c, "construction"))
        ],
        "work": [
            (
                b.id,
                f"{b.kind} {shown(power, b.id)} ({navy.designs[b.design].name}), "
                + (f"{b.paid} of {b.cost} Ore paid" if b.kind == "build" else f"{b.worked} done"),
            )
            for b in sorted(navy.fleet.builds, key=lambda b: b.id)
        ],
        "own_craft": [(c.id, craft_label(c)) for c in craft],
        "craft": [(c.id, craft_label(c)) for c in craft] + finishing,
        "orbiting": [(c.id, craft_label(c)) for c in craft if c.orbit is not None] + finishing,
        "kinds": [
            (k, f"{k} ({c.ore} Ore, mass {c.mass})") for k, c in navy.fleet.catalogue.items()
        ],
        "crewed": groups + new_groups,
        "supplied": groups + statics + new_groups,
    }


# --- what a fleet order costs, and where it is paid from ----------------------------------


def _place_words(power: Power, hexes: set[str], resource: str) -> dict[str, str]:
    """Where the power's goods at each hex come from (R-1.4): the pool of its hub with a member
    there, else its held system's stockpile there (two queries)."""
    label = {"ore": "Ore", "bio": "Bio", "pl": "PL"}[resource]
    at = Q(pk__in=[])
    for hx in hexes:
        at |= Q(col=int(hx[:2]), row=int(hx[2:]))
    out: dict[str, str] = {}
    for col, row, key, name, amount in HubNode.objects.filter(at, hub__power=power).values_list(
        "col", "row", "hub__key", "hub__name", f"hub__pool_{resource}"
    ):
        shown_name = hub_name(key, name, [power.key])
        out[f"{col:02d}{row:02d}"] = f"the pool of hub {shown_name} ({amount} {label} now)"
    systems = Q(pk__in=[])
    for hx in hexes - set(out):
        systems |= Q(hex__col=int(hx[:2]), hex__row=int(hx[2:]))
    for col, row, name, amount in StarSystem.objects.filter(systems, holder=power).values_list(
        "hex__col", "hex__row", "name", f"stock_{resource}"
    ):
        out[f"{col:02d}{row:02d}"] = f"the stockpile of {name} ({amount} {label} now)"
    for hx in hexes - set(out):
        out[hx] = f"nothing: no hub or system of yours at {hx} (the order would be refused)"
    return out


def _carrier(fleet: PowerFleet, key: Any) -> Group | Static | None:
    if not isinstance(key, str):
        return None
    return fleet.groups.get(key) or fleet.statics.get(key)


def order_cost(*, power: Power, payload: dict[str, Any]) -> list[str]:
    """What a fleet order would cost and where it is paid from, as the player fills the form
    (nothing for other orders, or while the fields needed are missing). The resolution decides;
    this reads the state as it is now."""
    kind = payload.get("type")
    if kind == "register_design":
        tp = power.campaign.design_tp
        if not tp:
            return ["Registering a design is free in this campaign."]
        return [f"{tp} TP from your bank (you have {power.tp} TP)."]
    if kind == "form_group":
        return ["Forming a group is free."]
    if kind not in ("build", "adjust_build", "unbuild", "make", "crew", "supply_ep", *WORK):
        return []
    fleet = PowerFleet.of(power)
    navy = fleet.navy
    if kind in WORK:
        return _work_cost(fleet, payload)
    if kind == "build":
        return _build_cost(fleet, payload)
    if kind == "adjust_build":
        build = navy.builds.get(str(payload.get("build")))
        if build is None:
            return []
        if payload.get("cancel") is True:
            return [f"Cancelling loses the {build.paid} Ore paid so far."]
        ore = payload.get("ore")
        hx = build.hex or (fleet.craft_hex(navy.craft[build.builders[0]]) or "")
        if isinstance(ore, int) and hx:
            return [f"{ore} Ore this round from {_place_words(power, {hx}, 'ore')[hx]}."]
        return []
    if kind == "unbuild":
        craft = navy.craft.get(str(payload.get("craft")))
        builder = navy.craft.get(str(payload.get("builder")))
        if craft is None:
            return []
        design = navy.design(craft)
        lines = [
            f"Reclaims {reclaim(design, craft)} Ore: NPV {design.npv}"
            + (
                ", half of it for a captured craft"
                if craft.captured
                else f" less {fatigue_cost(design.npv, craft.fatigue)} for {craft.fatigue}% fatigue"
            )
            + f", and {craft.crew * pl_per_cf(design)} PL of its crew, at its hex."
        ]
        if builder is not None:
            rating = navy.capacity(builder, "construction")
            rounds = ceil_div(design.npv, rating) if rating else None
            lines.append(
                f"At {shown(power, builder.id)}'s rating of {rating} Ore a round: "
                + (f"about {rounds} rounds." if rounds else "it has no construction rating.")
            )
        return lines
    if kind == "make":
        builder = navy.craft.get(str(payload.get("builder")))
        item = navy.fleet.catalogue.get(str(payload.get("kind")))
        count = payload.get("count")
        if builder is None or item is None or not isinstance(count, int) or count <= 0:
            return []
        hx = fleet.craft_hex(builder) or ""
        return [
            f"{count} × {item.ore} = {count * item.ore} Ore from "
            f"{_place_words(power, {hx}, 'ore')[hx]}; {count * item.mass} of workshop space."
        ]
    if kind == "crew":
        return _crew_cost(fleet, payload)
    # supply_ep
    ep = payload.get("ep")
    carrier = _carrier(fleet, payload.get("into"))
    if carrier is not None:
        hx, storage = carrier.hex, navy.ep_storage(carrier)
        room = None if storage is None else storage - carrier.store["ep"]
    else:  # a group formed this round (R-10.1a): its craft's EP storage, empty
        aboard = _aboard(fleet, payload.get("into"))
        hx = aboard[0][2] if aboard else ""
        room = sum(capacity(d, "ep_storage") for d, _, _ in aboard)
    if not hx or not isinstance(ep, int) or ep <= 0:
        return []
    more = "" if room is None else f"; it can take {max(0, room)} more"
    place = _place_words(power, {hx}, "bio")[hx]
    return [f"{ep} EP = {ep} Bio from {place}{more}."]


def _work_cost(fleet: PowerFleet, payload: dict[str, Any]) -> list[str]:
    """R-10.2, Support 1.5: a repair's, rebuild's or refit's Ore, the fatigue it adds or
    removes, and the rounds at the worker's rating, before it is ordered."""
    navy, power, kind = fleet.navy, fleet.power, payload["type"]
    craft = navy.craft.get(str(payload.get("craft")))
    worker = navy.craft.get(str(payload.get(WORK[kind][0])))
    if craft is None:
        return []
    design = navy.design(craft)
    points = destroyed_points(design, craft)
    if kind == "refit":
        variant = navy.designs.get(str(payload.get("design")))
        if variant is None:
            return []
        cost = refit_cost(design, variant)
        lines = [f"Costs {cost} Ore: the systems {variant.name} adds, at their point cost."]
    else:
        removed = craft.fatigue if kind == "rebuild" and payload.get("remove_fatigue") else 0
        cost = points + fatigue_cost(design.npv, removed)
        lines = [
            f"Costs {cost} Ore: {points} for destroyed systems at their point cost"
            + (f", {cost - points} to remove {removed}% fatigue" if removed else "")
            + "; disabled systems are fixed free."
        ]
        if kind == "repair" and points:
            added = repair_fatigue(points, design.npv)
            lines.append(f"Adds {added}% fatigue when it completes (now {craft.fatigue}%).")
        elif kind == "rebuild":
            lines.append(f"Adds no fatigue (now {craft.fatigue}%).")
    if worker is not None and cost:
        rating = navy.capacity(worker, "repair" if kind == "repair" else "construction")
        rating = rating or navy.capacity(worker, "construction")
        hx = fleet.craft_hex(worker) or ""
        lines.append(
            f"At {shown(power, worker.id)}'s rating of {rating} Ore a round: "
            + (f"about {ceil_div(cost, rating)} rounds" if rating else "it cannot work on it")
            + (f"; paid from {_place_words(power, {hx}, 'ore')[hx]}." if hx and rating else ".")
        )
    return lines


def _build_cost(fleet: PowerFleet, payload: dict[str, Any]) -> list[str]:
    navy = fleet.navy
    design: Design | None = navy.designs.get(str(payload.get("design")))
    ids = payload.get("builders")
    builders = [navy.craft[c] for c in ids if c in navy.craft] if isinstance(ids, list) else []
    if design is None:
        design = _registered(fleet, payload.get("design"))
    if design is None:
        return []
    cost, extra = build_cost(design, navy.fleet.catalogue, not design.completed)
    parts = [f"NPV {design.npv}"]
    if extra:
        parts.append(f"+{extra} while no craft of it is finished")
    if cost - design.npv - extra:
        parts.append(f"+{cost - design.npv - extra} for its consumables")
    lines = [f"Costs {cost} Ore ({', '.join(parts)})."]
    if builders:
        rating = sum(navy.capacity(c, "construction") for c in builders)
        hx = fleet.craft_hex(builders[0]) or ""
        rounds = ceil_div(cost, rating) if rating else None
        lines.append(
            f"Its builders convert {rating} Ore a round"
            + (f": about {rounds} rounds" if rounds else "")
            + f"; paid from {_place_words(fleet.power, {hx}, 'ore')[hx]}."
        )
        if len(builders) == 1 and design.mass <= capacity(navy.design(builders[0]), "workshop"):
            lines.append("It fits the builder's workshop space if that is free: built inside.")
        else:
            lines.append(f"Built outside, at {hx}.")
    return lines


def _registered(fleet: PowerFleet, key: Any) -> Design | None:
    """R-10.1a: a design the power's sheet registers this round, as the engine will read it."""
    for p in sheet_payloads(fleet.power, "register_design"):
        if p.get("id") == key:
            try:
                return parse_design(p, fleet.power.key, fleet.navy.fleet.catalogue)
            except CaseError:
                return None
    return None


Aboard = tuple[Design, int, str]  # a craft's design, crew aboard and hex


def _aboard(fleet: PowerFleet, key: Any) -> list[Aboard]:
    """The craft behind a key an order names (R-10.1a): a group's or a static's, one craft, a
    craft work in progress will finish, or those of a group the sheet forms this round."""
    navy = fleet.navy
    key = str(key)
    carrier = _carrier(fleet, key)
    if carrier is not None:
        return [(navy.design(c), c.crew, carrier.hex) for c in navy.members(carrier)]
    if key in navy.craft:
        c = navy.craft[key]
        return [(navy.design(c), c.crew, fleet.craft_hex(c) or "")]
    build = navy.builds.get(key)
    if build is not None and build.kind == "build" and build.builders[0] in navy.craft:
        return [
            (navy.designs[build.design], 0, fleet.craft_hex(navy.craft[build.builders[0]]) or "")
        ]
    for p in sheet_payloads(fleet.power, "form_group"):
        if p.get("id") == key and isinstance(p.get("craft"), list):
            return [a for c in p["craft"] if isinstance(c, str) for a in _aboard(fleet, c)]
    return []


def _crew_cost(fleet: PowerFleet, payload: dict[str, Any]) -> list[str]:
    craft = _aboard(fleet, payload.get("group") or payload.get("craft"))
    if not craft:
        return []
    hx = craft[0][2]
    short = [(d, d.crew - crew) for d, crew, _ in craft if d.crew > crew]
    need = sum(n for _, n in short)
    pl = sum(n * pl_per_cf(d) for d, n in short)
    cf = payload.get("cf")
    if isinstance(cf, int) and cf > 0 and short:
        pl, need = cf * pl_per_cf(short[0][0]), cf
    place = _place_words(fleet.power, {hx}, "pl")[hx]
    if not need:
        return ["Every craft has its crew: nothing to pay."]
    return [f"{need} CF for {pl} PL (5 per military CF, 2 per civilian) from {place}."]
