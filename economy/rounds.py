"""The open round and who did what to it: the round lock every write a player makes takes,
and the append-only audit trail (reliability O1). The floor the services of economy and trade
stand on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.apps import apps
from django.db.models import F, Model
from django.db.models.signals import post_delete, post_save

from economy.models import AuditEvent, Round, RoundStatus
from ftcamp.errors import Conflict
from powers.models import Campaign, Power


class RoundNotOpen(Conflict):
    """The round no longer takes orders (resolution has started or it is over): HTTP 409."""


class RoundOver(RoundNotOpen):
    """A write meant for a round that is over (a page or client that did not see it resolve):
    refused, never applied to the next round (issue 10). HTTP 409 with the open round."""

    def __init__(self, number: int, open_number: int) -> None:
        super().__init__(f"round {number} is over — open round {open_number}")
        self.number = number
        self.open_round = open_number


def lock_open_round(campaign_id: int, *, expected: int | None = None) -> Round:
    """The campaign's open round, locked; ``RoundNotOpen`` if there is none, ``RoundOver`` if
    ``expected`` (the round the writer last saw) is not it."""
    rnd = (
        Round.objects.select_for_update()
        .filter(campaign_id=campaign_id, status=RoundStatus.OPEN)
        .first()
    )
    if rnd is None:
        raise RoundNotOpen("The round is being resolved; it takes no more orders, trades or votes.")
    if expected is not None and expected != rnd.number:
        raise RoundOver(expected, rnd.number)
    return rnd


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


# --- the state version (issue 13) -----------------------------------------------------------
#
# The projected statement reuses the parsed state of the live round, cached per process under
# (round id, ``Round.state_version``). Every write to a model of the state (the apps below)
# bumps the version of its campaign's live round in the same transaction, through Django's
# save and delete signals, so the admin's edits, agreements, motions and hub names count too.
# Writes that bypass the signals (bulk operations) bump it themselves: ``save_state`` once
# for the whole state, the sector import once for the whole import.

STATE_APPS = ("powers", "trade")  # every model the state is read from (economy.snapshot)
NOT_STATE = {"powers.membership", "trade.routejob", "trade.agreementevent", "trade.ratehistory"}

_rewriting: ContextVar[bool] = ContextVar("state_rewrite", default=False)


def bump_state_version(campaign_id: int) -> None:
    """The campaign's live round now has another state: what was cached under it is stale."""
    Round.objects.filter(
        campaign_id=campaign_id, status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING]
    ).update(state_version=F("state_version") + 1)


@contextmanager
def state_rewrite(campaign_id: int) -> Iterator[None]:
    """A write of the whole state (``save_state``): one bump at the end instead of one per
    row saved."""
    token = _rewriting.set(True)
    try:
        yield
    finally:
        _rewriting.reset(token)
    bump_state_version(campaign_id)


def _campaign_of(instance: Model) -> int | None:
    """The campaign a row of the state belongs to: its own, or its parent's (a hub's link, a
    design's systems, a motion's votes)."""
    if isinstance(instance, Campaign):
        return instance.pk
    campaign_id = getattr(instance, "campaign_id", None)
    if isinstance(campaign_id, int):
        return campaign_id
    for field in instance._meta.concrete_fields:
        if field.is_relation and field.related_model is not None:
            try:
                parent = getattr(instance, field.name)
            except field.related_model.DoesNotExist:  # deleted with it: that bumped already
                continue
            found = getattr(parent, "campaign_id", None)
            if isinstance(found, int):
                return found
    return None


def _state_written(sender: type[Model], instance: Model, **kwargs: Any) -> None:
    if _rewriting.get() or sender._meta.label_lower in NOT_STATE:
        return
    origin = kwargs.get("origin")  # a deletion's: the campaign itself goes with its rounds
    if isinstance(origin, Campaign) or getattr(origin, "model", None) is Campaign:
        return
    campaign_id = _campaign_of(instance)
    if campaign_id is not None:
        bump_state_version(campaign_id)


def watch_state_writes() -> None:
    """Connect the bump to every model of the state (``EconomyConfig.ready``)."""
    for label in STATE_APPS:
        for model in apps.get_app_config(label).get_models():
            post_save.connect(_state_written, sender=model, dispatch_uid=f"state-{model}")
            post_delete.connect(_state_written, sender=model, dispatch_uid=f"state-del-{model}")
