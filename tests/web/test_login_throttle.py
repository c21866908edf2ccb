"""Reliability S7: repeated failed logins lock the account (and the address) out, even for the
right password, and the lockout is recorded."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from tests.web.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def attempt(client: Client, username: str, password: str, ip: str = "10.9.9.9") -> int:
    response = client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )
    return response.status_code


def test_account_locked_after_five_failures() -> None:
    user = make_user("target")
    client = Client()
    codes = [attempt(client, user.username, f"wrong-{i}") for i in range(5)]
    assert codes[:4] == [200] * 4  # the form again, with its error
    assert codes[4] in (403, 429)
    # the right password is refused during the cool-off, from another address too
    assert attempt(client, user.username, PASSWORD, ip="10.1.1.1") in (403, 429)
    assert AccessAttempt.objects.filter(username=user.username).exists()


def test_one_address_trying_many_accounts_is_locked() -> None:
    client = Client()
    users = [make_user(f"victim{i}") for i in range(6)]
    codes = [attempt(client, u.username, "nope", ip="10.2.2.2") for u in users]
    assert codes[-1] in (403, 429)


def test_admin_login_is_covered() -> None:
    user = make_user("staffer")
    user.is_staff = True
    user.save()
    client = Client()
    codes = [
        client.post(
            "/admin/login/", {"username": "staffer", "password": "bad"}, REMOTE_ADDR="10.3.3.3"
        ).status_code
        for _ in range(6)
    ]
    assert codes[-1] in (403, 429)
