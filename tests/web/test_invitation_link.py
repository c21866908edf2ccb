"""The invitation link in the admin (issue 30, item 7): once saved, the organiser reads it on the
campaign's page and in the message after saving, built on the host and scheme the organiser
reached the server by (not ``FTCAMP_BASE_URL``'s port), the email carries the very same link,
and nobody else sees the token."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.mail import EmailMessage
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from powers.models import Campaign, Invitation, Membership, Power
from tests.web.factories import PASSWORD, make_campaign, make_user
from tests.web.test_admin import _form_data
from tests.web.test_organiser import change_url

pytestmark = pytest.mark.django_db

HOST = "camp.example:8443"


@pytest.fixture
def organiser(settings: Settings) -> Client:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "camp.example"]
    settings.FTCAMP_BASE_URL = "http://127.0.0.1:8000"  # what the email used whatever the host
    root = get_user_model().objects.create_superuser("org", "org@example.org", PASSWORD)
    # behind a TLS proxy, as in production (FTCAMP_TRUSTED_PROXIES: SECURE_PROXY_SSL_HEADER)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    client = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https")
    client.force_login(root)
    return client


def _invite(
    client: Client, campaign: Campaign, power: Power, capture: DjangoCaptureOnCommitCallbacks
) -> str:
    """Save the campaign's page with one more invitation; the page the redirect leads to."""
    data = {
        k: html.unescape(v) for k, v in _form_data(client.get(change_url(campaign)).text).items()
    }
    total = int(data["invitations-TOTAL_FORMS"])
    data["invitations-TOTAL_FORMS"] = str(total + 1)
    data[f"invitations-{total}-power"] = str(power.pk)
    data[f"invitations-{total}-email"] = "new@example.org"
    with capture(execute=True):
        response = client.post(change_url(campaign), data, follow=True)
    assert response.redirect_chain, re.findall(r"errorlist[^>]*>(.*?)</ul>", response.text, re.S)
    return response.text


def test_the_link_is_shown_once_saved_on_the_requests_host_and_emailed_the_same(
    eager: None,
    organiser: Client,
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    world = make_campaign("Links", n_powers=2)
    Membership.objects.filter(power=world.powers[1]).delete()
    page = _invite(organiser, world.campaign, world.powers[1], django_capture_on_commit_callbacks)
    token = Invitation.objects.get(email="new@example.org").token
    link = f"https://{HOST}/invitations/{token}/"
    # the message after saving, and the inline's read-only column on the campaign's page
    message = re.search(r'<li class="success">([^<]*Invitation to play Power 1[^<]*)</li>', page)
    assert message and message.group(1).endswith(f"UTC: {link}"), page[:3000]
    shown = organiser.get(change_url(world.campaign)).text
    assert f'<code class="invitation-link">{link}</code>' in shown
    # the email carries the same link, not FTCAMP_BASE_URL's port
    assert len(mailoutbox) == 1 and link in str(mailoutbox[0].body)
    assert "8000" not in str(mailoutbox[0].body)
    # a link that no longer opens anything is not shown
    Invitation.objects.filter(token=token).update(accepted_at="2026-01-01T00:00Z")
    assert token not in organiser.get(change_url(world.campaign)).text


def test_nobody_but_who_may_invite_sees_the_token(organiser: Client) -> None:
    world = make_campaign("Secret", n_powers=2)
    invitation = Invitation.objects.create(
        campaign=world.campaign, power=world.powers[1], email="x@example.org"
    )
    url = change_url(world.campaign)
    assert invitation.token in organiser.get(url).text
    # a player (not staff) is sent to the login page
    player = Client()
    player.force_login(world.users[0])
    response = player.get(url)
    assert response.status_code == 302 and invitation.token not in response.text
    # staff who may only view the campaign see the invitation's status, not its link
    viewer = make_user("viewer")
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.set(
        Permission.objects.filter(codename__in=["view_campaign", "view_invitation"])
    )
    client = Client()
    client.force_login(viewer)
    page = client.get(url).text
    assert "x@example.org" in page and "good until" in page
    assert invitation.token not in page
