"""The ledger (R-0.4): every change of a stockpile is a line; nothing changes without one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .events import WORDS, text_of


class Holder(Protocol):
    """Anything with a stockpile: a bank, hub, system, group, static, invasion or shipment."""

    store: dict[str, int]

    @property
    def where(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Line:
    step: str
    power: str
    where: str
    resource: str
    amount: int
    reason: str
    rule: str

    def as_json(self) -> dict[str, object]:
        return {
            "step": self.step,
            "power": self.power,
            "where": self.where,
            "resource": self.resource,
            "amount": self.amount,
            "reason": self.reason,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as a ``kind`` and its ``data`` (ids and numbers; see
    ``events.py``). ``powers`` may read it; ``public`` events are for everyone (the rest may
    reveal loyalty, hubs or holdings, so nobody else sees them)."""

    step: str
    kind: str
    data: Mapping[str, Any]
    powers: tuple[str, ...] = ()
    public: bool = False

    @property
    def text(self) -> str:
        return text_of(self.kind, self.data)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "step": self.step,
            "kind": self.kind,
            "data": dict(self.data),
            "text": self.text,
        }
        if self.powers:
            out["powers"] = list(self.powers)
        if self.public:
            out["public"] = True
        return out


@dataclass(frozen=True, slots=True)
class Rejection:
    power: str
    index: int
    error: str

    def as_json(self) -> dict[str, object]:
        return {"power": self.power, "index": self.index, "error": self.error}


class Overdraft(Exception):
    """Raised when a change would take a stockpile below zero (R-0.2): a bug in a step."""


class Books:
    """Applies changes to stockpiles and records them; ``step`` is the seed section in force."""

    __slots__ = ("events", "lines", "rejected", "step")

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self.events: list[Event] = []
        self.rejected: list[Rejection] = []
        self.step = "fleet"

    def change(
        self,
        power: str,
        holder: Holder,
        resource: str,
        amount: int,
        reason: str,
        rule: str,
        *,
        step: str | None = None,
    ) -> None:
        """Add ``amount`` (signed) of ``resource`` to ``holder``'s store, with a ledger line."""
        if amount == 0:
            return
        have = holder.store.get(resource, 0)
        if have + amount < 0:
            raise Overdraft(f"{holder.where} has {have} {resource}, cannot take {-amount}")
        holder.store[resource] = have + amount
        self.lines.append(
            Line(step or self.step, power, holder.where, resource, amount, reason, rule)
        )

    def record(
        self, power: str, where: str, resource: str, amount: int, reason: str, rule: str
    ) -> None:
        """A line for a change of owner only (the store itself is unchanged), e.g. R-1.5."""
        if amount:
            self.lines.append(Line(self.step, power, where, resource, amount, reason, rule))

    def move(
        self,
        power: str,
        source: Holder,
        target: Holder,
        resource: str,
        amount: int,
        reason: str,
        rule: str,
        *,
        target_power: str | None = None,
    ) -> None:
        """Take ``amount`` from ``source`` and give it to ``target`` (two lines)."""
        self.change(power, source, resource, -amount, reason, rule)
        self.change(target_power or power, target, resource, amount, reason, rule)

    def event(
        self,
        kind: str,
        *,
        step: str | None = None,
        powers: tuple[str | None, ...] = (),
        public: bool = False,
        **data: Any,
    ) -> None:
        """Record an event of ``kind`` (a key of ``events.WORDS``) for ``powers`` (the
        ``None`` of a neutral party is dropped); ``data`` holds its ids and numbers."""
        if kind not in WORDS:
            raise KeyError(f"unknown event kind {kind!r}: add it to events.WORDS")
        readers = tuple(sorted({p for p in powers if p}))
        self.events.append(Event(step or self.step, kind, data, readers, public))

    def reject(self, power: str, index: int, error: str) -> None:
        self.rejected.append(Rejection(power, index, error))
