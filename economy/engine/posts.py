"""Support §5.2: the posts of command bubbles (the HQ and its outposts), what they cover and
what their officers allow (R-8.2, R-8.3, R-8.3a). Shared by the officers' and the bubbles'
steps, so that a change of rank or grade and a change of structure are judged alike."""

from __future__ import annotations

from dataclasses import dataclass

from .command_state import Officer
from .hexgrid import within
from .rules import hex_distance, hex_of
from .state import Bubble, Outpost

OVERLAP = "overlaps another bubble"  # R-8.3a: the refusal says no more (Support §5.2.6)


@dataclass(frozen=True, slots=True)
class Post:
    """The HQ of ``bubble`` (``outpost`` None) or one of its outposts."""

    bubble: Bubble
    outpost: Outpost | None

    @property
    def hex(self) -> str:
        return self.outpost.hex if self.outpost else self.bubble.hq

    @property
    def radius(self) -> int:
        return self.outpost.radius if self.outpost else self.bubble.radius

    @property
    def officer(self) -> str | None:
        return self.outpost.officer if self.outpost else self.bubble.officer

    @property
    def sensors(self) -> tuple[str, ...]:
        return self.outpost.sensors if self.outpost else self.bubble.sensors

    @property
    def patrols(self) -> tuple[str, ...]:
        return self.outpost.patrols if self.outpost else self.bubble.patrols

    def set(self, **changes: object) -> None:
        """Change the post's ``officer``, ``radius``, ``sensors`` or ``patrols``."""
        target: Bubble | Outpost = self.outpost or self.bubble
        for key, value in changes.items():
            setattr(target, key, value)

    def name(self) -> str:
        return f"{'outpost' if self.outpost else 'HQ'} {self.hex} of {self.bubble.id}"


def posts(bubble: Bubble) -> list[Post]:
    """The HQ first, then the outposts in their order."""
    return [Post(bubble, None), *(Post(bubble, o) for o in bubble.outposts)]


def post_at(bubble: Bubble, hx: str) -> Post | None:
    return next((p for p in posts(bubble) if p.hex == hx), None)


def disc(hx: str, radius: int) -> set[str]:
    return {str(h) for h in within(hex_of(hx), radius)}


def cover(bubble: Bubble) -> set[str]:
    """Contracts §1: every hex within the radius of the HQ or of an outpost."""
    out: set[str] = set()
    for p in posts(bubble):
        out |= disc(p.hex, p.radius)
    return out


def senior(over: Officer, under: Officer) -> bool:
    """R-8.2, Support §5.2.1: ``under`` is of lower rank, or the same rank and lower grade."""
    return (over.rank, over.grade) > (under.rank, under.grade)


def sensor_limit(officer: Officer) -> int:
    """R-8.3: sensors per HQ or outpost beyond its free array."""
    return officer.rank + officer.grade


class Chart:
    """Which bubble covers each hex (R-8.3: bubbles of any powers never overlap)."""

    __slots__ = ("at", "covers")

    def __init__(self, bubbles: list[Bubble]) -> None:
        self.at: dict[str, str] = {}
        self.covers: dict[str, set[str]] = {}
        for b in sorted(bubbles, key=lambda b: b.id):
            self.place(b)

    def place(self, bubble: Bubble) -> None:
        self.remove(bubble.id)
        self.covers[bubble.id] = cover(bubble)
        for hx in self.covers[bubble.id]:
            self.at.setdefault(hx, bubble.id)

    def remove(self, bubble_id: str) -> None:
        for hx in self.covers.pop(bubble_id, ()):
            if self.at.get(hx) == bubble_id:
                del self.at[hx]

    def overlaps(self, bubble_id: str, hexes: set[str]) -> bool:
        return any(self.at.get(hx, bubble_id) != bubble_id for hx in hexes)


def bubble_problem(bubble: Bubble, officers: dict[str, Officer], chart: Chart) -> str | None:
    """What breaks R-8.2 / R-8.3 in ``bubble`` as it stands (radii already derived), or None:
    the chain of command, outposts within the HQ's radius, sensors within their post's radius
    and limit, patrols within the officer's rank, and no overlap with another bubble."""
    hq = officers.get(bubble.officer or "")
    for o in bubble.outposts:
        if hex_distance(bubble.hq, o.hex) > bubble.radius:
            return f"outpost {o.hex} is beyond the HQ's radius {bubble.radius} (R-8.3)"
        junior = officers.get(o.officer or "")
        if hq is not None and junior is not None and not senior(hq, junior):
            return (
                f"chain of command: {junior.id} (rank {junior.rank}, grade {junior.grade}) "
                f"may not serve under {hq.id} (rank {hq.rank}, grade {hq.grade}) (R-8.2)"
            )
    for p in posts(bubble):
        far = [s for s in p.sensors if hex_distance(p.hex, s) > p.radius]
        if far:
            return f"sensor {far[0]} is beyond the radius {p.radius} of {p.name()} (R-8.3)"
        officer = officers.get(p.officer or "")
        if officer is None:
            continue
        if len(p.sensors) > sensor_limit(officer):
            return (
                f"{p.name()} may have {sensor_limit(officer)} sensors (rank + grade of "
                f"{officer.id}), not {len(p.sensors)} (R-8.3)"
            )
        if len(p.patrols) > officer.rank:
            return (
                f"{p.name()} may have {officer.rank} groups on patrol (rank of {officer.id}), "
                f"not {len(p.patrols)} (R-8.3)"
            )
    if chart.overlaps(bubble.id, cover(bubble)):
        return OVERLAP
    return None


def derive_radii(bubble: Bubble, officers: dict[str, Officer]) -> None:
    """R-8.3a: a post's radius is its officer's grade."""
    for p in posts(bubble):
        officer = officers.get(p.officer or "")
        if officer is not None:
            p.set(radius=officer.grade)
