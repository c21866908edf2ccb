"""Rounds of a campaign. Order sheets, the ledger and resolution records join them later."""

from __future__ import annotations

from django.conf import settings
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
    # Bumped in the transaction of every write to a table of the campaign's state while the
    # round is live (PostgreSQL triggers, migration 0004): the key of the parsed state that
    # the projected statement reuses (economy.snapshot.round_state, docs/decisions.md).
    state_version = models.PositiveIntegerField(default=0, editable=False)

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


class SheetStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"


class OrderSheet(models.Model):
    """A power's orders for one round; private to that power's players."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sheets")
    power = models.ForeignKey("powers.Power", on_delete=models.CASCADE, related_name="sheets")
    status = models.CharField(max_length=10, choices=SheetStatus.choices, default="draft")
    submitted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "power"], name="ordersheet_one_per_power")
        ]

    def __str__(self) -> str:
        return f"{self.power} orders for round {self.round.number}"


class Order(models.Model):
    """One order as the engine reads it (contracts §1 order table), at a fixed position."""

    sheet = models.ForeignKey(OrderSheet, on_delete=models.CASCADE, related_name="orders")
    position = models.PositiveIntegerField()
    payload = models.JSONField(help_text="The order object: {'type': ..., fields...}.")
    error = models.TextField(blank=True, default="", help_text="Validation error at entry.")
    warning = models.TextField(
        blank=True,
        default="",
        help_text="An amount beyond what the power holds at entry (issue 30): never a refusal.",
    )

    class Meta:
        ordering = ["sheet", "position"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "position"], name="order_unique_position")
        ]

    def __str__(self) -> str:
        return f"order {self.position + 1}: {self.payload.get('type', '?')}"


class RoundRecord(models.Model):
    """What went into a resolution and what came out: enough to replay it exactly (R-0.3) and
    to roll the campaign back to the start of the round."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="record")
    state = models.JSONField(help_text="The contract state at the start of the round.")
    orders = models.JSONField(help_text="Each power's orders, as resolved.")
    seed = models.BigIntegerField()
    nmr = models.JSONField(default=list, help_text="Powers resolved with no orders.")
    rejected = models.JSONField(default=list)
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"record of {self.round}"


class LedgerLine(models.Model):
    """R-0.4: one change of one resource at one place, with the rule behind it."""

    campaign = models.ForeignKey("powers.Campaign", on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveIntegerField()
    seq = models.PositiveIntegerField(help_text="Order of the line within its round.")
    power = models.ForeignKey("powers.Power", on_delete=models.CASCADE, related_name="ledger")
    step = models.CharField(max_length=40)
    where = models.CharField(max_length=80)
    resource = models.CharField(max_length=10)
    amount = models.BigIntegerField()
    reason = models.CharField(max_length=300)
    rule = models.CharField(max_length=40)

    class Meta:
        ordering = ["round_number", "seq"]
        indexes = [models.Index(fields=["power", "round_number", "seq"])]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "round_number", "seq"], name="ledgerline_unique_seq"
            )
        ]

    def __str__(self) -> str:
        return f"{self.step} {self.where} {self.resource} {self.amount:+d}"


class AuditEvent(models.Model):
    """Append-only record of who did what to a round (reliability O1)."""

    campaign = models.ForeignKey("powers.Campaign", on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveIntegerField(null=True, blank=True)
    actor = models.CharField(
        max_length=150, blank=True, default="", help_text="Username or system."
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor or 'system'}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("Audit events are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("Audit events are append-only.")


class IdempotencyKey(models.Model):
    """The first answer to an API write sent with an ``Idempotency-Key`` header (issue 32): a
    retry with the same key by the same user gets it again and changes nothing; the same key
    with another request is refused. Kept ``FTCAMP_IDEMPOTENCY_HOURS`` (economy/idempotency.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    status = models.PositiveSmallIntegerField()
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotencykey_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"
