"""Rounds in the admin: status at a glance, and the organiser's controls — force-resolve,
extend the deadline, pause and unpause, roll back — each an audited service call."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from economy import battle_records, services
from economy.models import AuditEvent, Round
from ftcamp.errors import DomainError
from powers.models import BattleCraft, BattleParty, BattleRecord


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
    """R-10.6: the admin sees every record — those still awaiting confirmation at the deadline
    are listed here (filter: awaiting confirmation) and were not applied — and confirms one
    (or one it entered here, with its powers and craft) through the same check as players."""

    list_display = ("key", "campaign", "hex", "created_round", "entered_by", "status")
    list_filter = ("status", "campaign")
    search_fields = ("key", "campaign__name")
    list_select_related = ("campaign", "entered_by")
    inlines = (BattlePartyInline, BattleCraftInline)
    actions = ("confirm",)

    @admin.action(description="Confirm as the admin (it takes effect at the next resolution)")
    def confirm(self, request: HttpRequest, queryset: QuerySet[BattleRecord]) -> None:
        who = f"admin:{request.user.get_username()}"
        for record in queryset.filter(status=BattleRecord.Status.PROPOSED):
            try:
                battle_records.admin_confirm(record=record, actor=who)
            except DomainError as exc:
                self.message_user(request, f"{record.key}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{record.key} confirmed.", messages.SUCCESS)
