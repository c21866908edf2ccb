"""Rounds of a campaign. Order sheets, the ledger and resolution records join them later."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from powers.models import Campaign


class RoundStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESOLVING = "resolving", "Resolving"
    RESOLVED = "resolved", "Resolved"
    FAILED = "failed", "Failed"


class Round(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.OPEN)
    paused = models.BooleanField(default=False)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    deadline = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text="Resolution claimed at.")
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "number"],
                name="round_unique_number",
                violation_error_message="This campaign already has a round with that number.",
            ),
            # Reliability R4: a campaign has at most one live round.
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(status__in=["open", "resolving"]),
                name="round_one_live_per_campaign",
                violation_error_message="This campaign already has an open round.",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} round {self.number} ({self.get_status_display()})"
