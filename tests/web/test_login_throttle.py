"""Reliability S7 and issue 11: repeated failed logins lock that username from that address
(five failures), even for the right password; one address is stopped after FTCAMP_LOGIN_IP_LIMIT
(50) failures whatever the usernames; a player's typos never lock out another player behind the
same address; the client address comes from X-Forwarded-For only behind a trusted proxy."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.test import Client, RequestFactory
from django.urls import reverse

from ftcamp.logins import client_ip
from tests.web.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def attempt(client: Client, username: str, password: str, ip: str = "10.9.9.9", **extra) -> int:  # type: ignore[no-untyped-def]
    response = client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip, **extra
    )
    return response.status_code


def test_account_locked_after_five_failures_from_that_address() -> None:
    user = make_user("target")
    client = Client()
    codes = [attempt(client, user.username, f"wrong-{i}") for i in range(5)]
    assert codes[:4] == [200] * 4  # the form again, with its error
    assert codes[4] == 429
    # the right password is refused during the cool-off from that address
    assert attempt(client, user.username, PASSWORD) == 429
    assert AccessAttempt.objects.filter(username=user.username).exists()


def test_a_wrong_password_for_one_player_does_not_lock_out_another_at_the_same_address() -> None:
    """Issue 11: behind one address (a reverse proxy, a household) nsl's typos leave esu free.
    Fails with django-axes' former ``["username", "ip_address"]`` parameters (either locks)."""
    make_user("nsl")
    make_user("esu")
    client = Client()
    assert [attempt(client, "nsl", "typo") for _ in range(5)][-1] == 429
    assert attempt(Client(), "esu", PASSWORD) == 302  # logged in
    assert attempt(Client(), "nsl", PASSWORD, ip="10.1.1.1") == 302  # nsl, elsewhere


def test_one_address_trying_twenty_accounts_is_stopped_at_the_ceiling(settings) -> None:  # type: ignore[no-untyped-def]
    """S7's "20 accounts from one IP": three tries at each of 20 accounts; the address is
    refused (429) from its 50th failure on, for every account, right password included."""
    assert settings.FTCAMP_LOGIN_IP_LIMIT == 50
    users = [make_user(f"victim{i}") for i in range(20)]
    client = Client()
    codes = [
        attempt(client, u.username, f"nope{n}", ip="10.2.2.2") for n in range(3) for u in users
    ]
    assert codes[:49] == [200] * 49
    assert set(codes[49:]) == {429}
    assert attempt(client, users[0].username, PASSWORD, ip="10.2.2.2") == 429
    assert attempt(client, users[0].username, PASSWORD, ip="10.2.2.3") == 302


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
    assert codes[-1] == 429


def test_client_address_from_the_proxy_header_only_behind_trusted_proxies(settings) -> None:  # type: ignore[no-untyped-def]
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7"
    )
    settings.FTCAMP_TRUSTED_PROXIES = 0
    assert client_ip(request) == "10.0.0.1"  # a forged header is ignored
    settings.FTCAMP_TRUSTED_PROXIES = 1
    assert client_ip(request) == "203.0.113.7"  # what our one proxy saw; 6.6.6.6 is forgeable
    settings.FTCAMP_TRUSTED_PROXIES = 3
    assert client_ip(request) == "10.0.0.1"  # fewer hops than proxies: not trusted


def test_behind_a_proxy_players_are_told_apart_by_their_forwarded_address(settings) -> None:  # type: ignore[no-untyped-def]
    settings.FTCAMP_TRUSTED_PROXIES = 1
    make_user("fse")
    client = Client()
    for _ in range(5):
        attempt(client, "fse", "typo", ip="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert (
        attempt(client, "fse", PASSWORD, ip="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.1") == 429
    )
    assert (
        attempt(Client(), "fse", PASSWORD, ip="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.2")
        == 302
    )
