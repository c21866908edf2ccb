"""The one gate to protected objects: everything a user may not see is a 404 (never a 403, so
that existence does not leak)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase

from powers.db import attnames, select_columns
from powers.models import Campaign, Membership, Power

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
    """``Power.objects.select_related("campaign").filter(campaign_id=..., [key=...,]
    memberships__user=...).first()`` in one query whose text is built once: the gate runs on
    every request of a player (issue 13: the ORM took a millisecond to compile it)."""
    powers, campaigns = attnames(Power), attnames(Campaign)
    with connection.cursor() as cur:
        params: list[int | str] = [campaign_id, user_id]
        if power_key is not None:
            params.append(power_key)
        cur.execute(_played_sql(power_key is not None), params)
        row = cur.fetchone()
    if row is None:
        return None
    db = connection.alias
    power = Power.from_db(db, powers, row[: len(powers)])
    campaign = Campaign.from_db(db, campaigns, row[len(powers) :])
    Power.campaign.field.set_cached_value(power, campaign)
    return power


@cache
def _played_sql(keyed: bool) -> str:
    q = connection.ops.quote_name
    members = Membership._meta
    key = " AND p.key = %s" if keyed else ""
    # built from model metadata only; the ids and key are parameters
    return (
        f"SELECT {select_columns(Power, 'p')}, {select_columns(Campaign, 'c')}"  # noqa: S608
        f" FROM {q(Power._meta.db_table)} p"
        f" JOIN {q(Campaign._meta.db_table)} c ON c.id = p.campaign_id"
        f" JOIN {q(members.db_table)} m ON m.power_id = p.id"
        f" WHERE p.campaign_id = %s AND m.user_id = %s{key}"
        f" ORDER BY c.name, p.key LIMIT 1"
    )


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
