"""A campaign as its players and visitors meet it: the public index, my campaigns, a power's
dashboard. Views are thin: access gate, selector, template."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns import selectors
from economy import selectors as economy_selectors
from powers.access import (
    AuthenticatedHttpRequest,
    access_power_for_user,
    power_of_user_in_campaign,
)
from powers.charts import line_chart


def home(request: HttpRequest) -> HttpResponse:
    """Players go to their campaigns; everyone else sees what the public may: each campaign's
    map, market and round history."""
    if request.user.is_authenticated:
        return redirect("my-campaigns")
    return render(request, "campaigns/home.html", {"campaigns": selectors.public_campaigns()})


@login_required
def my_campaigns(request: AuthenticatedHttpRequest) -> HttpResponse:
    memberships = selectors.memberships_for_user(user=request.user)
    return render(request, "campaigns/my_campaigns.html", {"memberships": memberships})


@login_required
def campaign(request: HttpRequest, campaign_id: int) -> HttpResponse:
    power = power_of_user_in_campaign(user=request.user, campaign_id=campaign_id)
    return redirect("dashboard", campaign_id=campaign_id, power_key=power.key)


@login_required
def dashboard(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    board = selectors.power_dashboard(power=power)
    labels, series = selectors.bank_history(power=power)
    chart = line_chart(
        f"Banks of {power.name} at the start of each round",
        labels,
        series,
        {"Gal": "#b7791f", "TP": "#2f5bd3"},
    )
    context = {"board": board, "power": power, "bank_chart": chart}
    context["drains"] = economy_selectors.loyalty_drains(power)
    return render(request, "campaigns/dashboard.html", context)
