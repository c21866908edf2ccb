"""R-1.4, R-4.5, R-4.5a: where a power's Ore, Bio and PL used at a hex come from in one step.

A fleet order uses goods at the hex of its craft: the hub pool covering that hex, else the
stockpile of the power's held system there (R-1.4). At a contested member of a hub, all of the
power's orders in the step together take no more than what may reach it (``hubs.usable_at``).
"""

from __future__ import annotations

from .hubs import short_of, take, usable_at
from .ledger import Holder
from .state import Hub, System
from .world import World


class Purse:
    """The goods one step's fleet orders take; ``step`` keys the R-4.5a limit."""

    __slots__ = ("step", "world")

    def __init__(self, world: World, step: str) -> None:
        self.world = world
        self.step = step

    def place(self, power: str, hx: str) -> Hub | System | None:
        """R-1.4: the active hub pool covering ``hx``, else the power's held system there."""
        world = self.world
        hub = world.member_of.get(hx)
        if (
            hub is not None
            and hub.power == power
            and hub.id not in world.new_hubs
            and world.holds_share(hub, hx)
        ):
            return hub
        system = world.system_at.get(hx)
        if system is not None and system.holder == power and world.effective_loyalty(system) > 0:
            return world.place_of(system)
        return None

    def usable(self, place: Hub | System, hx: str, res: str) -> int:
        """What this step's orders may still take from ``place`` for use at ``hx``."""
        return usable_at(self.world, place, hx, res, self.step)

    def short(self, place: Hub | System | None, hx: str, res: str, need: int) -> str | None:
        """R-0.2: why ``need`` cannot be taken (naming what is left), or ``None``."""
        if place is None:
            return f"no hub or held system has {res} at {hx}, not {need}"
        return short_of(self.world, place, hx, res, need, self.step)

    def take(
        self,
        power: str,
        place: Hub | System,
        hx: str,
        res: str,
        amount: int,
        reason: str,
        rule: str,
        into: Holder | None = None,
    ) -> None:
        """Take ``amount`` (R-0.4: a ledger line), moving it ``into`` a holder when given."""
        take(self.world, power, place, hx, res, amount, reason, rule, self.step)
        if into is not None:
            self.world.books.change(power, into, res, amount, reason, rule)
