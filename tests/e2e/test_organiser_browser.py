"""Issue 18, done when: an organiser sets a campaign up from an imported sector and invites two
players using only the admin and the guide; each invitee follows the emailed link, plays round
1, and receives the "round resolved" email. Emails are Django's locmem outbox; Celery runs the
tasks in-process (eager), so the live server's own thread sends them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage
from playwright.sync_api import Browser, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from economy.models import Round
from powers.models import Campaign
from tests.e2e.test_play_rounds import settled
from tests.helpers import wait_for
from tests.web.factories import PASSWORD
from tests.web.test_sector_import import tab_row, write_tab

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def new_page(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 1280, "height": 900}).new_page()


def link(mail: EmailMessage, base: str, path: str) -> str:
    found = re.search(re.escape(base) + path, str(mail.body))
    assert found, mail.body
    return found.group(0)


def test_organiser_sets_up_from_the_admin_and_players_play(
    browser: Browser,
    live_server: LiveServer,
    eager: None,
    mailoutbox: list[EmailMessage],
    settings: Settings,
    tmp_path: Path,
) -> None:
    base = live_server.url
    settings.FTCAMP_BASE_URL = base
    get_user_model().objects.create_superuser("organiser", "org@example.org", PASSWORD)
    sector = write_tab(
        tmp_path,
        "Frontier",
        [
            tab_row("0101", "Anchor", "A788899-C", "Ri"),
            tab_row("0304", "Beacon", "B556778-A", "Ag"),
            tab_row("0606", "Cinder", "C200400-8", "Ni"),
        ],
        xy=(0, 0),
    )

    org = new_page(browser)
    org.goto(base + "/admin/")
    org.get_by_label("Username").fill("organiser")
    org.get_by_label("Password").fill(PASSWORD)
    org.get_by_role("button", name="Log in").click()
    # the landing text speaks to organisers and leads to the guide
    expect(org.locator("#organiser-intro")).to_contain_text("Organising a campaign")
    org.get_by_role("link", name="organiser's guide").click()
    expect(org.get_by_role("heading", name="Organiser's guide")).to_be_visible()
    expect(org.locator("#import")).to_contain_text("Import one or several sectors")

    # 1. the campaign and its two powers
    org.goto(base + "/admin/powers/campaign/add/")
    org.get_by_label("Name:").fill("Frontier campaign")
    org.locator("#powers-group .add-row a").click()
    org.locator("#powers-group .add-row a").click()
    for i, (key, name) in enumerate((("red", "Red League"), ("blue", "Blue Union"))):
        org.locator(f"input[name='powers-{i}-key']").fill(key)
        org.locator(f"input[name='powers-{i}-name']").fill(name)
    org.get_by_role("button", name="Save and continue editing").click()
    expect(org.locator("#setup-checklist")).to_contain_text("No star systems yet")
    campaign = Campaign.objects.get(name="Frontier campaign")
    assert Round.objects.get(campaign=campaign).paused

    # 2. the sector, from the campaign list's action
    org.goto(base + "/admin/powers/campaign/")
    org.locator(f"input[name='_selected_action'][value='{campaign.pk}']").check()
    org.locator("select[name='action']").select_option("import_sector_action")
    org.get_by_role("button", name="Go").click()
    org.locator("input[name='sector_files']").set_input_files([sector, sector.with_suffix(".xml")])
    org.get_by_role("button", name="Import").click()
    expect(org.locator(".messagelist")).to_contain_text("3 systems created")

    # 3. homeworlds: the holder list offers this campaign's powers only
    for system, power in (("Anchor", "Red League"), ("Beacon", "Blue Union")):
        org.goto(base + "/admin/powers/starsystem/?q=" + system)
        org.get_by_role("link", name=system, exact=True).click()
        org.locator("select[name=holder]").select_option(label=power)
        org.locator("select[name=system_type]").select_option("homeworld")
        org.locator("input[name=loyalty]").fill("10")
        org.get_by_role("button", name="Save", exact=True).click()
        expect(org.locator(".messagelist")).to_contain_text("was changed successfully")

    # 4. invitations by email, one per power
    org.goto(base + f"/admin/powers/campaign/{campaign.pk}/change/")
    expect(org.locator("#setup-checklist")).to_contain_text(
        "No player or invitation: Blue Union, Red League"
    )
    for i, (power, email) in enumerate(
        (("Red League", "red@example.org"), ("Blue Union", "blue@example.org"))
    ):
        org.locator("#invitations-group .add-row a").click()
        org.locator(f"select[name='invitations-{i}-power']").select_option(label=power)
        org.locator(f"input[name='invitations-{i}-email']").fill(email)
    org.get_by_role("button", name="Save and continue editing").click()
    expect(org.locator("#setup-checklist")).to_contain_text(
        "Invited, not yet joined: Blue Union, Red League"
    )
    invites = {m.to[0]: m for m in mailoutbox}
    assert set(invites) == {"red@example.org", "blue@example.org"}

    # 5. each invitee follows the link and creates an account
    players: list[Page] = []
    for email, username in (("red@example.org", "redplayer"), ("blue@example.org", "blueplayer")):
        page = new_page(browser)
        page.goto(link(invites[email], base, r"/invitations/[^/\s]+/"))
        page.get_by_label("Username").fill(username)
        page.locator("#id_password1").fill("frontier-pass-77")
        page.locator("#id_password2").fill("frontier-pass-77")
        page.get_by_role("button", name="Create my account and join").click()
        expect(page.locator(".whose-turn")).to_contain_text(
            "has not started: the organiser starts it when all is set"
        )
        players.append(page)

    # 6. the checklist is done: start round 1
    org.reload()
    expect(org.locator("#setup-checklist")).to_contain_text("Every power has a player.")
    org.get_by_role("button", name="Start round 1").click()
    expect(org.locator(".messagelist")).to_contain_text("Round 1 of Frontier campaign has started")

    # 7. the players see it, whose turn it is, and play round 1
    for page, name in zip(players, ("Red League", "Blue Union"), strict=True):
        page.goto(base + "/campaigns/")
        turn = page.locator(".whose-turn .turn", has_text="Frontier campaign")
        expect(turn).to_contain_text("Round 1 is open for orders.")
        expect(turn).to_contain_text("You have not submitted your orders yet.")
        expect(turn.locator("time.deadline")).to_contain_text("(in ")  # local time, counted down
        turn.get_by_role("link", name="Enter your orders").click()
        settled(page)
        page.get_by_role("button", name="Submit orders").click()
        if name == "Red League":
            expect(page.locator(".submitted")).to_contain_text(f"{name} ✓")
    # the last submission resolved the round (eagerly): the sheet came back for round 2
    wait_for(lambda: Round.objects.filter(campaign=campaign, number=2).exists(), 30, "round 2")

    # 8. the round resolved (eagerly, on the last submission); each player is emailed
    def resolved_mail() -> list[EmailMessage]:
        return [m for m in mailoutbox if "Round 1 resolved" in str(m.subject)]

    wait_for(lambda: len(resolved_mail()) == 2, 30, "the round resolved emails")
    to = {m.to[0]: m for m in resolved_mail()}
    assert sorted(to) == ["blue@example.org", "red@example.org"]
    for page, key in zip(players, ("red", "blue"), strict=True):
        page.goto(
            link(
                to[f"{key}@example.org"], base, rf"/campaigns/{campaign.pk}/powers/{key}/rounds/1/"
            )
        )
        heading = page.get_by_role("heading", name=re.compile("Round 1: statement of"))
        expect(heading).to_be_visible()
        page.goto(base + f"/campaigns/{campaign.pk}/powers/{key}/")
        expect(page.locator(".notices")).to_contain_text("Round 1 resolved")
