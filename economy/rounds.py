"""The open round and who did what to it: the round lock every write a player makes takes,
and the append-only audit trail (reliability O1). The floor the services of economy and trade
stand on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from economy.models import AuditEvent, Round, RoundStatus
from ftcamp.errors import Conflict
from powers.db import Param, Prepared
from powers.models import Power


class RoundNotOpen(Conflict):
    """The round no longer takes orders (resolution has started or it is over): HTTP 409."""


class RoundOver(RoundNotOpen):
    """A write meant for a round that is over (a page or client that did not see it resolve):
    refused, never applied to the next round (issue 10). HTTP 409 with the open round."""

    def __init__(self, number: int, open_number: int) -> None:
        super().__init__(f"round {number} is over — open round {open_number}")
        self.number = number
        self.open_round = open_number


# The round the request being served says its writes are for (campaign id or None for any,
# round number): set by the one page-write decorator from the form's ``round`` and by the API's
# If-Match middleware, read under the round lock (issue 32).
_WRITES_FOR: ContextVar[tuple[int | None, int] | None] = ContextVar("writes_for", default=None)


@contextmanager
def writes_for_round(number: int | None, *, campaign_id: int | None = None) -> Iterator[None]:
    """Within the block every round lock of the campaign (any, without ``campaign_id``) is
    refused with ``RoundOver`` unless the open round is ``number``: a retried write for a
    round that is over never lands on the next one. ``None``: the writer did not say (no check,
    as before)."""
    token = _WRITES_FOR.set(None if number is None else (campaign_id, number))
    try:
        yield
    finally:
        _WRITES_FOR.reset(token)


def _expected(campaign_id: int, expected: int | None) -> int | None:
    if expected is not None:
        return expected
    said = _WRITES_FOR.get()
    if said is None or said[0] not in (None, campaign_id):
        return None
    return said[1]


def lock_open_round(campaign_id: int, *, expected: int | None = None) -> Round:
    """The campaign's open round, locked; ``RoundNotOpen`` if there is none, ``RoundOver`` if
    ``expected`` (the round the writer last saw; by default the one the request said, see
    ``writes_for_round``) is not it."""
    rnd = _OPEN_ROUND.first(campaign=campaign_id)
    expected = _expected(campaign_id, expected)
    if rnd is None:
        raise RoundNotOpen("The round is being resolved; it takes no more orders, trades or votes.")
    if expected is not None and expected != rnd.number:
        raise RoundOver(expected, rnd.number)
    return rnd


# Every write a player makes runs it (issue 13). A campaign has at most one open round (the
# ``round_one_live_per_campaign`` constraint), so the order does not choose.
_OPEN_ROUND = Prepared(
    lambda: (
        Round.objects.select_for_update()
        .filter(campaign_id=Param("campaign"), status=RoundStatus.OPEN)
        .order_by("id")[:1]
    )
)


def audit(
    *,
    campaign_id: int,
    action: str,
    round_number: int | None = None,
    actor: str = "",
    **detail: Any,
) -> None:
    AuditEvent.objects.create(
        campaign_id=campaign_id,
        round_number=round_number,
        actor=actor,
        action=action,
        detail=detail,
    )


def audit_power(power: Power, rnd: Round, actor: str, action: str, **detail: Any) -> None:
    """An audit row for something a power's player did in an open round."""
    audit(
        campaign_id=power.campaign_id,
        round_number=rnd.number,
        actor=actor,
        action=action,
        power=power.key,
        **detail,
    )
