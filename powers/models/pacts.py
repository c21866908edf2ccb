"""Battle records, loans and transfers between powers (R-10.5, R-10.5a, R-10.6, Support 1.6):
agreements about craft. Only the settled ones are round state (``economy.snapshot.pacts``):
confirmed battle records not yet applied, accepted loans and transfers; proposals, declines and
what has been applied, ended or made are history."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q

from powers.db import CampaignScoped, hex_code, key_validator, scoped_unique_id

from .base import COORD, coord_checks
from .campaign import Campaign, Power


class BattleRecord(CampaignScoped):
    """R-10.6: a battle fought on the tabletop, entered by one power in it. It takes effect
    (``confirmed``) once every other power in it confirms, or the admin confirms it; the next
    resolution applies it and it is ``applied`` (or ``unapplied``, whole, when the fleet changed
    under it). One still awaiting confirmation when the round resolves has ``expired``."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Awaiting confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        APPLIED = "applied", "Applied"
        # never applied (R-10.6, issue 29): the fleet had changed under it at the resolution,
        # nobody had confirmed it by then, its entering power withdrew it, the organiser voided it
        UNAPPLIED = "unapplied", "Not applied: the fleet had changed"
        EXPIRED = "expired", "Not confirmed before the round resolved"
        WITHDRAWN = "withdrawn", "Withdrawn"
        VOID = "void", "Voided by the organiser"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    key = models.CharField(max_length=64, validators=[key_validator])
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)
    entered_by = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    created_round = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="battlerecord_unique_key",
                violation_error_message="A battle record with this key already exists.",
            ),
            scoped_unique_id("battlerecord"),
            *coord_checks("battlerecord"),
        ]

    def __str__(self) -> str:
        return f"battle {self.key} at {self.hex}"

    @property
    def hex(self) -> str:
        return hex_code(self.col, self.row)


class BattleParty(models.Model):
    """A power in a battle record, in listed order, and its answer to it (R-10.6)."""

    class Answer(models.TextChoices):
        PENDING = "pending", "Pending"
        CONFIRMED = "confirmed", "Confirmed"
        DECLINED = "declined", "Declined"

    record = models.ForeignKey(BattleRecord, on_delete=models.CASCADE, related_name="parties")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    answer = models.CharField(max_length=10, choices=Answer.choices, default=Answer.PENDING)
    reason = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        verbose_name_plural = "battle parties"
        ordering = ["record", "position"]
        constraints = [
            models.UniqueConstraint(fields=["record", "power"], name="battleparty_once"),
            models.UniqueConstraint(fields=["record", "position"], name="battleparty_position"),
        ]

    def __str__(self) -> str:
        return f"{self.power} in {self.record}"


class BattleCraft(models.Model):
    """R-10.6: what the battle did to one craft. ``craft_key`` stays readable once the craft
    is gone; ``power`` is its owner when the battle was fought. ``damage``: the systems' state
    at the battle's end is given (``systems_destroyed`` / ``systems_disabled``, units per system
    id, earlier damage included)."""

    record = models.ForeignKey(BattleRecord, on_delete=models.CASCADE, related_name="craft")
    position = models.PositiveSmallIntegerField(default=0)
    craft_key = models.CharField("craft", max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    destroyed = models.BooleanField(default=False)
    damage = models.BooleanField(default=False)
    systems_destroyed = models.JSONField(default=dict, blank=True)
    systems_disabled = models.JSONField(default=dict, blank=True)
    cf_lost = models.PositiveIntegerField("CF lost", default=0)
    captured_by = models.ForeignKey(
        Power, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    into = models.CharField(
        max_length=64, blank=True, default="", help_text="The captor's group or static."
    )

    class Meta:
        verbose_name_plural = "battle craft"
        ordering = ["record", "position"]
        constraints = [
            models.UniqueConstraint(fields=["record", "craft_key"], name="battlecraft_once"),
            models.UniqueConstraint(fields=["record", "position"], name="battlecraft_position"),
            models.CheckConstraint(
                condition=Q(captured_by__isnull=True) | Q(destroyed=False),
                name="battlecraft_captured_not_destroyed",
                violation_error_message="A destroyed craft cannot be captured.",
            ),
        ]

    def __str__(self) -> str:
        return self.craft_key


class PactStatus(models.TextChoices):
    """Loans and transfers as agreements between two powers (issue 15)."""

    PROPOSED = "proposed", "Proposed"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    WITHDRAWN = "withdrawn", "Withdrawn"
    DONE = "done", "Done"  # a loan ended (or failed), a transfer made (or failed)


class Loan(CampaignScoped):
    """Support 1.6.1, R-10.5a: ``owner`` lends ``groups`` (group keys) to ``borrower`` until the
    end of the Support Phase of round ``last``; ``active`` once it has taken effect."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="loans")
    key = models.CharField(max_length=64, validators=[key_validator])
    owner = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="loans_made")
    borrower = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="loans_taken")
    groups = models.JSONField(default=list, help_text="Group keys lent.")
    last = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    active = models.BooleanField(default=False)
    # R-10.5a: a loan runs on only when both ask for the same new last round
    owner_extends_to = models.PositiveIntegerField(null=True, blank=True)
    borrower_extends_to = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=PactStatus.choices, default="proposed")
    created_round = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="loan_unique_key"),
            scoped_unique_id("loan"),
            models.CheckConstraint(
                condition=~Q(owner=models.F("borrower")), name="loan_between_two_powers"
            ),
        ]

    def __str__(self) -> str:
        return self.key


class Transfer(CampaignScoped):
    """Support 1.6.2, R-10.5a: ``owner`` gives ``carriers`` (group or static keys) to
    ``receiver`` for good; the crew returns as PL to ``crew_to`` (a system key; empty: the
    owner's nearest)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="transfers")
    key = models.CharField(max_length=64, validators=[key_validator])
    owner = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="transfers_made")
    receiver = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="transfers_taken")
    carriers = models.JSONField(default=list, help_text="Group or static keys given.")
    crew_to = models.CharField(max_length=64, blank=True, default="")
    status = models.CharField(max_length=10, choices=PactStatus.choices, default="proposed")
    created_round = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="transfer_unique_key"),
            scoped_unique_id("transfer"),
            models.CheckConstraint(
                condition=~Q(owner=models.F("receiver")), name="transfer_between_two_powers"
            ),
        ]

    def __str__(self) -> str:
        return self.key


__all__ = ["BattleCraft", "BattleParty", "BattleRecord", "Loan", "PactStatus", "Transfer"]
