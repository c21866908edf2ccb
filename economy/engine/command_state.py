"""Command and intelligence state (Support §4.3.2, §4.4, §5.1, §5.2): officers, diplomats, their
missions, the Area of Special Interest and the campaign's settings for them, as plain
dataclasses. Command bubbles stay ``state.Bubble`` (contracts §1); this is the rest.

Everything here is optional in a state: an old state has no officers, no diplomats, no missions
and no Area of Special Interest (``Command()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Support §4.4.3-§4.4.10: the diplomatic missions the seed names.
MISSION_KINDS = (
    "reveal_hub",
    "reveal_bubble",
    "reveal_loyalty",
    "bribe_guild",
    "negotiate_guild",
    "terror_cells",
    "summit",
    "turn_diplomat",
)
MAX_GRADE = 10  # Support §5.1.3
FLAG_RANK = 14  # Support §5.1.1: rank 14 and above are Flag Officers


@dataclass(frozen=True, slots=True)
class Penalty:
    """R-8.2: demotion by choice: ``rolls`` (negative) to officer rolls through round ``until``."""

    rolls: int
    until: int


@dataclass(slots=True)
class Officer:
    """Support §5.1: an officer of ``power``. It is aboard a ``craft``, commands a ``group``, or
    neither (in reserve); an officer commanding an HQ or outpost is named by that post
    (``Bubble.officer``, ``Outpost.officer``) and is aboard nothing."""

    id: str
    power: str
    name: str
    rank: int
    grade: int
    craft: str | None = None
    group: str | None = None
    commissioned: int = 0  # round: first paid the round after
    penalties: tuple[Penalty, ...] = ()

    @property
    def where(self) -> str:
        return f"officer:{self.id}"

    def copy(self) -> Officer:
        return Officer(
            self.id,
            self.power,
            self.name,
            self.rank,
            self.grade,
            self.craft,
            self.group,
            self.commissioned,
            self.penalties,
        )


@dataclass(slots=True)
class Diplomat:
    """Support §4.4.1: a character aboard a ``craft`` (no mass)."""

    id: str
    power: str
    name: str
    craft: str

    def copy(self) -> Diplomat:
        return Diplomat(self.id, self.power, self.name, self.craft)


@dataclass(frozen=True, slots=True)
class Move:
    """R-8.4a: an outcome moves ``amount`` of ``resource`` from ``source`` to ``dest``: power ids
    (banks) for Gal and TP, hub or system ids for Ore, Bio and PL."""

    resource: str
    amount: int
    source: str
    dest: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """R-8.4a: what the admin decided: a ``text``, facts revealed to the sender, resource moves
    and loyalty changes (system id -> signed LR change)."""

    text: str
    reveal: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()
    loyalty: tuple[tuple[str, int], ...] = ()


@dataclass(slots=True)
class Mission:
    """R-8.4: a declared diplomatic mission, with what it spent, waiting for the admin's
    ``outcome`` (applied at the start of the next resolution, R-8.4a)."""

    id: str
    power: str
    diplomat: str
    target: str
    kind: str
    declared: int  # round
    spent: dict[str, int] = field(default_factory=dict)  # gal, tp, pl
    system: str | None = None
    outcome: Outcome | None = None

    def copy(self) -> Mission:
        return Mission(
            self.id,
            self.power,
            self.diplomat,
            self.target,
            self.kind,
            self.declared,
            dict(self.spent),
            self.system,
            self.outcome,
        )


@dataclass(frozen=True, slots=True)
class SpecialInterest:
    """R-8.1a: an Area of Special Interest announced in round ``announced``, active from round
    ``starts`` through round ``ends``."""

    hex: str
    announced: int
    starts: int
    ends: int

    def active(self, round_number: int) -> bool:
        return self.starts <= round_number <= self.ends

    def shown(self, round_number: int) -> bool:
        """Announced publicly until its last round is over (R-8.1a)."""
        return round_number <= self.ends


@dataclass(slots=True)
class Command:
    """The officers, diplomats and missions of every power, the Area of Special Interest, and
    the campaign's chance (%) of announcing one each round (R-8.1a; 0: none are)."""

    officers: list[Officer] = field(default_factory=list)
    diplomats: list[Diplomat] = field(default_factory=list)
    missions: list[Mission] = field(default_factory=list)
    special_interest: SpecialInterest | None = None
    special_interest_chance: int = 0

    def copy(self) -> Command:
        return Command(
            [o.copy() for o in self.officers],
            [d.copy() for d in self.diplomats],
            [m.copy() for m in self.missions],
            self.special_interest,
            self.special_interest_chance,
        )

    def empty(self) -> bool:
        return not (
            self.officers
            or self.diplomats
            or self.missions
            or self.special_interest
            or self.special_interest_chance
        )
