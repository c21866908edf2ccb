"""Reliability S11: security headers on HTML responses; S6: CSRF on unsafe methods."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db


def test_headers_on_sampled_routes(client: Client) -> None:
    world = make_campaign()
    client.force_login(world.users[0])
    for url in (
        reverse("login"),
        reverse("my-campaigns"),
        reverse("dashboard", args=[world.campaign.pk, "p0"]),
        reverse("orders", args=[world.campaign.pk, "p0"]),
        reverse("history", args=[world.campaign.pk]),
    ):
        response = client.get(url)
        csp = response["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"


def test_csrf_is_required_for_session_writes() -> None:
    world = make_campaign()
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users[0])
    page = reverse("order-add", args=[world.campaign.pk, "p0"])
    assert client.post(page, {"type": "research_project", "gal": "2"}).status_code == 403
    api = f"/api/campaigns/{world.campaign.pk}/orders/"
    body = '{"type": "research_project", "gal": 2}'
    assert client.post(api, body, content_type="application/json").status_code == 403
