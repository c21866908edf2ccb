"""The fleet in the admin panel (issue 14): every relation stays in its campaign and its power,
and breaking a rule is a form error that names it, nothing saved."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.demo import build_demo
from powers.models import Craft, Design, FleetGroup, Static
from tests.web.test_admin import _form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    build_demo()
    client.force_login(get_user_model().objects.get(username="admin"))
    return client


def test_systems_costing_more_than_the_npv_are_a_form_error(staff: Client) -> None:
    design = Design.objects.get(key="nac-frigate")
    url = reverse("admin:powers_design_change", args=[design.pk])
    data = _form_data(staff.get(url).content.decode())
    data["npv"] = "10"  # its systems cost 3 × 2 + 1 × 10 + 2 = 18
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "NPV 10 is below its systems&#x27; point cost 18 (R-10.0)" in response.text
    design.refresh_from_db()
    assert design.npv == 60
    data["npv"] = "18"
    assert staff.post(url, data).status_code == 302


def test_a_craft_in_another_powers_group_or_of_the_wrong_mobility_is_refused(
    staff: Client,
) -> None:
    craft = Craft.objects.get(key="nac-1-1")
    url = reverse("admin:powers_craft_change", args=[craft.pk])
    data = _form_data(staff.get(url).content.decode())
    data["group"] = str(FleetGroup.objects.get(key="esu-1").pk)
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "That group belongs to another power." in response.text
    data["group"] = ""
    data["static"] = str(Static.objects.get(key="nac-shipyard").pk)
    response = staff.post(url, data)
    assert "A mobile design cannot be in a static." in response.text
    data["static"] = ""
    response = staff.post(url, data)
    assert "exactly one of a group, a static, or orbit" in response.text
    craft.refresh_from_db()
    assert craft.group is not None and craft.group.key == "nac-1"


def test_damage_beyond_a_systems_units_is_refused(staff: Client) -> None:
    craft = Craft.objects.get(key="nac-1-1")
    url = reverse("admin:powers_craft_change", args=[craft.pk])
    data = _form_data(staff.get(url).content.decode())
    data["destroyed.s1"] = "3"  # a frigate has two Class 1 beams (typed per system, issue 30)
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "s1: more units damaged than its 2." in response.text
