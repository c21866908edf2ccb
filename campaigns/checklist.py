"""What a campaign still needs before play can start (issue 18): the checklist on its admin
page, and the gate of "Start round 1". Four queries whatever the campaign's size."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from economy.models import Round, RoundStatus
from powers.models import Campaign, Craft, Power, StarSystem, SystemType

MIN_POWERS = 2


@dataclass(frozen=True)
class Item:
    key: str
    label: str
    done: bool
    detail: str
    required: bool = True  # homeworlds and fleets are advised: the rules allow a power without
    powers: tuple[Power, ...] = ()  # the powers it names as missing something


def builder_craft() -> QuerySet[Craft]:
    """R-10.1: craft that can build — a construction system, not in orbit with another builder
    (``fleet.selectors``' builders, before damage: set-up has none to speak of)."""
    return Craft.objects.filter(orbit__isnull=True, design__systems__construction__gt=0)


def _names(powers: Sequence[Power]) -> str:
    return ", ".join(p.name for p in powers)


def setup_checklist(campaign: Campaign) -> list[Item]:
    systems = StarSystem.objects.filter(campaign=campaign).count()
    bounds = campaign.map_bounds() if systems else None
    now = timezone.now()
    powers = list(
        Power.objects.filter(campaign=campaign)
        .annotate(
            homeworlds=Count(
                "systems", filter=Q(systems__system_type=SystemType.HOMEWORLD), distinct=True
            ),
            players=Count("memberships", distinct=True),
            invited=Count(
                "invitations",
                filter=Q(invitations__accepted_at__isnull=True, invitations__expires_at__gt=now),
                distinct=True,
            ),
            units=Count("groups", distinct=True) + Count("statics", distinct=True),
            has_builder=Exists(builder_craft().filter(power=OuterRef("pk"))),
        )
        .order_by("name")
    )
    rnd = Round.objects.filter(campaign=campaign, number=campaign.current_round).first()
    no_home = [p for p in powers if not p.homeworlds]
    invited = [p for p in powers if not p.players and p.invited]
    no_player = [p for p in powers if not p.players and not p.invited]
    no_fleet = [p for p in powers if not p.units]
    no_builder = [p for p in powers if not p.has_builder]
    players = ""
    if invited:
        players += f"Invited, not yet joined: {_names(invited)}. "
    if no_player:
        players += f"No player or invitation: {_names(no_player)}."
    return [
        Item(
            "map",
            "Map",
            systems > 0,
            f"{systems} systems on a {bounds[0]} × {bounds[1]} map."
            if bounds
            else "No star systems yet: import one or several sectors (campaign list, action "
            "“Import sector files…”).",
        ),
        Item(
            "powers",
            "Powers",
            len(powers) >= MIN_POWERS,
            f"{len(powers)} powers: {_names(powers)}."
            if len(powers) >= MIN_POWERS
            else f"Add at least {MIN_POWERS} powers (Powers, below).",
        ),
        Item(
            "homeworlds",
            "Homeworlds",
            bool(powers) and not no_home,
            f"No homeworld: {_names(no_home)} — give each power a system of type Homeworld "
            "(Star systems: holder and type)."
            if no_home
            else "Every power holds its homeworld."
            if powers
            else "Add powers first.",
            required=False,  # valid without one (no research, no Homeworld TP)
        ),
        Item(
            "players",
            "Players",
            bool(powers) and not invited and not no_player,
            players.strip() or ("Every power has a player." if powers else "Add powers first."),
        ),
        Item(
            "fleets",
            "Fleets",
            bool(powers) and not no_fleet,
            f"No fleet group or static yet: {_names(no_fleet)} (a power may start without one)."
            if no_fleet
            else "Every power has a fleet."
            if powers
            else "Add powers first.",
            required=False,
        ),
        Item(
            "builders",
            "Builders",
            bool(powers) and not no_builder,
            f"No builder: {_names(no_builder)} — a power without one cannot build anything "
            "(R-10.1). Give it a starting shipyard below, or a craft with construction."
            if no_builder
            else "Every power has a builder."
            if powers
            else "Add powers first.",
            required=False,  # a power may play without building
            powers=tuple(no_builder),
        ),
        Item(
            "round",
            f"Round {campaign.current_round} open",
            rnd is not None and rnd.status == RoundStatus.OPEN and not rnd.paused,
            "Not started: players can look around and enter orders, but nothing resolves until "
            "you start it."
            if not_started(rnd)
            else "Paused: unpause it under Rounds."
            if rnd is not None and rnd.paused
            else f"Round {rnd.number} is {rnd.get_status_display().lower()}."
            if rnd is not None
            else "No round yet: save the campaign to create it.",
        ),
    ]


def not_started(rnd: Round | None) -> bool:
    """A round made paused by the admin and never started has no deadline yet."""
    return rnd is not None and rnd.paused and rnd.deadline is None


def missing(items: list[Item]) -> list[Item]:
    """The required items not done, the round aside: what "Start" refuses over."""
    return [i for i in items if i.required and not i.done and i.key != "round"]
