from __future__ import annotations

from typing import Any, TypedDict

from django.contrib import admin
from django.db.models import Count, ForeignKey, QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest
from django_stubs_ext import WithAnnotations

from powers.scoped_choices import ScopedChoices
from trade.models import (
    Agreement,
    AgreementEvent,
    HubLink,
    HubNode,
    MarketBan,
    MarketEdge,
    Motion,
    RateHistory,
    Shipment,
    TradeHub,
    Vote,
)


class HubNodeInline(admin.TabularInline[HubNode, TradeHub]):
    model = HubNode
    fields = ("col", "row", "is_centre")
    extra = 0


class HubLinkInline(admin.TabularInline[HubLink, TradeHub]):
    model = HubLink
    fields = ("a", "b")
    extra = 0

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        # A link's ends are offered from this hub's own nodes only (Support §4.1.1).
        if db_field.name in ("a", "b"):
            hub_id = (
                request.resolver_match.kwargs.get("object_id") if request.resolver_match else None
            )
            kwargs["queryset"] = HubNode.objects.filter(hub_id=hub_id or 0)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class Counts(TypedDict):
    n_nodes: int
    n_links: int


@admin.register(TradeHub)
class TradeHubAdmin(ScopedChoices, admin.ModelAdmin[TradeHub]):
    list_display = (
        "key",
        "power",
        "centre",
        "node_count",
        "link_count",
        "guild",
        "pool_ore",
        "pool_bio",
        "pool_pl",
        "campaign",
    )
    list_filter = ("campaign", "power", "guild")
    search_fields = ("key", "power__name")
    list_select_related = ("power", "campaign")
    inlines = (HubNodeInline, HubLinkInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[TradeHub]:
        return (
            super()
            .get_queryset(request)
            .annotate(n_nodes=Count("nodes", distinct=True), n_links=Count("links", distinct=True))
            .prefetch_related("nodes")
        )

    @admin.display(description="centre")
    def centre(self, obj: TradeHub) -> str:
        return next((n.code for n in obj.nodes.all() if n.is_centre), "—")

    @admin.display(description="hexes", ordering="n_nodes")
    def node_count(self, obj: WithAnnotations[TradeHub, Counts]) -> int:
        return obj.n_nodes

    @admin.display(description="links", ordering="n_links")
    def link_count(self, obj: WithAnnotations[TradeHub, Counts]) -> int:
        return obj.n_links


@admin.register(Shipment)
class ShipmentAdmin(ScopedChoices, admin.ModelAdmin[Shipment]):
    list_display = ("key", "sender", "power", "to_hub", "resource", "amount", "arrives", "waiting")
    list_filter = ("campaign", "resource", "waiting")
    list_select_related = ("sender", "power", "to_hub")
    search_fields = ("key",)


@admin.register(MarketEdge)
class MarketEdgeAdmin(admin.ModelAdmin[MarketEdge]):
    list_display = ("campaign", "edge", "rate", "tax")
    list_filter = ("campaign", "edge")


class AgreementEventInline(admin.TabularInline[AgreementEvent, Agreement]):
    model = AgreementEvent
    fields = ("round_number", "power", "action", "terms")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Agreement)
class AgreementAdmin(ScopedChoices, admin.ModelAdmin[Agreement]):
    """Trade agreements (R-5.5); negotiated by the players, inspected here."""

    list_display = ("key", "proposer", "partner", "status", "delivery", "a_status", "b_status")
    list_filter = ("campaign", "status")
    search_fields = ("key", "proposer__name", "partner__name")
    list_select_related = ("proposer", "partner")
    inlines = (AgreementEventInline,)


class VoteInline(ScopedChoices, admin.TabularInline[Vote, Motion]):
    model = Vote
    fields = ("member", "choice")
    extra = 0


@admin.register(Motion)
class MotionAdmin(ScopedChoices, admin.ModelAdmin[Motion]):
    """UN Monetary Committee motions and votes (R-6.4); membership is ``Power.un_member``."""

    list_display = ("key", "round_number", "proposer", "kind", "edge", "value", "status")
    list_filter = ("campaign", "status", "kind")
    search_fields = ("key", "proposer__name")
    list_select_related = ("proposer",)
    inlines = (VoteInline,)


@admin.register(MarketBan)
class MarketBanAdmin(ScopedChoices, admin.ModelAdmin[MarketBan]):
    list_display = ("power", "campaign")
    list_filter = ("campaign",)
    search_fields = ("power__name",)


@admin.register(RateHistory)
class RateHistoryAdmin(admin.ModelAdmin[RateHistory]):
    list_display = ("campaign", "round_number", "edge", "rate", "tax", "volume", "report")
    list_filter = ("campaign", "edge", "report")
    search_fields = ("edge",)
