"""Players are nudged by email when everyone else has submitted (issue 4). Sent after commit;
a mail failure never breaks a submission. The "round resolved" email and the other notices are
the notices app's (issue 18, tests/web/test_notices.py)."""

from __future__ import annotations

import pytest
from django.core.mail import EmailMessage
from pytest_django import DjangoCaptureOnCommitCallbacks

from economy import services
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db


def test_last_to_submit_email(
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
