"""Reads for "whose turn it is" and the notices (issues 18 and 29): what each of the user's
campaigns' round waits for, in words the viewer may read, and everything waiting on the user —
orders to submit, battle records to confirm or amend, UN votes, agreement, loan and transfer
offers, invitations — each with where to act. One reader, ``turns``, for every channel: the
whose-turn cards and the navigation bar's count, the API (``notices.api``) and the private
Atom feed (``notices.feeds``). What the round waits for is read by ``economy.waiting``, the
reader the services decide early resolution by, so the words never disagree with the server.

Secrecy (docs/decisions.md, "What a round waits for"): who has submitted is public to the
campaign (never what); a battle record's hex and powers are told only to the powers in it and
the organiser, everyone else reads that the round waits for "a battle record between other
powers", once, however many there are. A fixed number of queries whatever the number of
campaigns, powers, records, motions and offers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from economy import waiting, watchdog
from economy.events import numbered
from economy.guide import anchor
from economy.models import Round, RoundStatus
from notices.models import Notice, NoticeSettings
from powers.models import Campaign, Invitation, Loan, Membership, PactStatus, Power, Transfer
from trade.models import Agreement, Motion, Vote

RECENT = 10

# what waits on a player, in the order each campaign lists them
ORDERS, BATTLE, AMEND, VOTE, AGREEMENT, LOAN, TRANSFER = (
    "orders",
    "battle",
    "battle_declined",
    "vote",
    "agreement",
    "loan",
    "transfer",
)
INVITATION = "invitation"
KINDS = (INVITATION, ORDERS, BATTLE, AMEND, VOTE, AGREEMENT, LOAN, TRANSFER)


def _names(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass(frozen=True)
class Line:
    """One thing a round waits for, in words the viewer may read, and where to see it; a
    sentence about the deadline ends with ``when``."""

    text: str
    url: str = ""
    when: datetime | None = None

    def __str__(self) -> str:
        return self.text if self.when is None else f"{self.text} {self.when:%Y-%m-%d %H:%M} UTC."


@dataclass(frozen=True)
class Item:
    """One thing waiting on the user, and where to act on it: ``url`` the page, ``api`` the
    API resource (if any), ``key`` the object's id there."""

    kind: str
    campaign_id: int
    campaign: str
    power: str  # the user's power there; "" for an invitation
    text: str
    url: str
    api: str = ""
    key: str = ""
    since: datetime | None = None

    @property
    def ident(self) -> str:
        """Stable while the item waits, new when it comes back (an amended record)."""
        stamp = f"{self.since:%Y%m%d%H%M%S%f}" if self.since else ""
        return f"{self.kind}:{self.campaign_id}:{self.power}:{self.key}:{stamp}"


@dataclass(frozen=True)
class Turn:
    """One campaign as one player sees it: the live round, whether the player's own sheet is
    submitted, what the round waits for and what waits on the player."""

    membership: Membership
    round: Round | None
    mine_submitted: bool
    waits: list[Line]
    items: list[Item]

    @property
    def power(self) -> Power:
        return self.membership.power

    @property
    def todo(self) -> list[Item]:
        """The items beside the orders (the page says those in ``mine``)."""
        return [i for i in self.items if i.kind != ORDERS]

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


@dataclass(frozen=True)
class Turns:
    """Every campaign of the user (or one), and the invitations waiting for the user."""

    campaigns: list[Turn]
    invitations: list[Item]

    @property
    def items(self) -> list[Item]:
        """Everything waiting on the user: the navigation bar counts these."""
        return [*self.invitations, *(i for t in self.campaigns for i in t.items)]

    @property
    def count(self) -> int:
        return len(self.items)


# --- what a round waits for ------------------------------------------------------------------


def _who(power: Power, me: Power | None) -> str:
    return "you" if me is not None and power.pk == me.pk else power.name


def _people(powers: list[Power], me: Power | None) -> str:
    """The powers by name, the viewer first as "you"."""
    names = sorted((_who(p, me) for p in powers), key=lambda n: n != "you")
    return _names(names)


def _record_line(wait: waiting.RecordWait, me: Power | None, url: str) -> Line:
    """A record told to a power in it (``me``) or to the organiser (``me`` None)."""
    record = wait.record
    where = f"the battle at {record.hex}"
    by = "" if me is not None else f" (entered by {record.entered_by.name})"
    if wait.declined:
        return Line(
            f"Waiting for {_who(record.entered_by, me)} to amend or withdraw the record of "
            f"{where}: {_people(wait.declined, me)} declined it{by}.",
            url,
        )
    if wait.pending:
        return Line(f"Waiting for {_people(wait.pending, me)} to confirm {where}{by}.", url)
    return Line(f"Waiting for the organiser to confirm {where}{by}.", url)


def _waits(w: waiting.Waits, me: Power | None, now: datetime) -> list[Line]:
    """What the round waits for as ``me`` (a power of the campaign) may read it; ``me`` None:
    as the organiser, everything, with links into the admin."""
    rnd = w.round
    # no worker answering while the round should be resolved: said first (issue 32)
    late = watchdog.overdue(rnd, now)
    if rnd.status == RoundStatus.RESOLVING:
        return [Line(watchdog.OVERDUE if late else "Resolving now.")]
    if rnd.status != RoundStatus.OPEN:
        return []
    organiser = me is None
    round_admin = reverse("admin:economy_round_change", args=[rnd.pk]) if organiser else ""
    lines: list[Line] = []
    if rnd.paused and rnd.deadline is None:
        start = reverse("admin:powers_campaign_change", args=[rnd.campaign_id]) if organiser else ""
        lines.append(Line("Waiting for the organiser to start the round.", start))
    elif rnd.paused:
        lines.append(
            Line(
                "Paused by the organiser: it does not resolve, even at its deadline, until the "
                "organiser resumes it.",
                round_admin,
            )
        )
    left = w.not_submitted
    if left:
        mine = me is not None and any(p.pk == me.pk for p in left)
        pronoun = "your" if mine and len(left) == 1 else "its" if len(left) == 1 else "their"
        url = reverse("orders", args=[rnd.campaign_id, me.key]) if me and mine else round_admin
        lines.append(Line(f"Waiting for {_people(left, me)} to submit {pronoun} orders.", url))
    hidden = False
    for record in w.records:
        if me is None:
            url = reverse("admin:powers_battlerecord_change", args=[record.record.pk])
        elif record.involves(me.pk):
            url = reverse("battles", args=[rnd.campaign_id, me.key])
        else:
            hidden = True  # another powers' record: not where, not who, not how many
            continue
        lines.append(_record_line(record, me, url))
    if hidden:
        rules = reverse("rules") + "#" + anchor("step", "fleet.battles")
        text = "Waiting for a battle record between other powers to be confirmed."
        lines.append(Line(text, rules))
    if rnd.paused:
        return lines
    if late:
        lines.append(Line(watchdog.OVERDUE, round_admin))
    elif w.all_in:
        lines.append(
            Line(
                "Resolving now: every power has submitted and no battle record awaits confirmation."
            )
        )
    elif w.due(now):
        lines.append(Line("The deadline has passed: resolving now."))
    elif rnd.deadline is not None:
        lines.append(Line("Resolves at the deadline,", when=rnd.deadline))
    return lines


def organiser_waits(campaign: Campaign) -> list[Line]:
    """What the campaign's live round waits for, all of it, as the organiser sees it."""
    rnd = (
        Round.objects.filter(
            campaign=campaign, status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING]
        )
        .order_by("number")
        .first()
    )
    if rnd is None:
        return []
    return _waits(waiting.of_round(rnd), None, timezone.now())


# --- what waits on the player ----------------------------------------------------------------


def _battle_items(w: waiting.Waits, m: Membership) -> list[Item]:
    """Records to confirm or decline, and the player's own records someone declined (it waits
    for its amendment, not for the others' answers)."""
    items = []
    me = m.power
    for wait in w.records:
        record = wait.record
        if not wait.involves(me.pk):
            continue
        url = reverse("battles", args=[m.campaign_id, me.key])
        api = reverse("api-battle", args=[m.campaign_id, record.key])
        if wait.declined and record.entered_by_id == me.pk:
            text = (
                f"Amend or withdraw your record of the battle at {record.hex}: "
                f"{_names([p.name for p in wait.declined])} declined it"
            )
            kind = AMEND
            url += f"?amend={record.key}"  # with its amend form open (fleet.battle_views)
        elif not wait.declined and any(p.pk == me.pk for p in wait.pending):
            text = (
                f"Confirm or decline the record of the battle at {record.hex} entered by "
                f"{_who(record.entered_by, me)}"
            )
            kind = BATTLE
        else:
            continue
        items.append(_item(kind, m, text, url, api, record.key, record.updated_at))
    return items


def _item(
    kind: str,
    m: Membership,
    text: str,
    url: str,
    api: str = "",
    key: str = "",
    since: datetime | None = None,
) -> Item:
    return Item(kind, m.campaign_id, m.campaign.name, m.power.key, text, url, api, key, since)


def _offers(acting: dict[int, Membership]) -> dict[int, list[Item]]:
    """UN votes, agreement, loan and transfer offers waiting on the players' powers in the
    campaigns whose round is open: four queries (none without such a campaign)."""
    out: dict[int, list[Item]] = {cid: [] for cid in acting}
    if not acting:
        return out
    powers = [m.power_id for m in acting.values()]
    members = [cid for cid, m in acting.items() if m.power.un_member]
    voted = Vote.objects.filter(motion=OuterRef("pk"), member_id__in=powers)
    for motion in (
        Motion.objects.filter(campaign_id__in=members, status=Motion.Status.SUBMITTED)
        .exclude(Exists(voted))
        .select_related("proposer", "target")
        .order_by("created_at", "pk")
    ):
        m = acting[motion.campaign_id]
        what = render_to_string("trade/_motion_text.html", {"m": motion}).strip()
        text = f"Vote on UN motion {numbered(motion.key)} of {motion.proposer.name}: {what}"
        url = reverse("un-committee", args=[m.campaign_id, m.power.key])
        api = reverse("api-un", args=[m.campaign_id])
        out[m.campaign_id].append(_item(VOTE, m, text, url, api, motion.key, motion.created_at))
    for agreement in (
        Agreement.objects.filter(
            campaign_id__in=list(acting),
            status=Agreement.Status.PROPOSED,
            awaiting_id__in=powers,
        )
        .select_related("proposer", "partner")
        .order_by("updated_at", "pk")
    ):
        m = acting[agreement.campaign_id]
        other = agreement.partner if agreement.proposer_id == m.power_id else agreement.proposer
        text = (
            f"Answer trade agreement {numbered(agreement.key)} with {other.name}: accept, "
            "decline or counter"
        )
        url = reverse("agreements", args=[m.campaign_id, m.power.key])
        api = reverse("api-agreements", args=[m.campaign_id])
        since = agreement.updated_at
        out[m.campaign_id].append(_item(AGREEMENT, m, text, url, api, agreement.key, since))
    for loan in (
        Loan.objects.filter(
            campaign_id__in=list(acting), status=PactStatus.PROPOSED, borrower_id__in=powers
        )
        .select_related("owner")
        .order_by("created_at", "pk")
    ):
        m = acting[loan.campaign_id]
        n = len(loan.groups)
        text = (
            f"Accept or decline the loan of {n} group{'s' if n != 1 else ''} offered by "
            f"{loan.owner.name} until round {loan.last}"
        )
        url = reverse("fleet", args=[m.campaign_id, m.power.key])
        api = reverse("api-pact", args=[m.campaign_id, loan.key])
        out[m.campaign_id].append(_item(LOAN, m, text, url, api, loan.key, loan.created_at))
    for transfer in (
        Transfer.objects.filter(
            campaign_id__in=list(acting), status=PactStatus.PROPOSED, receiver_id__in=powers
        )
        .select_related("owner")
        .order_by("created_at", "pk")
    ):
        m = acting[transfer.campaign_id]
        n = len(transfer.carriers)
        text = (
            f"Accept or decline the transfer of {n} group{'s' if n != 1 else ''} or "
            f"static{'s' if n != 1 else ''} offered by {transfer.owner.name}"
        )
        url = reverse("fleet", args=[m.campaign_id, m.power.key])
        api = reverse("api-pact", args=[m.campaign_id, transfer.key])
        since = transfer.created_at
        out[m.campaign_id].append(_item(TRANSFER, m, text, url, api, transfer.key, since))
    return out


def _invitations(user: User, campaign_id: int | None) -> list[Item]:
    """Invitations sent to the user's own email address, still good, to a campaign the user
    does not play in yet: one query (none without an address)."""
    if not user.email:
        return []
    rows = Invitation.objects.filter(
        email__iexact=user.email, accepted_at__isnull=True, expires_at__gt=timezone.now()
    ).exclude(campaign__memberships__user=user)
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    return [
        Item(
            INVITATION,
            i.campaign_id,
            i.campaign.name,
            "",
            f"Accept the invitation to play {i.power.name} in {i.campaign.name}",
            reverse("invitation", args=[i.token]),
            since=i.sent_at or i.created_at,
        )
        for i in rows.select_related("campaign", "power").order_by("created_at", "pk")
    ]


def turns(*, user: User | AnonymousUser, campaign_id: int | None = None) -> Turns:
    """The user's campaigns (or one of them): each live round and what it waits for, and
    everything waiting on the user. At most ten queries, whatever the campaigns' size."""
    if not isinstance(user, User):
        return Turns([], [])
    memberships = Membership.objects.filter(user=user).select_related("campaign", "power")
    if campaign_id is not None:
        memberships = memberships.filter(campaign_id=campaign_id)
    rows = list(memberships.order_by("campaign__name"))
    invitations = _invitations(user, campaign_id)
    if not rows:
        return Turns([], invitations)
    # when the round opened: the previous round's resolution (for the feed's dates)
    opened = Round.objects.filter(
        campaign_id=OuterRef("campaign_id"), number=OuterRef("number") - 1
    ).values("resolved_at")[:1]
    live = {
        r.campaign_id: r
        for r in Round.objects.filter(
            campaign_id__in=[m.campaign_id for m in rows],
            status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING],
        )
        .annotate(opened=Subquery(opened))
        .order_by("number")
    }
    waits = {w.round.campaign_id: w for w in waiting.of_rounds(live.values()).values()}
    acting = {
        m.campaign_id: m
        for m in rows
        if m.campaign_id in live and live[m.campaign_id].status == RoundStatus.OPEN
    }
    offers = _offers(acting)
    now = timezone.now()
    out = []
    for m in rows:
        w = waits.get(m.campaign_id)
        items: list[Item] = []
        if m.campaign_id in acting and w is not None:
            if m.power_id not in w.submitted:
                rnd = w.round
                items.append(
                    _item(
                        ORDERS,
                        m,
                        f"Submit your orders for round {rnd.number}",
                        reverse("orders", args=[m.campaign_id, m.power.key]),
                        reverse("api-sheet", args=[m.campaign_id]),
                        since=getattr(rnd, "opened", None) or m.campaign.created_at,
                    )
                )
            items += _battle_items(w, m)
            items += offers[m.campaign_id]
        out.append(
            Turn(
                membership=m,
                round=w.round if w else None,
                mine_submitted=w is not None and m.power_id in w.submitted,
                waits=_waits(w, m.power, now) if w else [],
                items=items,
            )
        )
    return Turns(out, invitations)


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
