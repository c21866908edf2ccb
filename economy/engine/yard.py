"""Support §1.0: the builders of one round — which act, what is left of their ratings, what
each does (R-10.1, R-10.4, R-10.7, R-7.4a) — shared by building, unbuilding and making."""

from __future__ import annotations

from .reach import Purse
from .state import Craft, Order
from .validate import state_ids
from .world import World

ACTING = ("none", "stood_off")  # Support §1.0, R-10.4: engaged, retreating or engaging: no action
BUILD_ORDERS = ("hold_build",)
MAKE_ORDERS = ("hold_build", "hold_repair")  # Support §1.4: Make rides on either


class Yard:
    """One round of §1: the ratings left, what each builder does (§1.3: build or unbuild,
    never both), the designs still new at its start (R-10.1a) and the ids in use."""

    __slots__ = ("ids", "left", "mode", "new_designs", "purse", "world")

    def __init__(self, world: World) -> None:
        self.world = world
        self.purse = Purse(world, "support.1")  # R-4.5a: §1 is one step
        self.left: dict[tuple[str, str], int] = {}
        self.mode: dict[str, str] = {}
        self.new_designs = {d.id for d in world.navy.fleet.designs if not d.completed}
        self.ids: set[str] | None = None

    def rating(self, craft: Craft, kind: str = "construction") -> int:
        """R-10.1: what is left this round of a builder's rating (Ore per round)."""
        key = (craft.id, kind)
        if key not in self.left:
            self.left[key] = self.world.navy.capacity(craft, kind)
        return self.left[key]

    def use(self, craft: Craft, amount: int, mode: str, kind: str = "construction") -> None:
        self.left[(craft.id, kind)] = self.rating(craft, kind) - amount
        self.mode[craft.id] = mode

    def unused(self, order: Order) -> bool:
        """Contracts §1: a new id must be unused, also by orders applied earlier this round."""
        if self.ids is None:
            self.ids = state_ids(self.world.state)
        if order["id"] in self.ids:
            self.world.reject(order, f"id: {order['id']!r} is already used")
            return False
        return True

    def claim(self, ident: str) -> None:
        assert self.ids is not None, "check unused() first"
        self.ids.add(ident)


def idle(world: World, craft: Craft, orders: tuple[str, ...] = BUILD_ORDERS) -> str | None:
    """Support §1.0, R-10.4, R-7.4a, R-10.7: why a builder does not act this round (``None``: it
    does). A static never needs a declaration and is never interrupted; a mobile builder's
    group must be on its Hold-Special order, not engaged, retreating or engaging, and in
    supply."""
    if craft.static is not None:
        return None
    if craft.group is None:
        return f"{craft.id} is in orbit, not in a group on {orders[0]}"
    group = world.groups[craft.group]
    if group.order not in orders:
        return f"{craft.id}'s group {group.id} is on {group.order}, not {' or '.join(orders)}"
    if group.status not in ACTING:
        return f"{craft.id} is interrupted: its group {group.id} {group.status} (R-10.4)"
    if group.out_of_supply:
        return f"{craft.id} is interrupted: its group {group.id} is out of supply (R-7.4a)"
    return None


def free_workshop(world: World, craft: Craft) -> int:
    """R-10.7: workshop space less the inside builds in progress and the stored consumables."""
    navy = world.navy
    catalogue = navy.fleet.catalogue
    inside = navy.inside_mass(craft.id)
    stored = sum(catalogue[k].mass * n for k, n in craft.workshop.store.items())
    return navy.capacity(craft, "workshop") - inside - stored
