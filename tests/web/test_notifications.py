"""Players are told by email when a round resolves, and nudged when everyone else has
submitted (issue 4). Sent after commit; a mail failure never breaks a submission."""

from __future__ import annotations

import pytest
from django.core.mail import EmailMessage
from pytest_django import DjangoCaptureOnCommitCallbacks

from economy import services
from economy.models import Round
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db


def test_last_to_submit_and_round_resolved_emails(
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    world = make_campaign(n_powers=3)
    for i, user in enumerate(world.users):
        user.email = f"player{i}@example.org"
        user.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_sheet(power=world.powers[0], actor="t")
        services.submit_sheet(power=world.powers[1], actor="t")
    nudges = [m for m in mailoutbox if "waiting for your orders" in m.subject]
    assert [m.to for m in nudges] == [["player2@example.org"]]

    mailoutbox.clear()
    services.submit_sheet(power=world.powers[2], actor="t")
    rnd = Round.objects.get(campaign=world.campaign, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.resolve_round(round_id=rnd.pk)
    assert sorted(m.to[0] for m in mailoutbox) == [f"player{i}@example.org" for i in range(3)]
    assert all("round 1 resolved" in m.subject for m in mailoutbox)
    assert "round 2 is open" in mailoutbox[0].body
