"""The campaign in the admin panel, enough to set a campaign up without the docs (issue 18):
its powers, players (by username) and invitations (by email), market edges and taxes inline;
set up on save (the market edges and the first round, paused until the organiser starts it);
a checklist of what is missing before play; and the "Import sector files…" action (issue 7),
which imports one or several uploaded sectors side by side with the same service as
``manage.py import_sector``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Count, ForeignKey, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django_stubs_ext import WithAnnotations

from campaigns import invitations, services, starting
from campaigns.checklist import missing, not_started, setup_checklist
from campaigns.sector_import import SectorImportError, import_into
from economy.models import Round
from notices.selectors import organiser_waits
from powers.models import Campaign, Consumable, GroupLimit, Invitation, Membership, Power
from powers.scoped_choices import campaign_choices
from trade.models import MarketEdge, PowerTax
from trade.routes import SectorFile, SectorFormatError, parse_sector

MAX_UPLOAD = 4 * 1024 * 1024  # a whole sector .tab is about 200 kB
MAX_FILES = 12  # six sectors (3 × 2, the largest map) with their .xml
SHOWN_SKIPS = 50


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one input (Django's documented recipe)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(**kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile[bytes]]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class SectorUploadForm(forms.Form):
    sector_files = MultipleFileField(
        label="Sector files",
        help_text="One sector, or several to lie side by side: each a Traveller Map "
        "tab-delimited (.tab) or classic SEC (.sec) file, with its .xml of the same name "
        "(the sector's name, abbreviation and position; needed when there are several).",
    )

    def clean_sector_files(self) -> list[UploadedFile[bytes]]:
        files: list[UploadedFile[bytes]] = self.cleaned_data["sector_files"]
        too_big = [f.name for f in files if f.size is not None and f.size > MAX_UPLOAD]
        if too_big:
            raise forms.ValidationError(
                f"{', '.join(str(n) for n in too_big)}: too large for a sector file (4 MB at most)."
            )
        if len(files) > MAX_FILES:
            raise forms.ValidationError(f"At most {MAX_FILES} files at a time.")
        return files


def _sectors(files: list[UploadedFile[bytes]]) -> list[SectorFile]:
    """Pair each sector file with the .xml of the same name, and read them (the sector import
    places several side by side by the positions in their .xml, docs/maps.md)."""
    xml = {Path(str(f.name)).stem.lower(): f for f in files if str(f.name).lower().endswith(".xml")}
    sectors = [f for f in files if not str(f.name).lower().endswith(".xml")]
    if not sectors:
        raise SectorFormatError("no sector file (.tab or .sec) among the files")
    out = []
    for upload in sectors:
        meta = xml.get(Path(str(upload.name)).stem.lower())
        out.append(
            parse_sector(
                _text(upload), path=str(upload.name), metadata_xml=_text(meta) if meta else None
            )
        )
    return out


def _text(upload: UploadedFile[bytes]) -> str:
    data: bytes = upload.read()
    return data.decode("utf-8", errors="replace")


@admin.action(description="Import sector files…")
def import_sector_action(
    modeladmin: CampaignAdmin, request: HttpRequest, queryset: QuerySet[Campaign]
) -> TemplateResponse | None:
    """Upload one or several sector files into the selected campaign: hexes and neutral
    systems with their UWP statistics and derived rates, several sectors side by side, the map
    bounds following (docs/maps.md); bad lines are listed, not fatal."""
    campaigns = list(queryset[:2])
    if len(campaigns) != 1:
        modeladmin.message_user(request, "Select exactly one campaign.", messages.ERROR)
        return None
    campaign = campaigns[0]
    form = SectorUploadForm()
    if "apply" in request.POST:
        form = SectorUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                report = import_into(
                    campaign=campaign, files=_sectors(form.cleaned_data["sector_files"])
                )
            except (SectorFormatError, SectorImportError) as exc:
                form.add_error("sector_files", str(exc))
            else:
                campaign.refresh_from_db()
                modeladmin.message_user(
                    request,
                    f"{campaign}: {report.created} systems created, {report.updated} updated, "
                    f"{len(report.skipped)} lines skipped; the map is now "
                    f"{campaign.map_cols} × {campaign.map_rows}.",
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
        "title": f"Import sector files into {campaign}",
        "campaign": campaign,
        "form": form,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/powers/campaign/import_sector.html", context)


class CampaignChoices:
    """Choices on an inline of the campaign's page: only this campaign's powers, never another
    campaign's (issue 18); none yet while the campaign is being added."""

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> Any:
        match = request.resolver_match
        campaign_id = match.kwargs.get("object_id") if match else None
        choices = campaign_choices(db_field, int(campaign_id or 0))
        if choices is not None:
            kwargs["queryset"] = choices
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


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


class PlayerInline(CampaignChoices, admin.TabularInline[Membership, Campaign]):
    """Players by username, with autocomplete (issue 18); the power among this campaign's."""

    model = Membership
    fields = ("user", "power")
    autocomplete_fields = ("user",)
    extra = 0
    verbose_name = "player"
    verbose_name_plural = "players (existing accounts; or invite by email below)"


class InvitationInline(CampaignChoices, admin.TabularInline[Invitation, Campaign]):
    """Invite a player to a power by email: saving sends a single-use link (issue 18), which
    the organiser may also copy from here (issue 30) to hand over without email."""

    model = Invitation
    fields = ("power", "email", "status")
    readonly_fields = ("status", "link")
    extra = 0
    verbose_name_plural = "invitations (an email per power; saving sends the link)"
    _request: HttpRequest | None = None

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # an invitation sent is not edited: delete it and invite again

    def get_fields(self, request: HttpRequest, obj: Campaign | None = None) -> list[Any]:
        # The link is a credential: only whoever may invite (add invitations) sees it, not a
        # staff member who may merely view the campaign.
        # Inline instances are made afresh for each request, so keeping it here is safe; the
        # read-only column needs it for the host the link is built on.
        self._request = request
        fields = list(super().get_fields(request, obj))
        return [*fields, "link"] if request.user.has_perm("powers.add_invitation") else fields

    @admin.display(description="link (works once; copy it to hand over without email)")
    def link(self, obj: Invitation) -> str:
        if obj.pk is None or self._request is None or not invitations.shown(obj):
            return "–"
        return format_html(
            '<code class="invitation-link">{}</code>', invitations.link(obj, self._request)
        )

    @admin.display(description="status")
    def status(self, obj: Invitation) -> str:
        if obj.pk is None:
            return "sent on saving"
        if obj.accepted_at:
            return f"joined {obj.accepted_at:%Y-%m-%d}"
        if obj.expires_at <= timezone.now():
            return "expired"
        return f"{'sent' if obj.sent_at else 'sending'}; good until {obj.expires_at:%Y-%m-%d}"


class PowerTaxInline(CampaignChoices, admin.TabularInline[PowerTax, Campaign]):
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
    # the round moves by resolution and rollback only (the round controls, Rounds)
    readonly_fields = ("current_round",)
    inlines = (
        PowerInline,
        PlayerInline,
        InvitationInline,
        MarketEdgeInline,
        PowerTaxInline,
        ConsumableInline,
        GroupLimitInline,
    )
    actions = (import_sector_action,)
    change_form_template = "admin/powers/campaign/change_form.html"

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

    def get_urls(self) -> list[URLPattern]:
        start = self.admin_site.admin_view(self.start_view)
        shipyard = self.admin_site.admin_view(self.shipyard_view)
        return [
            path("<int:object_id>/start/", start, name="powers_campaign_start"),
            path("<int:object_id>/shipyard/", shipyard, name="powers_campaign_shipyard"),
            *super().get_urls(),
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        campaign = self.get_object(request, object_id)
        extra = {**(extra_context or {})}
        if campaign is not None:
            items = setup_checklist(campaign)
            extra["checklist"] = items
            rnd = Round.objects.filter(campaign=campaign, number=campaign.current_round).first()
            extra["can_start"] = not_started(rnd) and not missing(items)
            # issue 29: what the live round waits for, all of it, with links to act
            extra["round_waits"] = organiser_waits(campaign)
        return super().change_view(request, object_id, form_url, extra)

    def start_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """POST: start the campaign's paused round (the checklist's last item)."""
        campaign = self.get_object(request, str(object_id))
        if campaign is None or not self.has_change_permission(request, campaign):
            raise Http404("No such campaign.")
        back = reverse("admin:powers_campaign_change", args=[campaign.pk])
        if request.method != "POST":
            return HttpResponseRedirect(back)
        try:
            rnd = services.start_round(
                campaign=campaign, actor=f"admin:{request.user.get_username()}"
            )
        except services.SetupIncomplete as exc:
            for error in exc.errors:
                self.message_user(request, f"Not started — {error}", messages.ERROR)
        else:
            self.message_user(
                request,
                f"Round {rnd.number} of {campaign} has started; its deadline is "
                f"{rnd.deadline:%Y-%m-%d %H:%M} UTC.",
                messages.SUCCESS,
            )
        return HttpResponseRedirect(back)

    def shipyard_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """POST ``power``: give that power of the campaign a starting shipyard (issue 30)."""
        campaign = self.get_object(request, str(object_id))
        if campaign is None or not self.has_change_permission(request, campaign):
            raise Http404("No such campaign.")
        back = reverse("admin:powers_campaign_change", args=[campaign.pk])
        if request.method != "POST":
            return HttpResponseRedirect(back)
        chosen = str(request.POST.get("power", ""))
        power = (
            Power.objects.filter(campaign=campaign, pk=int(chosen)).first()
            if chosen.isdigit()
            else None
        )
        if power is None:
            self.message_user(request, "Power: choose one of this campaign's.", messages.ERROR)
            return HttpResponseRedirect(back)
        try:
            craft = starting.give_shipyard(power=power)
        except starting.NoShipyard as exc:
            self.message_user(request, f"No shipyard given — {exc}", messages.ERROR)
        else:
            where = craft.static.hex_code if craft.static else ""
            self.message_user(
                request,
                f"{power.name} has a starting shipyard: an {craft.design.name} ({craft.key}) "
                f"at its homeworld, hex {where}.",
                messages.SUCCESS,
            )
        return HttpResponseRedirect(back)

    def save_related(
        self,
        request: HttpRequest,
        form: forms.ModelForm[Campaign],
        formsets: list[BaseInlineFormSet[Any, Campaign]],
        change: bool,
    ) -> None:
        super().save_related(request, form, formsets, change)
        # made here, a campaign's first round waits for the organiser's "Start"
        services.setup_campaign(campaign=form.instance, paused=not change)

    def save_formset(
        self,
        request: HttpRequest,
        form: forms.ModelForm[Campaign],
        formset: BaseInlineFormSet[Any, Campaign],
        change: bool,
    ) -> None:
        super().save_formset(request, form, formset, change)
        for obj in formset.new_objects:
            if isinstance(obj, Invitation):
                link = invitations.invite(obj, request)
                self.message_user(
                    request,
                    f"Invitation to play {obj.power.name} sent to {obj.email}. Its link works "
                    f"once, until {obj.expires_at:%Y-%m-%d %H:%M} UTC: {link}",
                    messages.SUCCESS,
                )
