"""Writing messages (issue 31): conversations started, messages posted, threads read, deals
asked for from a thread, public messages hidden by the organiser. The rules (size, rate, the
press settings) are ``diplomacy.limits``; these functions load what they need, ask them, and
write through ``diplomacy.store``. Every refusal is raised before anything is written."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from diplomacy import limits, markup, store
from diplomacy.models import Conversation, Deal, Member, Message, PressSettings
from economy.models import Round, RoundStatus
from ftcamp.errors import Forbidden, Missing, Refused
from notices.models import Kind
from notices.services import Draft, record
from powers.models import Membership, Power


class TooFast(Refused):
    """The writer's rate limit: 429, naming the field."""

    status = 429


def press_of(campaign_id: int) -> PressSettings:
    """The campaign's press settings (the defaults if the organiser set none)."""
    found = PressSettings.objects.filter(campaign_id=campaign_id).first()
    return found or PressSettings(campaign_id=campaign_id)


def check_press(campaign_id: int, *, public: bool) -> None:
    """``Forbidden`` (403) naming the setting that forbids writing here now."""
    press = press_of(campaign_id)
    resolving = (
        not press.while_resolving
        and Round.objects.filter(campaign_id=campaign_id, status=RoundStatus.RESOLVING).exists()
    )
    problem = limits.press_problem(
        press=press.press,
        while_resolving=press.while_resolving,
        public=public,
        resolving=resolving,
    )
    if problem:
        raise Forbidden(problem)


def _check_writer(user: User, text: str) -> None:
    """The text's size, then the writer's rate (its user row locked, so two posts at once
    cannot both pass the count)."""
    problem = limits.text_problem(text)
    if problem:
        raise Refused(problem)
    User.objects.select_for_update().filter(pk=user.pk).first()
    since = timezone.now() - timedelta(seconds=limits.RATE_SECONDS)
    recent = Message.objects.filter(author=user, created_at__gte=since).count()
    problem = limits.rate_problem(recent)
    if problem:
        raise TooFast(problem)


def ensure_public(campaign_id: int) -> Conversation:
    """The campaign's press channel, with every power a member (made on first use; a power
    added later joins it here)."""
    channel = Conversation.objects.filter(campaign_id=campaign_id, public=True).first()
    if channel is None:
        try:
            with transaction.atomic():
                channel = Conversation.objects.create(campaign_id=campaign_id, public=True)
        except IntegrityError:  # made meanwhile by another request
            channel = Conversation.objects.get(campaign_id=campaign_id, public=True)
    powers = set(Power.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True))
    joined = set(Member.objects.filter(conversation=channel).values_list("power_id", flat=True))
    if powers - joined:
        Member.objects.bulk_create(
            [Member(conversation=channel, power_id=p) for p in sorted(powers - joined)],
            ignore_conflicts=True,
        )
    return channel


def _tell(message: Message, conversation: Conversation, writer: Power) -> None:
    """A notice per player of every other member (emailed only in the digest)."""
    members = Member.objects.filter(conversation=conversation).exclude(power_id=writer.pk)
    players = Membership.objects.filter(
        power_id__in=members.values("power_id"), campaign_id=conversation.campaign_id
    ).select_related("power", "campaign")
    where = "the public channel" if conversation.public else "a conversation"
    record(
        [
            Draft(
                m.user_id,
                conversation.campaign_id,
                Kind.MESSAGE,
                f"message:{message.pk}",
                f"{writer.name} wrote in {where}",
                f"{writer.name} in {m.campaign.name}: \u201c{markup.plain(message.text)}\u201d",
                reverse("diplomacy-thread", args=[m.campaign_id, m.power.key, conversation.pk]),
            )
            for m in players
        ]
    )


@transaction.atomic
def post_message(*, member: Member, user: User, text: str) -> Message:
    """``member``'s power writes ``text`` in its conversation: the press settings, the size and
    the writer's rate are checked (the user row locked), then the line, the counters and one
    notice per player of the other members."""
    conversation = member.conversation
    check_press(conversation.campaign_id, public=conversation.public)
    _check_writer(user, text)
    message = store.append(
        conversation_id=conversation.pk,
        power_id=member.power_id,
        author_id=user.pk,
        text=text,
        html=markup.render(text),
    )
    store.mark_read(member, message.pk)  # the writer has read its own line
    _tell(message, conversation, member.power)
    return message


@transaction.atomic
def start_conversation(
    *, power: Power, user: User, others: Sequence[str], text: str
) -> Conversation:
    """``power`` writes to the powers ``others`` (their keys): the conversation of exactly these
    powers if there is one, else a new one; then the message, as ``post_message``."""
    keys = sorted({str(k) for k in others} - {power.key})
    problem = limits.members_problem(len(keys))
    if problem:
        raise Refused(problem)
    found = list(Power.objects.filter(campaign_id=power.campaign_id, key__in=keys))
    if len(found) != len(keys):
        unknown = sorted(set(keys) - {p.key for p in found})
        raise Refused(f"powers: no such power in this campaign: {', '.join(unknown)[:80]}")
    check_press(power.campaign_id, public=False)
    _check_writer(user, text)  # before anything is written
    wanted = {power.pk, *(p.pk for p in found)}
    conversation = _same_powers(power, wanted)
    if conversation is None:
        conversation = Conversation.objects.create(campaign_id=power.campaign_id, started_by=power)
        Member.objects.bulk_create(
            [Member(conversation=conversation, power_id=p) for p in sorted(wanted)]
        )
    member = Member.objects.select_related("conversation", "power").get(
        conversation=conversation, power=power
    )
    message = store.append(
        conversation_id=conversation.pk,
        power_id=power.pk,
        author_id=user.pk,
        text=text,
        html=markup.render(text),
    )
    store.mark_read(member, message.pk)
    _tell(message, conversation, power)
    return conversation


def _same_powers(power: Power, wanted: set[int]) -> Conversation | None:
    """The private conversation of exactly the powers ``wanted``, if there is one."""
    for conversation in Conversation.objects.filter(
        campaign_id=power.campaign_id, public=False, members__power=power
    ).prefetch_related("members"):
        if {m.power_id for m in conversation.members.all()} == wanted:
            return conversation
    return None


def read(member: Member, upto: int) -> None:
    """``member`` has seen its thread up to message ``upto``."""
    store.mark_read(member, upto)


@transaction.atomic
def ask_deal(*, member: Member, kind: str, other_key: str) -> Deal:
    """A thread's "propose": ``member``'s power means to offer a deal of ``kind`` to ``other``,
    a member of the thread; the offer it then makes is told in the thread
    (``diplomacy.deals``)."""
    if kind not in Deal.Kind.values:
        raise Refused(f"kind: expected agreement, loan or transfer, got {kind[:20]!r}")
    conversation = member.conversation
    if conversation.public:
        raise Refused("kind: deals are proposed from a private conversation")
    other = (
        Power.objects.filter(
            campaign_id=conversation.campaign_id,
            key=other_key,
            pk__in=Member.objects.filter(conversation=conversation).values("power_id"),
        )
        .exclude(pk=member.power_id)
        .first()
    )
    if other is None:
        raise Refused("other: choose another power of this conversation")
    check_press(conversation.campaign_id, public=False)
    return Deal.objects.create(
        conversation=conversation, kind=kind, proposer_id=member.power_id, other=other
    )


@transaction.atomic
def hide_message(*, message_id: int, by: User, reason: str) -> Message:
    """The organiser hides a message of the public channel, saying why; the text is kept and
    the trace (who, when, why) shown in the admin. Private messages are not the organiser's."""
    message = (
        Message.objects.select_for_update().filter(pk=message_id, conversation__public=True).first()
    )
    if message is None:
        raise Missing("no such message in a public channel")
    reason = reason.strip()
    if not reason:
        raise Refused("hidden_reason: say why the message is hidden")
    if len(reason) > limits.MAX_REASON:
        raise Refused(f"hidden_reason: at most {limits.MAX_REASON} characters")
    if message.hidden_at is not None:
        raise Refused("hidden_reason: the message is hidden already")
    message.hidden_at, message.hidden_by, message.hidden_reason = timezone.now(), by, reason
    message.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
    Conversation.objects.filter(pk=message.conversation_id).update(version=F("version") + 1)
    return message
