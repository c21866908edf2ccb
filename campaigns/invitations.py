"""Invitations to play a power (issue 18): the organiser enters an email per power in the
admin; the invitee follows a single-use link that expires, creates an account or logs in, and
becomes the power's player."""

from __future__ import annotations

from typing import TypeGuard

from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from ftcamp.errors import Refused
from notices import announce
from powers.models import Invitation, Membership


class InvitationRefused(Refused):
    """The link is used, expired or unknown, or the user already plays in the campaign."""


def origin(request: HttpRequest) -> str:
    """The scheme and host the organiser reached the site by (``https://camp.example:8443``):
    the invitee follows the link to the same server, whatever ``FTCAMP_BASE_URL`` says. The
    host is one of ``ALLOWED_HOSTS`` (``get_host`` refuses any other)."""
    return request.build_absolute_uri("/").rstrip("/")


def link(invitation: Invitation, request: HttpRequest) -> str:
    """The invitation's link as the organiser's own request addresses the site. The token in
    it is a credential: shown to the organiser in the admin only, never logged."""
    return request.build_absolute_uri(reverse("invitation", args=[invitation.token]))


def invite(invitation: Invitation, request: HttpRequest) -> str:
    """Have a new invitation's email sent, by Celery, once the transaction commits, with the
    link on the request's host; return that link. Only the origin travels to the task (the
    token stays out of the broker and of its failure log); it reads the token itself."""
    announce.invitation_made(invitation.pk, origin=origin(request))
    return link(invitation, request)


def shown(invitation: Invitation) -> bool:
    """Whether its link still opens anything: unused and not expired."""
    return _good(invitation)


def _good(invitation: Invitation | None) -> TypeGuard[Invitation]:
    """Single use, until it expires."""
    return (
        invitation is not None
        and invitation.accepted_at is None
        and invitation.expires_at > timezone.now()
    )


def usable(token: str) -> Invitation | None:
    """The invitation ``token`` opens if it is still good."""
    invitation = Invitation.objects.select_related("campaign", "power").filter(token=token).first()
    return invitation if _good(invitation) else None


@transaction.atomic
def accept(*, token: str, user: User) -> Membership:
    """Use the invitation: ``user`` becomes a player of its power. The row is locked, so two
    clicks on one link make one membership."""
    invitation = (
        Invitation.objects.select_for_update().select_related("power").filter(token=token).first()
    )
    if not _good(invitation):
        raise InvitationRefused("This invitation has been used or has expired.")
    if Membership.objects.filter(campaign_id=invitation.campaign_id, user=user).exists():
        raise InvitationRefused("You already play a power in this campaign.")
    membership = Membership.objects.create(
        campaign_id=invitation.campaign_id, user=user, power=invitation.power
    )
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership
