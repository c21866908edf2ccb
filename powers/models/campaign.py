"""Campaigns, their powers, the players who play them and the invitations that bring them in."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from powers.db import CampaignScoped, key_validator, scoped_unique_id

from .base import COORD, non_negative

colour_validator = RegexValidator(r"^#[0-9a-fA-F]{6}$", "Use a colour like #1f77b4.")


class Campaign(models.Model):
    name = models.CharField(max_length=120, unique=True)
    current_round = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    seed = models.BigIntegerField(default=0, help_text="Feeds each round's RNG (R-0.3).")
    round_length_hours = models.PositiveIntegerField(
        default=72, validators=[MinValueValidator(1)], help_text="Deadline length of a round."
    )
    map_cols = models.PositiveSmallIntegerField(
        "map columns",
        null=True,
        blank=True,
        validators=COORD,
        help_text="Map bounds (contracts §1 map.size); empty: the bounding box of its hexes. "
        "A sector import sets them (32 × 40 per sector).",
    )
    map_rows = models.PositiveSmallIntegerField(
        "map rows", null=True, blank=True, validators=COORD, help_text="See map columns."
    )
    design_tp = models.PositiveIntegerField(
        "TP per design",
        default=0,
        help_text="TP a power pays to register a design (R-10.0; 0: free).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(current_round__gte=1), name="campaign_round_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def map_bounds(self) -> tuple[int, int] | None:
        """(columns, rows) of the map (contracts §1 map.size): the campaign's own bounds, else
        the bounding box of its listed hexes (one query), else None for an empty map."""
        explicit = (self.map_cols, self.map_rows) if self.map_cols and self.map_rows else None
        if explicit:
            return explicit
        # rules.map_bounds' bounding box from 0101, as one aggregate (issue 13: not a row per hex)
        box = self.hexes.aggregate(cols=models.Max("col"), rows=models.Max("row"))
        return (box["cols"], box["rows"]) if box["cols"] is not None else None

    def clean(self) -> None:
        super().clean()
        if (self.map_cols is None) != (self.map_rows is None):
            raise ValidationError("Give both map columns and map rows, or neither.")


class Power(CampaignScoped):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="powers")
    key = models.CharField(max_length=64, validators=[key_validator])
    name = models.CharField(max_length=120)
    colour = models.CharField(max_length=7, default="#1f77b4", validators=[colour_validator])
    gal = models.BigIntegerField(default=0, help_text="Gal bank (R-1.1).")
    tp = models.BigIntegerField(default=0, help_text="Tech point bank (R-1.1).")
    un_member = models.BooleanField(default=True, help_text="Seat on the UN Monetary Committee.")

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="power_unique_key",
                violation_error_message="A power with this key already exists in the campaign.",
            ),
            scoped_unique_id("power"),
            *non_negative("power", "gal", "tp"),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(CampaignScoped):
    """A user plays one power in a campaign; a user may play in several campaigns."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="memberships")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "user"],
                name="membership_one_power_per_campaign",
                violation_error_message="This user already plays a power in this campaign.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} plays {self.power}"


def invitation_token() -> str:
    return secrets.token_urlsafe(32)


def invitation_expiry() -> datetime:
    return timezone.now() + timedelta(days=settings.FTCAMP_INVITE_DAYS)


class Invitation(CampaignScoped):
    """The organiser invites a player to a power by email (issue 18): the link holds ``token``,
    good once and until ``expires_at``; following it creates an account (or logs in) and the
    ``Membership``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True, default=invitation_token, editable=False)
    expires_at = models.DateTimeField(default=invitation_expiry)
    sent_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "power", "-created_at"]

    def __str__(self) -> str:
        return f"{self.email} invited to play {self.power}"
