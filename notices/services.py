"""Writing and sending notices (issue 18): each event becomes one ``Notice`` per player it
concerns, with words that player may read — their own statement, an agreement awaiting them, a
motion before their committee — and never another power's secrets.

Idempotent on (user, event): rows are inserted with ``ignore_conflicts`` against the unique
constraint, and an email goes out only for a row still ``pending``, taken under a row lock
(``skip_locked``) and marked ``sent`` in the same transaction. A task delivered twice, two
workers at once, or the beat sweep re-telling a lost event add nothing and send nothing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from economy.events import numbered
from economy.models import OrderSheet, Round, RoundStatus, SheetStatus
from economy.selectors import Statement, round_statement
from notices.models import EmailState, Kind, Notice, NoticeSettings, new_feed_token
from powers.models import BattleParty, Campaign, Invitation, Membership, Power
from powers.models.command import Mission
from trade.models import Agreement, AgreementEvent, Motion

log = logging.getLogger(__name__)

REMIND_BEFORE = timedelta(hours=24)  # issue 18: "deadline in 24 h"
SWEEP_BACK = timedelta(hours=24)  # how far back the sweep looks for events left untold
SHOWN_EVENTS = 5
DIGESTED = {Kind.MESSAGE}  # kinds emailed grouped in one digest per player (issue 31)
DIGEST_LINES = 20  # notices listed in one digest; the rest counted


@dataclass(frozen=True)
class Draft:
    """A notice to write: who, which event, and the words."""

    user_id: int
    campaign_id: int
    kind: str
    event: str
    title: str
    body: str
    link: str


def deliver(kind: str, payload: dict[str, Any]) -> int:
    """Tell everyone ``kind`` concerns (the delivery task's body). Returns the emails sent."""
    drafts = BUILDERS[kind](payload)
    record(drafts)
    return send_pending(events={d.event for d in drafts})


# --- who is told what ------------------------------------------------------------------------


def _players(powers: Iterable[int]) -> list[Membership]:
    return list(
        Membership.objects.filter(power_id__in=list(powers))
        .select_related("power", "campaign")
        .order_by("power__name", "user_id")
    )


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "±0"


def statement_summary(statement: Statement) -> list[str]:
    """A power's statement in a few lines for an email: its banks before and after, what its
    systems and hubs gained or lost per resource, loyalty changes, rejected orders, and its own
    (and public) events. Nothing here is about another power's holdings."""
    lines = [
        f"{row.resource.upper() if row.resource == 'tp' else row.resource.capitalize()} bank: "
        f"{row.before} → {row.after} ({_signed(row.change)})"
        for row in statement.stocks
        if row.where == "bank"
    ]
    held = {res: 0 for res in ("ore", "bio", "pl")}
    for row in statement.stocks:
        if row.where != "bank" and row.resource in held:
            held[row.resource] += row.change
    lines += [
        f"{res.upper() if res == 'pl' else res.capitalize()} in your systems and hubs: {_signed(n)}"
        for res, n in held.items()
        if n
    ]
    loyalty = sum(1 for row in statement.stocks if row.resource == "LR")
    if loyalty:
        lines.append(f"Loyalty changed at {loyalty} system{'s' if loyalty != 1 else ''}.")
    if statement.rejected:
        n = len(statement.rejected)
        lines.append(f"{n} of your orders {'was' if n == 1 else 'were'} rejected.")
    events = [str(e["words"]) for e in statement.events]
    lines += events[:SHOWN_EVENTS]
    if len(events) > SHOWN_EVENTS:
        lines.append(f"… and {len(events) - SHOWN_EVENTS} more events in the statement.")
    return lines or ["Nothing changed in your books this round."]


def resolved_event(rnd: Round) -> str:
    """A resolution's identity: the round and when it was resolved (a round rolled back and
    resolved again is a new event)."""
    assert rnd.resolved_at is not None  # only resolved rounds are told
    return f"round:{rnd.pk}:resolved:{rnd.resolved_at:%Y%m%d%H%M%S%f}"


def _round_resolved(payload: dict[str, Any]) -> list[Draft]:
    rnd = Round.objects.select_related("campaign").get(pk=payload["round"])
    if rnd.status != RoundStatus.RESOLVED or rnd.resolved_at is None:
        return []  # rolled back before the task ran: nothing to tell
    campaign = rnd.campaign
    nxt = Round.objects.filter(campaign=campaign, number=rnd.number + 1).first()
    opened = f"Round {rnd.number + 1} is open for orders"
    if nxt is not None and nxt.deadline is not None:
        opened += f" until {nxt.deadline:%Y-%m-%d %H:%M} UTC"
    event = resolved_event(rnd)
    drafts = []
    powers = Power.objects.filter(campaign=campaign)
    summaries: dict[int, list[str]] = {}  # a power's players share its statement
    for m in _players(powers.values_list("pk", flat=True)):
        if m.power_id not in summaries:
            statement = round_statement(m.power, rnd.number)
            summaries[m.power_id] = statement_summary(statement) if statement else []
        summary = summaries[m.power_id]
        body = "\n".join(
            [
                f"Round {rnd.number} of {campaign.name} has been resolved. {opened}.",
                "",
                f"Your statement for {m.power.name}:",
                *(f"- {line}" for line in summary),
            ]
        )
        drafts.append(
            Draft(
                m.user_id,
                campaign.pk,
                Kind.ROUND_RESOLVED,
                event,
                f"Round {rnd.number} resolved",
                body,
                reverse("report", args=[campaign.pk, m.power.key, rnd.number]),
            )
        )
    return drafts


def _deadline_soon(payload: dict[str, Any]) -> list[Draft]:
    rnd = Round.objects.select_related("campaign").get(pk=payload["round"])
    if rnd.status != RoundStatus.OPEN or rnd.paused or rnd.deadline is None:
        return []
    submitted = OrderSheet.objects.filter(round=rnd, status=SheetStatus.SUBMITTED).values("power")
    waiting = Power.objects.filter(campaign_id=rnd.campaign_id).exclude(pk__in=submitted)
    event = f"round:{rnd.pk}:deadline:{rnd.deadline:%Y%m%d%H%M%S%f}"
    return [
        Draft(
            m.user_id,
            rnd.campaign_id,
            Kind.DEADLINE_SOON,
            event,
            f"Round {rnd.number}: 24 hours to the deadline",
            f"The deadline of round {rnd.number} of {rnd.campaign.name} is "
            f"{rnd.deadline:%Y-%m-%d %H:%M} UTC, and {m.power.name} has not submitted its "
            "orders yet. Orders not submitted by then are not resolved: the power makes no "
            "moves this round.",
            reverse("orders", args=[rnd.campaign_id, m.power.key]),
        )
        for m in _players(waiting.values_list("pk", flat=True))
    ]


def _agreement_proposed(payload: dict[str, Any]) -> list[Draft]:
    agreement = Agreement.objects.select_related("proposer", "partner", "campaign").get(
        pk=payload["agreement"]
    )
    step = AgreementEvent.objects.select_related("power").get(pk=payload["step"])
    other = agreement.partner if step.power_id == agreement.proposer_id else agreement.proposer
    what = "proposes" if step.action == "propose" else "answers with new terms for"
    return [
        Draft(
            m.user_id,
            agreement.campaign_id,
            Kind.AGREEMENT_PROPOSED,
            f"agreement:{agreement.pk}:step:{step.pk}",
            f"{step.power.name} {what} trade agreement {numbered(agreement.key)}",
            f"{step.power.name} {what} trade agreement {numbered(agreement.key)} with "
            f"{other.name} in "
            f"round {step.round_number} of {agreement.campaign.name}. It awaits your answer: "
            "accept, decline or counter on your agreements page.",
            reverse("agreements", args=[agreement.campaign_id, other.key]),
        )
        for m in _players([other.pk])
    ]


def _motion_opened(payload: dict[str, Any]) -> list[Draft]:
    motion = Motion.objects.select_related("proposer", "target", "campaign").get(
        pk=payload["motion"]
    )
    if motion.status != Motion.Status.SUBMITTED:
        return []
    text = render_to_string("trade/_motion_text.html", {"m": motion}).strip()
    members = Power.objects.filter(campaign_id=motion.campaign_id, un_member=True).exclude(
        pk=motion.proposer_id
    )
    return [
        Draft(
            m.user_id,
            motion.campaign_id,
            Kind.MOTION_OPENED,
            f"motion:{motion.pk}:opened",
            f"UN motion {numbered(motion.key)}: {text}",
            f"{motion.proposer.name} puts motion {numbered(motion.key)} before the UN Monetary "
            "Committee "
            f"of {motion.campaign.name}: {text}. The UN Meeting of round {motion.round_number} "
            "decides it; cast your vote on the committee page before then.",
            reverse("un-committee", args=[motion.campaign_id, m.power.key]),
        )
        for m in _players(members.values_list("pk", flat=True))
    ]


def _battle_record(payload: dict[str, Any]) -> list[Draft]:
    campaign = Campaign.objects.get(pk=payload["campaign"])
    proposer = Power.objects.get(pk=payload["proposer"], campaign=campaign)
    asked = set(payload["powers"]) - {proposer.pk}
    powers = Power.objects.filter(campaign=campaign, pk__in=asked)  # never another campaign's
    amended = payload.get("amended") or ""
    event = f"battle:{campaign.pk}:{payload['record']}" + (f":{amended}" if amended else "")
    done = "amended its record of" if amended else "recorded"
    return [
        Draft(
            m.user_id,
            campaign.pk,
            Kind.BATTLE_RECORD,
            event,
            f"A battle record of round {payload['round']} "
            + ("was amended and awaits" if amended else "awaits")
            + " your confirmation",
            f"{proposer.name} has {done} a battle of round {payload['round']} of "
            f"{campaign.name}. Check it and confirm it (or dispute it) on your battle records "
            "page before the round resolves.",
            reverse("battles", args=[campaign.pk, m.power.key]),
        )
        for m in _players(powers.values_list("pk", flat=True))
    ]


def _battle_declined(payload: dict[str, Any]) -> list[Draft]:
    """R-10.6: the entering power's players learn who declined its record and why (the reason
    is the decliner's own words, for the powers in the record only)."""
    party = (
        BattleParty.objects.select_related("record__entered_by", "record__campaign", "power")
        .filter(
            record__campaign_id=payload["campaign"],
            record__key=payload["record"],
            power_id=payload["decliner"],
            answer=BattleParty.Answer.DECLINED,
        )
        .first()
    )
    if party is None:
        return []
    record, campaign, entered_by = party.record, party.record.campaign, party.record.entered_by
    return [
        Draft(
            m.user_id,
            campaign.pk,
            Kind.BATTLE_DECLINED,
            f"battle:{campaign.pk}:{record.key}:declined:{party.power_id}:{record.updated_at.timestamp():.6f}",
            f"{party.power.name} declined your battle record at {record.hex}",
            f"{party.power.name} declined {entered_by.name}'s record of the battle at "
            f"{record.hex} in {campaign.name}: \u201c{party.reason}\u201d. Amend it (everyone in "
            "it is asked again) or withdraw it on your battle records page.",
            reverse("battles", args=[campaign.pk, entered_by.key]),
        )
        for m in _players([entered_by.pk])
    ]


def _mission_resolved(payload: dict[str, Any]) -> list[Draft]:
    """R-8.4: only the target learns of a mission, when the organiser resolves it; the sender
    is told its outcome. The words name the two powers, the kind of mission and the outcome's
    text: never the diplomat, the costs, nor the facts revealed to the sender."""
    mission = (
        Mission.objects.select_related("power", "target", "campaign")
        .filter(pk=payload["mission"], outcome__isnull=False)
        .first()
    )
    if mission is None:
        return []
    sender, target, campaign = mission.power, mission.target, mission.campaign
    kind = mission.get_kind_display()
    text = str((mission.outcome or {}).get("text", ""))
    told = {
        target.pk: (
            f"{sender.name} sent a diplomatic mission against {target.name}",
            f"In round {mission.declared} of {campaign.name}, {sender.name} sent a diplomatic "
            f"mission ({kind}) against {target.name}. The organiser's outcome: {text}",
        ),
        sender.pk: (
            f"Your diplomatic mission against {target.name} is resolved",
            f"The organiser of {campaign.name} has resolved {sender.name}'s diplomatic mission "
            f"({kind}) against {target.name}, declared in round {mission.declared}: {text} "
            "Its effects apply when the current round is resolved; your statement shows them.",
        ),
    }
    return [
        Draft(
            m.user_id,
            campaign.pk,
            Kind.MISSION_RESOLVED,
            f"mission:{mission.pk}:resolved",
            told[m.power_id][0],
            told[m.power_id][1],
            reverse("dashboard", args=[campaign.pk, m.power.key]),
        )
        for m in _players(told)
    ]


BUILDERS = {
    "round_resolved": _round_resolved,
    "deadline_soon": _deadline_soon,
    "agreement_proposed": _agreement_proposed,
    "motion_opened": _motion_opened,
    "battle_record": _battle_record,
    "battle_declined": _battle_declined,
    "mission_resolved": _mission_resolved,
}


# --- a player's choices ----------------------------------------------------------------------


def settings_of(user: AbstractBaseUser) -> NoticeSettings:
    """The user's notice settings, created with every email on the first time."""
    row, _ = NoticeSettings.objects.get_or_create(user_id=user.pk)
    return row


def new_feed_address(user: AbstractBaseUser) -> NoticeSettings:
    """A new secret for the user's feed: the old address stops working at once."""
    row = settings_of(user)
    row.feed_token = new_feed_token()
    row.save(update_fields=["feed_token"])
    return row


# --- writing and sending ---------------------------------------------------------------------


def record(drafts: list[Draft]) -> None:
    """Insert the notices not written before; each is ``pending`` email only if its user has an
    address and has not turned the kind off (two queries, whatever the number of players)."""
    if not drafts:
        return
    user_ids = {d.user_id for d in drafts}
    choices = {s.user_id: s for s in NoticeSettings.objects.filter(user_id__in=user_ids)}
    addressed = set(
        get_user_model()
        .objects.filter(pk__in=user_ids)
        .exclude(email="")
        .values_list("pk", flat=True)
    )

    def state(d: Draft) -> EmailState:
        chosen = choices.get(d.user_id)
        wanted = chosen.emails(d.kind) if chosen else True
        if not (wanted and d.user_id in addressed):
            return EmailState.SKIPPED
        # issue 31: messages wait for the digest (send_digests), never one email each
        return EmailState.DIGEST if d.kind in DIGESTED else EmailState.PENDING

    Notice.objects.bulk_create(
        [
            Notice(
                user_id=d.user_id,
                campaign_id=d.campaign_id,
                kind=d.kind,
                event=d.event,
                title=d.title[:200],
                body=d.body,
                link=d.link[:300],
                email=state(d),
            )
            for d in drafts
        ],
        ignore_conflicts=True,
    )


def absolute(path: str, origin: str = "") -> str:
    return (origin or settings.FTCAMP_BASE_URL).rstrip("/") + path


def email_for(notice: Notice) -> EmailMessage:
    body = (
        f"{notice.body}\n\n{absolute(notice.link)}\n\n"
        f"-- \nFTCamp. To choose which emails you get: {absolute(reverse('notice-settings'))}"
    )
    return EmailMessage(
        f"[FTCamp] {notice.campaign.name}: {notice.title}",
        body,
        settings.DEFAULT_FROM_EMAIL,
        [notice.user.email],
    )


def send_pending(*, events: set[str] | None = None, older_than: datetime | None = None) -> int:
    """Email the pending notices (of ``events``, or created before ``older_than``), each once:
    rows are locked, sent one by one, and marked sent as they go. A mail failure is logged and
    leaves the rest pending for the sweep."""
    rows = Notice.objects.filter(email=EmailState.PENDING)
    if events is not None:
        rows = rows.filter(event__in=events)
    if older_than is not None:
        rows = rows.filter(created_at__lt=older_than)
    sent = 0
    with transaction.atomic():
        locked = list(
            rows.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "campaign")
            .order_by("id")
        )
        if not locked:
            return 0
        try:
            with get_connection() as connection:
                for notice in locked:
                    connection.send_messages([email_for(notice)])
                    notice.email, notice.emailed_at = EmailState.SENT, timezone.now()
                    sent += 1
        except Exception:
            log.exception("could not email %d notice(s)", len(locked) - sent)
        Notice.objects.bulk_update(
            [n for n in locked if n.email == EmailState.SENT], ["email", "emailed_at"]
        )
    return sent


def sweep(*, now: datetime | None = None) -> None:
    """Beat's backstop (every few minutes): remind players of deadlines 24 hours away, tell
    rounds resolved lately that nobody was told of (a lost message), and retry emails left
    pending by a failure. Idempotent: the events already told are found by their rows."""
    now = now or timezone.now()
    drafts: list[Draft] = []
    for rnd in Round.objects.filter(
        status=RoundStatus.OPEN, paused=False, deadline__gt=now, deadline__lte=now + REMIND_BEFORE
    ):
        drafts += _deadline_soon({"round": rnd.pk})
    recent = list(
        Round.objects.filter(status=RoundStatus.RESOLVED, resolved_at__gte=now - SWEEP_BACK)
    )
    told = set(
        Notice.objects.filter(
            kind=Kind.ROUND_RESOLVED, campaign_id__in={r.campaign_id for r in recent}
        )
        .values_list("event", flat=True)
        .distinct()
    )
    for rnd in recent:
        if resolved_event(rnd) not in told:
            drafts += _round_resolved({"round": rnd.pk})
    record(drafts)
    send_pending(events={d.event for d in drafts})
    send_pending(older_than=now - timedelta(seconds=30))
    send_digests()  # issue 31: the messages' digest, one email per player


# --- the digest (issue 31) ---------------------------------------------------------------------


def send_digests() -> int:
    """One email per player for all their notices waiting for the digest (new messages), each
    notice in one digest only: the rows are locked (``skip_locked``) and marked sent in the same
    transaction. Returns the emails sent; a mail failure leaves that player's rows for the next
    sweep."""
    sent = 0
    with transaction.atomic():
        rows = list(
            Notice.objects.filter(email=EmailState.DIGEST)
            .select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "campaign")
            .order_by("user_id", "id")
        )
        by_user: dict[int, list[Notice]] = {}
        for notice in rows:
            by_user.setdefault(notice.user_id, []).append(notice)
        done: list[Notice] = []
        for notices in by_user.values():
            try:
                digest_for(notices).send()
            except Exception:
                log.exception("could not email a digest of %d notice(s)", len(notices))
                continue
            for notice in notices:
                notice.email, notice.emailed_at = EmailState.SENT, timezone.now()
            done += notices
            sent += 1
        Notice.objects.bulk_update(done, ["email", "emailed_at"])
    return sent


def digest_for(notices: list[Notice]) -> EmailMessage:
    """One player's digest: each notice's title and words, grouped by campaign."""
    user = notices[0].user
    lines: list[str] = []
    campaigns: dict[str, list[Notice]] = {}
    for notice in notices:
        campaigns.setdefault(notice.campaign.name, []).append(notice)
    for name, group in campaigns.items():
        lines += ["", f"{name}: {len(group)} new message{'s' if len(group) != 1 else ''}"]
        for notice in group[:DIGEST_LINES]:
            lines += [f"- {notice.body}", f"  {absolute(notice.link)}"]
        if len(group) > DIGEST_LINES:
            lines.append(f"- … and {len(group) - DIGEST_LINES} more")
    n = len(notices)
    return EmailMessage(
        f"[FTCamp] {n} new message{'s' if n != 1 else ''}",
        "\n".join(
            [
                "Messages to your power since the last digest:",
                *lines,
                "",
                "-- \nFTCamp. To choose which emails you get: "
                + absolute(reverse("notice-settings")),
            ]
        ),
        settings.DEFAULT_FROM_EMAIL,
        [user.email],
    )


def send_invitation(invitation_id: int, *, origin: str = "") -> bool:
    """Email an invitation's link, once (the row is locked and stamped ``sent_at``), on
    ``origin``: the host the organiser made it on (the link the admin shows)."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("campaign", "power")
            .filter(pk=invitation_id, sent_at__isnull=True, accepted_at__isnull=True)
            .first()
        )
        if invitation is None:
            return False
        link = absolute(reverse("invitation", args=[invitation.token]), origin)
        EmailMessage(
            f"[FTCamp] You are invited to play {invitation.power.name} in "
            f"{invitation.campaign.name}",
            f"The organiser of {invitation.campaign.name} invites you to play "
            f"{invitation.power.name}.\n\nFollow this link to create your account (or log in "
            f"with the one you have) and join:\n{link}\n\nThe link works once, until "
            f"{invitation.expires_at:%Y-%m-%d %H:%M} UTC.",
            settings.DEFAULT_FROM_EMAIL,
            [invitation.email],
        ).send()
        invitation.sent_at = timezone.now()
        invitation.save(update_fields=["sent_at"])
    return True
