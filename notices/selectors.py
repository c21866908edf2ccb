"""Reads for "whose turn it is" and the notices (issue 18): a fixed number of queries whatever
the number of campaigns, powers and notices."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet

from economy.models import OrderSheet, Round, RoundStatus, SheetStatus
from notices.models import Notice, NoticeSettings
from powers.models import Membership, Power

RECENT = 10


def _names(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass(frozen=True)
class Turn:
    """One campaign as one player sees it: the round and its deadline, and who has submitted
    (public: the order page shows it too; never what was ordered)."""

    membership: Membership
    round: Round | None
    mine_submitted: bool
    submitted: list[str]
    waiting: list[str]

    @property
    def power(self) -> Power:
        return self.membership.power

    @property
    def state(self) -> str:
        """Where the round stands, in words."""
        rnd = self.round
        if rnd is None:
            return "No round is open."
        if rnd.status == RoundStatus.RESOLVING:
            return f"Round {rnd.number} is being resolved."
        if rnd.paused and rnd.deadline is None:
            return f"Round {rnd.number} has not started: the organiser starts it when all is set."
        if rnd.paused:
            return f"Round {rnd.number} is paused by the organiser: it does not resolve until then."
        return f"Round {rnd.number} is open for orders."

    @property
    def mine(self) -> str:
        if self.round is None or self.round.status != RoundStatus.OPEN:
            return ""
        if self.mine_submitted:
            return "You have submitted your orders (you can withdraw them until resolution)."
        return "You have not submitted your orders yet."

    @property
    def others(self) -> str:
        if self.round is None:
            return ""
        if not self.waiting:
            return "Every power has submitted."
        if not self.submitted:
            return "No power has submitted yet."
        verb = "has" if len(self.submitted) == 1 else "have"
        return (
            f"{_names(self.submitted)} {verb} submitted; still to submit: {_names(self.waiting)}."
        )


def turns(*, user: User, campaign_id: int | None = None) -> list[Turn]:
    """The user's campaigns (or one of them) with their live round and submissions: four
    queries."""
    memberships = Membership.objects.filter(user=user).select_related("campaign", "power")
    if campaign_id is not None:
        memberships = memberships.filter(campaign_id=campaign_id)
    rows = list(memberships.order_by("campaign__name"))
    campaigns = [m.campaign_id for m in rows]
    live = {
        r.campaign_id: r
        for r in Round.objects.filter(
            campaign_id__in=campaigns, status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING]
        ).order_by("number")
    }
    done = set(
        OrderSheet.objects.filter(
            round_id__in=[r.pk for r in live.values()], status=SheetStatus.SUBMITTED
        ).values_list("power_id", flat=True)
    )
    powers: dict[int, list[Power]] = {c: [] for c in campaigns}
    for p in Power.objects.filter(campaign_id__in=campaigns).order_by("name"):
        powers[p.campaign_id].append(p)
    return [
        Turn(
            membership=m,
            round=live.get(m.campaign_id),
            mine_submitted=m.power_id in done,
            submitted=[p.name for p in powers[m.campaign_id] if p.pk in done],
            waiting=[p.name for p in powers[m.campaign_id] if p.pk not in done],
        )
        for m in rows
    ]


def recent_notices(*, user: User, campaign_id: int | None = None) -> QuerySet[Notice]:
    """The user's own notices, newest first (of one campaign, or all)."""
    rows = Notice.objects.filter(user=user).select_related("campaign")
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    return rows.order_by("-created_at", "-id")


def owner_of_feed(token: str) -> User | None:
    """The user whose feed ``token`` opens, if any (a regenerated token opens nothing)."""
    row = NoticeSettings.objects.filter(feed_token=token).select_related("user").first()
    return row.user if row and row.user.is_active else None
