"""Reads for the market, agreements and the UN committee pages and API.

Visibility: rates, taxes, bans, the market history and decided motions with their votes are
public (R-6.4: the committee's results and votes); a motion before the committee is seen by
committee members; a draft by its proposer only; an agreement and its shipments by its two
parties only, and each party's hub choices by that party only (R-5.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, Q, QuerySet, Sum
from django.http import Http404

from economy.engine.agreements import dispatch_round
from economy.engine.rules import hex_distance, trade_cost_pct
from economy.engine.state import EDGES
from economy.engine.un import BOUGHT, is_report_round, suggested_rate
from economy.events import hub_name
from economy.models import LedgerLine
from powers.models import Campaign, Power
from trade.models import (
    Agreement,
    MarketBan,
    MarketEdge,
    Motion,
    PowerTax,
    RateHistory,
    Shipment,
    TradeHub,
    Vote,
)

EDGE_LABELS = dict(MarketEdge.EDGES)


def access_agreement(*, power: Power, key: str) -> Agreement:
    """The agreement ``key`` if ``power`` is one of its parties, else 404 (never 403)."""
    agreement = (
        Agreement.objects.select_related("proposer", "partner", "awaiting")
        .filter(Q(proposer=power) | Q(partner=power), campaign_id=power.campaign_id, key=key)
        .first()
    )
    if agreement is None:
        raise Http404("No such agreement.")
    return agreement


def agreements_of(power: Power) -> QuerySet[Agreement]:
    """The power's agreements, newest first, with their history."""
    return (
        Agreement.objects.filter(Q(proposer=power) | Q(partner=power))
        .select_related(
            "proposer",
            "partner",
            "awaiting",
            "a_send_hub",
            "a_receive_hub",
            "b_send_hub",
            "b_receive_hub",
        )
        .prefetch_related("history__power", "a_send_hub__nodes", "b_send_hub__nodes")
        .order_by("-created_at", "-id")
    )


@dataclass(frozen=True)
class AgreementView:
    """One agreement as ``power`` may see it: its own hub choices only."""

    agreement: Agreement
    side: str
    partner: Power
    i_send: tuple[str, int, str, str]  # resource, amount, status, note
    they_send: tuple[str, int, str, str]
    my_send_hub: str
    my_receive_hub: str
    my_turn: bool
    my_dispatch: str  # when and at what cost my leg leaves, from my sending hub


def agreement_views(power: Power) -> list[AgreementView]:
    out = []
    for ag in agreements_of(power):
        side = ag.party(power)
        other = "b" if side == "a" else "a"

        def leg(s: str, ag: Agreement = ag) -> tuple[str, int, str, str]:
            return (
                getattr(ag, f"{s}_resource"),
                getattr(ag, f"{s}_amount"),
                getattr(ag, f"{s}_status"),
                getattr(ag, f"{s}_note"),
            )

        send_hub = getattr(ag, f"{side}_send_hub")
        receive_hub = getattr(ag, f"{side}_receive_hub")
        dispatch = ""
        centre = (
            next((n.code for n in send_hub.nodes.all() if n.is_centre), None) if send_hub else None
        )
        if centre and getattr(ag, f"{side}_amount"):
            d = hex_distance(centre, ag.deposit)
            dispatch = (
                f"round {dispatch_round(ag.delivery, d)}: {d} hexes from {send_hub.key}'s "
                f"centre, cost {trade_cost_pct(d)}% of the amount"
            )
        out.append(
            AgreementView(
                agreement=ag,
                side=side,
                partner=ag.partner if side == "a" else ag.proposer,
                i_send=leg(side),
                they_send=leg(other),
                my_send_hub=send_hub.key if send_hub else "",
                my_receive_hub=receive_hub.key if receive_hub else "",
                my_turn=ag.status == Agreement.Status.PROPOSED and ag.awaiting_id == power.pk,
                my_dispatch=dispatch,
            )
        )
    return out


def shipments_of(power: Power) -> QuerySet[Shipment]:
    """Goods in transit that ``power`` sends or receives (R-5.5: nobody else sees them)."""
    return (
        Shipment.objects.filter(Q(power=power) | Q(sender=power))
        .select_related("power", "sender", "to_hub", "from_hub")
        .order_by("arrives", "key")
    )


def own_hubs(power: Power) -> list[tuple[str, str]]:
    """The power's hubs: key and the name players read (issue 17)."""
    rows = TradeHub.objects.filter(power=power).order_by("key").values_list("key", "name")
    return [(key, hub_name(key, name, [power.key])) for key, name in rows]


def other_powers(power: Power) -> list[Power]:
    return list(Power.objects.filter(campaign_id=power.campaign_id).exclude(pk=power.pk))


# --- the market -----------------------------------------------------------------------------


@dataclass(frozen=True)
class EdgeNow:
    edge: str
    label: str
    rate: Decimal
    tax: Decimal
    volume: int


def market_now(campaign: Campaign) -> dict[str, Any]:
    """Current rates, taxes (per edge and per power) and bans: public (R-6.1, R-6.4)."""
    edges = [
        EdgeNow(e.edge, EDGE_LABELS[e.edge], e.rate, e.tax, e.volume)
        for e in MarketEdge.objects.filter(campaign=campaign).order_by("edge")
    ]
    edges.sort(key=lambda e: EDGES.index(e.edge))
    return {
        "edges": edges,
        "power_taxes": list(
            PowerTax.objects.filter(campaign=campaign)
            .select_related("power")
            .order_by("power__key", "edge")
        ),
        "banned": [
            b.power
            for b in MarketBan.objects.filter(campaign=campaign)
            .select_related("power")
            .order_by("power__key")
        ],
        "next_report": next(
            n for n in range(campaign.current_round, campaign.current_round + 3) if n % 3 == 0
        ),
    }


def rate_history(campaign: Campaign) -> list[RateHistory]:
    return list(RateHistory.objects.filter(campaign=campaign).order_by("round_number", "edge"))


def _with_votes(qs: QuerySet[Motion]) -> QuerySet[Motion]:
    return qs.select_related("proposer", "target").prefetch_related(
        Prefetch("votes", queryset=Vote.objects.select_related("member").order_by("member__key"))
    )


def decided_motions(campaign: Campaign) -> list[Motion]:
    """Public: every decided motion with each member's vote (R-6.4)."""
    qs = Motion.objects.filter(
        campaign=campaign, status__in=[Motion.Status.PASSED, Motion.Status.FAILED]
    ).order_by("-round_number", "key")
    return list(_with_votes(qs))


def open_motions(campaign: Campaign) -> list[Motion]:
    """The motions before the committee this round (members only)."""
    qs = Motion.objects.filter(campaign=campaign, status=Motion.Status.SUBMITTED).order_by("key")
    return list(_with_votes(qs))


def drafts_of(power: Power) -> list[Motion]:
    qs = Motion.objects.filter(proposer=power, status=Motion.Status.DRAFT).order_by("key")
    return list(qs.select_related("target"))


def members(campaign: Campaign) -> list[Power]:
    return list(Power.objects.filter(campaign=campaign, un_member=True).order_by("key"))


def last_production(campaign: Campaign) -> dict[str, int]:
    """The last resolved round's production of Ore, Bio and Gal across all systems (R-4.1)."""
    totals = dict.fromkeys(("ore", "bio", "gal"), 0)
    rows = (
        LedgerLine.objects.filter(
            campaign=campaign,
            round_number=campaign.current_round - 1,
            rule="R-4.1",
            amount__gt=0,
            resource__in=list(totals),
        )
        .values("resource")
        .annotate(total=Sum("amount"))
    )
    for row in rows:
        totals[row["resource"]] = int(row["total"])
    return totals


def live_suggestions(campaign: Campaign) -> dict[str, Any]:
    """R-6.3, live: the suggested rate per edge from the sales since the last report and the
    last round's production, by the engine's own rule (``economy.engine.un``)."""
    production = last_production(campaign)
    edges = []
    for e in market_now(campaign)["edges"]:
        edges.append(
            {
                "edge": e.edge,
                "label": e.label,
                "rate": e.rate,
                "volume": e.volume,
                "production": production[BOUGHT[e.edge]],
                "suggested": suggested_rate(e.rate, e.volume, production[BOUGHT[e.edge]]),
            }
        )
    return {
        "report_round": is_report_round(campaign.current_round),
        "round": campaign.current_round,
        "production": production,
        "edges": edges,
    }
