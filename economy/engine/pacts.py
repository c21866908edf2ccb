"""What powers agree on between rounds and the engine receives as state (R-10.5, R-10.6): battle
records, loans and transfers of craft. Like trade agreements (R-5.5) they are proposed,
accepted, declined and withdrawn in the web application; only confirmed records and accepted
loans and transfers reach the engine."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class BattleCraft:
    """R-10.6: what one battle did to one craft. ``destroyed`` removes it; otherwise
    ``damage`` (when given) is its systems' state when the battle ended — ``systems_destroyed``
    and ``systems_disabled``, units per system id, earlier damage included — ``cf_lost`` the
    crew it lost, and ``captured_by`` the power that took it, into ``into`` (a group or static
    of the captor at the battle's hex, or a new id for a new one)."""

    craft: str
    destroyed: bool = False
    damage: bool = False
    systems_destroyed: dict[str, int] = field(default_factory=dict)
    systems_disabled: dict[str, int] = field(default_factory=dict)
    cf_lost: int = 0
    captured_by: str | None = None
    into: str | None = None


@dataclass(frozen=True, slots=True)
class Battle:
    """R-10.6: a confirmed battle record: the hex, the powers in it, and per craft what
    happened; applied at the start of the next resolution, with the fleet declarations."""

    id: str
    hex: str
    powers: tuple[str, ...]
    craft: tuple[BattleCraft, ...]


@dataclass(slots=True)
class Loan:
    """Support 1.6.1, R-10.5a: ``owner`` lends ``groups`` to ``borrower`` until the end of the
    Support Phase of round ``last``. ``active`` once it has taken effect (Support §1.6 of the
    round it was accepted in); the shell raises ``last`` when both extend it."""

    id: str
    owner: str
    borrower: str
    groups: list[str]
    last: int
    active: bool = False

    def copy(self) -> Loan:
        return Loan(self.id, self.owner, self.borrower, list(self.groups), self.last, self.active)


@dataclass(frozen=True, slots=True)
class Transfer:
    """Support 1.6.2, R-10.5a: ``owner`` gives ``carriers`` (groups or statics, with their craft)
    to ``receiver`` for good in Support §1.6; the crew returns as PL to ``crew_to`` (a system
    the owner holds; default its nearest)."""

    id: str
    owner: str
    receiver: str
    carriers: tuple[str, ...]
    crew_to: str | None = None
