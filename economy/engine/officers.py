"""Support §5.1: officers: pay, then commissions, promotions, demotions, dismissals and
assignments to craft or groups, in each power's listed order (R-8.2, R-8.2a, R-2b, R-10.7)."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from .command_state import FLAG_RANK, MAX_GRADE, Officer, Penalty
from .navy import Navy
from .posts import Chart, Post, bubble_problem, derive_radii, posts
from .state import Bubble, Craft, Group, GroupLimit, Order
from .world import World

RULE = "R-8.2"
ORDERS = ("commission", "promote", "demote", "dismiss", "assign_officer")


def gal_cost(rank: int) -> int:
    """R-8.2: rank x 50 Gal."""
    return rank * 50


def tp_cost(rank: int, grade: int) -> int:
    """R-8.2: rank x 50 + (grade - 1) x 50 TP."""
    return rank * 50 + (grade - 1) * 50


def value(officer: Officer) -> int:
    """Support §5.1.3: an officer's value is its Gal and TP cost together."""
    return gal_cost(officer.rank) + tp_cost(officer.rank, officer.grade)


def max_points(rank: int) -> int:
    """Support §5.1.1: the largest craft, by point cost, an officer may be aboard."""
    return rank * 50


def penalty_rounds(grade: int) -> int:
    """R-8.2: a demotion by choice weighs on officer rolls for (9 - grade) rounds."""
    return max(0, 9 - grade)


class Staff:
    """The round's officers by id and the post each one commands (rebuilt by ``reindex``)."""

    __slots__ = ("bubbles", "officers", "post_of", "world")

    def __init__(self, world: World) -> None:
        self.world = world
        self.officers: dict[str, Officer] = {o.id: o for o in world.state.command.officers}
        self.bubbles: dict[str, Bubble] = {b.id: b for b in world.state.bubbles}
        self.post_of: dict[str, Post] = {}
        self.reindex()

    def reindex(self) -> None:
        self.post_of = {
            p.officer: p for b in self.world.state.bubbles for p in posts(b) if p.officer
        }

    def get(self, order: Order, key: str = "officer") -> Officer | None:
        """The officer an order names, if it still serves (checked as the power's at entry)."""
        officer = self.officers.get(order[key])
        if officer is None:
            self.world.reject(order, f"{key}: {order[key]} no longer serves")
        return officer

    def add(self, officer: Officer) -> None:
        self.world.state.command.officers.append(officer)
        self.officers[officer.id] = officer

    def remove(self, officer: Officer) -> None:
        self.world.state.command.officers.remove(officer)
        del self.officers[officer.id]

    def problem(self, officer: Officer) -> str | None:
        """What the officer's rank and grade break where it serves (Support §5.1.1, §5.1.3,
        R-2b, R-8.2, R-8.3), or None."""
        world = self.world
        navy = world.navy
        if officer.craft is not None:
            craft = navy.craft.get(officer.craft)
            if craft is None:
                return f"craft {officer.craft} is no longer there"
            problem = aboard_problem(officer, craft, navy)
            if problem is not None:
                return problem
        if officer.group is not None:
            return self.group_problem(officer, officer.group)
        post = self.post_of.get(officer.id)
        if post is not None:  # radii already follow the grade (``_become``)
            return bubble_problem(post.bubble, self.officers, Chart(world.state.bubbles))
        return None

    def group_problem(self, officer: Officer, group_id: str) -> str | None:
        world = self.world
        return command_problem(
            officer,
            world.groups[group_id],
            world.navy,
            self.officers.values(),
            world.state.fleet.group_limits,
        )


def aboard_problem(officer: Officer, craft: Craft, navy: Navy) -> str | None:
    """Support §5.1.1, R-8.2: an officer is aboard a craft of at most rank x 50 points, and a
    flag officer only one with a flag bridge. The one rule for entry and resolution."""
    npv = navy.design(craft).npv
    if npv > max_points(officer.rank):
        return (
            f"{craft.id} ({npv} points) is larger than rank {officer.rank} may be aboard "
            f"({max_points(officer.rank)}, Support §5.1.1)"
        )
    if officer.rank >= FLAG_RANK and not navy.capacity(craft, "flag_bridge"):
        return f"a flag officer (rank {officer.rank}) needs a flag bridge; {craft.id} has none"
    return None


def command_problem(
    officer: Officer,
    group: Group,
    navy: Navy,
    officers: Iterable[Officer],
    limits: Mapping[str, GroupLimit],
) -> str | None:
    """R-2b, Support §5.1.3: the officers commanding a group (``officers``: every officer,
    those commanding it counted) are worth no more than its kind's limit, when the campaign
    sets one; a flag officer needs a flag bridge in it. The one rule for entry and
    resolution."""
    if officer.rank >= FLAG_RANK and not any(
        navy.capacity(c, "flag_bridge") for c in navy.members(group)
    ):
        return f"a flag officer (rank {officer.rank}) needs a flag bridge in group {group.id}"
    limit = limits.get(group.kind)
    if limit is None or limit.officers is None:
        return None
    total = sum(value(o) for o in officers if o.group == group.id and o.id != officer.id)
    total += value(officer)
    if total > limit.officers:
        return (
            f"officers worth {total} exceed the {group.kind} group limit of "
            f"{limit.officers} (R-2b, Support §5.1.3)"
        )
    return None


def pay_officers(world: World) -> None:
    """Support §5.1.2, R-5.9: within §4-§5 officers' pay comes right after Primary upkeep and
    before the remaining player orders (research projects, diplomatic missions, the officer and
    bubble orders), so this part of §5.1 runs after §4's Primaries."""
    world.books.step = "support.5.1"
    pay(Staff(world))


def officers(world: World) -> None:
    """Support §5.1, R-2c: the orders, by power and in listed order; penalties that have run
    out are dropped first."""
    books = world.books
    books.step = "support.5.1"
    staff = Staff(world)
    for officer in staff.officers.values():
        officer.penalties = tuple(p for p in officer.penalties if p.until > world.round)
    orders = sorted(
        (o for kind in ORDERS for o in world.orders.get(kind, ())), key=lambda o: (o.power, o.index)
    )
    for order in orders:
        HANDLERS[order.type](staff, order)


def pay(staff: Staff) -> None:
    """Support §5.1.2, R-8.2a: each officer costs its rank in Gal a round. When the bank cannot
    pay them all they are demoted one rank at a time, highest-paid first (ties: lowest id),
    until the pay fits; at rank 0 one is dismissed. No penalty, no refund (R-10.7)."""
    world = staff.world
    books = world.books
    by_power: dict[str, list[Officer]] = {}
    for o in sorted(staff.officers.values(), key=lambda o: o.id):
        by_power.setdefault(o.power, []).append(o)
    for power in sorted(by_power):
        corps = by_power[power]
        bank = world.powers[power]
        owed = sum(o.rank for o in corps) - bank.store["gal"]
        heap = [(-o.rank, o.id, o) for o in corps]
        heapq.heapify(heap)
        demoted: list[Officer] = []
        while owed > 0:
            _, _, o = heapq.heappop(heap)
            o.rank -= 1
            owed -= 1
            books.record(power, o.where, "rank", -1, f"{o.id} unpaid: demoted", "R-8.2a")
            books.event("officer.unpaid", powers=(power,), officer=o.id, rank=o.rank)
            if o.rank:
                heapq.heappush(heap, (-o.rank, o.id, o))
            if o not in demoted:
                demoted.append(o)
        for o in corps:
            if o.rank:
                books.change(power, bank, "gal", -o.rank, f"pay of {o.id}", RULE)
        for o in demoted:
            _after_unpaid(staff, o)


def _after_unpaid(staff: Staff, officer: Officer) -> None:
    """R-8.2a: a dismissed officer leaves its post (an outpost goes with it, an HQ takes its
    bubble); one still serving keeps its post within its new limits: sensors and patrols
    beyond them go, last placed first; a craft too large for it is left for the reserve."""
    world = staff.world
    post = staff.post_of.get(officer.id)
    if officer.rank == 0:
        staff.remove(officer)
        world.books.event("officer.dismissed", powers=(officer.power,), officer=officer.id)
        if post is not None:
            drop_post(world, post)
            staff.reindex()
        return
    if post is not None:
        trim(world, post, officer)
        return
    if staff.problem(officer) is not None:
        world.books.event(
            "officer.reserve", powers=(officer.power,), officer=officer.id, left=officer.craft
        )
        officer.craft = None


def trim(world: World, post: Post, officer: Officer) -> None:
    """R-8.3: sensors beyond rank + grade and patrols beyond rank leave the post, last first."""
    keep = officer.rank + officer.grade
    for hx in post.sensors[keep:]:
        remove_sensor(world, post, hx, "beyond its officer's limit")
    post.set(sensors=post.sensors[:keep])
    for gid in post.patrols[officer.rank :]:
        world.books.event("patrol.released", powers=(officer.power,), group=gid, hex=post.hex)
    post.set(patrols=post.patrols[: officer.rank])


def remove_sensor(world: World, post: Post, hx: str, why: str) -> None:
    """Support §5.2.2: a sensor taken away is a ledger line (no stockpile) and an event."""
    power = post.bubble.power
    world.books.record(
        power, f"bubble:{post.bubble.id}", "sensor", -1, f"sensor {hx}: {why}", "R-8.3"
    )
    world.books.event("sensor.removed", powers=(power,), bubble=post.bubble.id, hex=hx, why=why)


def drop_post(world: World, post: Post) -> None:
    """An outpost without its officer is removed with its sensors; an HQ, with its bubble."""
    bubble = post.bubble
    gone = posts(bubble) if post.outpost is None else [post]
    for p in gone:
        for hx in p.sensors:
            remove_sensor(world, p, hx, "its post was given up")
    if post.outpost is None:
        world.state.bubbles.remove(bubble)
    else:
        bubble.outposts = tuple(o for o in bubble.outposts if o is not post.outpost)
    world.books.event("post.removed", powers=(bubble.power,), bubble=bubble.id, hex=post.hex)


def _charge(staff: Staff, order: Order, gal: int, tp: int, reason: str) -> bool:
    """R-0.2: Gal and TP from the bank, all or nothing."""
    world = staff.world
    bank = world.powers[order.power]
    for res, need in (("gal", gal), ("tp", tp)):
        if bank.store[res] < need:
            world.reject(order, f"bank has {bank.store[res]} {res}, {reason} needs {need}")
            return False
    books = world.books
    books.change(order.power, bank, "gal", -gal, reason, RULE)
    books.change(order.power, bank, "tp", -tp, reason, RULE)
    return True


def commission(staff: Staff, order: Order) -> None:
    """R-8.2: rank x 50 Gal and rank x 50 + (grade - 1) x 50 TP."""
    rank, grade = order["rank"], order["grade"]
    if not _charge(staff, order, gal_cost(rank), tp_cost(rank, grade), f"commission {order['id']}"):
        return
    officer = Officer(
        order["id"],
        order.power,
        order.get("name") or order["id"],
        rank,
        grade,
        commissioned=staff.world.round,
    )
    staff.add(officer)
    staff.world.books.event(
        "officer.commissioned", powers=(order.power,), officer=officer.id, rank=rank, grade=grade
    )


def promote(staff: Staff, order: Order) -> None:
    """Support §5.1.1, R-8.2: pay the difference in Gal and TP. ``tp: false`` promotes by rank
    without TP: the grade drops by the ranks gained (a grade-1 officer cannot, R-10.7)."""
    officer = staff.get(order)
    if officer is None:
        return
    world = staff.world
    rank = order.get("rank", officer.rank)
    grade = order.get("grade", officer.grade)
    if order.get("tp") is False:
        if "grade" in order.fields:
            world.reject(order, "grade: a promotion without TP sets no grade (it drops, §5.1.1)")
            return
        grade = officer.grade - (rank - officer.rank)
        if grade < 1:
            world.reject(
                order, f"tp: rank {rank} without TP would leave {officer.id} below grade 1 (R-10.7)"
            )
            return
    if rank < officer.rank or grade > MAX_GRADE or (rank, grade) == (officer.rank, officer.grade):
        world.reject(
            order,
            f"rank: rank {rank}, grade {grade} is no promotion of {officer.id} (rank "
            f"{officer.rank}, grade {officer.grade}; grade at most {MAX_GRADE})",
        )
        return
    tp = tp_cost(rank, grade) - tp_cost(officer.rank, officer.grade)
    if tp < 0:
        world.reject(order, f"grade: a promotion refunds no TP ({tp}); demote instead")
        return
    problem = _trial(staff, officer, rank, grade)
    if problem is not None:
        world.reject(order, problem)
    elif _charge(
        staff, order, gal_cost(rank) - gal_cost(officer.rank), tp, f"promote {officer.id}"
    ):
        _become(staff, officer, rank, grade)
        world.books.event(
            "officer.promoted", powers=(order.power,), officer=officer.id, rank=rank, grade=grade
        )


def demote(staff: Staff, order: Order) -> None:
    """R-8.2: -1 per rank demoted to officer rolls for (9 - grade) rounds; nothing refunded."""
    officer = staff.get(order)
    if officer is None:
        return
    world = staff.world
    rank: int = order["rank"]
    if rank >= officer.rank:
        world.reject(order, f"rank: {officer.id} is rank {officer.rank}; demote below it")
        return
    problem = _trial(staff, officer, rank, officer.grade)
    if problem is not None:
        world.reject(order, problem)
        return
    before = officer.rank
    _become(staff, officer, rank, officer.grade)
    rounds = penalty_rounds(officer.grade)
    if rounds:
        officer.penalties = (*officer.penalties, Penalty(rank - before, world.round + rounds))
    world.books.record(
        order.power, officer.where, "rank", rank - before, f"{officer.id} demoted", RULE
    )
    world.books.event(
        "officer.demoted",
        powers=(order.power,),
        officer=officer.id,
        rank=rank,
        rolls=rank - before,
        rounds=rounds,
    )


def _trial(staff: Staff, officer: Officer, rank: int, grade: int) -> str | None:
    """What rank and grade would break where the officer serves; nothing is changed."""
    before = (officer.rank, officer.grade)
    _become(staff, officer, rank, grade)
    problem = staff.problem(officer)
    _become(staff, officer, *before)
    return problem


def _become(staff: Staff, officer: Officer, rank: int, grade: int) -> None:
    """Set rank and grade; a post's radius follows the grade (R-8.3a)."""
    officer.rank, officer.grade = rank, grade
    post = staff.post_of.get(officer.id)
    if post is not None:
        derive_radii(post.bubble, staff.officers)


def dismiss(staff: Staff, order: Order) -> None:
    """Support §5.1.1: an officer commanding a post is replaced there first."""
    officer = staff.get(order)
    if officer is None:
        return
    post = staff.post_of.get(officer.id)
    if post is not None:
        staff.world.reject(
            order, f"officer: {officer.id} commands {post.name()}; post another first"
        )
        return
    staff.remove(officer)
    staff.world.books.event("officer.dismissed", powers=(order.power,), officer=officer.id)


def assign(staff: Staff, order: Order) -> None:
    """Support §5.1.3: aboard a craft (within its maximum points, a flag officer with a flag
    bridge), in command of a group (within its limit, R-2b), or neither (the reserve)."""
    officer = staff.get(order)
    if officer is None:
        return
    world = staff.world
    post = staff.post_of.get(officer.id)
    if post is not None:
        world.reject(order, f"officer: {officer.id} commands {post.name()}; post another first")
        return
    craft, group = order.get("craft"), order.get("group")
    if craft is not None and group is not None:
        world.reject(order, "group: an officer is aboard a craft or commands a group, not both")
        return
    if craft is not None and craft not in world.navy.craft:
        world.reject(order, f"craft: {craft} is not a finished craft this round")
        return
    if group is not None and group not in world.groups:
        world.reject(order, f"group: {group} is not a group this round")
        return
    before = (officer.craft, officer.group)
    officer.craft, officer.group = craft, None
    problem = staff.group_problem(officer, group) if group else staff.problem(officer)
    if problem is not None:
        officer.craft, officer.group = before
        world.reject(order, problem)
        return
    officer.group = group
    world.books.event(
        "officer.assigned", powers=(order.power,), officer=officer.id, craft=craft, group=group
    )


HANDLERS = {
    "commission": commission,
    "promote": promote,
    "demote": demote,
    "dismiss": dismiss,
    "assign_officer": assign,
}
