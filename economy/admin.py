"""Rounds in the admin: status at a glance, and the organiser's controls — force-resolve,
extend the deadline, pause and unpause, roll back — each an audited service call."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from command import services as mission_outcomes
from economy import services
from economy.models import AuditEvent, Round, RoundStatus
from fleet import battles
from ftcamp.errors import DomainError
from powers.models import BattleCraft, BattleParty, BattleRecord
from powers.models.command import Mission


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = (
        "campaign",
        "number",
        "status",
        "paused",
        "attempts",
        "deadline",
        "resolved_at",
        "error",
    )
    list_filter = ("status", "paused", "campaign")
    search_fields = ("campaign__name",)
    list_select_related = ("campaign",)
    readonly_fields = ("campaign", "number", "status", "attempts", "last_error", "started_at")
    fields = (*readonly_fields, "deadline", "paused", "resolved_at")
    actions = ("force_resolve", "extend_deadline", "pause", "unpause", "rollback")

    @admin.display(description="last error")
    def error(self, obj: Round) -> str:
        return obj.last_error[:80]

    def _actor(self, request: HttpRequest) -> str:
        return f"admin:{request.user.get_username()}"

    @admin.action(description="Force-resolve now (even if not every power has submitted)")
    def force_resolve(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset.filter(status="open"):
            done = services.resolve_round(round_id=rnd.pk, force=True, actor=self._actor(request))
            level = messages.SUCCESS if done else messages.ERROR
            rnd.refresh_from_db()
            text = "resolved" if done else f"not resolved: {rnd.last_error or rnd.status}"
            self.message_user(request, f"{rnd}: {text}", level)

    @admin.action(description="Extend the deadline by 24 hours")
    def extend_deadline(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset.filter(status="open"):
            services.extend_deadline(round_id=rnd.pk, hours=24, actor=self._actor(request))
        self.message_user(request, "Deadlines extended by 24 hours.")

    @admin.action(description="Pause (no automatic resolution)")
    def pause(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset:
            services.set_paused(round_id=rnd.pk, paused=True, actor=self._actor(request))
        self.message_user(request, "Paused.")

    @admin.action(description="Unpause")
    def unpause(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for rnd in queryset:
            services.set_paused(round_id=rnd.pk, paused=False, actor=self._actor(request))
        self.message_user(request, "Unpaused.")

    @admin.action(description="Roll the campaign back to the start of this round")
    def rollback(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        if queryset.count() != 1:
            self.message_user(request, "Choose exactly one round.", messages.ERROR)
            return
        rnd = queryset.get()
        try:
            services.rollback_to(
                campaign=rnd.campaign, number=rnd.number, actor=self._actor(request)
            )
        except ValueError as exc:
            self.message_user(request, str(exc), messages.ERROR)
            return
        self.message_user(request, f"{rnd.campaign} is back at the start of round {rnd.number}.")


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin[AuditEvent]):
    """Read-only: the audit trail is append-only."""

    list_display = ("created_at", "campaign", "round_number", "actor", "action")
    list_filter = ("action", "campaign")
    search_fields = ("actor", "action")
    list_select_related = ("campaign",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class BattlePartyInline(admin.TabularInline[BattleParty, BattleRecord]):
    model = BattleParty
    extra = 0


class BattleCraftInline(admin.TabularInline[BattleCraft, BattleRecord]):
    model = BattleCraft
    extra = 0


@admin.register(BattleRecord)
class BattleRecordAdmin(admin.ModelAdmin[BattleRecord]):
    """R-10.6: the admin sees every record — those unconfirmed when their round resolved have
    expired and were not applied — and confirms one (or one it entered here, with its powers
    and craft) through the same check as players, or voids one awaiting confirmation or
    confirmed and not yet applied."""

    list_display = ("key", "campaign", "hex", "created_round", "entered_by", "status")
    list_filter = ("status", "campaign")
    search_fields = ("key", "campaign__name")
    list_select_related = ("campaign", "entered_by")
    inlines = (BattlePartyInline, BattleCraftInline)
    actions = ("confirm", "void")

    @admin.action(description="Confirm as the admin (it takes effect at the next resolution)")
    def confirm(self, request: HttpRequest, queryset: QuerySet[BattleRecord]) -> None:
        who = f"admin:{request.user.get_username()}"
        for record in queryset.filter(status=BattleRecord.Status.PROPOSED):
            try:
                battles.admin_confirm(record=record, actor=who)
            except DomainError as exc:
                self.message_user(request, f"{record.key}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{record.key} confirmed.", messages.SUCCESS)

    @admin.action(description="Void (it will never apply; the round no longer waits for it)")
    def void(self, request: HttpRequest, queryset: QuerySet[BattleRecord]) -> None:
        who = f"admin:{request.user.get_username()}"
        ending = (BattleRecord.Status.PROPOSED, BattleRecord.Status.CONFIRMED)
        for record in queryset.filter(status__in=ending):
            try:
                battles.void(record=record, actor=who)
            except DomainError as exc:
                self.message_user(request, f"{record.key}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{record.key} voided.", messages.SUCCESS)


# --- diplomatic missions: the organiser's outcome (R-8.4, R-8.4a; issue 16) --------------------

#: the outcome's fields (mission_outcomes.OutcomeInvalid) -> the form's
OUTCOME_FIELDS = {
    "text": "outcome_text",
    "reveal": "reveal",
    "moves": "moves",
    "loyalty": "loyalty",
}


class MissionOutcomeForm(forms.ModelForm[Mission]):
    """R-8.4a: the outcome text and effects from the fixed list, each checked against the
    mission's campaign with the field and line named."""

    outcome_text = forms.CharField(
        label="Outcome",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=mission_outcomes.MAX_TEXT,
        help_text="What happened, in words. Sent to the target's and the sender's players.",
    )
    reveal = forms.CharField(
        label="Facts revealed to the sender",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One fact per line, e.g. 'Hub hub1 of p1 runs through 0401, 0402'.",
    )
    moves = forms.CharField(
        label="Resources moved",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(
            "One move per line: resource amount from to, e.g. 'gal 50 p1 p0'. Gal and TP move "
            "between powers' banks (power keys); Ore, Bio and PL between hubs or systems "
            "(their keys). At most what the source has moves; each move is a ledger line."
        ),
    )
    loyalty = forms.CharField(
        label="Loyalty changes",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One per line: system change, e.g. 's1-0 -2' (kept within 0 and the max LR).",
    )

    class Meta:
        model = Mission
        fields: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        outcome = self.instance.outcome if self.instance.pk else None
        if outcome:
            self.initial.update(
                outcome_text=outcome["text"],
                reveal="\n".join(outcome["reveal"]),
                moves="\n".join(
                    f"{m['resource']} {m['amount']} {m['from']} {m['to']}" for m in outcome["moves"]
                ),
                loyalty="\n".join(f"{lr['system']} {lr['change']}" for lr in outcome["loyalty"]),
            )

    def effects(self) -> mission_outcomes.Effects:
        d = self.cleaned_data
        return mission_outcomes.Effects(
            d.get("outcome_text", ""), d.get("reveal", ""), d.get("moves", ""), d.get("loyalty", "")
        )

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        try:
            mission_outcomes.parse_outcome(mission=self.instance, effects=self.effects())
        except mission_outcomes.OutcomeInvalid as exc:
            for name, problems in exc.field_errors.items():
                for problem in problems:
                    self.add_error(OUTCOME_FIELDS[name], problem)
        if not Round.objects.filter(
            campaign_id=self.instance.campaign_id, status=RoundStatus.OPEN
        ).exists():
            self.add_error(None, "No round is open: record the outcome once the next one opens.")
        return data


@admin.register(Mission)
class MissionAdmin(admin.ModelAdmin[Mission]):
    """R-8.4: the organiser picks a declared mission and records its outcome (R-8.4a); it is
    applied at the start of the next resolution, and the mission then leaves the list."""

    form = MissionOutcomeForm
    list_display = ("key", "campaign", "power", "target", "kind", "declared", "resolved")
    list_filter = ("campaign", "kind")
    list_select_related = ("campaign", "power", "target")
    search_fields = ("key", "power__name", "target__name")
    readonly_fields = ("key", "campaign", "power", "diplomat", "target", "kind", "declared",
                       "system", "spent")  # fmt: skip
    fields = (*readonly_fields, "outcome_text", "reveal", "moves", "loyalty")

    @admin.display(boolean=True, description="resolved")
    def resolved(self, obj: Mission) -> bool:
        return obj.outcome is not None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # declared by players

    def save_model(
        self, request: HttpRequest, obj: Mission, form: MissionOutcomeForm, change: bool
    ) -> None:
        mission_outcomes.resolve_mission(
            mission_id=obj.pk,
            effects=form.effects(),
            actor=f"admin:{request.user.get_username()}",
        )
