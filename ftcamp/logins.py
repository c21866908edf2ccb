"""Login throttling (reliability S7, issue 11), on django-axes.

Five failures lock one username from one address (``AXES_FAILURE_LIMIT``), so a mistyped
password for one account never locks out the other players behind the same address (a
household, an office, or everyone, behind a reverse proxy); and a ceiling of failures from one
address whatever the usernames (``FTCAMP_LOGIN_IP_LIMIT``, 50 an hour) stops one address from
trying many accounts. Both answer 429 during the hour's cool-off, for the right password too.

Per account, whatever the addresses (OWASP ASVS 6.3.1, issue 32): ``FTCAMP_LOGIN_USER_LIMIT``
failures for one username within the hour, from any number of addresses, hold that account
back (429, the right password too) until the oldest of them is an hour old. The back-off is
time-limited by construction — failures older than ``AXES_COOLOFF_TIME`` no longer count — so an
attacker can delay a player's login, never lock the account for good; a player already signed
in stays signed in, and the organiser may clear the attempts in the admin (django-axes).
"""

from __future__ import annotations

import ipaddress
from datetime import timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import CharField, Sum
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from powers.db import Param, Prepared


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or with ``FTCAMP_TRUSTED_PROXIES`` = N > 0 the
    address the outermost of those N proxies saw (the N-th from the right of
    ``X-Forwarded-For``). The header is never trusted further than the proxies that wrote it."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies: int = settings.FTCAMP_TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    chain = [a.strip() for a in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    chain = [a for a in chain if a]
    if len(chain) < proxies:
        return remote
    candidate = chain[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


class AxesHttpRequest(HttpRequest):
    """A request as django-axes marks it."""

    axes_locked_out: bool
    axes_credentials: dict[str, Any]


class LoginLockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes: no types
    """django-axes' database handler, counting per (username, address) as configured, plus a
    ceiling per address."""

    @staticmethod
    def address_failures(request: HttpRequest) -> int:
        since = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME)
        total = AccessAttempt.objects.filter(
            ip_address=getattr(request, "axes_ip_address", None), attempt_time__gte=since
        ).aggregate(n=Sum("failures_since_start"))["n"]
        return int(total or 0)

    @staticmethod
    def account_failures(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
        """Failed logins for the username in the credentials within the cool-off, from any
        address."""
        username = get_client_username(request, credentials)
        if not username:
            return 0
        since = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME)
        total = AccessAttempt.objects.filter(username=username, attempt_time__gte=since).aggregate(
            n=Sum("failures_since_start")
        )["n"]
        return int(total or 0)

    def over_ceilings(self, request: HttpRequest, credentials: dict[str, Any] | None) -> bool:
        return (
            self.address_failures(request) >= settings.FTCAMP_LOGIN_IP_LIMIT
            or self.account_failures(request, credentials) >= settings.FTCAMP_LOGIN_USER_LIMIT
        )

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        locked: bool = super().is_locked(request, credentials)
        return locked or self.over_ceilings(request, credentials)

    def user_login_failed(
        self,
        sender: object,
        credentials: dict[str, Any],
        request: AxesHttpRequest | None = None,
        **kwargs: object,
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and self.over_ceilings(request, credentials):
            request.axes_locked_out = True
            request.axes_credentials = credentials


class FastTokenAuthentication(TokenAuthentication):
    """DRF's token authentication with its one query prepared once (issue 13: every API call
    of a player runs it; the ORM spent half a millisecond compiling it). The same answer: the
    token's user, 401 for an unknown token or an inactive user."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        token = _TOKEN.first(key=key)
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


_TOKEN = Prepared(
    lambda: Token.objects.select_related("user").filter(key=Param("key", CharField()))[:1]
)
