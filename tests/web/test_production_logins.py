"""A per-account back-off whatever the address (issue 32, item 4; OWASP ASVS 6.3.1): behind the
documented proxy setting, 40 guesses at one account from 8 addresses (five each, under the
per-address lock) hold the account back — the right password too, from a ninth address — for a
limited time: once the failures are an hour old the player signs in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from tests.web.factories import PASSWORD, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

PROXY = "10.0.0.1"  # the one reverse proxy in front (FTCAMP_TRUSTED_PROXIES = 1)


def attempt(username: str, password: str, address: str) -> int:
    response = Client().post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=address,
    )
    return int(response.status_code)


@pytest.fixture
def behind_the_proxy(settings: Settings) -> None:
    settings.FTCAMP_TRUSTED_PROXIES = 1


def test_40_guesses_from_8_addresses_hold_the_account_back(behind_the_proxy: None) -> None:
    make_user("target")
    make_user("bystander")
    codes = [
        attempt("target", f"guess-{a}-{n}", f"203.0.113.{a}") for a in range(8) for n in range(5)
    ]
    # per address: the form again with its error, then that address's lock at its fifth
    assert codes[:20] == [200, 200, 200, 200, 429] * 4
    assert set(codes[20:]) == {429}  # after the account's 20th failure, from every address
    response = Client().post(
        reverse("login"),
        {"username": "target", "password": PASSWORD},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert response.status_code == 429
    assert "Too many failed logins" in response.text
    # another account, from the same addresses, is not held back
    assert attempt("bystander", PASSWORD, "203.0.113.1") == 302


def test_the_back_off_ends_when_the_failures_are_an_hour_old(behind_the_proxy: None) -> None:
    make_user("target")
    for a in range(4):
        for n in range(5):
            attempt("target", f"guess-{a}-{n}", f"203.0.113.{a}")
    assert attempt("target", PASSWORD, "198.51.100.7") == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(hours=1, minutes=1))
    assert attempt("target", PASSWORD, "198.51.100.7") == 302
