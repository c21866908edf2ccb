"""The Command page of a power (issue 16): its officers, command bubbles, research craft and
diplomats with their missions. A thin view: the access gate (``player_view``: another power's
page is a 404), then one selector; orders are given on the order sheet like every other."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from command import pages as command_pages
from economy import selectors
from powers.access import player_view
from powers.models import Power


@require_GET
@player_view
def command(request: HttpRequest, power: Power) -> HttpResponse:
    rnd = selectors.live_round(power.campaign_id)
    context = {
        "power": power,
        "page": command_pages.command_page(power=power),
        "round": rnd,
        "open": rnd is not None and rnd.status == "open",
    }
    return render(request, "economy/command.html", context)
