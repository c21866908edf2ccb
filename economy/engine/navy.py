"""The fleet of a round, indexed: designs, craft and work in progress by id, craft by what holds
them, and the figures groups and statics derive from their craft (R-7.4, R-10.0, R-10.7)."""

from __future__ import annotations

from collections import defaultdict

from .designs import capacity
from .state import Build, Craft, Design, Group, State, Static, drop


class Navy:
    """Indices over ``state.fleet``; ``groups`` and ``statics`` are the round's dicts by id."""

    __slots__ = (
        "builds",
        "craft",
        "designs",
        "fleet",
        "full",
        "groups",
        "in_group",
        "in_orbit",
        "in_static",
        "inside",
        "statics",
    )

    def __init__(self, state: State, groups: dict[str, Group], statics: dict[str, Static]) -> None:
        self.fleet = state.fleet
        self.groups = groups
        self.statics = statics
        self.designs: dict[str, Design] = {d.id: d for d in self.fleet.designs}
        self.craft: dict[str, Craft] = {c.id: c for c in self.fleet.craft}
        self.builds: dict[str, Build] = {b.id: b for b in self.fleet.builds}
        self.in_group: dict[str, list[Craft]] = defaultdict(list)
        self.in_static: dict[str, list[Craft]] = defaultdict(list)
        self.in_orbit: dict[str, list[Craft]] = defaultdict(list)
        self.full: dict[tuple[str, str], int] = {}  # an undamaged craft's capacity, by design
        self.inside: dict[str, int] | None = None  # builder -> mass building inside (lazy)
        self.reindex()

    def reindex(self) -> None:
        """Craft by group, static and builder orbited, each list in id order (R-0.3)."""
        self.in_group.clear()
        self.in_static.clear()
        self.in_orbit.clear()
        for c in sorted(self.fleet.craft, key=lambda c: c.id):
            if c.group is not None:
                self.in_group[c.group].append(c)
            elif c.static is not None:
                self.in_static[c.static].append(c)
            elif c.orbit is not None:
                self.in_orbit[c.orbit].append(c)

    def design(self, craft: Craft) -> Design:
        return self.designs[craft.design]

    def capacity(self, craft: Craft, kind: str) -> int:
        if craft.destroyed or craft.disabled:
            return capacity(self.designs[craft.design], kind, craft)
        key = (craft.design, kind)
        if key not in self.full:
            self.full[key] = capacity(self.designs[craft.design], kind)
        return self.full[key]

    def carrier(self, craft: Craft) -> Group | Static | None:
        """The group or static a craft is in, or that its builder (in orbit) is in."""
        if craft.orbit is not None:
            craft = self.craft[craft.orbit]
        if craft.group is not None:
            return self.groups[craft.group]
        if craft.static is not None:
            return self.statics[craft.static]
        return None

    def hex_of(self, craft: Craft) -> str:
        """Support §1.1: a craft in orbit with a builder shares its hex (and moves with it)."""
        carrier = self.carrier(craft)
        assert carrier is not None, f"craft {craft.id} is nowhere"
        return carrier.hex

    def members(self, carrier: Group | Static) -> list[Craft]:
        """The craft of a group or static, in id order."""
        table = self.in_group if isinstance(carrier, Group) else self.in_static
        return table.get(carrier.id, [])

    def orbiting(self, carrier: Group | Static) -> list[Craft]:
        """R-7.4a: craft in orbit with the builders of a group or static."""
        return [o for c in self.members(carrier) for o in self.in_orbit.get(c.id, ())]

    def npv(self, craft: list[Craft]) -> int:
        """R-10.7: points are the craft's NPV (fighters and drones excluded, as NPV is)."""
        return sum(self.designs[c.design].npv for c in craft)

    def ep_points(self, carrier: Group | Static, deep_space: bool) -> int:
        """R-7.4, R-7.4a: the points a group or static needs EP for: a group's own (or its bare
        ``points``) and the craft in orbit with its builders; a static's only in deep space."""
        own = carrier.points if isinstance(carrier, Group) else self.npv(self.members(carrier))
        if isinstance(carrier, Static) and not deep_space:
            own = 0
        return own + self.npv(self.orbiting(carrier))

    def ep_storage(self, carrier: Group | Static) -> int | None:
        """R-7.4, R-10.7: Σ the EP storage of its craft and of the craft in orbit with them
        (kept on a group by ``refresh``); ``None`` (not limited) for a group given without
        craft."""
        if isinstance(carrier, Group):
            return carrier.ep_storage
        craft = (*self.members(carrier), *self.orbiting(carrier))
        return sum(self.capacity(c, "ep_storage") for c in craft)

    def refresh(self, carrier: Group | Static) -> None:
        """R-10.7: a group's points, troop space and EP storage, and a static's passenger and
        troop space and civilian status, follow from its craft."""
        craft = self.members(carrier)
        troop = sum(self.capacity(c, "troop") for c in craft)
        if isinstance(carrier, Group):
            carrier.points = self.npv(craft)
            carrier.troop_space = troop
            carrier.ep_storage = sum(
                self.capacity(c, "ep_storage") for c in (*craft, *self.orbiting(carrier))
            )
        else:
            carrier.troop_space = troop
            carrier.passenger_space = sum(self.capacity(c, "passenger") for c in craft)
            carrier.civilian = all(self.designs[c.design].cls == "civilian" for c in craft)

    def refresh_all(self) -> None:
        """Every group and static holding craft (those without keep their given figures)."""
        for gid in sorted(self.in_group):
            self.refresh(self.groups[gid])
        for sid in sorted(self.in_static):
            self.refresh(self.statics[sid])

    def add_craft(self, craft: Craft) -> None:
        self.fleet.craft.append(craft)
        self.craft[craft.id] = craft

    def remove_craft(self, craft: Craft) -> None:
        drop(self.fleet.craft, craft)
        del self.craft[craft.id]

    def inside_mass(self, builder: str) -> int:
        """R-10.1a: the mass of the builds in progress inside ``builder``'s workshop (indexed
        once and kept as work is added or removed: a scan per order made it quadratic)."""
        if self.inside is None:
            self.inside = defaultdict(int)
            for b in self.fleet.builds:
                self._count_inside(b, 1)
        return self.inside.get(builder, 0)

    def _count_inside(self, build: Build, sign: int) -> None:
        if self.inside is not None and build.inside and build.kind == "build":
            self.inside[build.builders[0]] += sign * self.designs[build.design].mass

    def add_build(self, build: Build) -> None:
        self.fleet.builds.append(build)
        self.builds[build.id] = build
        self._count_inside(build, 1)

    def remove_build(self, build: Build) -> None:
        drop(self.fleet.builds, build)
        del self.builds[build.id]
        self._count_inside(build, -1)
