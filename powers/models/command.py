"""Command and intelligence (Support §4.3.2, §4.4, §5; R-8): officers, the posts of command
bubbles (their officers, outposts' sensors, patrols), diplomats, their missions, and the
campaign's Area of Special Interest with its chance. Secret to their power, like bubbles."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from economy.engine.command_state import MAX_GRADE, MISSION_KINDS
from powers.db import CampaignScoped, hex_code, key_validator, scoped_unique_id

from .base import COORD, coord_checks
from .campaign import Campaign, Power
from .fleet import Craft, FleetGroup
from .world import StarSystem


class CommandBubble(CampaignScoped):
    """A command bubble (Support §5.2): secret, never shown to other powers (R-8.3)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="bubbles")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="bubbles")
    hq_col = models.PositiveSmallIntegerField("HQ column", validators=COORD)
    hq_row = models.PositiveSmallIntegerField("HQ row", validators=COORD)
    radius = models.PositiveSmallIntegerField(default=1, validators=[MaxValueValidator(10)])

    class Meta:
        verbose_name = "command bubble"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="commandbubble_unique_key",
                violation_error_message="A bubble with this key already exists in the campaign.",
            ),
            *coord_checks("commandbubble", "hq_col", "hq_row"),
        ]

    @property
    def hq(self) -> str:
        return hex_code(self.hq_col, self.hq_row)

    def __str__(self) -> str:
        return self.key


class BubbleOutpost(models.Model):
    bubble = models.ForeignKey(CommandBubble, on_delete=models.CASCADE, related_name="outposts")
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)
    radius = models.PositiveSmallIntegerField(default=1, validators=[MaxValueValidator(10)])

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bubble", "col", "row"], name="outpost_unique_hex"),
            *coord_checks("outpost"),
        ]

    def __str__(self) -> str:
        return hex_code(self.col, self.row)


class BubbleSensor(models.Model):
    bubble = models.ForeignKey(CommandBubble, on_delete=models.CASCADE, related_name="sensors")
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bubble", "col", "row"], name="sensor_unique_hex"),
            *coord_checks("sensor"),
        ]

    def __str__(self) -> str:
        return hex_code(self.col, self.row)


# --- fleets: the consumables catalogue, designs, craft and work in progress (R-10, issue 14) ---


def _unique_key(name: str) -> models.UniqueConstraint:
    return models.UniqueConstraint(fields=["campaign", "key"], name=f"{name}_unique_key")


class Officer(CampaignScoped):
    """Support §5.1: aboard a craft, commanding a group, posted (``PostOfficer``) or in reserve;
    ``penalties`` are R-8.2's demotions by choice, ``[{"rolls": -n, "until": round}]``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="officers")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="officers")
    name = models.CharField(max_length=100)
    rank = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    grade = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(MAX_GRADE)]
    )
    craft = models.ForeignKey(
        Craft, on_delete=models.SET_NULL, null=True, blank=True, related_name="officers"
    )
    group = models.ForeignKey(
        FleetGroup, on_delete=models.SET_NULL, null=True, blank=True, related_name="officers"
    )
    commissioned = models.PositiveIntegerField(default=0, help_text="Round (R-10.7).")
    penalties = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            _unique_key("officer"),
            scoped_unique_id("officer"),
            models.CheckConstraint(
                condition=models.Q(craft__isnull=True) | models.Q(group__isnull=True),
                name="officer_craft_or_group",
                violation_error_message="An officer is aboard a craft or commands a group.",
            ),
        ]

    def __str__(self) -> str:
        return self.name or self.key


class PostOfficer(models.Model):
    """R-8.3a: the officer commanding a bubble's HQ (no ``outpost``) or one of its outposts."""

    bubble = models.ForeignKey(CommandBubble, on_delete=models.CASCADE, related_name="officers")
    outpost = models.ForeignKey(
        BubbleOutpost, on_delete=models.CASCADE, null=True, blank=True, related_name="officers"
    )
    officer = models.OneToOneField(Officer, on_delete=models.CASCADE, related_name="post")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bubble", "outpost"], name="postofficer_one_per_post"),
            models.UniqueConstraint(
                fields=["bubble"],
                condition=models.Q(outpost__isnull=True),
                name="postofficer_one_per_hq",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.officer} at {self.outpost or self.bubble}"


class PostPatrol(models.Model):
    """Support §5.2.4: a group on Hold-Patrol at a bubble's HQ (no ``outpost``) or outpost."""

    bubble = models.ForeignKey(CommandBubble, on_delete=models.CASCADE, related_name="patrols")
    outpost = models.ForeignKey(
        BubbleOutpost, on_delete=models.CASCADE, null=True, blank=True, related_name="patrols"
    )
    group = models.OneToOneField(FleetGroup, on_delete=models.CASCADE, related_name="patrol")

    def __str__(self) -> str:
        return f"{self.group} patrolling {self.outpost or self.bubble}"


class OutpostSensor(models.Model):
    """R-8.3: a sensor of an outpost (the HQ's are ``BubbleSensor``)."""

    outpost = models.ForeignKey(BubbleOutpost, on_delete=models.CASCADE, related_name="sensors")
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["outpost", "col", "row"], name="outpostsensor_hex"),
            *coord_checks("outpostsensor"),
        ]

    def __str__(self) -> str:
        return hex_code(self.col, self.row)


class Diplomat(CampaignScoped):
    """Support §4.4.1: a character aboard a craft."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="diplomats")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="diplomats")
    name = models.CharField(max_length=100)
    craft = models.ForeignKey(Craft, on_delete=models.CASCADE, related_name="diplomats")

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [_unique_key("diplomat"), scoped_unique_id("diplomat")]

    def __str__(self) -> str:
        return self.name or self.key


class Mission(CampaignScoped):
    """R-8.4: a declared diplomatic mission, what it spent (``{"gal"|"tp"|"pl": n}``), and the
    admin's outcome (R-8.4a, the codec's outcome object) once decided. ``diplomat`` is its
    key: the mission outlives a diplomat lost before the outcome."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="missions")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="missions")
    diplomat = models.CharField(max_length=64)
    target = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="missions_against")
    kind = models.CharField(
        max_length=20, choices=[(k, k.replace("_", " ")) for k in MISSION_KINDS]
    )
    declared = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    spent = models.JSONField(default=dict, blank=True)
    system = models.ForeignKey(
        StarSystem, on_delete=models.SET_NULL, null=True, blank=True, related_name="missions"
    )
    outcome = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [_unique_key("mission")]

    def __str__(self) -> str:
        return self.key


class CommandSettings(models.Model):
    """R-8.1a: the campaign's chance (%) of an Area of Special Interest each round, and the
    current one (its hex, the round announced, first and last active rounds)."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, related_name="command_settings"
    )
    special_interest_chance = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(100)]
    )
    interest_col = models.PositiveSmallIntegerField(null=True, blank=True, validators=COORD)
    interest_row = models.PositiveSmallIntegerField(null=True, blank=True, validators=COORD)
    interest_announced = models.PositiveIntegerField(default=0)
    interest_starts = models.PositiveIntegerField(default=0)
    interest_ends = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "command settings"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(special_interest_chance__lte=100), name="command_chance_pct"
            )
        ]

    def __str__(self) -> str:
        return f"command settings of {self.campaign}"
