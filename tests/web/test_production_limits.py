"""Request bodies are refused by their declared size before anything reads them (issue 32,
item 3): a 300 MB multipart POST to the login page, or to the organiser's sector import, is a
413 from its Content-Length alone — the body is never read, spooled or parsed — and gunicorn
and the proxy cap what reaches Django (docker-compose.yml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.web.factories import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

ROOT = Path(__file__).resolve().parents[2]
HUGE = 300 * 1024 * 1024


class NeverRead:
    """A ``wsgi.input`` that fails the test if anything reads it."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the body was read")

    readline = read

    def __iter__(self) -> NeverRead:
        raise AssertionError("the body was read")


def _post(client: Client, path: str, content_type: str, length: int = HUGE) -> int:
    environ: dict[str, Any] = {"CONTENT_LENGTH": str(length), "wsgi.input": NeverRead()}
    response = client.generic("POST", path, b"x", content_type, **environ)
    return int(response.status_code)


MULTIPART = "multipart/form-data; boundary=xyz"


@pytest.mark.parametrize(
    "content_type", [MULTIPART, "application/x-www-form-urlencoded", "text/plain"]
)
def test_a_huge_login_post_is_a_413_unread(client: Client, content_type: str) -> None:
    assert _post(client, reverse("login"), content_type) == 413


def test_a_huge_post_without_a_csrf_cookie_is_a_413_unread() -> None:
    assert _post(Client(enforce_csrf_checks=True), reverse("login"), MULTIPART) == 413


def test_a_huge_sector_import_is_a_413_unread(client: Client) -> None:
    root = get_user_model().objects.create_superuser("org", "org@example.org", PASSWORD)
    client.force_login(root)
    path = reverse("admin:powers_campaign_changelist")
    assert _post(client, path, MULTIPART, length=100 * 1024 * 1024) == 413


def test_an_upload_within_the_limit_is_read(client: Client) -> None:
    """Just under the cap the gate lets it through (the view refuses what it is: the body
    reader raises here, so the answer is the test's assertion, not a 413)."""
    with pytest.raises(AssertionError, match="the body was read"):
        _post(client, reverse("login"), MULTIPART, length=settings.FTCAMP_MAX_UPLOAD_BYTES)


def test_the_upload_limits_are_set() -> None:
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 1024 * 1024
    # an upload within the cap stays in memory, never spooled to disk
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE >= 5 * 1024 * 1024
    assert settings.FTCAMP_MAX_UPLOAD_BYTES <= 16 * 1024 * 1024


def test_gunicorn_limits_the_request_line_and_headers() -> None:
    for name in ("docker-compose.yml", "Dockerfile"):
        text = (ROOT / name).read_text()
        assert "gunicorn" in text
        for flag in (
            "--limit-request-line",
            "--limit-request-fields",
            "--limit-request-field_size",
        ):
            assert flag in text, (name, flag)
