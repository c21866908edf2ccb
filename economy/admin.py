from django.contrib import admin

from economy.models import Round


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "status", "paused", "attempts", "deadline", "resolved_at")
    list_filter = ("campaign", "status", "paused")
    search_fields = ("campaign__name",)
    list_select_related = ("campaign",)
    readonly_fields = ("attempts", "last_error", "started_at", "resolved_at")
