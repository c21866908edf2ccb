"""Support §5.2: command bubbles: HQs, outposts, sensors, officers posted and groups on patrol,
then sensor maintenance in Ore (R-8.3, R-8.3a, R-10.7). Bubbles are secret (Support §5.2.6):
events and ledger lines go to their power only, and a refusal for overlap says no more than
``posts.OVERLAP``."""

from __future__ import annotations

from itertools import combinations

from .command_state import Officer
from .officers import Staff, remove_sensor
from .posts import OVERLAP, Chart, Post, bubble_problem, derive_radii, disc, post_at, posts
from .reach import Purse
from .rules import hex_distance
from .state import Bubble, Order, Outpost
from .world import World

RULE = "R-8.3"
STEP = "support.5"  # R-4.5a: all of §5's Ore is one step
HQ_ORE = 30  # Support §5.2.1
OUTPOST_ORE = 15
SENSOR_ORE = 10
SENSOR_UPKEEP = 5  # Support §5.2.2


class Desk:
    """One §5.2 step: the staff, the chart of every power's bubbles and the Ore purse."""

    __slots__ = ("chart", "purse", "refused", "staff", "world")

    def __init__(self, world: World) -> None:
        self.world = world
        self.staff = Staff(world)
        self.chart = Chart(world.state.bubbles)
        self.purse = Purse(world, STEP)
        self.refused: set[tuple[str, int]] = set()

    def bubble(self, order: Order) -> Bubble | None:
        bubble = self.staff.bubbles.get(order["bubble"])
        if bubble is None or bubble not in self.world.state.bubbles:
            self.world.reject(order, f"bubble: {order['bubble']} is not set up")
            return None
        return bubble

    def post(self, order: Order, bubble: Bubble, key: str = "post") -> Post | None:
        post = post_at(bubble, order[key])
        if post is None:
            self.world.reject(order, f"{key}: {bubble.id} has no HQ or outpost at {order[key]}")
        return post

    def free_officer(self, order: Order) -> Officer | None:
        """An officer not commanding another post (one aboard a craft or group leaves it)."""
        officer = self.staff.get(order)
        if officer is None:
            return None
        post = self.staff.post_of.get(officer.id)
        if post is not None:
            self.world.reject(order, f"officer: {officer.id} already commands {post.name()}")
            return None
        return officer

    def pay(self, order: Order, bubble: Bubble, ore: int, reason: str) -> bool:
        """R-10.7: from the hub pool covering the HQ, else the stockpile of the HQ's system."""
        place = self.purse.place(order.power, bubble.hq)
        problem = self.purse.short(place, bubble.hq, "ore", ore)
        if place is None or problem is not None:
            self.world.reject(order, f"ore: {problem}")
            return False
        self.purse.take(order.power, place, bubble.hq, "ore", ore, reason, RULE)
        return True

    def check(self, order: Order, bubble: Bubble) -> bool:
        derive_radii(bubble, self.staff.officers)
        problem = bubble_problem(bubble, self.staff.officers, self.chart)
        if problem is not None:
            self.world.reject(order, problem)
            return False
        return True


def bubbles(world: World) -> None:
    """Support §5.2, R-2c: patrols whose group left Hold-Patrol are released; the orders by
    power and in listed order (an HQ or outpost whose area would overlap another set up this
    round is refused, and so is that one, R-8.3a); then sensor maintenance."""
    world.books.step = "support.5.2"
    cmd = Desk(world)
    _release_patrols(cmd)
    _same_round_overlaps(cmd)
    orders = sorted(
        (o for kind in ORDERS for o in world.orders.get(kind, ())), key=lambda o: (o.power, o.index)
    )
    for order in orders:
        if (order.power, order.index) in cmd.refused:
            world.reject(order, OVERLAP)
        else:
            HANDLERS[order.type](cmd, order)
    maintain(cmd)


def _same_round_overlaps(cmd: Desk) -> None:
    """R-8.3a: two HQs or outposts set up this round for different bubbles whose areas (the
    officer's grade around the hex) would overlap are both refused."""
    staff = cmd.staff
    areas: list[tuple[Order, str, set[str]]] = []
    for kind, key in (("bubble_hq", "id"), ("bubble_outpost", "bubble")):
        for order in cmd.world.orders.get(kind, ()):
            officer = staff.officers.get(order["officer"])
            if officer is not None:
                areas.append((order, order[key], disc(order["hex"], officer.grade)))
    for (a, bubble_a, area_a), (b, bubble_b, area_b) in combinations(areas, 2):
        if bubble_a != bubble_b and area_a & area_b:
            cmd.refused.update({(a.power, a.index), (b.power, b.index)})


def hq(cmd: Desk, order: Order) -> None:
    """Support §5.2.1, R-8.3: 30 Ore, on a held system or a military static of the power."""
    world = cmd.world
    hx = order["hex"]
    system = world.system_at.get(hx)
    held = system is not None and system.holder == order.power
    held = held and system is not None and world.effective_loyalty(system) > 0
    military = any(not s.civilian and s.power == order.power for s in world.statics_at.get(hx, ()))
    if not (held or military):
        world.reject(order, f"hex: {hx} is neither a held system nor a military static of yours")
        return
    officer = cmd.free_officer(order)
    if officer is None:
        return
    bubble = Bubble(order["id"], order.power, hx, officer.grade, officer=officer.id)
    if not cmd.check(order, bubble) or not cmd.pay(order, bubble, HQ_ORE, f"HQ {bubble.id}"):
        return
    world.state.bubbles.append(bubble)
    cmd.staff.bubbles[bubble.id] = bubble
    cmd.chart.place(bubble)
    _post(cmd, officer)
    world.books.event("bubble.set_up", powers=(order.power,), bubble=bubble.id, hex=hx)


def outpost(cmd: Desk, order: Order) -> None:
    """Support §5.2.1: 15 Ore, within the HQ's radius, commanded by a junior officer."""
    bubble = cmd.bubble(order)
    officer = cmd.free_officer(order) if bubble else None
    if bubble is None or officer is None:
        return
    if post_at(bubble, order["hex"]) is not None:
        cmd.world.reject(order, f"hex: {bubble.id} already has a post at {order['hex']}")
        return
    before = bubble.outposts
    bubble.outposts = (*before, Outpost(order["hex"], officer.grade, officer.id))
    if not cmd.check(order, bubble) or not cmd.pay(
        order, bubble, OUTPOST_ORE, f"outpost {order['hex']} of {bubble.id}"
    ):
        bubble.outposts = before
        return
    _post(cmd, officer)
    cmd.chart.place(bubble)
    cmd.world.books.event(
        "bubble.outpost", powers=(order.power,), bubble=bubble.id, hex=order["hex"]
    )


def sensor(cmd: Desk, order: Order) -> None:
    """Support §5.2.1, R-8.3: 10 Ore, within the post's radius, at most rank + grade a post."""
    bubble = cmd.bubble(order)
    post = cmd.post(order, bubble) if bubble else None
    if bubble is None or post is None:
        return
    hx = order["hex"]
    if hx in post.sensors:
        cmd.world.reject(order, f"hex: {post.name()} already has a sensor at {hx}")
        return
    before = post.sensors
    post.set(sensors=(*before, hx))
    if not cmd.check(order, bubble) or not cmd.pay(
        order, bubble, SENSOR_ORE, f"sensor {hx} of {bubble.id}"
    ):
        post.set(sensors=before)
        return
    cmd.world.books.event("sensor.placed", powers=(order.power,), bubble=bubble.id, hex=hx)


def remove_sensor_order(cmd: Desk, order: Order) -> None:
    """Support §5.2.2 (docs/rules.md, "Removing a sensor"): the power takes one of a post's
    sensors away, free and with nothing back; it pays no upkeep from this round, and its place
    under the post's rank + grade is free for a sensor placed after it in listed order."""
    bubble = cmd.bubble(order)
    post = cmd.post(order, bubble) if bubble else None
    if bubble is None or post is None:
        return
    hx = order["hex"]
    if hx not in post.sensors:
        cmd.world.reject(order, f"hex: {post.name()} has no sensor at {hx}")
        return
    remove_sensor(cmd.world, post, hx, "removed by order")
    post.set(sensors=tuple(s for s in post.sensors if s != hx))


def post_officer(cmd: Desk, order: Order) -> None:
    """Support §5.2.3: an officer takes command of a post; one already commanding another post
    of the bubble moves within its own radius and the two swap. The officer replaced goes to
    the reserve (or to the mover's old post)."""
    bubble = cmd.bubble(order)
    post = cmd.post(order, bubble) if bubble else None
    officer = cmd.staff.get(order) if bubble and post else None
    if bubble is None or post is None or officer is None:
        return
    world = cmd.world
    old = cmd.staff.post_of.get(officer.id)
    if old is not None and old.bubble is not bubble:
        world.reject(order, f"officer: {officer.id} commands {old.name()}, in another bubble")
        return
    if old is not None and hex_distance(old.hex, post.hex) > officer.grade:
        world.reject(order, f"post: {post.hex} is beyond {officer.id}'s radius {officer.grade}")
        return
    replaced = post.officer
    post.set(officer=officer.id)
    if old is not None:
        old.set(officer=replaced)
    if not cmd.check(order, bubble):
        post.set(officer=replaced)
        if old is not None:
            old.set(officer=officer.id)
        derive_radii(bubble, cmd.staff.officers)
        return
    _post(cmd, officer)
    cmd.chart.place(bubble)
    world.books.event(
        "officer.posted", powers=(order.power,), officer=officer.id, bubble=bubble.id, hex=post.hex
    )


def patrol(cmd: Desk, order: Order) -> None:
    """Support §5.2.4: a group on Hold-Patrol at a post, at most the officer's rank a post;
    first within the post's radius, after that only to a post within the radius of the one it
    is at."""
    bubble = cmd.bubble(order)
    post = cmd.post(order, bubble) if bubble else None
    if bubble is None or post is None:
        return
    world = cmd.world
    group = world.groups[order["group"]]
    if group.order != "hold_patrol":
        world.reject(order, f"group: {group.id} is not on Hold-Patrol this round")
        return
    old = next((p for b in world.state.bubbles for p in posts(b) if group.id in p.patrols), None)
    if old is not None and old.bubble is not bubble:
        world.reject(order, f"group: {group.id} patrols for another bubble")
        return
    origin, reach = (old.hex, old.radius) if old else (group.hex, post.radius)
    if hex_distance(origin, post.hex) > reach:
        where = f"{old.name()}'s radius" if old else f"{post.name()}'s radius"
        world.reject(order, f"post: {post.hex} is beyond {where} ({reach})")
        return
    if old is not None:
        old.set(patrols=tuple(g for g in old.patrols if g != group.id))
    post.set(patrols=(*post.patrols, group.id))
    if not cmd.check(order, bubble):
        post.set(patrols=tuple(g for g in post.patrols if g != group.id))
        if old is not None:
            old.set(patrols=(*old.patrols, group.id))
        return
    world.books.event("patrol.assigned", powers=(order.power,), group=group.id, hex=post.hex)


def _post(cmd: Desk, officer: Officer) -> None:
    """An officer commanding a post is aboard nothing (Support §5.2.1)."""
    officer.craft = officer.group = None
    cmd.staff.reindex()


def _release_patrols(cmd: Desk) -> None:
    """Support §5.2.4: only groups on Hold-Patrol patrol."""
    world = cmd.world
    for bubble in sorted(world.state.bubbles, key=lambda b: b.id):
        for p in posts(bubble):
            gone = [g for g in p.patrols if world.groups[g].order != "hold_patrol"]
            for gid in gone:
                world.books.event("patrol.released", powers=(bubble.power,), group=gid, hex=p.hex)
            p.set(patrols=tuple(g for g in p.patrols if g not in gone))


def maintain(cmd: Desk) -> None:
    """Support §5.2.2, R-8.3, R-10.7: 5 Ore per sensor (the free arrays excepted), bubbles by id,
    the HQ's sensors then each outpost's, from the Ore reaching the HQ; sensors placed this
    round pay too. Those that cannot be paid are removed."""
    world = cmd.world
    for bubble in sorted(world.state.bubbles, key=lambda b: b.id):
        sensors = [(p, hx) for p in posts(bubble) for hx in p.sensors]
        if not sensors:
            continue
        place = cmd.purse.place(bubble.power, bubble.hq)
        usable = 0 if place is None else cmd.purse.usable(place, bubble.hq, "ore")
        paid = min(len(sensors), usable // SENSOR_UPKEEP)
        if place is not None and paid:
            reason = f"maintenance of {paid} sensors of {bubble.id}"
            cmd.purse.take(
                bubble.power, place, bubble.hq, "ore", paid * SENSOR_UPKEEP, reason, RULE
            )
        for p, hx in sensors[paid:]:
            remove_sensor(world, p, hx, "maintenance unpaid")
            p.set(sensors=tuple(s for s in p.sensors if s != hx))


HANDLERS = {
    "bubble_hq": hq,
    "bubble_outpost": outpost,
    "bubble_sensor": sensor,
    "remove_sensor": remove_sensor_order,
    "post_officer": post_officer,
    "patrol": patrol,
}
ORDERS = tuple(HANDLERS)
