"""Campaign state and orders as plain dataclasses (contracts §1, ``ftcamp-case/1``).

Every stockpile lives in a ``store`` dict (resource -> int) on the object that holds it, and each
holder knows its ledger ``where`` (R-0.4), so one ledger helper can change any of them.
``resolve`` works on a ``copy()`` and never mutates the state it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeVar

from .command_state import Command
from .pacts import Battle, Loan, Transfer

_T = TypeVar("_T")

RESOURCES_AT_PLACE = ("ore", "bio", "pl")  # resources with a location
PRODUCED = ("ore", "gal", "bio")  # what the bonus and planetary shifts apply to
EDGES = ("ore>bio", "bio>gal", "gal>ore")  # the market cycle
SYSTEM_TYPES = ("homeworld", "primary", "standard", "basic")
HEX_TYPES = ("system", "outer_system", "deep_space", "dust_cloud", "special_interest")
GROUP_KINDS = ("standard", "reserve", "patrol", "civilian")
GROUP_ORDERS = (
    "maintain_orbit",
    "hold_build",
    "hold_repair",
    "hold_restock",
    "hold_maintain",
    "hold_research",
    "hold_patrol",
    "move",
    "none",
)
GROUP_STATUSES = ("none", "engaged", "took_engage", "retreated", "stood_off")
LEG_STATUSES = ("pending", "dispatched", "failed")  # one agreement leg
MOTION_KINDS = ("rate", "tax", "lift_tax", "ban", "unban")  # UN Monetary Committee
VOTES = ("yes", "no", "abstain")
CRAFT_CLASSES = ("military", "civilian")
MOBILITIES = ("mobile", "static")
# what a design's systems may give (per unit of the system, summed over working units)
CAPACITIES = (
    "construction",  # Ore converted per round
    "repair",  # Ore of repairs per round
    "workshop",  # mass of inside builds and stored consumables (R-10.1a)
    "passenger",
    "troop",
    "cargo",
    "research",
    "ep_storage",
    "flag_bridge",  # flag officers need one
)
# work in progress at builders, §1.5: repairs, rebuilds and refits
WORK_KINDS = ("build", "unbuild", "repair", "rebuild", "refit")


@dataclass(slots=True)
class Power:
    id: str
    store: dict[str, int]  # the bank: "gal" and "tp"
    un_member: bool = True

    @property
    def where(self) -> str:
        return "bank"

    def copy(self) -> Power:
        return Power(self.id, dict(self.store), self.un_member)


@dataclass(slots=True)
class Project:
    """Support §6: a standing shift of ``pct`` % of ``source`` production into ``target``."""

    source: str
    target: str
    pct: int


@dataclass(slots=True)
class System:
    id: str
    name: str
    hex: str
    type: str
    holder: str | None
    loyalty: int
    rates: dict[str, int]  # ore, gal, bio, pl
    store: dict[str, int]  # ore, bio, pl
    project: Project | None = None
    free_ep: int = 0

    @property
    def where(self) -> str:
        return f"system:{self.id}"

    def copy(self) -> System:
        return System(
            self.id,
            self.name,
            self.hex,
            self.type,
            self.holder,
            self.loyalty,
            dict(self.rates),
            dict(self.store),
            self.project,
            self.free_ep,
        )


@dataclass(slots=True)
class Hub:
    id: str
    power: str
    centre: str
    nodes: list[str]
    links: list[tuple[str, str]]
    guild: bool
    store: dict[str, int]  # the pool: ore, bio, pl
    lost: list[str] = field(default_factory=list)  # R-4.6a: members lost and captured already

    @property
    def where(self) -> str:
        return f"hub:{self.id}"

    def members(self) -> list[str]:
        """The centre first, then the nodes (Support §4.1.1)."""
        return [self.centre, *self.nodes]

    def copy(self) -> Hub:
        return Hub(
            self.id,
            self.power,
            self.centre,
            list(self.nodes),
            list(self.links),
            self.guild,
            dict(self.store),
            list(self.lost),
        )


@dataclass(slots=True)
class Group:
    id: str
    power: str
    hex: str
    order: str
    points: int  # derived from its craft when it has any
    store: dict[str, int]  # "troops" and "ep"
    troop_space: int
    diplomat: bool
    status: str
    kind: str = "standard"
    engages: tuple[str, ...] = ()  # R-2a: the powers it engages this round
    defending: bool = False  # R-2a: it only answers an attack
    ep_storage: int | None = None  # None = not limited (a group without craft)
    out_of_supply: bool = False  # R-7.4a: set at the start of each round

    def __post_init__(self) -> None:
        self.store.setdefault("ep", 0)

    @property
    def where(self) -> str:
        return f"group:{self.id}"

    @property
    def troops(self) -> int:
        return self.store["troops"]

    @property
    def ep(self) -> int:
        return self.store["ep"]

    def copy(self) -> Group:
        return Group(
            self.id,
            self.power,
            self.hex,
            self.order,
            self.points,
            dict(self.store),
            self.troop_space,
            self.diplomat,
            self.status,
            self.kind,
            self.engages,
            self.defending,
            self.ep_storage,
            self.out_of_supply,
        )


@dataclass(slots=True)
class Static:
    id: str
    power: str
    hex: str
    civilian: bool
    passenger_space: int
    troop_space: int
    store: dict[str, int]  # "pl" (passengers), "troops" and "ep" (R-7.4a)
    out_of_supply: bool = False  # R-7.4a: its craft (and craft in orbit with it) lack EP

    def __post_init__(self) -> None:
        self.store.setdefault("ep", 0)

    @property
    def where(self) -> str:
        return f"static:{self.id}"

    def copy(self) -> Static:
        return Static(
            self.id,
            self.power,
            self.hex,
            self.civilian,
            self.passenger_space,
            self.troop_space,
            dict(self.store),
            self.out_of_supply,
        )


@dataclass(slots=True)
class Invasion:
    """R-3.4: one invader's troops landed on one system."""

    system: str
    power: str
    store: dict[str, int]  # "troops"

    @property
    def where(self) -> str:
        return f"system:{self.system}"

    @property
    def troops(self) -> int:
        return self.store["troops"]

    def copy(self) -> Invasion:
        return Invasion(self.system, self.power, dict(self.store))


@dataclass(slots=True)
class Shipment:
    """R-5.4: goods in transit; ``power`` receives them, ``sender`` sent them.

    R-5.4a: once its hub is gone ``to_hub`` is ``None`` and ``waiting_for`` holds the old hub's
    centre and nodes; any later guild hub of ``power`` holding one of them receives it.
    """

    id: str
    power: str
    sender: str
    from_hub: str | None
    to_hub: str | None
    resource: str
    store: dict[str, int]  # {resource: amount}
    arrives: int
    waiting: bool = False
    waiting_for: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"shipment:{self.id}"

    @property
    def amount(self) -> int:
        return self.store[self.resource]

    def copy(self) -> Shipment:
        return Shipment(
            self.id,
            self.power,
            self.sender,
            self.from_hub,
            self.to_hub,
            self.resource,
            dict(self.store),
            self.arrives,
            self.waiting,
            list(self.waiting_for),
        )


@dataclass(slots=True)
class Outpost:
    """Support §5.2.1: an outpost, with its officer, its own sensors and its patrols (R-8.3a)."""

    hex: str
    radius: int
    officer: str | None = None
    sensors: tuple[str, ...] = ()
    patrols: tuple[str, ...] = ()  # group ids on Hold-Patrol here (Support §5.2.4)

    def copy(self) -> Outpost:
        return Outpost(self.hex, self.radius, self.officer, self.sensors, self.patrols)


@dataclass(slots=True)
class Bubble:
    """Support §5.2: covers every hex within radius of the HQ or an outpost. ``sensors`` and
    ``patrols`` are the HQ's; with an ``officer`` the radius is its grade (R-8.3a)."""

    id: str
    power: str
    hq: str
    radius: int
    outposts: tuple[Outpost, ...] = ()
    sensors: tuple[str, ...] = ()
    officer: str | None = None
    patrols: tuple[str, ...] = ()

    def copy(self) -> Bubble:
        return Bubble(
            self.id,
            self.power,
            self.hq,
            self.radius,
            tuple(o.copy() for o in self.outposts),
            self.sensors,
            self.officer,
            self.patrols,
        )


@dataclass(slots=True)
class Market:
    rates: dict[str, Decimal]
    tax: dict[str, Decimal]
    power_tax: dict[str, dict[str, Decimal]] = field(default_factory=dict)
    volume: dict[str, int] = field(default_factory=dict)  # sold per edge since a report
    banned: list[str] = field(default_factory=list)  # powers banned by the UN, sorted

    def copy(self) -> Market:
        return Market(
            dict(self.rates),
            dict(self.tax),
            {p: dict(t) for p, t in self.power_tax.items()},
            dict(self.volume),
            list(self.banned),
        )


@dataclass(slots=True)
class Leg:
    """R-5.5: one direction of an agreement: ``sender`` sends ``amount`` of ``resource``."""

    sender: str
    resource: str
    amount: int
    status: str = "pending"
    shipment: str | None = None  # the shipment it became (contracts §1 id)
    note: str = ""  # why it failed

    def copy(self) -> Leg:
        return Leg(self.sender, self.resource, self.amount, self.status, self.shipment, self.note)


@dataclass(slots=True)
class Agreement:
    """R-5.5, Resource §5.3: an accepted trade between powers ``a`` and ``b``.

    ``hubs`` holds each party's private choice: ``{power: {"send": hub, "receive": hub}}``.
    """

    id: str
    a: str
    b: str
    deposit: str
    delivery: int
    legs: list[Leg]
    hubs: dict[str, dict[str, str | None]]

    def other(self, power: str) -> str:
        return self.b if power == self.a else self.a

    def copy(self) -> Agreement:
        return Agreement(
            self.id,
            self.a,
            self.b,
            self.deposit,
            self.delivery,
            [leg.copy() for leg in self.legs],
            {p: dict(h) for p, h in self.hubs.items()},
        )


@dataclass(slots=True)
class Motion:
    """R-6.4: a motion before the UN Monetary Committee this round, with its votes.

    ``edge`` is one of the market edges, or ``"all"`` for a tax on every edge; ``power`` is
    the power a tax or a ban is aimed at; ``value`` the rate or tax.
    """

    id: str
    by: str
    kind: str
    edge: str | None = None
    power: str | None = None
    value: Decimal | None = None
    votes: dict[str, str] = field(default_factory=dict)

    def copy(self) -> Motion:
        return Motion(
            self.id, self.by, self.kind, self.edge, self.power, self.value, dict(self.votes)
        )


@dataclass(frozen=True, slots=True)
class DesignSystem:
    """R-10.0: ``count`` units of one system of a design, each costing ``points`` and giving
    ``capacity`` (kind -> amount per unit, kinds from ``CAPACITIES``). Hull boxes are a system
    with a point cost per box (R-10.7)."""

    id: str
    name: str
    points: int
    count: int = 1
    capacity: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Design:
    """R-10.0: a power's registered design. ``loadout`` is the consumables a craft of it is
    built with (Support §1.4, paid at the catalogue's cost); ``completed`` once one craft of it
    has been finished (R-10.1: no more +10 %)."""

    id: str
    power: str
    name: str
    cls: str  # "class": military or civilian
    mobility: str
    mass: int
    npv: int
    crew: int  # CF needed
    systems: tuple[DesignSystem, ...]
    loadout: dict[str, int] = field(default_factory=dict)
    completed: bool = False
    studied_from: str | None = None  # Support 1.6.3: the design of another power it copies

    def copy(self) -> Design:
        return Design(
            self.id,
            self.power,
            self.name,
            self.cls,
            self.mobility,
            self.mass,
            self.npv,
            self.crew,
            self.systems,
            dict(self.loadout),
            self.completed,
            self.studied_from,
        )


@dataclass(slots=True)
class Workshop:
    """Support §1.4: consumables made and stored in a craft's workshop space (kind -> count)."""

    craft: str
    store: dict[str, int]

    @property
    def where(self) -> str:
        return f"workshop:{self.craft}"


@dataclass(slots=True)
class Craft:
    """R-10.0: one built ship or base. It sits in exactly one of a ``group``, a ``static``, or
    in ``orbit`` with a builder (a craft id; Support §1.1), whose hex it shares.

    ``store`` holds its crew (``cf``) and the consumables it carries (by catalogue kind);
    ``destroyed`` / ``disabled`` count damaged units per design system id; ``gantry`` is the
    hex where a mobile builder's external gantry stands (R-10.1a)."""

    id: str
    power: str
    design: str
    group: str | None
    static: str | None
    orbit: str | None
    store: dict[str, int]
    fatigue: int = 0  # % (R-10.2)
    destroyed: dict[str, int] = field(default_factory=dict)
    disabled: dict[str, int] = field(default_factory=dict)
    captured: bool = False  # unbuilt for floor(NPV / 2)
    gantry: str | None = None
    workshop: Workshop = field(default_factory=lambda: Workshop("", {}))
    # Support 2.0: consumables restocked while engaged, whose systems begin the battle disabled
    unready: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.workshop.craft != self.id:
            self.workshop = Workshop(self.id, self.workshop.store)

    @property
    def where(self) -> str:
        return f"craft:{self.id}"

    @property
    def crew(self) -> int:
        return self.store["cf"]

    def copy(self) -> Craft:
        return Craft(
            self.id,
            self.power,
            self.design,
            self.group,
            self.static,
            self.orbit,
            dict(self.store),
            self.fatigue,
            dict(self.destroyed),
            dict(self.disabled),
            self.captured,
            self.gantry,
            Workshop(self.id, dict(self.workshop.store)),
            dict(self.unready),
        )


@dataclass(slots=True)
class Build:
    """R-10.1, R-10.3, R-10.7: work in progress at ``builders`` (craft ids, in listed order).

    A ``build`` holds the Ore paid so far as a stockpile of its power (``store``, ledger
    ``build:<id>``) until it reaches ``cost`` (NPV, the +10 % ``surcharge`` fixed at its start,
    and its loadout); the craft then takes its id. An ``unbuild`` of ``craft`` has ``worked``
    its way through ``cost`` (the NPV) at the builder's rating. ``hex`` is where an external
    build stands (its gantry hex); an inside build is in its builder's workshop (``None``)."""

    id: str
    power: str
    kind: str
    design: str
    builders: list[str]
    inside: bool
    hex: str | None
    cost: int
    surcharge: int
    started: int  # round
    store: dict[str, int]  # "ore" paid so far
    craft: str | None = None  # unbuild, repair, rebuild, refit: the craft worked on
    worked: int = 0  # unbuild
    systems: dict[str, int] = field(default_factory=dict)  # repair, rebuild: units restored
    fatigue: int = 0  # rebuild: the fatigue (%) it removes

    @property
    def where(self) -> str:
        return f"build:{self.id}"

    @property
    def paid(self) -> int:
        return self.store["ore"]

    def copy(self) -> Build:
        return Build(
            self.id,
            self.power,
            self.kind,
            self.design,
            list(self.builders),
            self.inside,
            self.hex,
            self.cost,
            self.surcharge,
            self.started,
            dict(self.store),
            self.craft,
            self.worked,
            dict(self.systems),
            self.fatigue,
        )


@dataclass(frozen=True, slots=True)
class Consumable:
    """R-10.1a: one kind of the campaign's catalogue (fighters, drones, missiles, …)."""

    kind: str
    mass: int
    ore: int


@dataclass(frozen=True, slots=True)
class GroupLimit:
    """R-2b: a campaign's limits for one group kind (``None``: no limit)."""

    points: int | None = None
    officers: int | None = None  # officers' value (Support §5.1.3)


@dataclass(slots=True)
class Fleet:
    """R-10: the designs, craft and work in progress, and the campaign's fleet settings: the
    consumables catalogue (R-10.1a), TP per design registered (R-10.0) and group limits
    (R-2b; none unless the campaign sets them)."""

    designs: list[Design] = field(default_factory=list)
    craft: list[Craft] = field(default_factory=list)
    builds: list[Build] = field(default_factory=list)
    catalogue: dict[str, Consumable] = field(default_factory=dict)
    design_tp: int = 0
    group_limits: dict[str, GroupLimit] = field(default_factory=dict)
    battles: list[Battle] = field(default_factory=list)  # confirmed, applied once
    loans: list[Loan] = field(default_factory=list)  # R-10.5a
    transfers: list[Transfer] = field(default_factory=list)  # Support 1.6.2

    def copy(self) -> Fleet:
        return Fleet(
            [d.copy() for d in self.designs],
            [c.copy() for c in self.craft],
            [b.copy() for b in self.builds],
            self.catalogue,
            self.design_tp,
            self.group_limits,
            list(self.battles),
            [loan.copy() for loan in self.loans],
            list(self.transfers),
        )


@dataclass(slots=True)
class State:
    round: int
    seed: int
    hexes: dict[str, str]  # hex -> type; absent hexes are deep space
    powers: list[Power]
    systems: list[System]
    hubs: list[Hub]
    groups: list[Group]
    statics: list[Static]
    invasions: list[Invasion]
    market: Market
    shipments: list[Shipment]
    bubbles: list[Bubble]
    agreements: list[Agreement] = field(default_factory=list)
    motions: list[Motion] = field(default_factory=list)  # the ``un`` key
    map_size: tuple[int, int] | None = None  # contracts §1 ``map.size``: (cols, rows)
    fleet: Fleet = field(default_factory=lambda: Fleet())  # designs, craft, builds
    command: Command = field(default_factory=lambda: Command())  # Support §4.3.2, §4.4, §5

    def copy(self) -> State:
        """A deep copy of everything mutable (immutable parts are shared)."""
        return State(
            self.round,
            self.seed,
            dict(self.hexes),
            [p.copy() for p in self.powers],
            [s.copy() for s in self.systems],
            [h.copy() for h in self.hubs],
            [g.copy() for g in self.groups],
            [s.copy() for s in self.statics],
            [i.copy() for i in self.invasions],
            self.market.copy(),
            [s.copy() for s in self.shipments],
            [b.copy() for b in self.bubbles],
            [a.copy() for a in self.agreements],
            [m.copy() for m in self.motions],
            self.map_size,
            self.fleet.copy(),
            self.command.copy(),
        )


@dataclass(frozen=True, slots=True)
class Order:
    """One player order after entry validation: ``index`` counts the power's list from 0."""

    power: str
    index: int
    type: str
    fields: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


def drop(items: list[_T], item: _T) -> None:
    """Remove ``item`` itself from ``items``: ``list.remove`` compares every earlier element
    field by field (dataclass ``==``), which made removals from long lists quadratic."""
    del items[next(i for i, x in enumerate(items) if x is item)]
