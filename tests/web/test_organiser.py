"""An organiser sets a campaign up from the admin alone (issue 18): round 1 waits to be started,
"current round" is read-only, choices list only the campaign's own powers, players by username
(autocomplete), invitations by email with a single-use expiring link, the checklist, the guide
and the admin's landing text."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from economy.models import AuditEvent, Round
from powers.models import Campaign, Invitation, Membership, Power, StarSystem
from tests.web.factories import PASSWORD, World, make_campaign, make_user
from tests.web.test_admin import _form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    root = get_user_model().objects.create_superuser("org", "org@example.org", PASSWORD)
    client.force_login(root)
    return client


def change_url(campaign: Campaign) -> str:
    return reverse("admin:powers_campaign_change", args=[campaign.pk])


def options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    return re.findall(r"<option value=\"\d+\"[^>]*>([^<]*)</option>", select.group(1))


def test_a_campaign_made_in_the_admin_waits_for_its_start(staff: Client) -> None:
    data = _form_data(staff.get(reverse("admin:powers_campaign_add")).content.decode())
    assert "current_round" not in data  # read-only: rounds move by resolution and rollback
    data.update({"name": "Fresh", "current_round": "5", "seed": "1", "round_length_hours": "24"})
    response = staff.post(reverse("admin:powers_campaign_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign = Campaign.objects.get(name="Fresh")
    assert campaign.current_round == 1
    rnd = Round.objects.get(campaign=campaign)
    assert (rnd.number, rnd.status, rnd.paused, rnd.deadline) == (1, "open", True, None)
    page = staff.get(change_url(campaign)).content.decode()
    assert "Before play can start" in page
    assert "No star systems yet: import one or several sectors" in page
    assert "Add at least 2 powers" in page
    assert "Not started" in page and "Start round 1" not in page
    # starting it now is refused, naming what is missing; nothing changes
    refused = staff.post(reverse("admin:powers_campaign_start", args=[campaign.pk]), follow=True)
    text = refused.content.decode()
    assert "Not started — map: No star systems yet" in text
    assert "Not started — players:" in text
    rnd.refresh_from_db()
    assert rnd.paused and rnd.deadline is None


def ready(world: World) -> Campaign:
    """The factory's campaign with its first round paused, as the admin makes it."""
    Round.objects.filter(campaign=world.campaign).update(paused=True, deadline=None)
    return world.campaign


def test_checklist_and_start(staff: Client) -> None:
    world = make_campaign("Ready", n_powers=2)
    campaign = ready(world)
    Membership.objects.filter(power=world.powers[1]).delete()
    Invitation.objects.create(campaign=campaign, power=world.powers[1], email="x@example.org")
    page = staff.get(change_url(campaign)).content.decode()
    assert "6 systems on a 4 × 3 map." in page
    assert "2 powers: Power 0, Power 1." in page
    assert "Every power holds its homeworld." in page
    assert "Invited, not yet joined: Power 1." in page
    assert "No fleet group or static yet: Power 0, Power 1 (a power may start without one)." in page
    assert "Start round 1" not in page
    Membership.objects.create(campaign=campaign, user=make_user("late"), power=world.powers[1])
    page = staff.get(change_url(campaign)).content.decode()
    assert "Every power has a player." in page and "Start round 1" in page
    before = timezone.now()
    staff.post(reverse("admin:powers_campaign_start", args=[campaign.pk]))
    rnd = Round.objects.get(campaign=campaign, number=1)
    assert not rnd.paused and rnd.deadline is not None
    assert rnd.deadline >= before + timedelta(hours=campaign.round_length_hours)
    assert AuditEvent.objects.filter(campaign=campaign, action="round_started").count() == 1
    page = staff.get(change_url(campaign)).content.decode()
    assert "Round 1 is open." in page and "Start round 1" not in page
    # started once: pressing again (an old tab) changes nothing
    again = staff.post(reverse("admin:powers_campaign_start", args=[campaign.pk]), follow=True)
    assert "it has already started" in again.content.decode()
    assert Round.objects.get(pk=rnd.pk).deadline == rnd.deadline
    # a round the organiser paused later is not "not started"
    Round.objects.filter(pk=rnd.pk).update(paused=True)
    page = staff.get(change_url(campaign)).content.decode()
    assert "Paused: unpause it under Rounds." in page and "Start round 1" not in page


def test_choices_are_the_campaigns_own(staff: Client) -> None:
    world = make_campaign("Mine", n_powers=2)
    make_campaign("Theirs", n_powers=2)  # its powers are also called Power 0 and Power 1
    Power.objects.filter(campaign__name="Theirs").update(name="Foreign")
    page = staff.get(change_url(world.campaign)).content.decode()
    for inline in ("memberships", "invitations", "power_taxes"):
        assert options(page, f"{inline}-__prefix__-power") == ["Power 0", "Power 1"], inline
    system = StarSystem.objects.get(campaign=world.campaign, key="s0-1")
    page = staff.get(reverse("admin:powers_starsystem_change", args=[system.pk])).content.decode()
    assert options(page, "holder") == ["Power 0", "Power 1"]
    # adding a fleet group for a campaign named in the address: only its powers
    add = reverse("admin:powers_fleetgroup_add") + f"?campaign={world.campaign.pk}"
    assert options(staff.get(add).content.decode(), "power") == ["Power 0", "Power 1"]
    # and a holder of another campaign is no longer offered, so cannot be chosen
    data = _form_data(
        staff.get(reverse("admin:powers_starsystem_change", args=[system.pk])).content.decode()
    )
    data["holder"] = str(Power.objects.filter(name="Foreign").first().pk)  # type: ignore[union-attr]
    response = staff.post(reverse("admin:powers_starsystem_change", args=[system.pk]), data)
    assert "Select a valid choice" in response.content.decode()


def test_players_by_username_with_autocomplete(staff: Client) -> None:
    world = make_campaign("Names", n_powers=2)
    make_user("wanda-the-player")
    page = staff.get(change_url(world.campaign)).content.decode()
    assert re.search(r'<select name="memberships-__prefix__-user"[^>]*admin-autocomplete', page)
    found = staff.get(
        reverse("admin:autocomplete"),
        {
            "term": "wanda",
            "app_label": "powers",
            "model_name": "membership",
            "field_name": "user",
        },
    ).json()
    assert [r["text"] for r in found["results"]] == ["wanda-the-player"]
    power = world.powers[0]
    page = staff.get(reverse("admin:powers_power_change", args=[power.pk])).content.decode()
    assert re.search(r'<select name="memberships-__prefix__-user"[^>]*admin-autocomplete', page)


def test_admin_landing_and_guide(staff: Client) -> None:
    index = staff.get(reverse("admin:index")).content.decode()
    assert "Organising a campaign" in index and 'href="/guide/"' in index
    assert "ask your campaign" not in index.lower()
    guide = Client().get(reverse("guide")).content.decode()
    for step in (
        "Create the campaign",
        "Import one or several sectors",
        "homeworlds",
        "Invite the players",
        "Fleets",
        "Start round 1",
        "Rollback",
        "Battle records",
    ):
        assert step in guide, step
    mine = staff.get(reverse("my-campaigns")).content.decode()
    assert "As an organiser, set campaigns up in the" in mine


def invite(
    staff: Client,
    campaign: Campaign,
    power: Power,
    email: str,
    capture: DjangoCaptureOnCommitCallbacks,
) -> None:
    page = staff.get(change_url(campaign)).content.decode()
    data = {k: html.unescape(v) for k, v in _form_data(page).items()}  # market edges: ore&gt;bio
    total = int(data["invitations-TOTAL_FORMS"])
    data["invitations-TOTAL_FORMS"] = str(total + 1)
    data[f"invitations-{total}-power"] = str(power.pk)
    data[f"invitations-{total}-email"] = email
    with capture(execute=True):
        response = staff.post(change_url(campaign), data)
    assert response.status_code == 302, re.findall(
        r"errorlist[^>]*>(.*?)</ul>", response.content.decode(), re.S
    )


def link_in(mail: EmailMessage) -> str:
    found = re.search(r"http://testserver(/invitations/[^/\s]+/)", str(mail.body))
    assert found, mail.body
    return found.group(1)


def test_invitation_creates_an_account_once(
    eager: None,
    staff: Client,
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    world = make_campaign("Invites", n_powers=2)
    Membership.objects.filter(power=world.powers[1]).delete()
    invite(
        staff,
        world.campaign,
        world.powers[1],
        "new@example.org",
        django_capture_on_commit_callbacks,
    )
    assert [(m.to, m.subject) for m in mailoutbox] == [
        (["new@example.org"], "[FTCamp] You are invited to play Power 1 in Invites")
    ]
    path = link_in(mailoutbox[0])
    visitor = Client()
    page = visitor.get(path).content.decode()
    assert "You are invited to play <strong>Power 1</strong>" in page
    assert "Create your account" in page
    joined = visitor.post(
        path, {"username": "newbie", "password1": "a-long-pass-42", "password2": "a-long-pass-42"}
    )
    assert joined.status_code == 302
    assert joined["Location"] == reverse("dashboard", args=[world.campaign.pk, "p1"])
    user = get_user_model().objects.get(username="newbie")
    assert user.email == "new@example.org"
    assert Membership.objects.get(user=user).power == world.powers[1]
    assert visitor.get(joined["Location"]).status_code == 200  # logged in
    # single use: the link is gone, for anyone
    assert Client().get(path).status_code == 404
    assert visitor.post(path).status_code == 404
    # the campaign page shows it joined; saving again sends nothing more
    assert "joined" in staff.get(change_url(world.campaign)).content.decode()
    assert len(mailoutbox) == 1


def test_invitation_to_an_existing_account_and_expiry(
    eager: None,
    staff: Client,
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    world = make_campaign("Existing", n_powers=3)
    Membership.objects.filter(power__in=world.powers[1:]).delete()
    invite(
        staff,
        world.campaign,
        world.powers[1],
        "old@example.org",
        django_capture_on_commit_callbacks,
    )
    invite(
        staff,
        world.campaign,
        world.powers[2],
        "late@example.org",
        django_capture_on_commit_callbacks,
    )
    path, late = link_in(mailoutbox[0]), link_in(mailoutbox[1])
    veteran = make_user("veteran")
    player = Client()
    player.force_login(veteran)
    assert "Join as veteran" in player.get(path).content.decode()
    assert player.post(path).status_code == 302
    assert Membership.objects.get(user=veteran).power == world.powers[1]
    # one power per campaign: a second invitation for the same player is refused, unused
    refused = player.post(late)
    assert refused.status_code == 400 and "already play a power" in refused.content.decode()
    Invitation.objects.filter(email="late@example.org").update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    assert Client().get(late).status_code == 404
    assert Invitation.objects.get(email="late@example.org").accepted_at is None
