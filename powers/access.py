"""The one gate to protected objects: everything a user may not see is a 404 (never a 403, so
that existence does not leak)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import CharField, QuerySet
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase

from powers.db import Param, Prepared
from powers.models import Power

R = TypeVar("R", bound=HttpResponseBase)


class AuthenticatedHttpRequest(HttpRequest):
    """A request past ``login_required``: its user is signed in."""

    user: User


def access_power_for_user(*, user: User | AnonymousUser, campaign_id: int, power_key: str) -> Power:
    """The power ``power_key`` of campaign ``campaign_id`` if ``user`` plays it, else 404."""
    if not user.is_authenticated:
        raise Http404("No such power.")
    power = _power_played(user.pk, campaign_id, power_key)
    if power is None:
        raise Http404("No such power.")
    return power


def _power_played(user_id: int, campaign_id: int, power_key: str | None) -> Power | None:
    """The power (its campaign with it) that the user plays in the campaign, by key or the
    first: the gate runs on every request of a player, so its query is prepared once."""
    if power_key is None:
        return _PLAYED.first(campaign=campaign_id, user=user_id)
    return _PLAYED_KEYED.first(campaign=campaign_id, user=user_id, key=power_key)


def _played(keyed: bool) -> Prepared[Power]:
    def build() -> QuerySet[Power]:
        rows = Power.objects.select_related("campaign").filter(
            campaign_id=Param("campaign"), memberships__user_id=Param("user")
        )
        if keyed:
            rows = rows.filter(key=Param("key", CharField()))
        return rows.order_by("campaign__name", "key")[:1]

    return Prepared(build)


_PLAYED, _PLAYED_KEYED = _played(False), _played(True)


def power_of_user_in_campaign(*, user: User | AnonymousUser, campaign_id: int) -> Power:
    """The power ``user`` plays in the campaign, else 404."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    power = _power_played(user.pk, campaign_id, None)
    if power is None:
        raise Http404("No such campaign.")
    return power


def my_power(*, user: User | AnonymousUser, campaign_id: int) -> Power | None:
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


def player_view(view: Callable[..., R]) -> Callable[..., R]:
    """A page of one power (``campaign_id`` and ``power_key`` in its URL): login required, then
    the gate above; the view gets the ``Power`` instead of the two ids."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, campaign_id: int, power_key: str, **kwargs: Any) -> R:
        power = access_power_for_user(
            user=request.user, campaign_id=campaign_id, power_key=power_key
        )
        return view(request, power, **kwargs)

    return wrapper
