"""The one gate to a conversation (issue 31): a power reaches a conversation only through its
own membership row, so a conversation it is not in answers exactly as one that does not exist
(the same 404, the same words)."""

from __future__ import annotations

from django.http import Http404

from diplomacy.models import Member
from powers.models import Power

MISSING = "No such conversation."


def member_of(*, power: Power, conversation_id: int) -> Member:
    """``power``'s membership of conversation ``conversation_id`` (the conversation with it, one
    query), else 404."""
    member = (
        Member.objects.select_related("conversation")
        .filter(
            power=power,
            conversation_id=conversation_id,
            conversation__campaign_id=power.campaign_id,
        )
        .first()
    )
    if member is None:
        raise Http404(MISSING)
    return member
