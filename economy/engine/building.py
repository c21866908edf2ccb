"""Support §1.1: building — new builds, work in progress paid at the builders' ratings,
completion, orders on work in progress, and mobile builders' gantries (R-10.1, R-10.1a,
R-10.7)."""

from __future__ import annotations

from dataclasses import dataclass

from .designs import build_cost, capacity
from .state import Build, Craft, Hub, Order, System
from .world import World
from .yard import Yard, free_workshop, idle


def _hands(yard: Yard, build: Build) -> tuple[str | None, list[Craft]]:
    """R-10.1, R-10.1a, R-10.7: where a build takes its Ore and which of its builders work on
    it this round: an inside build's builder wherever it is; an external build's builders at
    its hex, each a static or a mobile with its gantry standing there from an earlier round."""
    world = yard.world
    navy = world.navy
    crafts = [c for b in build.builders if (c := navy.craft.get(b)) is not None]
    hx = build.hex
    if build.inside:  # it stays in its builder's workshop, wherever that goes
        hx = navy.hex_of(crafts[0]) if crafts else None
    hands = [
        c
        for c in crafts
        if idle(world, c) is None
        and yard.mode.get(c.id) != "unbuild"
        and navy.hex_of(c) == hx
        and (build.inside or c.static is not None or c.gantry == hx)
    ]
    return hx, hands


@dataclass(frozen=True, slots=True)
class Payment:
    """This round's Ore into a build: where it comes from and which builders convert it."""

    hx: str | None
    place: Hub | System | None
    hands: list[Craft]
    amount: int
    kind: str = "construction"  # the rating it fills (R-10.2: a repairer's is "repair")


def _payment(yard: Yard, build: Build, wanted: int | None) -> Payment | str:
    hx, hands = _hands(yard, build)
    return settle(yard, build, wanted, hx, hands)


def settle(
    yard: Yard,
    build: Build,
    wanted: int | None,
    hx: str | None,
    hands: list[Craft],
    kind: str = "construction",
) -> Payment | str:
    """R-10.1, R-10.2, R-10.7: at most what the ``hands``' ratings have left, what the work
    still needs and the Ore usable at ``hx``: ``wanted`` exactly (else the problem, R-0.2), or
    all it can take."""
    need = build.cost - build.paid
    rating = sum(yard.rating(c, kind) for c in hands)
    place = yard.purse.place(build.power, hx) if hx else None
    have = yard.purse.usable(place, hx, "ore") if place and hx else 0
    if wanted is None:
        return Payment(hx, place, hands, min(need, rating, have), kind)
    if wanted > need:
        return f"ore: {build.id} needs {need} more, not {wanted}"
    if wanted > rating:
        return f"ore: its builders can convert {rating} into {build.id} this round"
    if wanted and (short := yard.purse.short(place, str(hx), "ore", wanted)):
        return short
    return Payment(hx, place, hands, wanted, kind)


def pay_in(yard: Yard, build: Build, pay: Payment, step: str, rule: str) -> bool:
    """R-10.1, R-10.1a, R-10.2: the ratings are filled in listed order; the Ore becomes the
    work's stockpile (``build:<id>``). True once it is paid in full."""
    world = yard.world
    world.books.step = step
    if build.paid == build.cost:  # a repair of disabled systems only costs nothing
        return True
    if pay.amount == 0 or pay.place is None or pay.hx is None:
        world.books.event("build.idle", powers=(build.power,), build=build.id)
        return False
    rest = pay.amount
    for c in pay.hands:
        share = min(rest, yard.rating(c, pay.kind))
        yard.use(c, share, "build", pay.kind)
        rest -= share
    reason = f"into {build.id}"
    yard.purse.take(build.power, pay.place, pay.hx, "ore", pay.amount, reason, rule, into=build)
    return build.paid == build.cost


def _pay(yard: Yard, build: Build, pay: Payment) -> None:
    """R-10.1: paid in full, a build is a craft."""
    if pay_in(yard, build, pay, "support.1.1", "R-10.1"):
        _complete(yard, build, pay.hands[0])


def advance(yard: Yard, build: Build, order: Order | None) -> None:
    """R-10.7: work in progress goes on without an order; an order may name this round's Ore,
    and when that cannot be met it is refused and the build waits."""
    pay = _payment(yard, build, order.get("ore") if order else None)
    if isinstance(pay, str):
        if order is not None:
            yard.world.reject(order, pay)
        return
    _pay(yard, build, pay)


def _complete(yard: Yard, build: Build, builder: Craft) -> None:
    """R-10.1, R-10.1a: a build paid in full is a craft with the build's id, in orbit with its
    builder, carrying its loadout (Support §1.4); its design is completed (no more +10 %)."""
    world = yard.world
    navy = world.navy
    books = world.books
    design = navy.designs[build.design]
    books.change(build.power, build, "ore", -build.cost, f"{build.id} completed", "R-10.1")
    craft = Craft(build.id, build.power, design.id, None, None, builder.id, {"cf": 0})
    navy.add_craft(craft)
    for kind, n in sorted(design.loadout.items()):
        books.change(build.power, craft, kind, n, f"{build.id} built with it", "Support 1.4")
    design.completed = True
    navy.remove_build(build)
    books.event(
        "build.completed",
        powers=(build.power,),
        craft=craft.id,
        design=design.id,
        design_name=design.name,
        builder=builder.id,
    )


def builders_of(yard: Yard, order: Order, field: str = "builders") -> list[Craft] | None:
    """R-10.1, R-10.1a: the order's builders: working construction systems, able to act this
    round, not unbuilding (§1.3), all in one hex (pooling)."""
    world = yard.world
    navy = world.navy
    out = []
    for cid in order[field]:
        craft = navy.craft.get(cid)
        problem = (
            f"no craft {cid} of {order.power}"
            if craft is None or craft.power != order.power
            else f"{cid} has no working construction system"
            if not navy.capacity(craft, "construction")
            else idle(world, craft)
            or (
                f"{cid} unbuilds this round (Support §1.3)"
                if yard.mode.get(cid) == "unbuild"
                else None
            )
        )
        if problem or craft is None:
            world.reject(order, f"{field}: {problem}")
            return None
        out.append(craft)
    if len({navy.hex_of(c) for c in out}) > 1:
        world.reject(order, f"{field}: pooled builders must share one hex (R-10.1a)")
        return None
    return out


def start_build(yard: Yard, order: Order) -> None:
    """Support §1.1, R-10.1, R-10.1a: a new build at one builder, inside when the design fits
    its free workshop space, else external at its hex (any number of builders there pooling).
    Its cost is fixed now; a mobile builder's external build takes Ore only once its gantry
    stands (R-10.7)."""
    world = yard.world
    navy = world.navy
    design = navy.designs.get(order["design"])
    if design is None or design.power != order.power:
        return world.reject(order, f"design: no design {order['design']} of {order.power}")
    if not yard.unused(order):
        return None
    builders = builders_of(yard, order)
    if builders is None:
        return None
    inside = len(builders) == 1 and design.mass <= free_workshop(world, builders[0])
    cost, extra = build_cost(design, navy.fleet.catalogue, design.id in yard.new_designs)
    hx = navy.hex_of(builders[0])
    build = Build(
        order["id"],
        order.power,
        "build",
        design.id,
        [c.id for c in builders],
        inside,
        None if inside else hx,
        cost,
        extra,
        world.round,
        {"ore": 0},
    )
    pay = _payment(yard, build, order.get("ore"))
    if isinstance(pay, str):
        return world.reject(order, pay)
    yard.claim(build.id)
    navy.add_build(build)
    world.books.event(
        "build.started",
        powers=(order.power,),
        step="support.1.1",
        build=build.id,
        design=design.id,
        design_name=design.name,
        hex=None if inside else hx,
        cost=cost,
        surcharge=extra,
    )
    _pay(yard, build, pay)
    return None


def adjust(yard: Yard) -> dict[str, Order]:
    """R-10.7: orders on work in progress: cancel it (a cancelled build returns nothing), or
    name this round's Ore or an external build's builders. Gives the orders naming Ore."""
    world = yard.world
    navy = world.navy
    books = world.books
    books.step = "support.1.1"
    seen: set[str] = set()
    ore: dict[str, Order] = {}
    for order in world.orders.get("adjust_build", ()):
        build = navy.builds.get(order["build"])
        if build is None or build.id in seen:
            world.reject(order, f"build: {order['build']} was cancelled or adjusted already")
            continue
        seen.add(build.id)
        if order.get("cancel"):
            lost = build.paid
            books.change(order.power, build, "ore", -lost, f"{build.id} cancelled", "R-10.7")
            navy.remove_build(build)
            books.event("build.cancelled", powers=(order.power,), build=build.id, ore=lost)
            continue
        if build.kind == "unbuild" and "ore" in order.fields:
            world.reject(order, "ore: an unbuild takes no Ore (R-10.3)")
            continue
        if "builders" in order.fields:
            if build.inside or build.kind != "build":
                world.reject(order, "builders: only an external build changes its builders")
                continue
            if not all(navy.capacity(navy.craft[c], "construction") for c in order["builders"]):
                world.reject(order, "builders: each needs a working construction system")
                continue
            build.builders = list(order["builders"])
        if "ore" in order.fields:
            ore[build.id] = order
    return ore


def gantries(world: World, *, set_up: bool) -> None:
    """R-10.1, R-10.1a, R-10.7: a mobile builder's gantry is lost when its hex changes; one on
    Hold-Build, acting, without a gantry at its hex sets one up this round (no cost), which
    serves from the next round. Statics never need one."""
    navy = world.navy
    for craft in sorted(navy.fleet.craft, key=lambda c: c.id):
        if craft.group is None or not capacity(navy.design(craft), "construction"):
            craft.gantry = None  # only a mobile builder has one (damage does not remove it)
            continue
        hx = navy.hex_of(craft)
        if not set_up and craft.gantry not in (None, hx):
            world.books.event(
                "gantry.lost", powers=(craft.power,), craft=craft.id, hex=craft.gantry
            )
            craft.gantry = None
        elif set_up and craft.gantry != hx and idle(world, craft) is None:
            craft.gantry = hx
            world.books.event("gantry.set_up", powers=(craft.power,), craft=craft.id, hex=hx)
