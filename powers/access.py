"""The one gate to protected objects: everything a user may not see is a 404 (never a 403, so
that existence does not leak)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from powers.models import Power


def access_power_for_user(
    *, user: AbstractBaseUser | AnonymousUser, campaign_id: int, power_key: str
) -> Power:
    """The power ``power_key`` of campaign ``campaign_id`` if ``user`` plays it, else 404."""
    if not user.is_authenticated:
        raise Http404("No such power.")
    power = (
        Power.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, key=power_key, memberships__user=user)
        .first()
    )
    if power is None:
        raise Http404("No such power.")
    return power


def power_of_user_in_campaign(*, user: AbstractBaseUser | AnonymousUser, campaign_id: int) -> Power:
    """The power ``user`` plays in the campaign, else 404."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    power = (
        Power.objects.select_related("campaign")
        .filter(campaign_id=campaign_id, memberships__user=user)
        .first()
    )
    if power is None:
        raise Http404("No such campaign.")
    return power
