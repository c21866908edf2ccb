"""The one way a line enters a thread — a player's message or a deal's system line — and the
one way a member's read marker moves, so the counters the lists read stay right."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Subquery
from django.db.models.functions import Coalesce

from diplomacy.models import Conversation, Member, Message


def append(
    *,
    conversation_id: int,
    power_id: int,
    author_id: int | None = None,
    text: str = "",
    html: str = "",
    system: dict[str, Any] | None = None,
) -> Message:
    """Write the line; the thread's version and last activity move and every other member has
    one more unread (three statements, whatever the number of members)."""
    message = Message.objects.create(
        conversation_id=conversation_id,
        power_id=power_id,
        author_id=author_id,
        text=text,
        html=html,
        system=system or {},
    )
    Conversation.objects.filter(pk=conversation_id).update(
        version=F("version") + 1, last_at=message.created_at
    )
    Member.objects.filter(conversation_id=conversation_id).exclude(power_id=power_id).update(
        unread=F("unread") + 1
    )
    return message


def mark_read(member: Member, upto: int) -> None:
    """The member has read up to message ``upto``: its unread count is what others wrote after
    it, counted in the same statement (a message written meanwhile stays unread)."""
    if upto <= member.last_read:
        return
    later = (
        Message.objects.filter(conversation_id=member.conversation_id, id__gt=upto)
        .exclude(power_id=member.power_id)
        .values("conversation_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    Member.objects.filter(pk=member.pk, last_read__lt=upto).update(
        last_read=upto, unread=Coalesce(Subquery(later), 0)
    )
    member.last_read = upto
