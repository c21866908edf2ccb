"""Reliability S8: the session key changes at login, a session is dead after logout (its
cookie replayed gets the login page), and production cookies are secure and HTTP-only."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.web.factories import PASSWORD, make_user
from tests.web.test_settings import run_manage

pytestmark = pytest.mark.django_db


def test_session_rotates_at_login_and_dies_at_logout() -> None:
    make_user("anna")
    client = Client()
    client.get(reverse("login"))
    client.session.save()
    before = client.session.session_key
    assert (
        client.post(reverse("login"), {"username": "anna", "password": PASSWORD}).status_code == 302
    )
    after = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert after and after != before
    assert client.get(reverse("my-campaigns")).status_code == 200
    client.post(reverse("logout"))
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = after
    r = replay.get(reverse("my-campaigns"))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


def test_production_cookie_flags() -> None:
    """Production settings (no DEBUG, nothing relaxed): secure, HTTP-only cookies."""
    code = (
        "from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY)"
    )
    result = run_manage("shell", "-c", code, SECRET_KEY="cookie-flags-check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["True", "True", "True"]
