"""The one gate to protected objects: everything a user may not see is a 404 (never a 403, so
that existence does not leak)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse

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


def my_power(*, user: AbstractBaseUser | AnonymousUser, campaign_id: int) -> Power | None:
    """The power ``user`` plays in the campaign, or None (public pages link to it)."""
    if not user.is_authenticated:
        return None
    return Power.objects.filter(campaign_id=campaign_id, memberships__user=user).first()


def player_power(request: HttpRequest, campaign_id: int) -> Power:
    """The power the requesting user plays in the campaign (API routes name no power), else
    404."""
    return power_of_user_in_campaign(user=request.user, campaign_id=campaign_id)


def actor(request: HttpRequest) -> str:
    """Who did it, for the audit trail: the requesting user's name."""
    return request.user.get_username()


def player_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page of one power (``campaign_id`` and ``power_key`` in its URL): login required, then
    the gate above; the view gets the ``Power`` instead of the two ids."""

    @login_required
    @wraps(view)
    def wrapper(
        request: HttpRequest, campaign_id: int, power_key: str, **kwargs: Any
    ) -> HttpResponse:
        power = access_power_for_user(
            user=request.user, campaign_id=campaign_id, power_key=power_key
        )
        return view(request, power, **kwargs)

    return wrapper
