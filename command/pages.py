"""Reads for a power's Command page (issue 16): its officers with their pay, penalties, post and
chain of command; its command bubbles with their posts, sensors, patrols and Ore upkeep; its
research craft with the TP each would make where it is; its diplomats and the missions it
declared. Only the power's own rows are read (Support §5.2.6: bubbles are secret), in a fixed
number of queries whatever how many officers or bubbles it has; every figure comes from the
engine's own rules (``officers``, ``posts``, ``bubbles``, ``missions``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from economy.engine.bubbles import SENSOR_UPKEEP
from economy.engine.command_state import FLAG_RANK, SpecialInterest
from economy.engine.command_state import Officer as EngineOfficer
from economy.engine.missions import ACTING, hex_factor, mission_tp
from economy.engine.officers import max_points
from economy.engine.posts import derive_radii, sensor_limit
from economy.engine.state import Bubble, Craft, Outpost
from economy.events import MISSION_WORDS, ORDERS
from fleet.selectors import PowerFleet, shown
from powers.db import hex_code
from powers.maps import HEX_TYPE_LABELS
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    CommandBubble,
    MapHex,
    Power,
)
from powers.models.command import (
    CommandSettings,
    Diplomat,
    Mission,
    Officer,
    OutpostSensor,
    PostPatrol,
)


@dataclass(frozen=True)
class OfficerRow:
    key: str
    name: str
    rank: int
    grade: int
    max_points: int  # Support §5.1.1: rank x 50
    pay: int  # rank Gal per round
    flag: bool  # rank 14 and above (needs a flag bridge)
    penalties: list[str]
    where: str
    chain: str


@dataclass(frozen=True)
class PostRow:
    """The HQ (``outpost`` False) or an outpost of a bubble."""

    hex: str
    place: str  # the system there, or the hex type
    outpost: bool
    officer: str
    radius: int  # R-8.3a: its officer's grade
    sensors: list[str]
    sensor_limit: int | None  # rank + grade beyond the free array (None: no officer)
    patrols: list[str]
    patrol_limit: int | None  # the officer's rank

    @property
    def label(self) -> str:
        return f"{'Outpost' if self.outpost else 'HQ'} {self.hex}"


@dataclass(frozen=True)
class BubbleRow:
    key: str
    shown: str
    hq: str
    place: str
    posts: list[PostRow]

    @property
    def sensors(self) -> int:
        return sum(len(p.sensors) for p in self.posts)

    @property
    def upkeep(self) -> int:
        """Support §5.2.2: 5 Ore per paid sensor per round (the free arrays are not kept here)."""
        return self.sensors * SENSOR_UPKEEP


@dataclass(frozen=True)
class ResearchRow:
    craft: str
    group: str  # its group's name, or "" (not in a group: no missions)
    hex: str
    hex_type: str
    capacity: int
    passenger: int
    researchers: int
    order: str  # its group's standing order in words
    researching: bool  # on Hold-Research, in supply and not interrupted
    factor: int
    tp: int  # at its hex now


@dataclass(frozen=True)
class DiplomatRow:
    key: str
    name: str
    craft: str
    hex: str


@dataclass(frozen=True)
class MissionRow:
    key: str
    diplomat: str
    target: str
    kind: str
    system: str
    declared: int
    spent: str
    outcome: str  # the admin's outcome text; "" while it waits


@dataclass(frozen=True)
class InterestView:
    """R-8.1a: the Area of Special Interest, public while announced or active."""

    hex: str
    announced: int
    starts: int
    ends: int
    active: bool

    @property
    def words(self) -> str:
        state = "active now" if self.active else f"active from round {self.starts}"
        return (
            f"Area of Special Interest at {self.hex}: announced in round {self.announced}, "
            f"active rounds {self.starts}–{self.ends} ({state}; research there earns ×5)"
        )


@dataclass
class CommandPage:
    power: Power
    round: int
    officers: list[OfficerRow] = field(default_factory=list)
    bubbles: list[BubbleRow] = field(default_factory=list)
    research: list[ResearchRow] = field(default_factory=list)
    diplomats: list[DiplomatRow] = field(default_factory=list)
    missions: list[MissionRow] = field(default_factory=list)
    interest: InterestView | None = None

    @property
    def pay(self) -> int:
        return sum(o.pay for o in self.officers)

    @property
    def upkeep(self) -> int:
        return sum(b.upkeep for b in self.bubbles)


def special_interest(settings: CommandSettings | None, round_number: int) -> InterestView | None:
    """R-8.1a: the campaign's Area of Special Interest while it is announced or active (the
    engine drops it at the first resolution after its last round)."""
    if settings is None or settings.interest_col is None or settings.interest_row is None:
        return None
    si = SpecialInterest(
        hex_code(settings.interest_col, settings.interest_row),
        settings.interest_announced,
        settings.interest_starts,
        settings.interest_ends,
    )
    if not si.shown(round_number):
        return None
    return InterestView(si.hex, si.announced, si.starts, si.ends, si.active(round_number))


def _name(power: Power, key: str, name: str) -> str:
    """A character by its name; one commissioned without a name is named by its id (the engine
    names it so), shown as its power typed it."""
    return name if name and name != key else shown(power, key)


def command_page(*, power: Power) -> CommandPage:
    """Everything on a power's Command page (``power`` from the access gate): 20 queries,
    whatever the number of its officers, bubbles, craft or diplomats."""
    rnd = power.campaign.current_round
    settings = CommandSettings.objects.filter(campaign_id=power.campaign_id).first()
    interest = special_interest(settings, rnd)
    fleet = PowerFleet.of(power)
    officers = _officers(power)
    bubbles, post_of = _bubbles(power, officers)
    names = {k: _name(power, k, o.name) for k, o in officers.items()}
    rows = [_officer_row(power, fleet, o, names, post_of.get(k), rnd) for k, o in officers.items()]
    page = CommandPage(power=power, round=rnd, officers=rows, interest=interest)
    craft = _research_craft(fleet)
    hexes = _hexes(
        power,
        {hx for b in bubbles for hx, _ in posts_of(b)} | {fleet.navy.hex_of(c) for c in craft},
    )
    page.bubbles = [_bubble_row(power, b, officers, names, hexes) for b in bubbles]
    page.research = _research(fleet, craft, hexes, interest)
    page.diplomats, page.missions = _diplomats(power, fleet)
    return page


# --- officers -----------------------------------------------------------------------------


@dataclass
class _Officer:
    key: str
    name: str
    rank: int
    grade: int
    craft: str | None
    group: str | None
    penalties: list[dict[str, int]]

    def engine(self) -> EngineOfficer:
        return EngineOfficer(self.key, "", self.name, self.rank, self.grade)


def _officers(power: Power) -> dict[str, _Officer]:
    return {
        key: _Officer(key, name, rank, grade, craft, group, penalties)
        for key, name, rank, grade, craft, group, penalties in Officer.objects.filter(power=power)
        .order_by("-rank", "-grade", "key")
        .values_list("key", "name", "rank", "grade", "craft__key", "group__key", "penalties")
    }


@dataclass(frozen=True)
class _PostOf:
    """Where an officer is posted: its bubble, the post's hex, and whether it is the HQ."""

    bubble: Bubble
    hex: str
    hq: bool


def _officer_row(
    power: Power,
    fleet: PowerFleet,
    o: _Officer,
    names: dict[str, str],
    post: _PostOf | None,
    rnd: int,
) -> OfficerRow:
    penalties = [
        f"{p['rolls']} to its rolls through round {p['until']}"
        for p in o.penalties
        if isinstance(p, dict) and p.get("until", 0) >= rnd
    ]
    if post is not None:
        bubble = shown(power, post.bubble.id)
        if post.hq:
            where = f"commands the HQ of bubble {bubble} at {post.hex}"
            under = [names[p.officer] for p in post.bubble.outposts if p.officer in names]
            chain = (
                f"senior officer of bubble {bubble}; over {', '.join(under)}"
                if under
                else f"senior officer of bubble {bubble}"
            )
        else:
            where = f"commands the outpost of bubble {bubble} at {post.hex}"
            hq = post.bubble.officer
            chain = (
                f"answers to {names[hq]}, at the HQ {post.bubble.hq}"
                if hq in names
                else "its bubble's HQ has no officer"
            )
    elif o.craft is not None:
        craft = fleet.navy.craft.get(o.craft)
        design = fleet.navy.designs.get(craft.design) if craft else None
        label = f"{shown(power, o.craft)} ({design.name})" if design else shown(power, o.craft)
        group = shown(power, craft.group) if craft is not None and craft.group else ""
        where = f"aboard craft {label}" + (f" of group {group}" if group else "")
        chain = "serves aboard"
    elif o.group is not None:
        where = f"commands group {shown(power, o.group)}"
        chain = "commands a group"
    else:
        where, chain = "in reserve", "—"
    return OfficerRow(
        o.key,
        names[o.key],
        o.rank,
        o.grade,
        max_points(o.rank),
        o.rank,
        o.rank >= FLAG_RANK,
        penalties,
        where,
        chain,
    )


# --- command bubbles ----------------------------------------------------------------------


def posts_of(bubble: Bubble) -> list[tuple[str, Outpost | None]]:
    return [(bubble.hq, None), *((o.hex, o) for o in bubble.outposts)]


def _bubbles(
    power: Power, officers: dict[str, _Officer]
) -> tuple[list[Bubble], dict[str, _PostOf]]:
    """The power's bubbles as the engine sees them, radii derived from their officers (R-8.3a),
    and the post of each posted officer (6 queries)."""
    posted: dict[tuple[int, int | None], str] = {}
    for bubble_id, outpost_id, key in Officer.objects.filter(
        power=power, post__isnull=False
    ).values_list("post__bubble_id", "post__outpost_id", "key"):
        posted[(bubble_id, outpost_id)] = key
    patrols: dict[tuple[int, int | None], list[str]] = defaultdict(list)
    for bubble_id, outpost_id, key in (
        PostPatrol.objects.filter(bubble__power=power)
        .order_by("group__key")
        .values_list("bubble_id", "outpost_id", "group__key")
    ):
        patrols[(bubble_id, outpost_id)].append(key)
    sensors: dict[int, list[str]] = defaultdict(list)
    for bubble_id, col, row in (
        BubbleSensor.objects.filter(bubble__power=power)
        .order_by("col", "row")
        .values_list("bubble_id", "col", "row")
    ):
        sensors[bubble_id].append(hex_code(col, row))
    outpost_sensors: dict[int, list[str]] = defaultdict(list)
    for outpost_id, col, row in (
        OutpostSensor.objects.filter(outpost__bubble__power=power)
        .order_by("col", "row")
        .values_list("outpost_id", "col", "row")
    ):
        outpost_sensors[outpost_id].append(hex_code(col, row))
    outposts: dict[int, list[Outpost]] = defaultdict(list)
    for pk, bubble_id, col, row, radius in (
        BubbleOutpost.objects.filter(bubble__power=power)
        .order_by("col", "row")
        .values_list("id", "bubble_id", "col", "row", "radius")
    ):
        outposts[bubble_id].append(
            Outpost(
                hex_code(col, row),
                radius,
                posted.get((bubble_id, pk)),
                tuple(outpost_sensors[pk]),
                tuple(patrols[(bubble_id, pk)]),
            )
        )
    engine = {k: o.engine() for k, o in officers.items()}
    bubbles = []
    post_of: dict[str, _PostOf] = {}
    for pk, key, col, row, radius in (
        CommandBubble.objects.filter(power=power)
        .order_by("key")
        .values_list("id", "key", "hq_col", "hq_row", "radius")
    ):
        bubble = Bubble(
            key,
            power.key,
            hex_code(col, row),
            radius,
            tuple(outposts[pk]),
            tuple(sensors[pk]),
            posted.get((pk, None)),
            tuple(patrols[(pk, None)]),
        )
        derive_radii(bubble, engine)  # R-8.3a: never the typed radius when an officer commands
        bubbles.append(bubble)
        if bubble.officer:
            post_of[bubble.officer] = _PostOf(bubble, bubble.hq, True)
        for o in bubble.outposts:
            if o.officer:
                post_of[o.officer] = _PostOf(bubble, o.hex, False)
    return bubbles, post_of


def _hexes(power: Power, hexes: set[str]) -> dict[str, tuple[str, str]]:
    """The hex type and the system's name (or "") at each of ``hexes`` that is not plain deep
    space (1 query; MapHex lists only those, contracts §1)."""
    if not hexes:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for col, row, kind, name in MapHex.objects.filter(
        campaign_id=power.campaign_id,
        col__in={int(h[:2]) for h in hexes},
        row__in={int(h[2:]) for h in hexes},
    ).values_list("col", "row", "hex_type", "system__name"):
        code = hex_code(col, row)
        if code in hexes:
            out[code] = (kind, name or "")
    return out


def _place(hexes: dict[str, tuple[str, str]], hx: str) -> str:
    kind, name = hexes.get(hx, ("deep_space", ""))
    return name or HEX_TYPE_LABELS.get(kind, kind).lower()


def _bubble_row(
    power: Power,
    bubble: Bubble,
    officers: dict[str, _Officer],
    names: dict[str, str],
    hexes: dict[str, tuple[str, str]],
) -> BubbleRow:
    rows = []
    for hx, outpost in posts_of(bubble):
        target: Bubble | Outpost = outpost if outpost is not None else bubble
        officer = officers.get(target.officer or "")
        rows.append(
            PostRow(
                hx,
                _place(hexes, hx),
                outpost is not None,
                names.get(target.officer or "", "no officer"),
                target.radius,
                list(target.sensors),
                sensor_limit(officer.engine()) if officer else None,
                [shown(power, g) for g in target.patrols],
                officer.rank if officer else None,
            )
        )
    return BubbleRow(bubble.id, shown(power, bubble.id), bubble.hq, _place(hexes, bubble.hq), rows)


# --- research -----------------------------------------------------------------------------


def _research_craft(fleet: PowerFleet) -> list[Craft]:
    """R-8.1: the power's craft with research capacity and passenger space."""
    navy = fleet.navy
    return [
        c
        for c in sorted(fleet.state.fleet.craft, key=lambda c: c.id)
        if navy.capacity(c, "research") and navy.capacity(c, "passenger")
    ]


def _research(
    fleet: PowerFleet,
    craft: list[Craft],
    hexes: dict[str, tuple[str, str]],
    interest: InterestView | None,
) -> list[ResearchRow]:
    """R-8.1: each research craft and the TP it would make at its hex this round:
    floor(capacity / 10) x floor(researchers / 25) x factor, when its group is on
    Hold-Research, not interrupted and in supply (as ``missions.research_missions``)."""
    navy = fleet.navy
    rows = []
    for c in craft:
        hx = navy.hex_of(c)
        kind = hexes.get(hx, ("deep_space", ""))[0]
        special = interest is not None and interest.active and interest.hex == hx
        factor = hex_factor(kind, special)
        group = fleet.groups.get(c.group) if c.group else None
        capacity = navy.capacity(c, "research")
        staff = c.store.get("pl", 0)
        researching = (
            group is not None
            and group.order == "hold_research"
            and group.status in ACTING
            and not group.out_of_supply
        )
        rows.append(
            ResearchRow(
                shown(fleet.power, c.id),
                shown(fleet.power, group.id) if group else "",
                hx,
                _place(hexes, hx) if not special else "Area of Special Interest",
                capacity,
                navy.capacity(c, "passenger"),
                staff,
                ORDERS.get(group.order, group.order) if group else "not in a group",
                researching,
                factor,
                mission_tp(capacity, staff, factor),
            )
        )
    return rows


# --- diplomats ----------------------------------------------------------------------------


def _spent(spent: object) -> str:
    """R-8.4: what a mission spent, in words."""
    if not isinstance(spent, dict):
        return "nothing"
    words = {"gal": "Gal", "tp": "TP", "pl": "PL"}
    return ", ".join(f"{spent[k]} {w}" for k, w in words.items() if spent.get(k)) or "nothing"


def _diplomats(power: Power, fleet: PowerFleet) -> tuple[list[DiplomatRow], list[MissionRow]]:
    """The power's diplomats with the craft they are on, and the missions it declared with
    what they spent and the admin's outcome once given (2 queries)."""
    diplomats = []
    names: dict[str, str] = {}
    for key, name, craft_key in (
        Diplomat.objects.filter(power=power)
        .order_by("key")
        .values_list("key", "name", "craft__key")
    ):
        craft = fleet.navy.craft.get(craft_key)
        names[key] = _name(power, key, name)
        diplomats.append(
            DiplomatRow(
                key,
                names[key],
                shown(power, craft_key),
                fleet.navy.hex_of(craft) if craft is not None else "",
            )
        )
    missions = [
        MissionRow(
            key,
            names.get(diplomat, shown(power, diplomat)),
            target,
            MISSION_WORDS.get(kind, kind),
            f"{system} ({hex_code(col, row)})" if system else "",
            declared,
            _spent(spent),
            str(outcome.get("text", "")) if isinstance(outcome, dict) else "",
        )
        for key, diplomat, target, kind, system, col, row, declared, spent, outcome in (
            Mission.objects.filter(power=power)
            .order_by("-declared", "key")
            .values_list(
                "key",
                "diplomat",
                "target__name",
                "kind",
                "system__name",
                "system__hex__col",
                "system__hex__row",
                "declared",
                "spent",
                "outcome",
            )
        )
    ]
    return diplomats, missions
