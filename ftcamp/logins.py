"""Login throttling (reliability S7, issue 11), on django-axes.

Five failures lock one username from one address (``AXES_FAILURE_LIMIT``), so a mistyped
password for one account never locks out the other players behind the same address (a
household, an office, or everyone, behind a reverse proxy); and a ceiling of failures from one
address whatever the usernames (``FTCAMP_LOGIN_IP_LIMIT``, 50 an hour) stops one address from
trying many accounts. Both answer 429 during the hour's cool-off, for the right password too.
"""

from __future__ import annotations

import ipaddress
from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone


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


class LoginLockoutHandler(AxesDatabaseHandler):
    """django-axes' database handler, counting per (username, address) as configured, plus a
    ceiling per address."""

    @staticmethod
    def address_failures(request: HttpRequest) -> int:
        since = timezone.now() - timedelta(hours=settings.AXES_COOLOFF_TIME)
        total = AccessAttempt.objects.filter(
            ip_address=getattr(request, "axes_ip_address", None), attempt_time__gte=since
        ).aggregate(n=Sum("failures_since_start"))["n"]
        return int(total or 0)

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:  # type: ignore[type-arg]
        return super().is_locked(request, credentials) or (
            self.address_failures(request) >= settings.FTCAMP_LOGIN_IP_LIMIT
        )

    def user_login_failed(  # type: ignore[no-untyped-def]
        self, sender, credentials: dict, request=None, **kwargs
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and (
            self.address_failures(request) >= settings.FTCAMP_LOGIN_IP_LIMIT
        ):
            request.axes_locked_out = True
            request.axes_credentials = credentials
