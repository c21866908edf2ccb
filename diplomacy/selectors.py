"""Reading messages (issue 31): a power's conversations by last activity with their unread
counts, a thread as its member sees it (system lines in words, hidden messages as hidden), the
ETag a poll is answered by, and the navigation bar's one-query count. Everything is read
through the power's own membership rows: a conversation it is not in is never loaded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Sum
from django.utils.html import escape

from diplomacy.models import Conversation, Deal, Member, Message
from economy.events import numbered
from powers.models import Power

PAGE = 100  # the latest messages a thread shows
HIDDEN = "hidden by the organiser"
DEAL_WORDS = dict(Deal.Kind.choices)


@dataclass(frozen=True)
class ConversationRow:
    id: int
    public: bool
    title: str  # the other powers by name, or "Public channel"
    others: list[tuple[str, str]]  # (key, name) of the other members
    last_at: datetime
    unread: int


@dataclass(frozen=True)
class MessageView:
    id: int
    power: str  # the writer's power, by name
    mine: bool
    html: str  # sanitized HTML, a system line's words (escaped), or the hidden notice
    text: str | None  # as written; None when hidden or a system line
    system: bool
    hidden: bool
    created_at: datetime


@dataclass(frozen=True)
class Thread:
    conversation: Conversation
    title: str
    others: list[tuple[str, str]]
    messages: list[MessageView]
    last_id: int
    etag: str


def _title(public: bool, others: list[tuple[str, str]]) -> str:
    if public:
        return "Public channel"
    return "With " + ", ".join(name for _, name in others) if others else "Only your power"


def conversations_of(power: Power) -> list[ConversationRow]:
    """The conversations ``power`` is in, latest activity first, with its unread counts (two
    queries)."""
    mine = list(
        Member.objects.filter(power=power, conversation__campaign_id=power.campaign_id)
        .select_related("conversation")
        .order_by("-conversation__last_at", "-conversation_id")
    )
    others: dict[int, list[tuple[str, str]]] = {m.conversation_id: [] for m in mine}
    for conv_id, key, name in (
        Member.objects.filter(conversation_id__in=list(others), conversation__public=False)
        .exclude(power=power)
        .order_by("power__name")
        .values_list("conversation_id", "power__key", "power__name")
    ):
        others[conv_id].append((key, name))
    return [
        ConversationRow(
            m.conversation_id,
            m.conversation.public,
            _title(m.conversation.public, others[m.conversation_id]),
            others[m.conversation_id],
            m.conversation.last_at,
            m.unread,
        )
        for m in mine
    ]


def etag(member: Member) -> str:
    """The thread's state as ``member`` sees it: the conversation, the power, and the version
    every change bumps."""
    c = member.conversation
    return f'"d{c.pk}.{member.power_id}.{c.version}"'


def system_words(system: dict[str, Any], writer: str, names: dict[int, str]) -> str:
    """A deal's system line in words, with the powers' names."""
    kind = str(system.get("deal"))
    what = DEAL_WORDS.get(kind, "deal")
    if kind == "agreement":  # agreements have numbers players see; pacts only hidden keys
        what += f" no. {numbered(str(system.get('key')))}"
    outcome = system.get("outcome")
    if outcome == "proposed":
        return f"{writer} proposed a {what} to {names.get(system.get('to', 0), 'another power')}."
    if outcome == "countered":
        return f"{writer} answered the {what} with new terms."
    verb = {"accepted": "accepted", "declined": "declined", "withdrawn": "withdrew"}
    return f"{writer} {verb.get(str(outcome), 'answered')} the {what}."


def thread(member: Member) -> Thread:
    """The latest ``PAGE`` messages of ``member``'s conversation, oldest first (three
    queries: the members, the powers' names, the messages)."""
    conversation = member.conversation
    names = dict(
        Power.objects.filter(campaign_id=conversation.campaign_id).values_list("pk", "name")
    )
    others = sorted(
        (
            (key, name)
            for key, name in Member.objects.filter(conversation=conversation)
            .exclude(power_id=member.power_id)
            .values_list("power__key", "power__name")
        ),
        key=lambda kn: kn[1],
    )
    rows = list(Message.objects.filter(conversation=conversation).order_by("-id")[:PAGE])[::-1]
    views = _views(rows, member, names)
    return Thread(
        conversation,
        _title(conversation.public, [] if conversation.public else others),
        others,
        views,
        rows[-1].pk if rows else 0,
        etag(member),
    )


def _views(rows: list[Message], member: Member, names: dict[int, str]) -> list[MessageView]:
    views = []
    for m in rows:
        writer = names.get(m.power_id, "A power")
        hidden = m.hidden_at is not None
        if m.system:
            html = str(escape(system_words(m.system, writer, names)))
        elif hidden:
            html = f"<p><em>{HIDDEN}</em></p>"
        else:
            html = m.html
        views.append(
            MessageView(
                m.pk,
                writer,
                m.power_id == member.power_id,
                html,
                None if (hidden or m.system) else m.text,
                bool(m.system),
                hidden,
                m.created_at,
            )
        )
    return views


def messages_after(member: Member, after: int) -> list[MessageView]:
    """Up to ``PAGE`` messages after message ``after``, oldest first (the API's pages)."""
    conversation = member.conversation
    names = dict(
        Power.objects.filter(campaign_id=conversation.campaign_id).values_list("pk", "name")
    )
    rows = list(
        Message.objects.filter(conversation=conversation, id__gt=after).order_by("id")[:PAGE]
    )
    return _views(rows, member, names)


def unread_total(user: User | AnonymousUser) -> int:
    """The navigation bar's count: unread messages to every power the user plays (one
    query)."""
    if not user.is_authenticated:
        return 0
    found = Member.objects.filter(power__memberships__user=user, unread__gt=0).aggregate(
        n=Sum("unread")
    )
    return int(found["n"] or 0)


def first_unread(user: User) -> Member | None:
    """Where the navigation bar's count leads: the power's membership with the latest unread
    conversation, else the user's first power's."""
    return (
        Member.objects.filter(power__memberships__user=user)
        .select_related("power")
        .order_by("-unread", "-conversation__last_at")
        .first()
    )
