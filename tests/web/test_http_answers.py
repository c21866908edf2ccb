"""Issue 11, item 10 (and the API's 404s of item 12; issue 10's favicon): the ledger export
answers only for its listed formats, private pages and the token page are never cached, a
missing or bad API token is a 401 that says how to authenticate, and a path the API does not
have is a JSON 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():  # type: ignore[no-untyped-def]
    return make_campaign()


@pytest.fixture
def player(client: Client, world) -> Client:  # type: ignore[no-untyped-def]
    client.force_login(world.users[0])
    return client


@pytest.mark.parametrize("fmt", ["exe", "CSV", "csv.exe", "html", "json5", "svg"])
def test_the_ledger_export_has_only_its_listed_formats(player, world, fmt) -> None:  # type: ignore[no-untyped-def]
    """Today ``ledger.exe`` is served as a CSV named ``ledger-<id>-p0.exe``."""
    r = player.get(f"/campaigns/{world.campaign.pk}/powers/p0/ledger.{fmt}")
    assert r.status_code == 404


@pytest.mark.parametrize(("fmt", "kind"), [("csv", "text/csv"), ("json", "application/json")])
def test_the_listed_formats_download(player, world, fmt, kind) -> None:  # type: ignore[no-untyped-def]
    r = player.get(reverse("ledger-export", args=[world.campaign.pk, "p0", fmt]))
    assert r.status_code == 200 and r["Content-Type"] == kind
    assert r["Content-Disposition"] == f'attachment; filename="ledger-{world.campaign.pk}-p0.{fmt}"'


PRIVATE = [
    ("dashboard", True),
    ("orders", True),
    ("agreements", True),
    ("un-committee", True),
    ("ledger-export", True),
    ("api-token", False),
    ("my-campaigns", False),
]


@pytest.mark.parametrize(("name", "of_power"), PRIVATE)
def test_private_pages_are_never_stored(player, world, name, of_power) -> None:  # type: ignore[no-untyped-def]
    args = [world.campaign.pk, "p0"] if of_power else []
    if name == "ledger-export":
        args.append("csv")
    r = player.get(reverse(name, args=args))
    assert r.status_code == 200
    assert "no-store" in r["Cache-Control"] and "private" in r["Cache-Control"]


def test_private_api_answers_are_never_stored(world) -> None:  # type: ignore[no-untyped-def]
    token = Token.objects.create(user=world.users[0])
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    r = client.get(f"/api/campaigns/{world.campaign.pk}/sheet/")
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]


def test_public_pages_may_be_cached(client: Client, world) -> None:  # type: ignore[no-untyped-def]
    r = client.get(reverse("history", args=[world.campaign.pk]))
    assert r.status_code == 200 and "no-store" not in r.get("Cache-Control", "")


@pytest.mark.parametrize("auth", [None, "Token not-a-real-token", "Bearer abc", "Token "])
def test_a_missing_or_bad_token_is_a_401_naming_the_scheme(world, auth) -> None:  # type: ignore[no-untyped-def]
    """Today: 403 without WWW-Authenticate."""
    client = Client(**({"HTTP_AUTHORIZATION": auth} if auth else {}))
    r = client.get(f"/api/campaigns/{world.campaign.pk}/sheet/")
    assert r.status_code == 401
    assert r["WWW-Authenticate"] == "Token"
    assert r["Content-Type"] == "application/json"


def test_a_path_the_api_does_not_have_is_a_json_404(player, world) -> None:  # type: ignore[no-untyped-def]
    """Today a non-integer path part gets Django's HTML 404 page."""
    for path in (
        "/api/campaigns/abc/orders/",
        f"/api/campaigns/{world.campaign.pk}/orders/x/",
        f"/api/campaigns/{world.campaign.pk}/reports/-1/",
        "/api/nothing-here/",
    ):
        r = player.get(path)
        assert r.status_code == 404, path
        assert r["Content-Type"] == "application/json"
        assert r.json() == {"detail": "Not found."}
    page = player.get("/campaigns/abc/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_there_is_a_favicon(client: Client) -> None:
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r["Content-Type"] == "image/x-icon"
    assert r.content[:4] == b"\x00\x00\x01\x00"  # an ICO file
