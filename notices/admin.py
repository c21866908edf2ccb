"""What players were told, read-only: the organiser checks that an email went out."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from notices.models import Notice


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin[Notice]):
    list_display = ("created_at", "campaign", "user", "kind", "title", "email", "emailed_at")
    list_filter = ("kind", "email", "campaign")
    search_fields = ("user__username", "title")
    list_select_related = ("campaign", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
