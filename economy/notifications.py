"""The nudge to the last power to submit (console backend by default). Called after commit;
never raises. Everything else players are told goes through the notices app (issue 18)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mass_mail

from economy.models import Round
from powers.models import Membership

log = logging.getLogger(__name__)


def _send(messages: list[tuple[str, str, str, list[str]]]) -> None:
    try:
        send_mass_mail(messages, fail_silently=False)
    except Exception:
        log.exception("could not send %d notification(s)", len(messages))


def last_to_submit(round_id: int, power_id: int) -> None:
    """Nudge the players of the one power everybody is waiting for."""
    rnd = Round.objects.select_related("campaign").get(pk=round_id)
    messages = [
        (
            f"[FTCamp] {rnd.campaign.name}: everyone is waiting for your orders",
            f"Every other power has submitted its orders for round {rnd.number} of "
            f"{rnd.campaign.name}. Submit yours for {m.power.name} to resolve the round.",
            settings.DEFAULT_FROM_EMAIL,
            [m.user.email],
        )
        for m in Membership.objects.filter(power_id=power_id)
        .select_related("user", "power")
        .exclude(user__email="")
    ]
    _send(messages)
