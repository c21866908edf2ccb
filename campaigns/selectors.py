"""Reads for the player pages: a fixed number of queries whatever the campaign's size."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, Sum

from economy.events import hub_name
from economy.models import LedgerLine, Round, RoundStatus
from powers.models import Campaign, Membership, Power, StarSystem
from trade.models import HubNode, TradeHub


def public_campaigns() -> list[Campaign]:
    """Every campaign with its number of powers: public facts for spectators."""
    return list(Campaign.objects.annotate(n_powers=Count("powers")).order_by("name"))


def memberships_for_user(*, user: User) -> list[Membership]:
    """The user's campaigns, each with the power played there and its open round."""
    open_rounds = Round.objects.filter(status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING])
    return list(
        Membership.objects.filter(user=user)
        .select_related("campaign", "power")
        .prefetch_related(Prefetch("campaign__rounds", queryset=open_rounds, to_attr="live"))
        .order_by("campaign__name")
    )


@dataclass(frozen=True)
class HubRow:
    hub: TradeHub
    centre: str
    nodes: int
    links: int

    @property
    def name(self) -> str:
        return _hub_name(self.hub)


def _hub_name(hub: TradeHub) -> str:
    """What the player calls the hub (issue 17: never its key)."""
    return hub_name(hub.key, hub.name, [hub.power.key])


@dataclass(frozen=True)
class SystemRow:
    system: StarSystem
    hub: str  # name of the hub the system is centre or node of, "" if none


@dataclass(frozen=True)
class Dashboard:
    power: Power
    current_round: Round | None
    rows: list[SystemRow]
    hubs: list[HubRow]

    @property
    def systems(self) -> list[StarSystem]:
        return [row.system for row in self.rows]

    @property
    def totals(self) -> dict[str, int]:
        """Ore, Bio and PL held in the power's system stockpiles and hub pools together."""
        return {
            res: sum(getattr(s, f"stock_{res}") for s in self.systems)
            + sum(getattr(h.hub, f"pool_{res}") for h in self.hubs)
            for res in ("ore", "bio", "pl")
        }


def power_dashboard(*, power: Power) -> Dashboard:
    """Banks, systems (type, LR, rates, stockpile) and hubs with pools of one power."""
    systems = list(
        StarSystem.objects.filter(holder=power)
        .select_related("hex")
        .order_by("hex__col", "hex__row")
    )
    hubs = list(
        TradeHub.objects.filter(power=power)
        .select_related("power")
        .annotate(link_count=Count("links"))
        .prefetch_related(
            Prefetch("nodes", queryset=HubNode.objects.order_by("-is_centre", "col", "row"))
        )
        .order_by("key")
    )
    rows = [
        HubRow(
            hub=hub,
            centre=next((n.code for n in hub.nodes.all() if n.is_centre), "—"),
            nodes=sum(1 for n in hub.nodes.all() if not n.is_centre),
            links=hub.link_count,
        )
        for hub in hubs
    ]
    hub_at = {(n.col, n.row): _hub_name(hub) for hub in hubs for n in hub.nodes.all()}
    current = Round.objects.filter(campaign_id=power.campaign_id).order_by("-number").first()
    return Dashboard(
        power=power,
        current_round=current,
        rows=[SystemRow(s, hub_at.get((s.hex.col, s.hex.row), "")) for s in systems],
        hubs=rows,
    )


def bank_history(*, power: Power) -> tuple[list[str], dict[str, list[int]]]:
    """The power's Gal and TP banks at the start of every round so far (R-1.1), rebuilt from
    the current banks and the ledger's net change per round: one query."""
    net: dict[tuple[int, str], int] = {
        (row["round_number"], row["resource"]): row["total"]
        for row in LedgerLine.objects.filter(power=power, where="bank")
        .values("round_number", "resource")
        .annotate(total=Sum("amount"))
    }
    current = power.campaign.current_round
    series: dict[str, list[int]] = {"Gal": [], "TP": []}
    for name, resource, now in (("Gal", "gal", power.gal), ("TP", "tp", power.tp)):
        value, points = now, [now]
        for number in range(current - 1, 0, -1):
            value -= net.get((number, resource), 0)
            points.append(value)
        series[name] = points[::-1]
    return [f"R{n}" for n in range(1, current + 1)], series
