"""The organiser's side (issue 31): a campaign's press settings, inline on its admin page, and
the public channel's messages, each of which the organiser may hide with a reason (the trace:
who, when, why). Private conversations are not listed: the organiser does not read them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from diplomacy import limits, services
from diplomacy.models import Message, PressSettings
from ftcamp.errors import DomainError
from powers.models import Campaign


class PressSettingsInline(admin.StackedInline[PressSettings, Campaign]):
    model = PressSettings
    can_delete = False
    max_num = 1
    extra = 1
    verbose_name = "press (players' messages)"


# The campaign's admin page is campaigns.admin's; the inline joins it here, so that neither
# interface imports the other (apps load in INSTALLED_APPS order: campaigns first).
_campaign_admin = admin.site.get_model_admin(Campaign)
_campaign_admin.inlines = (*_campaign_admin.inlines, PressSettingsInline)  # type: ignore[misc]


class HideForm(forms.ModelForm[Message]):
    hide = forms.BooleanField(
        required=False, label="Hide this message", help_text="Players then read "
        f"\u201c{'hidden by the organiser'}\u201d in its place; the text is kept here."
    )  # fmt: skip

    class Meta:
        model = Message
        fields = ["hidden_reason"]
        help_texts = {"hidden_reason": "Why it is hidden (required to hide it)."}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("hide") and self.instance.hidden_at is None:
            reason = str(data.get("hidden_reason") or "").strip()
            if not reason:
                self.add_error("hidden_reason", "Say why the message is hidden.")
            elif len(reason) > limits.MAX_REASON:
                self.add_error("hidden_reason", f"At most {limits.MAX_REASON} characters.")
        return data


@admin.register(Message)
class PublicMessageAdmin(admin.ModelAdmin[Message]):
    """The public channels' messages only."""

    form = HideForm
    list_display = ("created_at", "campaign", "power", "excerpt", "hidden_at", "hidden_by")
    list_filter = ("conversation__campaign",)
    search_fields = ("text",)
    readonly_fields = (
        "campaign", "power", "author", "text", "created_at", "hidden_at", "hidden_by",
    )  # fmt: skip
    fields = (*readonly_fields, "hide", "hidden_reason")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Message]:
        return (
            super()
            .get_queryset(request)
            .filter(conversation__public=True, system={})
            .select_related("conversation__campaign", "power", "hidden_by")
        )

    @admin.display(description="campaign")
    def campaign(self, obj: Message) -> str:
        return obj.conversation.campaign.name

    @admin.display(description="text")
    def excerpt(self, obj: Message) -> str:
        return obj.text[:80]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players write; the organiser hides

    def has_delete_permission(self, request: HttpRequest, obj: Message | None = None) -> bool:
        return False  # kept for the campaign's history

    def save_model(self, request: HttpRequest, obj: Message, form: Any, change: bool) -> None:
        if form.cleaned_data.get("hide") and obj.hidden_at is None:
            assert request.user.is_authenticated
            try:
                services.hide_message(
                    message_id=obj.pk, by=request.user, reason=form.cleaned_data["hidden_reason"]
                )
            except DomainError as exc:
                self.message_user(request, "; ".join(exc.errors), level="error")
