"""Nobody in where they don't belong (issue 4 access tests; reliability S1, S2, S3): every page and
API route, enumerated from the URL resolver, as the owner, another power's player, a player of
another campaign and an anonymous user. A planted marker in power A's orders and hub never
appears to anyone else. A new route without a policy row fails this test."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.authtoken.models import Token

from campaigns.organiser_urls import POLICY as ORGANISER_POLICY
from diplomacy.urls import POLICY as DIPLOMACY_POLICY
from economy import services
from economy.models import Round
from notices.urls import POLICY as NOTICE_POLICY
from powers.models import FleetGroup
from tests.web.factories import World, make_campaign, make_user
from trade.models import TradeHub
from trade.route_urls import POLICY as ROUTE_POLICY
from trade.urls import POLICY as TRADE_POLICY

pytestmark = pytest.mark.django_db

MARKER = "zq7marker"

# route name -> who may see it: "public", "auth" (any logged-in user), "member" (a player of
# the campaign: the view shows the player's own power), "owner" (the power in the URL only).
POLICY = {
    "home": "public",
    "favicon": "public",
    "login": "public",
    "logout": "public",
    "password_change": "auth",
    "password_change_done": "auth",
    "password_reset": "public",
    "password_reset_done": "public",
    "password_reset_confirm": "public",
    "password_reset_complete": "public",
    "my-campaigns": "auth",
    "api-token": "auth",
    "campaign": "member",
    "dashboard": "owner",
    "orders": "owner",
    "order-form": "owner",
    "order-validate": "owner",
    "order-add": "owner",
    "order-edit": "owner",
    "order-remove": "owner",
    "order-move": "owner",
    "declare": "owner",
    "fleet": "owner",
    "battles": "owner",
    "command": "owner",  # issue 16: the Command page
    "battle-roster": "owner",  # issue 29: the roster of a battle's form
    "battle-enter": "owner",
    "battle-act": "owner",
    "pact-propose": "owner",
    "pact-act": "owner",
    "fleet-design": "owner",
    "fleet-design-check": "owner",
    "sheet-submit": "owner",
    "projection": "owner",
    "report": "owner",
    "ledger-export": "owner",
    "history": "public",
    "rules": "public",
    "api-schema": "public",
    "api-docs": "public",
    "api-campaigns": "auth",
    "api-campaign": "member",
    "api-power": "member",
    "api-systems": "member",
    "api-designs": "member",
    "api-craft": "member",
    "api-groups": "member",
    "api-builds": "member",
    "api-hubs": "member",
    "api-rounds": "member",
    "api-sheet": "member",
    "api-submit": "member",
    "api-withdraw": "member",
    "api-orders": "member",
    "api-order": "member",
    "api-move": "member",
    "api-projection": "member",
    "api-report": "member",
    "api-ledger": "member",
    "api-battles": "member",  # each sees only the records it is in (test_battle_records)
    "api-battle": "member",
    "api-battle-roster": "member",  # a power in the battle, where it was (test_battle_form)
    "api-pacts": "member",  # each sees only its own (test_pacts)
    "api-pact": "member",
    # each sees only its own (test_command_api, test_command_secrecy)
    "api-officers": "member",
    "api-bubbles": "member",
    "api-diplomats": "member",
    "api-missions": "member",
    "api-research": "member",
    "api-interest": "member",  # public to the campaign's players (R-8.1a)
}
# Other apps' routes keep their own policy tables next to their urls, merged here.
POLICY.update(ROUTE_POLICY)
POLICY.update(TRADE_POLICY)
POLICY.update(ORGANISER_POLICY)
POLICY.update(NOTICE_POLICY)
POLICY.update(DIPLOMACY_POLICY)  # issue 31
try:  # maps (issue 7) keep their own table next to their views
    from campaigns.map_urls import POLICY as MAP_POLICY

    POLICY.update(MAP_POLICY)
except ImportError:
    pass


def routes() -> list[tuple[str, str]]:
    """(name, pattern) of every named route outside the admin."""
    out: list[tuple[str, str]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                if getattr(p, "app_name", None) == "admin":
                    continue
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and p.name:
                out.append((p.name, prefix + str(p.pattern)))

    walk(get_resolver().url_patterns, "")
    return sorted(set(out))


def test_every_route_has_a_policy() -> None:
    missing = [name for name, _ in routes() if name not in POLICY]
    assert missing == [], f"add these routes to POLICY: {missing}"


@pytest.fixture
def world() -> World:
    world = make_campaign(n_powers=2)
    a = world.powers[0]
    TradeHub.objects.filter(power=a).update(key=f"hub-{MARKER}")
    FleetGroup.objects.create(campaign=world.campaign, key="ga", power=a, col=1, row=1)
    services.add_order(
        power=a, payload={"type": "hub_setup", "id": "a1", "name": MARKER}, actor="a"
    )
    services.add_order(power=a, payload={"type": "hub_setup", "id": MARKER}, actor="a")
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(
        round_id=Round.objects.get(campaign=world.campaign, status="open").pk
    )
    services.add_order(
        power=a, payload={"type": "hub_setup", "id": f"b-{MARKER}", "centre": "0101"}, actor="a"
    )
    return world


def url_for(name: str, pattern: str, world: World) -> str:
    values = {
        "campaign_id": world.campaign.pk,
        "power_key": world.powers[0].key,
        "position": 0,
        "number": 1,
        "group_key": "ga",
        "fmt": "csv",
        "uidb64": "MQ",
        "token": "set-password",
        "hex": "0101",
        "digest": "0" * 64,
        "key": "br-00000000",
        "conversation_id": 1,  # issue 31
    }
    kwargs = {k: values[k] for k in re.findall(r"<(?:\w+:)?(\w+)>", pattern)}
    return reverse(name, kwargs=kwargs)


def clients(world: World) -> dict[str, Client]:
    """A fresh client per actor (called per route: POSTing the logout route logs one out)."""
    out = {"anonymous": Client()}
    stranger = make_user("stranger") if world.stranger is None else world.stranger
    world.stranger = stranger
    for label, user in (
        ("owner", world.users[0]),
        ("other power", world.users[1]),
        ("other campaign", stranger),
    ):
        c = Client()
        c.force_login(user)
        out[label] = c
    return out


def allowed(policy: str, who: str) -> bool:
    return {
        "public": True,
        "auth": who != "anonymous",
        "member": who in ("owner", "other power"),
        "owner": who == "owner",
    }[policy]


def test_access_matrix_and_marker(world: World) -> None:
    for name, pattern in routes():
        everyone = clients(world)
        policy = POLICY[name]
        url = url_for(name, pattern, world)
        for who, client in everyone.items():
            codes = set()
            for method in ("get", "post"):
                response = getattr(client, method)(url)
                body = b"".join(response) if response.streaming else response.content
                codes.add(response.status_code)
                if who != "owner":
                    assert MARKER.encode() not in body, f"{who} saw the marker at {method} {url}"
                if allowed(policy, who):
                    continue
                assert response.status_code in (302, 401, 403, 404, 405), (
                    f"{who} got {response.status_code} at {method.upper()} {url} ({policy})"
                )
            if who not in ("anonymous", "owner") and policy == "owner":
                # existence never leaks: the method the route takes answers 404
                assert 404 in codes, f"{who} at {url}: {codes}"


def test_owner_sees_own_secrets(world: World) -> None:
    owner = clients(world)["owner"]
    page = owner.get(reverse("orders", args=[world.campaign.pk, "p0"])).content
    assert MARKER.encode() in page


def test_api_lists_only_own_objects_with_token_auth(world: World) -> None:
    token = Token.objects.create(user=world.users[1])
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    base = f"/api/campaigns/{world.campaign.pk}/"
    hubs = client.get(base + "hubs/").json()
    assert [h["key"] for h in hubs] == ["hub1"]
    assert client.get(base + "power/").json()["key"] == "p1"
    systems = client.get(base + "systems/").json()
    assert {s["key"] for s in systems} == {"s1-0", "s1-1", "s1-2"}
    ledger = client.get(base + "ledger/").json()
    assert ledger["results"] and MARKER not in str(ledger)
    assert client.get(base + "orders/").json() == []
    anon = Client()
    assert anon.get(base + "hubs/").status_code in (401, 403)
