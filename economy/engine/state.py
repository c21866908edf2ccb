"""Campaign state and orders as plain dataclasses (contracts §1, ``ftcamp-case/1``).

Every stockpile lives in a ``store`` dict (resource -> int) on the object that holds it, and each
holder knows its ledger ``where`` (R-0.4), so one ledger helper can change any of them.
``resolve`` works on a ``copy()`` and never mutates the state it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

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
    points: int
    ep: int
    store: dict[str, int]  # "troops"
    troop_space: int
    diplomat: bool
    status: str
    kind: str = "standard"
    engages: tuple[str, ...] = ()  # R-2a: the powers it engages this round
    defending: bool = False  # R-2a: it only answers an attack

    @property
    def where(self) -> str:
        return f"group:{self.id}"

    @property
    def troops(self) -> int:
        return self.store["troops"]

    def copy(self) -> Group:
        return Group(
            self.id,
            self.power,
            self.hex,
            self.order,
            self.points,
            self.ep,
            dict(self.store),
            self.troop_space,
            self.diplomat,
            self.status,
            self.kind,
            self.engages,
            self.defending,
        )


@dataclass(slots=True)
class Static:
    id: str
    power: str
    hex: str
    civilian: bool
    passenger_space: int
    troop_space: int
    store: dict[str, int]  # "pl" (passengers) and "troops"

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
    hex: str
    radius: int


@dataclass(slots=True)
class Bubble:
    """Support §5.2: carried through; covers every hex within radius of the HQ or an outpost."""

    id: str
    power: str
    hq: str
    radius: int
    outposts: tuple[Outpost, ...] = ()
    sensors: tuple[str, ...] = ()


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
            list(self.bubbles),
            [a.copy() for a in self.agreements],
            [m.copy() for m in self.motions],
            self.map_size,
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
