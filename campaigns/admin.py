"""The campaign in the admin panel: its powers, market edges and taxes inline, set up on save
(the market edges and the first round), and the "Import sector file…" action (issue 7), which
imports one uploaded sector with the same service as ``manage.py import_sector``."""

from __future__ import annotations

from typing import Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django_stubs_ext import WithAnnotations

from campaigns import services
from campaigns.sector_import import SectorImportError, import_into
from powers.models import Campaign, Consumable, GroupLimit, Power
from trade.models import MarketEdge, PowerTax
from trade.routes import SectorFormatError, parse_sector

MAX_UPLOAD = 4 * 1024 * 1024  # a whole sector .tab is about 200 kB
SHOWN_SKIPS = 50


class SectorUploadForm(forms.Form):
    sector_file = forms.FileField(
        help_text="Traveller Map tab-delimited (.tab) or classic SEC (.sec) sector file."
    )
    metadata = forms.FileField(
        required=False, help_text="Optional: the sector's .xml (name and abbreviation)."
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        for name in ("sector_file", "metadata"):
            upload = data.get(name)
            if upload is not None and upload.size > MAX_UPLOAD:
                self.add_error(name, "This file is too large for a sector file (4 MB at most).")
        return data


def _text(upload: UploadedFile[bytes]) -> str:
    data: bytes = upload.read()
    return data.decode("utf-8", errors="replace")


@admin.action(description="Import sector file…")
def import_sector_action(
    modeladmin: CampaignAdmin, request: HttpRequest, queryset: QuerySet[Campaign]
) -> TemplateResponse | None:
    """Upload a sector file into the selected campaign: hexes and neutral systems with their
    UWP statistics and derived rates (docs/maps.md); bad lines are listed, not fatal."""
    campaigns = list(queryset[:2])
    if len(campaigns) != 1:
        modeladmin.message_user(request, "Select exactly one campaign.", messages.ERROR)
        return None
    campaign = campaigns[0]
    form = SectorUploadForm()
    if "apply" in request.POST:
        form = SectorUploadForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["sector_file"]
            meta = form.cleaned_data.get("metadata")
            try:
                sector = parse_sector(
                    _text(upload), path=upload.name, metadata_xml=_text(meta) if meta else None
                )
                report = import_into(campaign=campaign, files=[sector])
            except (SectorFormatError, SectorImportError) as exc:
                form.add_error("sector_file", str(exc))
            else:
                modeladmin.message_user(
                    request,
                    f"{campaign}: {report.created} systems created, {report.updated} updated, "
                    f"{len(report.skipped)} lines skipped.",
                    messages.SUCCESS,
                )
                for line in report.skipped[:SHOWN_SKIPS]:
                    modeladmin.message_user(request, f"Skipped {line}", messages.WARNING)
                if len(report.skipped) > SHOWN_SKIPS:
                    more = len(report.skipped) - SHOWN_SKIPS
                    modeladmin.message_user(request, f"… and {more} more.", messages.WARNING)
                return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": f"Import a sector file into {campaign}",
        "campaign": campaign,
        "form": form,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/powers/campaign/import_sector.html", context)


class PowerInline(admin.TabularInline[Power, Campaign]):
    model = Power
    fields = ("key", "name", "colour", "gal", "tp", "un_member")
    extra = 0
    show_change_link = True


class MarketEdgeInline(admin.TabularInline[MarketEdge, Campaign]):
    model = MarketEdge
    fields = ("edge", "rate", "tax")
    extra = 0
    max_num = 3


class ConsumableInline(admin.TabularInline[Consumable, Campaign]):
    """R-10.1a: the campaign's consumables catalogue."""

    model = Consumable
    fields = ("kind", "mass", "ore")
    extra = 0


class GroupLimitInline(admin.TabularInline[GroupLimit, Campaign]):
    """R-2b: limits per group kind (none unless set)."""

    model = GroupLimit
    fields = ("kind", "points", "officers")
    extra = 0


class PowerTaxInline(admin.TabularInline[PowerTax, Campaign]):
    model = PowerTax
    fields = ("power", "edge", "tax")
    extra = 0


class Counts(TypedDict):
    n_powers: int
    n_systems: int


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ("name", "current_round", "power_count", "system_count", "created_at")
    search_fields = ("name",)
    inlines = (PowerInline, MarketEdgeInline, PowerTaxInline, ConsumableInline, GroupLimitInline)
    actions = (import_sector_action,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_powers=Count("powers", distinct=True), n_systems=Count("systems", distinct=True)
            )
        )

    @admin.display(description="powers", ordering="n_powers")
    def power_count(self, obj: WithAnnotations[Campaign, Counts]) -> int:
        return obj.n_powers

    @admin.display(description="systems", ordering="n_systems")
    def system_count(self, obj: WithAnnotations[Campaign, Counts]) -> int:
        return obj.n_systems

    def save_related(
        self,
        request: HttpRequest,
        form: forms.ModelForm[Campaign],
        formsets: list[BaseInlineFormSet[Any, Campaign]],
        change: bool,
    ) -> None:
        super().save_related(request, form, formsets, change)
        services.setup_campaign(campaign=form.instance)
