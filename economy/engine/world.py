"""The working copy of a round: the state being changed, its indices, the books and the orders.

Indices are dicts keyed by id or hex so that every step is linear in the size of the campaign and
no order ever scans all systems.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from .hexgrid import within
from .ledger import Books
from .navy import Navy
from .rules import hex_of
from .state import Group, Hub, Invasion, Order, Power, Shipment, State, Static, System, drop


class World:
    """Everything a step needs; built once per resolution from a copy of the input state."""

    def __init__(self, state: State, orders: list[Order], rng: random.Random) -> None:
        self.state = state
        self.round = state.round
        self.rng = rng
        self.books = Books()
        self.powers: dict[str, Power] = {p.id: p for p in state.powers}
        self.systems: dict[str, System] = {s.id: s for s in state.systems}
        self.systems_sorted = sorted(state.systems, key=lambda s: s.id)
        self.system_at: dict[str, System] = {}
        for s in self.systems_sorted:
            self.system_at.setdefault(s.hex, s)
        self.hubs: dict[str, Hub] = {h.id: h for h in state.hubs}
        self.member_of: dict[str, Hub] = {}
        for hub in sorted(state.hubs, key=lambda h: h.id):
            for hx in hub.members():
                self.member_of.setdefault(hx, hub)
        self.groups: dict[str, Group] = {g.id: g for g in state.groups}
        self.statics: dict[str, Static] = {s.id: s for s in state.statics}
        self.statics_at: dict[str, list[Static]] = defaultdict(list)
        for st in sorted(state.statics, key=lambda s: s.id):
            self.statics_at[st.hex].append(st)
        self.invasions: dict[str, dict[str, Invasion]] = defaultdict(dict)
        for inv in state.invasions:
            self.invasions[inv.system][inv.power] = inv
        self.covered: set[tuple[str, str]] = set()
        for b in state.bubbles:
            for centre, radius in ((b.hq, b.radius), *((o.hex, o.radius) for o in b.outposts)):
                for h in within(hex_of(centre), radius):
                    self.covered.add((b.power, str(h)))
        self.shipments: dict[str, Shipment] = {}
        # Per hub, the shipments bound for it and sent from it, in ``shipments`` order: a hub's
        # end looks at its own, not at every shipment of the campaign.
        self.shipments_to: dict[str, dict[str, Shipment]] = defaultdict(dict)
        self.shipments_from: dict[str, dict[str, Shipment]] = defaultdict(dict)
        for sh in state.shipments:
            self.add_shipment(sh)
        self.shipment_count: dict[str, int] = defaultdict(int)
        self.orders: dict[str, list[Order]] = defaultdict(list)
        for order in sorted(orders, key=lambda o: (o.power, o.index)):
            self.orders[order.type].append(order)
        self.groups_at: dict[str, list[Group]] = {}
        self.orbiting: set[str] = set()  # groups holding Maintain Orbit (R-3.4, R-3.4b)
        self.contested: set[str] = set()
        self.pl_added: dict[str, int] = defaultdict(int)
        self.taken: dict[tuple[str, str, str, str], int] = defaultdict(int)  # R-4.5a
        self.reach: dict[tuple[str, str, str, str], int] = {}  # R-4.5a
        self.new_hubs: set[str] = set()
        self.new_members: set[str] = set()  # R-5.1a: hexes added by an extension this round
        self.unpaid_structure: list[tuple[Hub, list[str], list[tuple[str, str]]]] = []
        self.un_meeting: dict[str, Any] = {}  # filled by the UN Meeting
        self.navy = Navy(state, self.groups, self.statics)  # designs, craft, builds
        self.reindex_groups()

    # --- indices -------------------------------------------------------------------------

    def reindex_groups(self) -> None:
        """Groups by hex, in id order, and which of them hold Maintain Orbit, judged once after
        the fleet declarations: that is the start of Resource §1 (R-2, R-3.4b)."""
        at: dict[str, list[Group]] = defaultdict(list)
        for g in sorted(self.state.groups, key=lambda g: g.id):
            at[g.hex].append(g)
        self.groups_at = at
        self.orbiting = {
            g.id
            for g in self.state.groups
            if g.order == "maintain_orbit" and self.may_hold_orbit(g)
        }

    def may_hold_orbit(self, group: Group) -> bool:
        """Resource §1.2, R-3.4: standard groups, groups with a diplomat, groups carrying
        troops; R-3.4b: and a transport whose power has troops landed on the system there."""
        if group.kind == "standard" or group.diplomat or group.troops > 0:
            return True
        system = self.system_at.get(group.hex)
        return (
            group.troop_space > 0
            and system is not None
            and group.power in self.invasions.get(system.id, {})
        )

    def add_hub(self, hub: Hub) -> None:
        self.state.hubs.append(hub)
        self.hubs[hub.id] = hub
        for hx in hub.members():
            self.member_of[hx] = hub
        self.new_hubs.add(hub.id)

    def remove_hub(self, hub: Hub) -> None:
        """Drop a hub and every reference to it, so the state never names a hub it lacks
        (contracts §1): shipments it sent keep no sender hub, and agreements no choice of it."""
        drop(self.state.hubs, hub)
        del self.hubs[hub.id]
        for hx in hub.members():
            if self.member_of.get(hx) is hub:
                del self.member_of[hx]
        for shipment in self.shipments_from.pop(hub.id, {}).values():
            shipment.from_hub = None
        for agreement in self.state.agreements:
            for choice in agreement.hubs.values():
                for end, chosen in choice.items():
                    if chosen == hub.id:
                        choice[end] = None

    def drop_members(self, hub: Hub, hexes: set[str]) -> None:
        for hx in hexes:
            if self.member_of.get(hx) is hub:
                del self.member_of[hx]

    def add_shipment(self, shipment: Shipment) -> None:
        self.shipments[shipment.id] = shipment
        if shipment.to_hub is not None:
            self.shipments_to[shipment.to_hub][shipment.id] = shipment
        if shipment.from_hub is not None:
            self.shipments_from[shipment.from_hub][shipment.id] = shipment

    def remove_shipment(self, shipment: Shipment) -> None:
        del self.shipments[shipment.id]
        if shipment.to_hub is not None:
            del self.shipments_to[shipment.to_hub][shipment.id]
        if shipment.from_hub is not None:
            del self.shipments_from[shipment.from_hub][shipment.id]

    def bound_for(self, hub: Hub) -> list[Shipment]:
        """The shipments in transit to ``hub``, in ``shipments`` order."""
        return list(self.shipments_to.get(hub.id, {}).values())

    def strand(self, shipment: Shipment, hexes: list[str]) -> None:
        """R-5.4a: its hub is gone; it waits for a hub holding one of ``hexes``."""
        if shipment.to_hub is not None:
            del self.shipments_to[shipment.to_hub][shipment.id]
        shipment.to_hub = None
        shipment.waiting = True
        shipment.waiting_for = list(hexes)

    def add_invasion(self, invasion: Invasion) -> None:
        self.invasions[invasion.system][invasion.power] = invasion

    def remove_invasion(self, invasion: Invasion) -> None:
        del self.invasions[invasion.system][invasion.power]
        if not self.invasions[invasion.system]:
            del self.invasions[invasion.system]

    def finish(self) -> None:
        """Write the indexed collections back to the state (in id order, R-0.3)."""
        self.state.invasions = [
            inv for sid in sorted(self.invasions) for _, inv in sorted(self.invasions[sid].items())
        ]
        self.state.shipments = list(self.shipments.values())

    def next_shipment_id(self, power: str) -> str:
        """Contracts §1: ``r<round>-<power>-<n>``, n counting from 1 in creation order."""
        self.shipment_count[power] += 1
        return f"r{self.round}-{power}-{self.shipment_count[power]}"

    # --- derived facts -------------------------------------------------------------------

    def reduction(self, system: System) -> int:
        """R-3.4: the LR taken off the holder by other powers' landed troops."""
        return sum(
            inv.troops // 25
            for who, inv in self.invasions.get(system.id, {}).items()
            if who != system.holder
        )

    def effective_loyalty(self, system: System) -> int:
        """R-3.4: max(0, LR - sum floor(T_invader / 25))."""
        if system.holder is None:
            return 0
        if system.id not in self.invasions:
            return system.loyalty
        return max(0, system.loyalty - self.reduction(system))

    def member_active(self, hub: Hub, hx: str) -> bool:
        """R-4.6: a member on a system needs it held with effective LR > 0; else a static."""
        system = self.system_at.get(hx)
        if system is not None:
            return system.holder == hub.power and self.effective_loyalty(system) > 0
        return any(st.power == hub.power for st in self.statics_at.get(hx, ()))

    def holds_share(self, hub: Hub, hx: str) -> bool:
        """R-4.6a, R-5.1a: a member takes part in its hub's pool: active, not in ``lost`` (so,
        from Resource §2.0 on, not lost this round) and not added by an extension this round."""
        return hx not in hub.lost and hx not in self.new_members and self.member_active(hub, hx)

    def hub_of_system(self, system: System) -> Hub | None:
        """R-1.2: the active hub whose pool holds this system's Ore, Bio and PL."""
        hub = self.member_of.get(system.hex)
        if (
            hub is None
            or hub.id in self.new_hubs
            or hub.power != system.holder
            or not self.holds_share(hub, system.hex)
        ):
            return None
        return hub

    def hub_or_system(self, ident: str) -> Hub | System | None:
        """The hub or system an order names by id (checked at entry); ``None`` for a hub gone
        during the round (lapsed, closed or destroyed, R-5.2, R-5.2a)."""
        return self.hubs.get(ident) or self.systems.get(ident)

    def place_of(self, system: System) -> Hub | System:
        """R-1.2, R-1.4: where Ore, Bio and PL at this system live."""
        return self.hub_of_system(system) or system

    def maintain_orbit_powers(self, hx: str) -> list[str]:
        """Powers with a group holding Maintain Orbit at ``hx`` (R-3.4, R-3.4b), in id order."""
        return sorted({g.power for g in self.groups_at.get(hx, ()) if g.id in self.orbiting})

    def present(self, power: str, hx: str) -> bool:
        """R-3.4: a craft (group or static) of ``power`` is in the hex."""
        return any(g.power == power for g in self.groups_at.get(hx, ())) or any(
            s.power == power for s in self.statics_at.get(hx, ())
        )

    def held_map(self) -> dict[str, list[System]]:
        """Systems by holder, in id order (built on demand: O(systems))."""
        out: dict[str, list[System]] = defaultdict(list)
        for s in self.systems_sorted:
            if s.holder is not None:
                out[s.holder].append(s)
        return out

    def reject(self, order: Order, error: str) -> None:
        self.books.reject(order.power, order.index, error)
