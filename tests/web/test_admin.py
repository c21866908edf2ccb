"""The admin panel is a real set-up tool: every page loads, bad data is a form error."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.demo import build_demo
from economy.models import Round
from powers.models import Campaign, Power, StarSystem
from trade.models import HubNode, MarketEdge, TradeHub

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    build_demo()
    client.force_login(get_user_model().objects.get(username="admin"))
    return client


def test_non_staff_cannot_use_admin(client: Client) -> None:
    build_demo()
    client.force_login(get_user_model().objects.get(username="nac"))
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize("model", sorted(admin.site._registry, key=lambda m: m.__name__))
def test_every_admin_page_loads(staff: Client, model: type) -> None:
    meta = model._meta
    changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    assert staff.get(changelist).status_code == 200
    assert staff.get(changelist + "?q=a").status_code == 200
    model_admin = admin.site._registry[model]
    request = SimpleNamespace(user=get_user_model().objects.get(username="admin"))
    add = staff.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add")).status_code
    assert add == (200 if model_admin.has_add_permission(request) else 403)
    obj = model.objects.first()
    if obj is not None:
        change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        assert staff.get(change).status_code == 200


def _form_data(page: str) -> dict[str, str]:
    """The values a browser would submit for the first form on an admin change page."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="submit"' in tag:
            continue
        if 'type="checkbox"' in tag:
            if "checked" in tag:
                data[name.group(1)] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = value.group(1) if value else ""
    for select in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select[1])
        data[select[0]] = chosen.group(1) if chosen else ""
    for name, text in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', page, re.S):
        data[name] = text.strip()
    return data


def test_loyalty_over_maximum_is_a_form_error(staff: Client) -> None:
    system = StarSystem.objects.get(key="cornwall")
    url = reverse("admin:powers_starsystem_change", args=[system.pk])
    data = _form_data(staff.get(url).content.decode())
    data["loyalty"] = "12"
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "LR is above the maximum for this system type" in response.content.decode()
    system.refresh_from_db()
    assert system.loyalty == 7


def test_second_homeworld_is_a_form_error(staff: Client) -> None:
    system = StarSystem.objects.get(key="brigid")
    url = reverse("admin:powers_starsystem_change", args=[system.pk])
    data = _form_data(staff.get(url).content.decode())
    data["system_type"] = "homeworld"
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "already has a homeworld" in response.content.decode()


def test_hub_node_in_two_hubs_is_a_form_error(staff: Client) -> None:
    hub = TradeHub.objects.get(key="esu-core")
    url = reverse("admin:trade_tradehub_change", args=[hub.pk])
    data = _form_data(staff.get(url).content.decode())
    total = int(data["nodes-TOTAL_FORMS"])
    data["nodes-TOTAL_FORMS"] = str(total + 1)
    data.update({f"nodes-{total}-col": "2", f"nodes-{total}-row": "3", f"nodes-{total}-hub": ""})
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "already a node of a trade hub" in response.content.decode()
    assert not HubNode.objects.filter(hub=hub, col=2, row=3).exists()


def test_link_to_another_hubs_node_is_a_form_error(staff: Client) -> None:
    hub = TradeHub.objects.get(key="esu-core")
    foreign = HubNode.objects.get(hub__key="nac-core", is_centre=True)
    url = reverse("admin:trade_tradehub_change", args=[hub.pk])
    data = _form_data(staff.get(url).content.decode())
    total = int(data["links-TOTAL_FORMS"])
    own = HubNode.objects.get(hub=hub, is_centre=True)
    data["links-TOTAL_FORMS"] = str(total + 1)
    data.update({f"links-{total}-a": str(own.pk), f"links-{total}-b": str(foreign.pk)})
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


def test_new_campaign_gets_market_and_first_round(staff: Client) -> None:
    url = reverse("admin:powers_campaign_add")
    data = _form_data(staff.get(url).content.decode())
    data.update(
        {
            "name": "Admin-made",
            "current_round": "1",
            "seed": "7",
            "round_length_hours": "48",
            "powers-TOTAL_FORMS": "1",
            "powers-0-key": "terra",
            "powers-0-name": "Terra",
            "powers-0-colour": "#123456",
            "powers-0-gal": "10",
            "powers-0-tp": "0",
            "powers-0-un_member": "on",
        }
    )
    response = staff.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign = Campaign.objects.get(name="Admin-made")
    assert Power.objects.get(campaign=campaign).key == "terra"
    assert MarketEdge.objects.filter(campaign=campaign).count() == 3
    assert Round.objects.get(campaign=campaign).status == "open"


def test_admin_changes_are_logged(staff: Client) -> None:
    from django.contrib.admin.models import LogEntry

    power = Power.objects.get(key="fse")
    url = reverse("admin:powers_power_change", args=[power.pk])
    data = _form_data(staff.get(url).content.decode())
    data["gal"] = "91"
    assert staff.post(url, data).status_code == 302
    assert LogEntry.objects.filter(object_id=str(power.pk)).exists()
