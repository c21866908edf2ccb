"""The admin panel for the ground floor's models (the campaign itself is set up in
``campaigns/admin.py``): inlines, search, filters, clear validation."""

from __future__ import annotations

from typing import Any, TypedDict

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django_stubs_ext import WithAnnotations

from economy.engine.designs import npv_problem
from economy.engine.state import CAPACITIES
from economy.engine.state import DesignSystem as SystemState
from powers.admin_forms import (
    BuildForm,
    CarriedCraftForm,
    CommandBubbleForm,
    CraftForm,
    DesignForm,
    FleetGroupForm,
    OutpostForm,
    SensorForm,
    StaticForm,
)
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    Build,
    BuildBuilder,
    CommandBubble,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    Invasion,
    MapHex,
    Membership,
    Power,
    StarSystem,
    Static,
)
from powers.scoped_choices import ScopedChoices


class SystemCount(TypedDict):
    n_systems: int


@admin.register(MapHex)
class MapHexAdmin(admin.ModelAdmin[MapHex]):
    list_display = ("code", "hex_type", "campaign")
    list_filter = ("campaign", "hex_type")
    search_fields = ("campaign__name", "system__name")
    ordering = ("campaign", "col", "row")

    @admin.display(description="hex", ordering="col")
    def code(self, obj: MapHex) -> str:
        return obj.code


class StarSystemInline(ScopedChoices, admin.TabularInline[StarSystem, Power]):
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


class MembershipInline(ScopedChoices, admin.TabularInline[Membership, Power]):
    model = Membership
    fields = ("user",)
    autocomplete_fields = ("user",)  # by username (issue 18)
    extra = 0


@admin.register(Power)
class PowerAdmin(ScopedChoices, admin.ModelAdmin[Power]):
    list_display = ("name", "key", "campaign", "gal", "tp", "un_member", "system_count")
    list_filter = ("campaign", "un_member")
    search_fields = ("name", "key", "campaign__name")
    list_select_related = ("campaign",)
    inlines = (MembershipInline, StarSystemInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Power]:
        return super().get_queryset(request).annotate(n_systems=Count("systems"))

    @admin.display(description="systems", ordering="n_systems")
    def system_count(self, obj: WithAnnotations[Power, SystemCount]) -> int:
        return obj.n_systems


@admin.register(StarSystem)
class StarSystemAdmin(ScopedChoices, admin.ModelAdmin[StarSystem]):
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


class HexAfterPower:
    """The hex typed in place of a column and a row (issue 30) shows where they stood: after
    the power (the form declares it, so it would come last)."""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        fields = list(super().get_fields(request, obj))  # type: ignore[misc]
        for name in getattr(self.form, "positions", {}):  # type: ignore[attr-defined]
            if name in fields and "power" in fields:
                fields.remove(name)
                fields.insert(fields.index("power") + 1, name)
        return fields

    @admin.display(description="hex")
    def hex(self, obj: Any) -> str:
        return str(obj.hex_code or "")  # the hex field, read-only (a user who may only view)


class CraftInline(ScopedChoices, admin.TabularInline[Craft, Any]):
    """The craft in a group or a static, by design name (issue 30): what it is made of."""

    model = Craft
    form = CarriedCraftForm
    fields = ("key", "design", "crew", "fatigue")
    extra = 0
    show_change_link = True


class GroupCraftInline(CraftInline):
    fk_name = "group"


class StaticCraftInline(CraftInline):
    fk_name = "static"


class PositionedAdmin(HexAfterPower, ScopedChoices, admin.ModelAdmin[FleetGroup | Static]):
    list_select_related = ("power", "campaign")
    search_fields = ("key", "power__name", "campaign__name")

    @admin.display(description="hex", ordering="col")
    def where(self, obj: FleetGroup | Static) -> str:
        return obj.hex_code


@admin.register(FleetGroup)
class FleetGroupAdmin(PositionedAdmin):
    list_display = (
        "key",
        "power",
        "where",
        "kind",
        "order",
        "status",
        "points",
        "ep",
        "troops",
        "out_of_supply",
    )
    list_filter = ("campaign", "power", "kind", "order", "status")
    form = FleetGroupForm
    inlines = (GroupCraftInline,)


@admin.register(Static)
class StaticAdmin(PositionedAdmin):
    list_display = ("key", "power", "where", "civilian", "passengers", "passenger_space", "troops")
    list_filter = ("campaign", "power", "civilian")
    form = StaticForm
    inlines = (StaticCraftInline,)


@admin.register(Invasion)
class InvasionAdmin(ScopedChoices, admin.ModelAdmin[Invasion]):
    list_display = ("system", "power", "troops", "campaign")
    list_filter = ("campaign", "power")
    list_select_related = ("system", "power", "campaign")
    raw_id_fields = ("system",)


class OutpostInline(admin.TabularInline[BubbleOutpost, CommandBubble]):
    model = BubbleOutpost
    form = OutpostForm
    extra = 0


class SensorInline(admin.TabularInline[BubbleSensor, CommandBubble]):
    model = BubbleSensor
    form = SensorForm
    extra = 0


@admin.register(CommandBubble)
class CommandBubbleAdmin(HexAfterPower, ScopedChoices, admin.ModelAdmin[CommandBubble]):
    list_display = ("key", "power", "hq", "radius", "campaign")
    form = CommandBubbleForm
    list_filter = ("campaign", "power")
    list_select_related = ("power", "campaign")
    search_fields = ("key", "power__name")
    inlines = (OutpostInline, SensorInline)


@admin.register(Membership)
class MembershipAdmin(ScopedChoices, admin.ModelAdmin[Membership]):
    list_display = ("user", "power", "campaign")
    list_filter = ("campaign",)
    list_select_related = ("user", "power", "campaign")
    search_fields = ("user__username", "power__name")
    autocomplete_fields = ("user",)


# --- the fleet (issue 14) ----------------------------------------------------------------


class DesignSystemFormSet(BaseInlineFormSet[DesignSystem, Design, Any]):
    """R-10.0 across the inline rows: the systems' points may not exceed the design's NPV."""

    def clean(self) -> None:
        super().clean()
        design = self.instance
        rows = [
            DesignSystem(points=f.cleaned_data["points"], count=f.cleaned_data.get("count") or 1)
            for f in self.forms
            if getattr(f, "cleaned_data", None)
            and not f.cleaned_data.get("DELETE")
            and f.cleaned_data.get("points") is not None
        ]
        systems = [SystemState(str(i), "", s.points, s.count) for i, s in enumerate(rows)]
        problem = npv_problem(design.npv, systems) if design.npv is not None else None
        if problem:
            raise ValidationError(f"{problem}: raise the NPV or lower the systems' points.")


class DesignSystemInline(admin.TabularInline[DesignSystem, Design]):
    model = DesignSystem
    formset = DesignSystemFormSet
    fields = ("position", "key", "name", "points", "count", *CAPACITIES)
    extra = 0


@admin.register(Design)
class DesignAdmin(ScopedChoices, admin.ModelAdmin[Design]):
    list_display = ("name", "key", "power", "craft_class", "mobility", "mass", "npv", "completed")
    list_filter = ("campaign", "power", "craft_class", "mobility", "completed")
    list_select_related = ("power", "campaign")
    search_fields = ("key", "name", "power__name")
    inlines = (DesignSystemInline,)
    form = DesignForm


class BuildBuilderInline(ScopedChoices, admin.TabularInline[BuildBuilder, Build]):
    model = BuildBuilder
    fields = ("position", "craft")
    extra = 0


@admin.register(Craft)
class CraftAdmin(HexAfterPower, ScopedChoices, admin.ModelAdmin[Craft]):
    list_display = ("key", "power", "design", "place", "crew", "fatigue", "captured")
    list_filter = ("campaign", "power", "captured")
    list_select_related = ("power", "design", "group", "static", "orbit", "campaign")
    search_fields = ("key", "design__name", "power__name")
    form = CraftForm  # its design, group, static and orbit are chosen by name (issue 30)

    @admin.display(description="in")
    def place(self, obj: Craft) -> str:
        if obj.group_id:
            return f"group {obj.group}"
        if obj.static_id:
            return f"static {obj.static}"
        return f"orbit of {obj.orbit}"


@admin.register(Build)
class BuildAdmin(HexAfterPower, ScopedChoices, admin.ModelAdmin[Build]):
    list_display = ("key", "power", "kind", "design", "paid", "worked", "cost", "started")
    list_filter = ("campaign", "power", "kind", "inside")
    list_select_related = ("power", "design", "campaign")
    search_fields = ("key", "design__name", "power__name")
    form = BuildForm
    exclude = ("builders", "col", "row")  # the admin's exclude replaces the form's
    inlines = (BuildBuilderInline,)
