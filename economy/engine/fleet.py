"""Fleet and Engage declarations (R-2): applied before the Resource Phase."""

from __future__ import annotations

from .world import World, can_maintain_orbit


def declare_groups(world: World) -> None:
    """R-2: ``declare_group`` sets a group's hex, standing order and engage outcome."""
    world.books.step = "fleet"
    for order in world.orders.get("declare_group", ()):
        group = world.groups[order["group"]]
        for key in ("hex", "order", "status"):
            if key in order.fields:
                setattr(group, key, order[key])
        world.books.event(
            f"{group.id} declared at {group.hex}: {group.order}, {group.status}",
            powers=(group.power,),
        )
    world.reindex_groups()
    for group in sorted(world.state.groups, key=lambda g: g.id):
        if group.order == "maintain_orbit" and not can_maintain_orbit(group):
            world.books.event(
                f"{group.id} ({group.kind}, no troops or diplomat) may not hold Maintain Orbit:"
                " no effect (R-3.4)",
                step="resource.1",
                powers=(group.power,),
            )
