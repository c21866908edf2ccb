"""Reads of one power's fleet (issues 14, 15): the fleet as the engine sees it, its Fleet page
(designs, groups and statics with their craft, builders with their work in progress), the
choices its fleet order forms offer, and the battle records, loans and transfers it is a party
to. Only the power's own objects are read (nothing of another power's fleet is ever loaded
here), in a fixed number of queries whatever the size of the campaign; the figures come from
the engine's own rules (``economy.engine.designs``, ``economy.engine.navy``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import Q, QuerySet

from economy.engine.designs import (
    build_cost,
    ep_need,
)
from economy.engine.navy import Navy
from economy.engine.state import Build, Craft, Group, State, Static
from economy.engine.validate import hex_problem
from economy.events import ORDERS, own
from economy.models import Order, RoundStatus
from economy.snapshot import load_power_fleet
from ftcamp.errors import Refused
from powers.models import (
    BattleCraft,
    BattleParty,
    BattleRecord,
    DesignSystem,
    FleetGroup,
    GroupKind,
    Loan,
    Power,
    StarSystem,
    Transfer,
)
from powers.models import Craft as CraftModel
from powers.models import Static as StaticModel

APPLIED_OR_DUE = (BattleRecord.Status.CONFIRMED, BattleRecord.Status.APPLIED)
MAX_ROUNDS = 99  # "rounds to finish" beyond this reads as "many"
KINDS = dict(GroupKind.choices)


def shown(power: Power | str, key: str) -> str:
    """A key as its power (or power key) typed it: ``<power>-frigate`` reads ``frigate``
    (economy.entry), and a set-up's ``nac-1`` reads ``1`` (issue 17: no raw keys on pages)."""
    return own(key, [power if isinstance(power, str) else power.key])


def unit_label(what: str, power: Power | str, key: str, hex_: str) -> str:
    """A group or static as the forms offer it: "Group 1 at 0505"."""
    return f"{what} {shown(power, key)} at {hex_}"


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
    groups = [(g.id, unit_label("Group", power, g.id, g.hex)) for g in fleet.groups.values()]
    statics = [(s.id, unit_label("Static", power, s.id, s.hex)) for s in fleet.statics.values()]
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


# --- battle records and pacts, as a power in them sees them (R-10.5, R-10.6) ---------------


@dataclass(frozen=True)
class RecordView:
    """A record as a power in it sees it: every power's answer and every craft line."""

    key: str
    hex: str
    status: str
    entered_by: str
    round: int
    mine: bool  # entered by the viewing power
    my_answer: str
    parties: list[dict[str, str]]
    craft: list[dict[str, Any]]

    @property
    def status_words(self) -> str:
        """Its status as a player reads it ("Awaiting confirmation", "Withdrawn", ...)."""
        return BattleRecord.Status(self.status).label


def records_of(power: Power) -> list[RecordView]:
    """The records ``power`` is in, newest first (3 queries): to confirm, awaiting others,
    confirmed or applied."""
    records = list(
        BattleRecord.objects.filter(campaign_id=power.campaign_id, parties__power=power)
        .select_related("entered_by")
        .order_by("-created_round", "-created_at", "key")
    )
    ids = [r.pk for r in records]
    parties: dict[int, list[BattleParty]] = {pk: [] for pk in ids}
    for p in BattleParty.objects.filter(record_id__in=ids).select_related("power"):
        parties[p.record_id].append(p)
    craft: dict[int, list[BattleCraft]] = {pk: [] for pk in ids}
    for c in BattleCraft.objects.filter(record_id__in=ids).select_related("power", "captured_by"):
        craft[c.record_id].append(c)
    return [
        RecordView(
            r.key,
            r.hex,
            r.status,
            r.entered_by.key,
            r.created_round,
            r.entered_by_id == power.pk,
            next(p.answer for p in parties[r.pk] if p.power_id == power.pk),
            [
                {"power": p.power.key, "answer": p.answer, "reason": p.reason}
                for p in sorted(parties[r.pk], key=lambda p: p.position)
            ],
            [
                {
                    "craft": c.craft_key,
                    "power": c.power.key,  # its owner when the battle was fought
                    "destroyed": c.destroyed,
                    "systems_destroyed": c.systems_destroyed,
                    "systems_disabled": c.systems_disabled,
                    "cf_lost": c.cf_lost,
                    "captured_by": c.captured_by.key if c.captured_by else None,
                    "into": c.into or None,
                }
                for c in sorted(craft[r.pk], key=lambda c: c.position)
            ],
        )
        for r in records
    ]


def record_systems(power: Power, records: list[RecordView]) -> dict[str, dict[str, str]]:
    """The names of the systems of the craft the records list, by craft and system id (one
    query; a craft since destroyed is not named)."""
    keys = {c["craft"] for r in records for c in r.craft}
    out: dict[str, dict[str, str]] = defaultdict(dict)
    if keys:
        for craft, key, name in DesignSystem.objects.filter(
            design__campaign_id=power.campaign_id, design__craft__key__in=keys
        ).values_list("design__craft__key", "key", "name"):
            out[craft][key] = name
    return dict(out)


def battle_hexes(campaign_id: int) -> list[str]:
    """Where battles have been fought (confirmed or applied records): the public sees a marker
    at each hex, never a record's contents (R-10.6)."""
    return sorted(
        {
            f"{col:02d}{row:02d}"
            for col, row in BattleRecord.objects.filter(
                campaign_id=campaign_id,
                status__in=[BattleRecord.Status.CONFIRMED, BattleRecord.Status.APPLIED],
            ).values_list("col", "row")
        }
    )


# --- a battle's roster: what the structured record form offers (R-10.6, issue 29) ----------


@dataclass(frozen=True)
class BattleSite:
    """A hex where the power's own craft are as the round began: the form's hex choices."""

    hex: str
    label: str  # the hex, its star system, the power's groups and statics there


def battle_sites(power: Power) -> list[BattleSite]:
    """The hexes of the power's own groups and statics (its craft, those in orbit with its
    builders among them), with what is there by name (3 queries)."""
    units: dict[str, list[str]] = defaultdict(list)
    for model, word in ((FleetGroup, "Group"), (StaticModel, "Static")):
        for key, col, row in (
            model.objects.filter(power=power).order_by("key").values_list("key", "col", "row")
        ):
            units[f"{col:02d}{row:02d}"].append(f"{word} {shown(power, key)}")
    at = Q(pk__in=[])
    for hx in units:
        at |= Q(hex__col=int(hx[:2]), hex__row=int(hx[2:]))
    systems: dict[str, str] = {}
    if units:
        found = StarSystem.objects.filter(at, campaign_id=power.campaign_id)
        for name, col, row in found.values_list("name", "hex__col", "hex__row"):
            systems[f"{col:02d}{row:02d}"] = name
    return [
        BattleSite(hx, " · ".join([hx, *([systems[hx]] if hx in systems else []), ", ".join(u)]))
        for hx, u in sorted(units.items())
    ]


@dataclass(frozen=True)
class RosterSystem:
    """One system of a craft's design: ``count`` units (R-10.0), the most destroyed or
    disabled."""

    key: str
    name: str
    count: int


@dataclass(frozen=True)
class RosterCraft:
    """A craft at the battle's hex, by name. Its damage as the round began is given for the
    viewer's own craft only (``None`` for another power's: its player confirms the record)."""

    key: str
    name: str
    design: str
    power: str
    power_name: str
    static: bool  # a static design: captured into a static; a mobile one into a group
    where: str  # its group or static, or the builder it is in orbit with, by name
    cf: int  # CF aboard: the most it can lose
    systems: list[RosterSystem]
    destroyed: dict[str, int] | None
    disabled: dict[str, int] | None


@dataclass(frozen=True)
class RosterCarrier:
    """A group or static a captured craft may go into: one of the captor's at the hex, or a
    new one (its key made here, readable and new: captor, hex and round)."""

    key: str
    name: str
    static: bool
    new: bool = False


@dataclass(frozen=True)
class RosterPower:
    key: str
    name: str
    carriers: list[RosterCarrier]


@dataclass(frozen=True)
class Roster:
    """The craft of the named powers at one hex as the open round began, and where each power
    could put a craft it captured there."""

    hex: str
    powers: list[RosterPower]  # the viewer's first, then the others as named
    craft: list[RosterCraft]  # by power in that order, then by where they are and name


MAX_POWERS = 20  # powers named in one battle


def new_carrier_keys(captor: str, hex_: str, round_number: int) -> tuple[str, str]:
    """The keys of a new group and a new static a captor's prizes go into, as the captor
    would have typed them (``<power>-`` in front, economy.entry): readable, and new, as no
    carrier is made in a round before its resolution."""
    return (
        f"{captor}-prizes-{hex_}-r{round_number}",
        f"{captor}-prize-base-{hex_}-r{round_number}",
    )


def _named_powers(power: Power, power_keys: Any) -> dict[str, tuple[int, str]]:
    if (
        not isinstance(power_keys, list)
        or len(power_keys) > MAX_POWERS
        or not all(isinstance(k, str) and 0 < len(k) <= 64 for k in power_keys)
    ):
        raise Refused(f"powers: expected a list of up to {MAX_POWERS} power ids")
    keys: list[str] = power_keys
    rows = {
        k: (pk, name)
        for pk, k, name in Power.objects.filter(
            campaign_id=power.campaign_id, key__in=keys
        ).values_list("pk", "key", "name")
    }
    missing = sorted({k for k in keys if k not in rows})
    if missing:
        raise Refused(f"powers: no such power: {', '.join(missing[:5])}")
    if power.key not in rows:
        raise Refused("powers: your own power is one of the powers in the battle")
    mine = {power.key: rows[power.key]}
    return mine | {k: rows[k] for k in keys if k != power.key}


class _Unit(NamedTuple):
    pk: int
    key: str
    static: bool
    power: str
    name: str


def battle_roster(power: Power, hex_: Any, power_keys: Any) -> Roster:
    """R-10.6: the craft of the named powers at ``hex_`` as the open round began, for
    ``power``'s record of a battle there (issue 29), in at most 7 queries whatever the size of
    the campaign. ``Refused`` naming the field: a hex off the map, an unknown power, a list
    without ``power`` (only a power in the battle asks), a hex where ``power`` has neither a
    group, a static nor a system (the roster is of battles it fought, never a look at another
    hex). A player may name any power of the campaign (docs/decisions.md): the roster shows
    those powers' craft at that hex, and nothing of them elsewhere."""
    campaign = power.campaign
    problem = hex_problem(hex_, campaign.map_bounds())
    if problem:
        raise Refused(f"hex: {problem}")
    hx = str(hex_)
    col, row = int(hx[:2]), int(hx[2:])
    named = _named_powers(power, power_keys)
    key_of = {pk: k for k, (pk, _) in named.items()}
    here = {"campaign_id": campaign.pk, "power_id__in": list(key_of), "col": col, "row": row}
    units: dict[tuple[bool, int], _Unit] = {}
    for model, static, word in ((FleetGroup, False, "Group"), (StaticModel, True, "Static")):
        for pk, key, owner in (
            model.objects.filter(**here).order_by("key").values_list("pk", "key", "power_id")
        ):
            p = key_of[owner]
            units[static, pk] = _Unit(pk, key, static, p, f"{word} {shown(p, key)}")
    if not any(u.power == power.key for u in units.values()) and not (
        StarSystem.objects.filter(
            campaign_id=campaign.pk, holder=power, hex__col=col, hex__row=row
        ).exists()
    ):
        raise Refused(
            f"hex: you have no group, static or system at {hx}: the roster lists the craft "
            "of a battle where you were"
        )
    groups = [u.pk for u in units.values() if not u.static]
    statics = [u.pk for u in units.values() if u.static]
    craft: list[tuple[Any, ...]] = []
    if units:
        craft = list(
            CraftModel.objects.filter(campaign_id=campaign.pk, power_id__in=list(key_of))
            .filter(
                Q(group_id__in=groups)
                | Q(static_id__in=statics)
                | Q(orbit__group_id__in=groups)
                | Q(orbit__static_id__in=statics)
            )
            .values_list(
                "key", "power_id", "design_id", "design__name", "design__mobility", "crew",
                "destroyed", "disabled", "group_id", "static_id", "orbit__key",
                "orbit__group_id", "orbit__static_id",
            )
        )  # fmt: skip
    systems: dict[int, list[RosterSystem]] = defaultdict(list)
    for design, key, name, count in (
        DesignSystem.objects.filter(design_id__in={c[2] for c in craft})
        .order_by("design_id", "position", "key")
        .values_list("design_id", "key", "name", "count")
    ):
        systems[design].append(RosterSystem(key, name, count))
    rows = []
    for key, owner, design, design_name, mobility, crew, lost, off, *place in craft:
        group, static, orbit, orbit_group, orbit_static = place
        p = key_of[owner]
        if orbit:
            unit = units[(False, orbit_group) if orbit_group else (True, orbit_static)]
            where = f"{unit.name}, in orbit with {shown(p, orbit)}"
        else:
            where = units[(False, group) if group else (True, static)].name
        mine = owner == power.pk
        rows.append(
            RosterCraft(
                key, shown(p, key), design_name, p, named[p][1], mobility == "static", where,
                crew, systems[design], dict(lost) if mine else None, dict(off) if mine else None,
            )
        )  # fmt: skip
    order = {k: i for i, k in enumerate(named)}
    rows.sort(key=lambda c: (order[c.power], c.where, c.name))
    powers = []
    for p, (_, name) in named.items():
        new_group, new_static = new_carrier_keys(p, hx, campaign.current_round)
        carriers = [RosterCarrier(u.key, u.name, u.static) for u in units.values() if u.power == p]
        carriers += [
            RosterCarrier(new_group, "a new group", False, new=True),
            RosterCarrier(new_static, "a new static", True, new=True),
        ]
        powers.append(RosterPower(p, name, carriers))
    return Roster(hx, powers, rows)


# --- the page's craft lines ---------------------------------------------------------------


@dataclass(frozen=True)
class PactView:
    """A loan or transfer as one of its parties sees it, in names (its key for the forms)."""

    key: str
    kind: str  # "loan" or "transfer"
    status: str
    owner: str  # the powers' names
    other: str  # the borrower or receiver
    carriers: list[str]  # "Group 1", "Static shipyard"
    last: int | None  # a loan's last round
    active: bool
    crew_to: str | None
    mine: bool  # the viewer is the owner
    extends_to: tuple[int | None, int | None] = (None, None)  # a loan: (owner's, borrower's)


def pacts_of(power: Power) -> list[PactView]:
    """The loans and transfers ``power`` is a party to (2 queries, 3 with a transfer), newest
    first, in names: the powers by name, the groups and statics as their owner typed them."""
    out: list[PactView] = []
    for x in (
        Loan.objects.filter(Q(owner=power) | Q(borrower=power))
        .select_related("owner", "borrower")
        .order_by("-created_at")
    ):
        groups = [f"Group {shown(x.owner.key, k)}" for k in x.groups]
        out.append(
            PactView(
                x.key, "loan", x.status, x.owner.name, x.borrower.name, groups, x.last,
                x.active, None, x.owner_id == power.pk,
                (x.owner_extends_to, x.borrower_extends_to),
            )
        )  # fmt: skip
    transfers = list(
        Transfer.objects.filter(Q(owner=power) | Q(receiver=power))
        .select_related("owner", "receiver")
        .order_by("-created_at")
    )
    # which carriers are statics, and the systems crews return to, for the labels
    keys = {k for t in transfers for k in t.carriers} | {t.crew_to for t in transfers}
    statics = set(
        StaticModel.objects.filter(campaign_id=power.campaign_id, key__in=keys).values_list(
            "key", flat=True
        )
        if transfers
        else ()
    )
    systems = _system_names(power, {t.crew_to for t in transfers if t.crew_to})
    for t in transfers:
        carriers = [
            f"{'Static' if k in statics else 'Group'} {shown(t.owner.key, k)}" for k in t.carriers
        ]
        crew_to = systems.get(t.crew_to, t.crew_to) if t.owner_id == power.pk else None
        out.append(
            PactView(
                t.key, "transfer", t.status, t.owner.name, t.receiver.name, carriers, None,
                False, crew_to or None, t.owner_id == power.pk,
            )
        )  # fmt: skip
    return out


def _system_names(power: Power, keys: set[str]) -> dict[str, str]:
    """Systems of the campaign by name and hex (a query only when asked)."""
    if not keys:
        return {}
    return _named(StarSystem.objects.filter(campaign_id=power.campaign_id, key__in=keys))


def _named(systems: QuerySet[StarSystem]) -> dict[str, str]:
    """Systems by name and hex, as every page names them: "Avalon (0203)"."""
    rows = systems.values_list("key", "name", "hex__col", "hex__row")
    return {key: f"{name} ({col:02d}{row:02d})" for key, name, col, row in rows}


#: The session key a refused loan or transfer offer keeps its choices under, for the Fleet
#: page's form to show them once (the offer is a plain form that returns to that page).
PACT_KEPT = "fleet-pact-offer"


@dataclass(frozen=True)
class PactForm:
    """The loan and transfer offer form (issue 30: no key typed): what it offers by name, and
    what was chosen when an offer was refused."""

    powers: list[tuple[str, str]]  # the other powers, by name
    groups: list[tuple[str, str]]  # the power's own groups ...
    statics: list[tuple[str, str]]  # ... and statics (a transfer only)
    systems: list[tuple[str, str]]  # held systems a transfer's crew may return to
    chosen: dict[str, Any]  # kind, other, carriers (a list), last, crew_to


def pact_form(power: Power, page: FleetPage, kept: Any = None) -> PactForm:
    """The offer form of ``power``'s Fleet page (2 queries), with ``kept`` (the choices of a
    refused offer) chosen again."""
    chosen: dict[str, Any] = {"kind": "loan", "other": "", "carriers": [], "last": ""}
    chosen["crew_to"] = ""
    if isinstance(kept, dict):
        chosen |= {k: v for k, v in kept.items() if k in chosen}
    others = Power.objects.filter(campaign_id=power.campaign_id).exclude(pk=power.pk)
    held = StarSystem.objects.filter(campaign_id=power.campaign_id, holder=power)
    return PactForm(
        powers=list(others.order_by("name").values_list("key", "name")),
        groups=[(g.key, unit_label("Group", power, g.key, g.hex)) for g in page.groups],
        statics=[(s.key, unit_label("Static", power, s.key, s.hex)) for s in page.statics],
        systems=sorted(_named(held).items(), key=lambda item: item[1]),
        chosen=chosen,
    )
