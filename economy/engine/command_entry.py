"""The chain of command at entry (R-2b, R-8.2, R-8.3, R-8.3a): an officer's assignment and
the posts of command bubbles, judged when an order is entered by the very rules the round's
steps apply (``officers.aboard_problem``, ``officers.command_problem``,
``posts.bubble_problem``), on what is known at entry: the officers and every power's bubbles
as they stand, and the ordering power's fleet. Resolution judges them again as the round
unfolds (R-0.2); anything entry cannot know yet (an officer commissioned on the same sheet
with no rank given, a craft still being built) is left to it.

A bubble that would overlap another power's is refused with ``posts.OVERLAP`` and nothing
more (R-8.3a, Support §5.2.6): the other bubble is never named nor placed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .command_state import MAX_GRADE, Officer
from .navy import Navy
from .officers import aboard_problem, command_problem
from .posts import OVERLAP, Chart, bubble_problem, derive_radii, post_at, posts
from .state import Bubble, Group, GroupLimit, Outpost

#: the order types whose chain of command is checked at entry
CHECKED = (
    "promote",
    "demote",
    "assign_officer",
    "bubble_hq",
    "bubble_outpost",
    "bubble_sensor",
    "post_officer",
    "patrol",
)


@dataclass(slots=True)
class Desk:
    """What entry knows: ``officers`` by id (the ordering power's, with those commanding a
    post of any power), ``bubbles`` of every power with their posts, and the ordering power's
    ``navy`` and ``groups`` with the campaign's group ``limits``."""

    officers: dict[str, Officer]
    bubbles: list[Bubble]
    navy: Navy | None = None
    groups: dict[str, Group] = field(default_factory=dict)
    limits: dict[str, GroupLimit] = field(default_factory=dict)


def entry_problem(desk: Desk, power: str, kind: str, order: dict[str, Any]) -> str | None:
    """``field: problem`` for an order whose officer or post breaks the chain of command as
    things stand, or None. Ownership and existence were checked before (``validate``)."""
    if kind == "assign_officer":
        return _assign(desk, order)
    if kind in ("promote", "demote"):
        return _new_rank(desk, kind, order)
    officer = desk.officers.get(order.get("officer", ""))
    bubbles = [b.copy() for b in desk.bubbles]
    for b in bubbles:
        derive_radii(b, desk.officers)
    mine = next((b for b in bubbles if b.id == order.get("bubble") and b.power == power), None)
    posted = officer is not None and any(p.officer == officer.id for b in bubbles for p in posts(b))
    if posted and kind in ("bubble_hq", "bubble_outpost"):
        return None  # it commands a post already: the step names that
    if kind == "bubble_hq":
        if officer is None:
            return None
        bubble = Bubble(order["id"], power, order["hex"], officer.grade, officer=officer.id)
        bubbles.append(bubble)
        return _judge(desk, bubble, bubbles, "hex")
    if mine is None:
        return None
    if kind == "bubble_outpost":
        if officer is None or post_at(mine, order["hex"]) is not None:
            return None
        mine.outposts = (*mine.outposts, Outpost(order["hex"], officer.grade, officer.id))
        return _judge(desk, mine, bubbles, "hex")
    post = post_at(mine, order["post"])
    if post is None:  # perhaps an outpost set up earlier on the same sheet: resolution judges
        return None
    if kind == "bubble_sensor":
        if order["hex"] not in post.sensors:
            post.set(sensors=(*post.sensors, order["hex"]))
        return _judge(desk, mine, bubbles, "hex")
    if kind == "post_officer":
        if officer is None:
            return None
        old = next((p for p in posts(mine) if p.officer == officer.id), None)
        if old is not None:  # the two swap (Support §5.2.3)
            old.set(officer=post.officer)
        post.set(officer=officer.id)
        return _judge(desk, mine, bubbles, "officer")
    if kind == "patrol" and order["group"] not in post.patrols:
        for p in posts(mine):
            p.set(patrols=tuple(g for g in p.patrols if g != order["group"]))
        post.set(patrols=(*post.patrols, order["group"]))
        return _judge(desk, mine, bubbles, "group")
    return None


def _judge(desk: Desk, bubble: Bubble, bubbles: list[Bubble], name: str) -> str | None:
    derive_radii(bubble, desk.officers)
    chart = Chart([b for b in bubbles if b.id != bubble.id])
    problem = bubble_problem(bubble, desk.officers, chart)
    if problem is None:
        return None
    if problem == OVERLAP:
        return f"hex: {OVERLAP}"
    if problem.startswith("chain of command"):
        name = "officer"
    return f"{name}: {problem}"


def _new_rank(desk: Desk, kind: str, order: dict[str, Any]) -> str | None:
    """R-8.2: a promotion or demotion whose new rank and grade the officer's craft, group or
    post would not allow (as ``officers._trial`` judges it in the step). Whether it is a
    promotion at all, and its cost, are the step's to judge."""
    officer = desk.officers.get(order["officer"])
    if officer is None:
        return None
    rank: int = order.get("rank", officer.rank)
    grade: int = order.get("grade", officer.grade) if kind == "promote" else officer.grade
    if kind == "promote" and order.get("tp") is False:
        grade = officer.grade - (rank - officer.rank)
    if rank < 1 or not 1 <= grade <= MAX_GRADE:
        return None
    trial = officer.copy()
    trial.rank, trial.grade = rank, grade
    officers = {**desk.officers, trial.id: trial}
    problem: str | None = None
    navy = desk.navy
    if navy is not None and (craft := navy.craft.get(trial.craft or "")) is not None:
        problem = aboard_problem(trial, craft, navy)
    elif navy is not None and (group := desk.groups.get(trial.group or "")) is not None:
        problem = command_problem(trial, group, navy, officers.values(), desk.limits)
    else:
        bubble = next((b.copy() for b in desk.bubbles if _commands(b, trial.id)), None)
        if bubble is not None:
            derive_radii(bubble, officers)
            others = [b.copy() for b in desk.bubbles if b.id != bubble.id]
            for b in others:
                derive_radii(b, desk.officers)
            problem = bubble_problem(bubble, officers, Chart(others))
    if problem is None:
        return None
    name = "rank" if "rank" in order else "grade"
    return f"{name}: {OVERLAP}" if problem == OVERLAP else f"{name}: {problem}"


def _commands(bubble: Bubble, officer: str) -> bool:
    return any(p.officer == officer for p in posts(bubble))


def _assign(desk: Desk, order: dict[str, Any]) -> str | None:
    officer = desk.officers.get(order["officer"])
    navy = desk.navy
    if officer is None or navy is None:
        return None
    craft = navy.craft.get(order.get("craft", ""))
    if craft is not None:
        problem = aboard_problem(officer, craft, navy)
        return f"craft: {problem}" if problem else None
    group = desk.groups.get(order.get("group", ""))
    if group is not None:
        problem = command_problem(officer, group, navy, desk.officers.values(), desk.limits)
        return f"group: {problem}" if problem else None
    return None
