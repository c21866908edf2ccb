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
        world.books.event(
            "fleet.declared",
            powers=(group.power,),
            group=group.id,
            hex=group.hex,
            order=group.order,
            status=group.status,
            engages=list(group.engages),
            defending=group.defending,
        )
    world.reindex_groups()
    for group in sorted(world.state.groups, key=lambda g: g.id):
        if group.order == "maintain_orbit" and group.id not in world.orbiting:
            world.books.event(
                "fleet.no_maintain_orbit",
                step="resource.1",
                powers=(group.power,),
                group=group.id,
                group_kind=group.kind,
            )
