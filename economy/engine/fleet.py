"""Fleet and Engage declarations (R-2): applied before the Resource Phase."""

from __future__ import annotations

from .world import World


def declare_groups(world: World) -> None:
    """R-2, R-2a: ``declare_group`` sets a group's hex, standing order, engage outcome, the
    powers it engages and whether it is defending; a key left out keeps its value."""
    world.books.step = "fleet"
    for order in world.orders.get("declare_group", ()):
        group = world.groups[order["group"]]
        for key in ("hex", "order", "status", "defending"):
            if key in order.fields:
                setattr(group, key, order[key])
        if "engages" in order.fields:
            group.engages = tuple(sorted(set(order["engages"])))
        extra = f", engages {', '.join(group.engages)}" if group.engages else ""
        extra += ", defending" if group.defending else ""
        world.books.event(
            f"{group.id} declared at {group.hex}: {group.order}, {group.status}{extra}",
            powers=(group.power,),
        )
    world.reindex_groups()
    for group in sorted(world.state.groups, key=lambda g: g.id):
        if group.order == "maintain_orbit" and group.id not in world.orbiting:
            world.books.event(
                f"{group.id} ({group.kind}, no troops or diplomat) may not hold Maintain Orbit:"
                " no effect (R-3.4)",
                step="resource.1",
                powers=(group.power,),
            )
