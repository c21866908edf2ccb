"""The admin panel as a campaign set-up tool: inlines, search, filters, clear validation."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from powers import services
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    Campaign,
    CommandBubble,
    FleetGroup,
    Invasion,
    MapHex,
    Membership,
    Power,
    StarSystem,
    Static,
)
from trade.models import MarketEdge, PowerTax


class PowerInline(admin.TabularInline):
    model = Power
    fields = ("key", "name", "colour", "gal", "tp", "un_member")
    extra = 0
    show_change_link = True


class MarketEdgeInline(admin.TabularInline):
    model = MarketEdge
    fields = ("edge", "rate", "tax")
    extra = 0
    max_num = 3


class PowerTaxInline(admin.TabularInline):
    model = PowerTax
    fields = ("power", "edge", "tax")
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "current_round", "power_count", "system_count", "created_at")
    search_fields = ("name",)
    inlines = (PowerInline, MarketEdgeInline, PowerTaxInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_powers=Count("powers", distinct=True), n_systems=Count("systems", distinct=True)
            )
        )

    @admin.display(description="powers", ordering="n_powers")
    def power_count(self, obj: Campaign) -> int:
        return obj.n_powers

    @admin.display(description="systems", ordering="n_systems")
    def system_count(self, obj: Campaign) -> int:
        return obj.n_systems

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        services.setup_campaign(campaign=form.instance)


@admin.register(MapHex)
class MapHexAdmin(admin.ModelAdmin):
    list_display = ("code", "hex_type", "campaign")
    list_filter = ("campaign", "hex_type")
    search_fields = ("campaign__name", "system__name")
    ordering = ("campaign", "col", "row")

    @admin.display(description="hex", ordering="col")
    def code(self, obj: MapHex) -> str:
        return obj.code


class StarSystemInline(admin.TabularInline):
    model = StarSystem
    fk_name = "holder"
    fields = (
        "key",
        "name",
        "hex",
        "system_type",
        "loyalty",
        "rate_ore",
        "rate_gal",
        "rate_bio",
        "rate_pl",
        "stock_ore",
        "stock_bio",
        "stock_pl",
    )
    raw_id_fields = ("hex",)
    extra = 0
    show_change_link = True


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user",)
    raw_id_fields = ("user",)
    extra = 0


@admin.register(Power)
class PowerAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "campaign", "gal", "tp", "un_member", "system_count")
    list_filter = ("campaign", "un_member")
    search_fields = ("name", "key", "campaign__name")
    list_select_related = ("campaign",)
    inlines = (MembershipInline, StarSystemInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Power]:
        return super().get_queryset(request).annotate(n_systems=Count("systems"))

    @admin.display(description="systems", ordering="n_systems")
    def system_count(self, obj: Power) -> int:
        return obj.n_systems


@admin.register(StarSystem)
class StarSystemAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "key",
        "hex_code",
        "system_type",
        "holder",
        "loyalty",
        "rate_ore",
        "rate_gal",
        "rate_bio",
        "rate_pl",
        "uwp",
        "campaign",
    )
    list_filter = ("campaign", "system_type", "holder", "zone")
    search_fields = ("name", "key", "allegiance", "trade_codes")
    list_select_related = ("hex", "holder", "campaign")
    raw_id_fields = ("hex",)
    fieldsets = (
        (None, {"fields": ("campaign", "key", "name", "hex", "system_type", "holder", "loyalty")}),
        ("Production", {"fields": (("rate_ore", "rate_gal", "rate_bio", "rate_pl"), "free_ep")}),
        ("Stockpile", {"fields": (("stock_ore", "stock_bio", "stock_pl"),)}),
        (
            "Planetary project",
            {"fields": (("project_source", "project_target", "project_pct"),)},
        ),
        (
            "World statistics (UWP)",
            {
                "fields": (
                    ("starport", "size", "atmosphere", "hydrographics"),
                    ("population", "government", "law", "tech_level"),
                    ("bases", "zone", "pbg", "allegiance"),
                    "trade_codes",
                )
            },
        ),
    )

    @admin.display(description="hex", ordering="hex__col")
    def hex_code(self, obj: StarSystem) -> str:
        return obj.hex.code


class PositionedAdmin(admin.ModelAdmin):
    list_select_related = ("power", "campaign")
    search_fields = ("key", "power__name", "campaign__name")

    @admin.display(description="hex", ordering="col")
    def where(self, obj: FleetGroup | Static) -> str:
        return obj.hex_code


@admin.register(FleetGroup)
class FleetGroupAdmin(PositionedAdmin):
    list_display = ("key", "power", "where", "kind", "order", "status", "points", "ep", "troops")
    list_filter = ("campaign", "power", "kind", "order", "status")


@admin.register(Static)
class StaticAdmin(PositionedAdmin):
    list_display = ("key", "power", "where", "civilian", "passengers", "passenger_space", "troops")
    list_filter = ("campaign", "power", "civilian")


@admin.register(Invasion)
class InvasionAdmin(admin.ModelAdmin):
    list_display = ("system", "power", "troops", "campaign")
    list_filter = ("campaign", "power")
    list_select_related = ("system", "power", "campaign")
    raw_id_fields = ("system",)


class OutpostInline(admin.TabularInline):
    model = BubbleOutpost
    extra = 0


class SensorInline(admin.TabularInline):
    model = BubbleSensor
    extra = 0


@admin.register(CommandBubble)
class CommandBubbleAdmin(admin.ModelAdmin):
    list_display = ("key", "power", "hq", "radius", "campaign")
    list_filter = ("campaign", "power")
    list_select_related = ("power", "campaign")
    search_fields = ("key", "power__name")
    inlines = (OutpostInline, SensorInline)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "power", "campaign")
    list_filter = ("campaign",)
    list_select_related = ("user", "power", "campaign")
    search_fields = ("user__username", "power__name")
    raw_id_fields = ("user",)


from powers import admin_import  # noqa: E402, F401  (adds "Import sector file…" to CampaignAdmin)
