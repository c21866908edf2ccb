"""Fleets set up in the admin in words (issue 30, item 7): a position is a hex ``XXYY`` or a
system's name, never a column and a row; a craft's damage and consumables, a design's loadout
and a repair's systems are a count per name, never raw JSON; a group's craft are listed and added
on its page by design name. What is stored keeps its shape; bad input names its field and
changes nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from campaigns.demo import build_demo
from powers.models import CommandBubble, Craft, Design, FleetGroup, Power, Static
from tests.web.test_admin import _form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    build_demo()
    client.force_login(get_user_model().objects.get(username="admin"))
    return client


def field_error(page: str, field: str) -> str:
    """The error shown on one field of an admin form (its own ``errorlist``)."""
    found = re.search(
        rf'<ul class="errorlist" id="id_{re.escape(field)}_error">(.*?)</ul>', page, re.S
    )
    assert found, f"no error on {field}"
    return re.sub(r"<[^>]+>", "", found.group(1)).replace("&#x27;", "'").strip()


def test_a_groups_hex_is_typed_or_named_and_its_enemies_chosen_by_name(staff: Client) -> None:
    group = FleetGroup.objects.get(key="nac-1")
    url = reverse("admin:powers_fleetgroup_change", args=[group.pk])
    page = staff.get(url).text
    assert 'name="col"' not in page and 'name="row"' not in page
    assert re.search(r'<input type="text" name="hex" value="0203"', page)
    engages = re.search(r'<select name="engages"[^>]*>(.*?)</select>', page, re.S)
    assert engages and "Eurasian Solar Union" in engages.group(1)  # names, not keys
    data = _form_data(page)
    data["hex"] = "kirov"  # ESU's homeworld, 0803, by name
    data["engages"] = "esu"
    assert staff.post(url, data).status_code == 302
    group.refresh_from_db()
    assert (group.col, group.row, group.engages) == (8, 3, ["esu"])
    data["hex"] = "0505"
    assert staff.post(url, data).status_code == 302
    group.refresh_from_db()
    assert (group.col, group.row) == (5, 5)


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("12", "Expected hex XXYY, got '12'."),
        ("0000", "Expected hex XXYY, got '0000'."),
        ("9999", "Hex 9999 is outside the map (9 × 10)."),
        ("Atlantis", "'Atlantis' is neither a hex XXYY nor the name of a system of"),
        ("", "This field is required."),
    ],
)
def test_a_bad_hex_names_the_field_and_changes_nothing(
    staff: Client, typed: str, error: str
) -> None:
    static = Static.objects.get(key="nac-st2")
    url = reverse("admin:powers_static_change", args=[static.pk])
    data = _form_data(staff.get(url).text)
    data["hex"] = typed
    response = staff.post(url, data)
    assert response.status_code == 200
    assert field_error(response.text, "hex").startswith(error)
    static.refresh_from_db()
    assert static.hex_code == "0406"


def test_a_craft_s_damage_and_consumables_are_counts_by_name(staff: Client) -> None:
    craft = Craft.objects.get(key="nac-1-4")  # a cruiser: 3 Class 2 beams, 6 fighters
    url = reverse("admin:powers_craft_change", args=[craft.pk])
    page = staff.get(url).text
    assert "<textarea" not in page  # no raw JSON left
    assert '<select name="design"' in page and "vForeignKeyRawIdAdminField" not in page
    assert "Class 2 beam (of 3)" in page and 'name="destroyed.s1"' in page
    assert re.search(r'name="consumables.fighter" value="6"', page)
    data = _form_data(page)
    data["destroyed.s1"] = "1"
    data["disabled.s3"] = "4"
    data["consumables.fighter"] = "2"
    data["gantry"] = "Avalon"
    assert staff.post(url, data).status_code == 302
    craft.refresh_from_db()
    assert craft.destroyed == {"s1": 1} and craft.disabled == {"s3": 4}
    assert craft.consumables == {"fighter": 2} and craft.gantry == "0203"
    # a count that is not one names the system and the field; nothing changes
    data["destroyed.s1"] = "two"
    response = staff.post(url, data)
    assert field_error(response.text, "destroyed") == (
        "Class 2 beam (of 3): give a whole number of at least 0, not 'two'."
    )
    craft.refresh_from_db()
    assert craft.destroyed == {"s1": 1}


def test_a_designs_loadout_is_counted_by_kind(staff: Client) -> None:
    design = Design.objects.get(key="nac-cruiser")
    url = reverse("admin:powers_design_change", args=[design.pk])
    data = _form_data(staff.get(url).text)
    assert data["loadout.fighter"] == "6" and data["loadout.missile"] == "0"
    data["loadout.missile"] = "2"
    assert staff.post(url, data).status_code == 302
    design.refresh_from_db()
    assert design.loadout == {"fighter": 6, "missile": 2}


def test_a_groups_craft_are_added_on_its_page_by_design_name(staff: Client) -> None:
    group = FleetGroup.objects.get(key="nac-1")
    url = reverse("admin:powers_fleetgroup_change", args=[group.pk])
    page = staff.get(url).text
    data = _form_data(page)
    del data["engages"]  # a browser posts nothing for a multiple choice left empty
    total = int(data["craft-TOTAL_FORMS"])
    assert total == Craft.objects.filter(group=group).count()
    frigate = Design.objects.get(key="nac-frigate")
    options = re.search(r'<select name="craft-0-design"[^>]*>(.*?)</select>', page, re.S)
    assert options and ">Frigate</option>" in options.group(1)
    data["craft-TOTAL_FORMS"] = str(total + 1)
    data.update({f"craft-{total}-key": "nac-1-new", f"craft-{total}-design": str(frigate.pk)})
    data[f"craft-{total}-crew"] = "3"
    data[f"craft-{total}-fatigue"] = "0"
    assert staff.post(url, data).status_code == 302
    new = Craft.objects.get(key="nac-1-new")
    assert (new.group, new.power, new.design) == (group, group.power, frigate)
    # another power's design is refused on its row, nothing added
    esu = Design.objects.get(key="esu-frigate")
    data = _form_data(staff.get(url).text)
    del data["engages"]
    total = int(data["craft-TOTAL_FORMS"])
    data["craft-TOTAL_FORMS"] = str(total + 1)
    data.update({f"craft-{total}-key": "nac-1-bad", f"craft-{total}-design": str(esu.pk)})
    response = staff.post(url, data)
    assert response.status_code == 200
    assert "A craft is of one of its own power&#x27;s designs." in response.text
    assert not Craft.objects.filter(key="nac-1-bad").exists()


def test_a_command_bubbles_hq_is_a_hex(staff: Client) -> None:
    nac = Power.objects.get(key="nac")
    bubble = CommandBubble.objects.create(
        campaign=nac.campaign, power=nac, key="nac-b1", hq_col=2, hq_row=3, radius=2
    )
    url = reverse("admin:powers_commandbubble_change", args=[bubble.pk])
    data = _form_data(staff.get(url).text)
    assert data["hq"] == bubble.hq and "hq_col" not in data
    data["hq"] = "0406"
    outpost = {"outposts-0-hex": "Brigid", "outposts-0-radius": "1"}  # Brigid: 0305
    data.update({"outposts-TOTAL_FORMS": "1", **outpost})
    assert staff.post(url, data).status_code == 302
    bubble.refresh_from_db()
    assert (bubble.hq_col, bubble.hq_row) == (4, 6)
    assert [str(o) for o in bubble.outposts.all()] == ["0305"]


def test_who_may_only_view_reads_the_hex(staff: Client) -> None:
    viewer = get_user_model().objects.create_user("viewer", is_staff=True)
    viewer.user_permissions.set(Permission.objects.filter(codename="view_fleetgroup"))
    client = Client()
    client.force_login(viewer)
    group = FleetGroup.objects.get(key="nac-1")
    page = client.get(reverse("admin:powers_fleetgroup_change", args=[group.pk])).text
    assert re.search(r'<div class="readonly">0203</div>', page)
