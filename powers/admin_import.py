"""The Campaign admin's "Import sector file…" action (issue 7).

Importing this module adds the action to ``CampaignAdmin``; ``powers/admin.py`` imports it.
The action shows an upload form for the one selected campaign and imports the file with the
same service as ``manage.py import_sector`` (one sector, numbered as that sector).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from powers.admin import CampaignAdmin
from powers.models import Campaign
from powers.sector_import import SectorImportError, import_into
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


def _text(upload: object) -> str:
    return upload.read().decode("utf-8", errors="replace")  # type: ignore[attr-defined]


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


CampaignAdmin.actions = (*(CampaignAdmin.actions or ()), import_sector_action)
