"""Who owns what at the start of the round, for the entry rules (contracts §1 order table):
the catalogue the order kinds' rules read (``orders.kinds``), built from a whole state here or
from only the ids an order names by the shell (``economy.catalogue``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .rules import map_bounds
from .state import Fleet, State


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
    holdings: Holdings = field(default_factory=lambda: Holdings())  # issue 30: warnings only

    @classmethod
    def of(cls, state: State, promised: Mapping[str, tuple[str, str]] | None = None) -> Catalog:
        """``promised``: what this round's sheets create, id -> (what, power) (R-10.1a;
        ``validate.catalog_of`` reads them from the sheets)."""
        cat = cls(
            {p.id for p in state.powers},
            {g.id: g.power for g in state.groups},
            {s.id: s.power for s in state.statics},
            {h.id: h.power for h in state.hubs},
            {s.id: s.holder for s in state.systems},
            state_ids(state),
            map_bounds(state.map_size, state.hexes),
            FleetCatalog.of(state, promised or {}),
            command_owners(state),
        )
        after_pacts(cat, state.fleet)
        return cat


BANK = "bank"  # the place of Gal and TP
GOODS = ("ore", "bio", "pl")  # what lies at a place rather than in the bank


@dataclass(slots=True)
class Holdings:
    """What one power holds now where its orders draw (issue 30), only its own: ``stock``,
    (place, resource) -> amount, the place ``bank`` or the id of one of its hubs, systems,
    groups or statics; ``reach``, (group or static, resource) -> the most that may reach its
    hex (R-1.4: the hub pool covering it, else the held system there); ``where``, each id's
    ledger place (``hub:<id>``), which the shell reads as a name."""

    stock: dict[tuple[str, str], int] = field(default_factory=dict)
    reach: dict[tuple[str, str], int] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)

    def add(self, kind: str, key: str, amounts: Mapping[str, int]) -> None:
        """One place of the power's and what it holds."""
        self.where[key] = f"{kind}:{key}"
        self.stock.update(((key, res), n) for res, n in amounts.items())

    def add_reach(self, carrier: str, near: Iterable[Mapping[str, int]]) -> None:
        """What may reach a carrier's hex: the most of each good of the places ``near`` it (the
        hubs covering the hex and the held system there), an upper bound of R-1.4's one place,
        so that a warning beyond it is never wrong about what the power holds now."""
        near = list(near)
        for res in GOODS:
            self.reach[(carrier, res)] = max((p.get(res, 0) for p in near), default=0)

    @classmethod
    def of(cls, state: State, power: str) -> Holdings:
        """A power's holdings in a whole state (as the shell reads them for one order)."""
        out = cls()
        for p in state.powers:
            if p.id == power:
                out.stock.update(((BANK, res), n) for res, n in p.store.items())
        for s in state.systems:
            if s.holder == power:  # a system's stockpile is its holder's
                out.add("system", s.id, s.store)
        for h in state.hubs:
            if h.power == power:
                out.add("hub", h.id, h.store)
        for kind, carriers in (("group", state.groups), ("static", state.statics)):
            for c in carriers:
                if c.power == power:
                    out.add(kind, c.id, c.store)
                    out.add_reach(c.id, near(state, power, c.hex))
        return out


def near(state: State, power: str, hx: str) -> list[Mapping[str, int]]:
    """The stores of the power's hubs with a node at ``hx`` and of its system there."""
    hubs = [h.store for h in state.hubs if h.power == power and hx in (h.centre, *h.nodes)]
    held = [s.store for s in state.systems if s.holder == power and s.hex == hx]
    return [*hubs, *held]


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
    given: dict[str, str] = field(
        default_factory=dict
    )  # a transfer's carriers and craft -> receiver

    @classmethod
    def of(cls, state: State, promised: Mapping[str, tuple[str, str]]) -> FleetCatalog:
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
        for new, made in promised.items():  # work in progress first
            out.promised.setdefault(new, made)
        return out


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
    aboard: dict[str, list[str]] = {}  # carrier -> its craft, and those in orbit with them
    for c in fleet.craft:
        if c.group is not None or c.static is not None:
            aboard.setdefault(c.group or c.static or "", []).append(c.id)
    for transfer in fleet.transfers:  # R-10.5a, R-7.5: the receiver crews what it is given
        for cid in transfer.carriers:
            for given in (cid, *(x for c in aboard.get(cid, ()) for x in (c, *orbit.get(c, ())))):
                cat.fleet.given[given] = transfer.receiver
    lent = cat.fleet.lent
    lent.update((gid, loan.owner) for loan in fleet.loans if loan.active for gid in loan.groups)
    lent.update((c.id, lent[c.group]) for c in fleet.craft if c.group in lent)
