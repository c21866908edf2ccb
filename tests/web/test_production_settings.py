"""The compose shape's TLS and proxy settings (issue 32, item 7): https is served by the proxy
in docker-compose.yml (Caddy), whose X-Forwarded-Proto and X-Forwarded-For are trusted only when
``FTCAMP_TRUSTED_PROXIES`` says a proxy is there; ``FTCAMP_HTTPS`` decides the redirect, secure
cookies and HSTS together."""

from __future__ import annotations

import json
import secrets

import pytest
import yaml
from django.test import Client
from pytest_django import Settings

from tests.web.test_settings import ROOT, run_manage

SHOW = (
    "import json; from django.conf import settings as s;"
    "print(json.dumps([s.SECURE_PROXY_SSL_HEADER, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE,"
    " s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS]))"
)


def _settings(**env: str) -> list[object]:
    base = {"SECRET_KEY": secrets.token_urlsafe(64), "REDIS_URL": ""}
    result = run_manage("shell", "-c", SHOW, **base, **env)
    assert result.returncode == 0, result.stderr
    shown: list[object] = json.loads(result.stdout.splitlines()[-1])
    return shown


def test_forwarded_proto_is_not_trusted_without_a_proxy() -> None:
    assert _settings()[0] is None
    assert _settings(FTCAMP_TRUSTED_PROXIES="0")[0] is None


def test_forwarded_proto_is_trusted_behind_the_proxy() -> None:
    assert _settings(FTCAMP_TRUSTED_PROXIES="1")[0] == ["HTTP_X_FORWARDED_PROTO", "https"]


def test_https_settings_follow_ftcamp_https() -> None:
    assert _settings(FTCAMP_HTTPS="1")[1:] == [True, True, True, 31536000]
    assert _settings(FTCAMP_HTTPS="0")[1:] == [False, False, False, 0]


@pytest.mark.django_db
def test_a_client_cannot_claim_https_without_a_trusted_proxy(settings: Settings) -> None:
    """A client's own X-Forwarded-Proto: https does not make plain http secure (the
    redirect still happens) unless the proxy setting is on."""
    settings.SECURE_SSL_REDIRECT = True
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    assert client.get("/accounts/login/").status_code == 301
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert client.get("/accounts/login/").status_code == 200


def test_compose_serves_https_through_its_proxy() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    proxy = services["proxy"]
    assert "443:443" in proxy["ports"] and "80:80" in proxy["ports"]
    assert any("Caddyfile" in v for v in proxy["volumes"])
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    site = caddyfile.split("{$FTCAMP_DOMAIN")[1]
    assert "reverse_proxy web:8000" in site and "trusted_proxies" not in site
    # the web port is reached through the proxy only, which overwrites the forwarding headers
    assert "ports" not in services["web"]
    env = compose["x-app"]["environment"]
    assert env["FTCAMP_HTTPS"] == "1" and env["FTCAMP_TRUSTED_PROXIES"] == "1"
    for name in ("postgres", "redis", "web", "worker", "beat", "proxy"):
        service = {**compose.get("x-app", {}), **services[name]}
        assert service.get("restart") == "unless-stopped", name
        if name != "proxy":
            assert "healthcheck" in service, name
