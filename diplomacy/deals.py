"""The hook the trade and fleet services call when an agreement, a loan or a transfer is
offered or answered (issue 31): if it was proposed from a conversation (the thread's
"propose" buttons record a ``Deal`` asked for there), the offer and each outcome appear in that
thread as a system line. A deal not asked for from a thread is told nowhere here. The line holds
the deal's kind, number, outcome and powers, never its terms: a conversation's other members
read it too."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from diplomacy import store
from diplomacy.models import Deal

ASKED_FOR = timedelta(days=1)  # how long a thread's "propose" waits for the offer it asked for
OUTCOMES = ("proposed", "countered", "accepted", "declined", "withdrawn")


def offered(*, kind: str, campaign_id: int, key: str, proposer_id: int, other_id: int) -> None:
    """``proposer_id`` has just offered deal ``key`` of ``kind`` (agreement, loan, transfer) to
    ``other_id``: the newest matching ask from a thread of the campaign is linked to it, and the
    offer is told there. Call it in the service's transaction."""
    asked = (
        Deal.objects.filter(
            conversation__campaign_id=campaign_id,
            kind=kind,
            proposer_id=proposer_id,
            other_id=other_id,
            key="",
            created_at__gte=timezone.now() - ASKED_FOR,
        )
        .order_by("-id")
        .first()
    )
    if asked is None:
        return
    asked.key = key
    asked.save(update_fields=["key"])
    store.append(
        conversation_id=asked.conversation_id,
        power_id=proposer_id,
        system={"deal": kind, "key": key, "outcome": "proposed", "to": other_id},
    )


def answered(*, kind: str, campaign_id: int, key: str, power_id: int, outcome: str) -> None:
    """Power ``power_id`` has countered, accepted, declined or withdrawn deal ``key``: told in
    the thread it was proposed from, if any. Call it in the service's transaction."""
    assert outcome in OUTCOMES
    for deal in Deal.objects.filter(conversation__campaign_id=campaign_id, kind=kind, key=key):
        store.append(
            conversation_id=deal.conversation_id,
            power_id=power_id,
            system={"deal": kind, "key": key, "outcome": outcome},
        )
