"""Choices scoped to one campaign in the admin panel (issue 18): the relations of a campaign
object offer only that campaign's powers, systems, hexes... Shared by the admin of every app
(``powers.admin``, ``trade.admin``, the campaign's own in ``campaigns.admin``)."""

from __future__ import annotations

from typing import Any

from django.db.models import ForeignKey, QuerySet
from django.http import HttpRequest

from powers.models import Campaign

SCOPE = "_ftcamp_campaign_scope"


def campaign_choices(db_field: ForeignKey[Any, Any], campaign_id: int) -> QuerySet[Any] | None:
    """The choices of a relation to a campaign object (a power, a system, a hex…) limited to
    one campaign; None for a relation to anything else (the campaign itself, a user)."""
    related = db_field.related_model
    if not isinstance(related, type) or related is Campaign:
        return None
    if not any(f.name == "campaign" for f in related._meta.concrete_fields):
        return None
    return related._default_manager.filter(campaign_id=campaign_id)


class ScopedChoices:
    """For the admin of a campaign object and its inlines: every choice of a power, holder,
    system or hex lists only the campaign of the object edited (or, adding one, the campaign
    chosen: ``?campaign=<id>``), so no save fails with "belongs to another campaign"."""

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        chosen = request.GET.get("campaign") or request.POST.get("campaign") or ""
        scope = obj.campaign_id if obj is not None else int(chosen) if chosen.isdigit() else None
        setattr(request, SCOPE, scope)
        return super().get_form(request, obj, change, **kwargs)  # type: ignore[misc]

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> Any:
        scope = getattr(request, SCOPE, None)
        choices = campaign_choices(db_field, scope) if scope is not None else None
        if choices is not None:
            kwargs["queryset"] = choices
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]
