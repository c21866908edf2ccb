"""Pages for the Common Market (public), trade agreements (each power's own) and the UN
Monetary Committee (members). Thin views: the access gate, then a service or a selector. With
htmx a write returns the refreshed section; without it, a redirect (or the page with errors)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from economy.engine.un import next_report_round
from economy.rounds import RoundNotOpen
from economy.texts import plain_all
from ftcamp.pagewrites import page_write, section
from powers.access import actor, my_power, player_view
from powers.models import Campaign, Power
from trade import selectors, services
from trade.chart import chart_points, market_chart
from trade.inputs import motion_fields, terms_from
from trade.models import Agreement, Motion, Vote

# How the pages name the fields of trade forms in messages (never by their keys: issue 10).
LABELS = {
    "partner": "Partner",
    "deposit": "Deposit hex",
    "delivery": "Delivery round",
    "send_resource": "What you send",
    "send_amount": "Amount you send",
    "receive_resource": "What they send",
    "receive_amount": "Amount they send",
    "agreement": "Agreement",
    "action": "Action",
    "send_hub": "Sending hub",
    "receive_hub": "Receiving hub",
    "kind": "Motion",
    "edge": "Market edge",
    "power": "Power",
    "rate": "Rate",
    "tax": "Tax",
    "value": "Value",
    "motion": "Motion",
    "choice": "Vote",
}


# --- the market (public) --------------------------------------------------------------------


@require_GET
def market(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Public: current rates and taxes, the chart of rates and volumes, the committee's
    decided motions with every vote (R-6.3, R-6.4). Drafts and open motions are not shown."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise Http404("No such campaign.")
    now = selectors.market_now(campaign)
    history = selectors.rate_history(campaign)
    points = chart_points(
        [(h.round_number, h.edge, h.rate, h.volume) for h in history],
        (campaign.current_round, {e.edge: e.rate for e in now["edges"]}),
    )
    mine = my_power(user=request.user, campaign_id=campaign.pk)
    return render(
        request,
        "trade/market.html",
        {
            "campaign": campaign,
            "now": now,
            "history": history,
            "chart": mark_safe(market_chart(points)),  # noqa: S308 - numbers and escaped labels
            "motions": selectors.decided_motions(campaign),
            "my_power": mine,
        },
    )


# --- agreements (each party's own) ----------------------------------------------------------


def _agreements_context(power: Power, **extra: Any) -> dict[str, Any]:
    return {
        "power": power,
        "views": selectors.agreement_views(power),
        "shipments": selectors.shipments_of(power),
        "partners": selectors.other_powers(power),
        "hubs": selectors.own_hubs(power),
        "resources": ["ore", "bio", "pl"],
        "errors": [],
        **extra,
    }


def _committee_context(power: Power, **extra: Any) -> dict[str, Any]:
    campaign = power.campaign
    open_motions = selectors.open_motions(campaign) if power.un_member else []
    mine = {
        v.motion_id: v.choice
        for m in open_motions
        for v in m.votes.all()
        if v.member_id == power.pk
    }
    live = selectors.live_suggestions(campaign) if power.un_member else None
    report = next_report_round(campaign.current_round)
    rate_why = (
        ""
        if report == campaign.current_round
        else f"rates pass only at a report round; the next is round {report}"
    )
    return {
        "power": power,
        "campaign": campaign,
        "member": power.un_member,
        "next_report": report,
        "kinds": [(k, label, rate_why if k == "rate" else "") for k, label in Motion.Kind.choices],
        "members": selectors.members(campaign),
        "live": live,
        "open_motions": [(m, mine.get(m.pk, "")) for m in open_motions],
        "drafts": selectors.drafts_of(power),
        "edges": Motion.EDGE_CHOICES,
        "powers": list(Power.objects.filter(campaign=campaign).order_by("key")),
        "choices": Vote.Choice.choices,
        "errors": [],
        **extra,
    }


SECTIONS: dict[str, tuple[str, str, str, Callable[..., dict[str, Any]]]] = {
    "agreements": (
        "trade/agreements.html",
        "trade/_agreements.html",
        "agreements",
        _agreements_context,
    ),
    "un": ("trade/un.html", "trade/_committee.html", "un-committee", _committee_context),
}


def trade_write(name: str) -> Callable[[Callable[..., None]], Callable[..., HttpResponse]]:
    """A POST through a trade service: the access gate, then 409 once the round is being
    resolved, 403 for a non-member on the committee (reliability R9), 404 for an object the
    power may not see, the section with the errors when the rules refuse."""
    page, fragment, url_name, context = SECTIONS[name]

    def in_words(request: HttpRequest, power: Power, errors: list[str]) -> dict[str, Any]:
        return context(power, errors=plain_all(errors, LABELS))

    return page_write(
        section(page, fragment, url_name, in_words),
        shown=(RoundNotOpen, services.TradeError),
        missing=(Agreement.DoesNotExist, Motion.DoesNotExist),
        missing_text="No such agreement or motion.",
    )


@require_GET
@player_view
def agreements(request: HttpRequest, power: Power) -> HttpResponse:
    """A power's agreements (propose, counter, accept, decline, name its hubs) and the goods
    in transit it sends or receives (R-5.5). ``?partner=`` chooses the partner (a thread's
    "propose", issue 31)."""
    partner = request.GET.get("partner", "")[:64]
    return render(request, "trade/agreements.html", _agreements_context(power, partner=partner))


@trade_write("agreements")
def agreement_propose(request: HttpRequest, power: Power) -> None:
    services.propose_agreement(
        power=power,
        partner_key=request.POST.get("partner", ""),
        terms=terms_from(request.POST, "a"),
        actor=actor(request),
    )


@trade_write("agreements")
def agreement_act(request: HttpRequest, power: Power) -> None:
    """One answer to one agreement: accept, decline, counter (new terms) or name hubs."""
    agreement = selectors.access_agreement(power=power, key=request.POST.get("agreement", ""))
    action = request.POST.get("action", "")
    who = actor(request)
    if action in ("accept", "decline"):
        services.answer_agreement(
            power=power, key=agreement.key, accept=action == "accept", actor=who
        )
    elif action == "counter":
        side = agreement.party(power)
        services.counter_agreement(
            power=power, key=agreement.key, terms=terms_from(request.POST, side), actor=who
        )
    elif action == "withdraw":
        services.withdraw_agreement(power=power, key=agreement.key, actor=who)
    elif action == "hubs":
        services.name_hubs(
            power=power,
            key=agreement.key,
            send_hub=request.POST.get("send_hub") or None,
            receive_hub=request.POST.get("receive_hub") or None,
            actor=who,
        )
    else:
        raise services.TradeError(
            [f"action: expected accept, decline, counter, withdraw or hubs, got {action!r}"]
        )


# --- the UN Monetary Committee (members) ----------------------------------------------------


@require_GET
@player_view
def un_committee(request: HttpRequest, power: Power) -> HttpResponse:
    """Draft motions, see the live suggested rates, vote (R-6.3, R-6.4)."""
    return render(request, "trade/un.html", _committee_context(power))


@trade_write("un")
def motion_draft(request: HttpRequest, power: Power) -> None:
    services.draft_motion(power=power, fields=motion_fields(request.POST), actor=actor(request))


@trade_write("un")
def motion_act(request: HttpRequest, power: Power) -> None:
    """Put a draft before the committee, or withdraw it."""
    key = request.POST.get("motion", "")
    if request.POST.get("action") == "withdraw":
        services.withdraw_draft(power=power, key=key, actor=actor(request))
    else:
        services.submit_motion(power=power, key=key, actor=actor(request))


@trade_write("un")
def un_vote(request: HttpRequest, power: Power) -> None:
    services.vote(
        power=power,
        key=request.POST.get("motion", ""),
        choice=request.POST.get("choice", ""),
        actor=actor(request),
    )
