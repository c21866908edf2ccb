"""Announcing events to be told, from anywhere below (economy and trade services, and the
fleet's battle records to come): after the caller's transaction commits, the delivery task is
enqueued by name (``notices/tasks.py``), so no service imports the app that reads across them.
Only ids travel: the task reads the facts it needs itself.

A broker failure is logged, not raised — the caller's write stands — and the beat sweep
(``notices.services.sweep``) tells what a lost message did not.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from ftcamp.celery import app as celery_app

log = logging.getLogger(__name__)

DELIVER_TASK = "notices.deliver"
INVITE_TASK = "notices.invite"


def _enqueue(task: str, *args: Any) -> None:
    def send() -> None:
        try:
            celery_app.tasks[task].delay(*args)
        except Exception:
            log.exception("could not enqueue %s%s", task, args)

    transaction.on_commit(send)


def _after_commit(kind: str, payload: dict[str, Any]) -> None:
    _enqueue(DELIVER_TASK, kind, payload)


def invitation_made(invitation_id: int, *, origin: str = "") -> None:
    """An organiser invited someone to a power: the email with the link goes out, on
    ``origin`` (the scheme and host the organiser used; ``FTCAMP_BASE_URL`` if empty)."""
    _enqueue(INVITE_TASK, invitation_id, origin)


def round_resolved(round_id: int) -> None:
    """Round ``round_id`` has just been resolved: every player gets their own statement."""
    _after_commit("round_resolved", {"round": round_id})


def agreement_proposed(agreement_id: int, step_id: int) -> None:
    """Terms now await the other party (a proposal, or a counter-proposal: step ``step_id`` of
    the agreement's history)."""
    _after_commit("agreement_proposed", {"agreement": agreement_id, "step": step_id})


def motion_opened(motion_id: int) -> None:
    """A motion has been put before the UN Monetary Committee."""
    _after_commit("motion_opened", {"motion": motion_id})


def battle_record_proposed(
    *,
    campaign_id: int,
    record: str,
    round_number: int,
    proposer_id: int,
    power_ids: Sequence[int],
    amended: str = "",
) -> None:
    """The hook for the fleet's battle records: call it in the transaction that stores a battle
    record ``record`` (its key) of round ``round_number`` proposed by power ``proposer_id``;
    the players of every other power in ``power_ids`` are asked to confirm it. ``amended``
    names an amendment (any text unique to it, e.g. when it was made): each amendment asks
    them again, once. The notice names the record, its round and the proposer only — never
    the battle's contents."""
    _after_commit(
        "battle_record",
        {
            "campaign": campaign_id,
            "record": record,
            "round": round_number,
            "proposer": proposer_id,
            "powers": list(power_ids),
            "amended": amended,
        },
    )


def battle_record_declined(*, campaign_id: int, record: str, decliner_id: int) -> None:
    """A power in battle record ``record`` (its key) declined it with a reason: the players of
    the power that entered it are told who declined and why, so that it amends or withdraws
    it (R-10.6)."""
    _after_commit(
        "battle_declined", {"campaign": campaign_id, "record": record, "decliner": decliner_id}
    )


def mission_resolved(mission_id: int) -> None:
    """The organiser has recorded the outcome of diplomatic mission ``mission_id`` (R-8.4):
    the players of its target and of its sender are told, and nobody else."""
    _after_commit("mission_resolved", {"mission": mission_id})
