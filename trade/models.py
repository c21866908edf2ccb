"""Trade hubs (nodes, links, pools), shipments in transit and the Common Market's edges."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Greatest, Least

from powers.db import CampaignScoped, hex_code, key_validator, scoped_unique_id
from powers.models import COORD, Campaign, Power, coord_checks, non_negative


class TradeHub(CampaignScoped):
    """A power's trade hub (Support §4.1): a centre, nodes and links, and one pool (R-5.7)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="hubs")
    key = models.CharField(max_length=64, validators=[key_validator])
    name = models.CharField(
        max_length=60, blank=True, default="", help_text="What its power calls it (private)."
    )
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="hubs")
    guild = models.BooleanField(default=False, help_text="Centre is a Guild member (R-5.3).")
    pool_ore = models.BigIntegerField("Ore pool", default=0)
    pool_bio = models.BigIntegerField("Bio pool", default=0)
    pool_pl = models.BigIntegerField("PL pool", default=0)
    lost = models.JSONField(
        default=list,
        blank=True,
        help_text="Hexes of members already lost and captured (R-4.6a).",
    )

    class Meta:
        verbose_name = "trade hub"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="tradehub_unique_key",
                violation_error_message="A hub with this key already exists in the campaign.",
            ),
            scoped_unique_id("tradehub"),
            *non_negative("tradehub", "pool_ore", "pool_bio", "pool_pl"),
        ]

    def __str__(self) -> str:
        return self.key


class HubNode(CampaignScoped):
    """A hex in a hub: its centre or one of its nodes. A hex is in at most one hub (Support
    §4.1.1), enforced by a campaign-wide unique position."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="hub_nodes")
    hub = models.ForeignKey(TradeHub, on_delete=models.CASCADE, related_name="nodes")
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)
    is_centre = models.BooleanField("centre", default=False)

    class Meta:
        verbose_name = "hub node"
        ordering = ["hub", "-is_centre", "col", "row"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "col", "row"],
                name="hubnode_one_hub_per_hex",
                violation_error_message=(
                    "This hex is already a node of a trade hub; a node belongs to one hub only "
                    "(Support §4.1.1)."
                ),
            ),
            models.UniqueConstraint(
                fields=["hub"],
                condition=Q(is_centre=True),
                name="hubnode_one_centre_per_hub",
                violation_error_message="A hub has one trade centre.",
            ),
            models.UniqueConstraint(fields=["hub", "id"], name="hubnode_hub_id_uniq"),
            *coord_checks("hubnode"),
        ]

    @property
    def code(self) -> str:
        return hex_code(self.col, self.row)

    def __str__(self) -> str:
        return f"{self.code}{' (centre)' if self.is_centre else ''}"


class HubLink(models.Model):
    """An unordered link between two hexes of the same hub. Both ends reference this hub's own
    nodes (a composite foreign key on PostgreSQL), so no link can join two hubs."""

    hub = models.ForeignKey(TradeHub, on_delete=models.CASCADE, related_name="links")
    a = models.ForeignKey(HubNode, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(HubNode, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = "hub link"
        constraints = [
            models.CheckConstraint(
                condition=~Q(a=models.F("b")),
                name="hublink_two_ends",
                violation_error_message="A link joins two different hexes.",
            ),
            models.UniqueConstraint(
                Least("a", "b"),
                Greatest("a", "b"),
                name="hublink_unique_pair",
                violation_error_message="These two hexes are already linked.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.a.code}–{self.b.code}"

    def clean(self) -> None:
        super().clean()
        for end in ("a", "b"):
            node = getattr(self, end) if getattr(self, f"{end}_id") else None
            if node is not None and self.hub_id is not None and node.hub_id != self.hub_id:
                raise ValidationError(
                    {end: "A link may only join hexes of its own hub (Support §4.1.1)."}
                )


class HubResource(models.TextChoices):
    ORE = "ore", "Ore"
    BIO = "bio", "Bio"
    PL = "pl", "PL"


class Shipment(CampaignScoped):
    """Goods in transit between guild hubs (Resource §3, §5.2–5.3; R-5.4, R-5.5)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="shipments")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(
        Power, on_delete=models.CASCADE, related_name="incoming", help_text="Receiving power."
    )
    sender = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="outgoing")
    from_hub = models.ForeignKey(
        TradeHub, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    to_hub = models.ForeignKey(
        TradeHub,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="incoming",
        help_text="Empty once the hub is gone: the shipment waits (R-5.4a).",
    )
    resource = models.CharField(max_length=3, choices=HubResource.choices)
    amount = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    arrives = models.PositiveIntegerField(help_text="Round of arrival (Resource §3).")
    waiting = models.BooleanField(default=False, help_text="Waiting for a new centre (R-5.4).")
    waiting_for = models.JSONField(
        default=list, blank=True, help_text="The old hub's centre and nodes (R-5.4a)."
    )

    class Meta:
        ordering = ["campaign", "arrives", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="shipment_unique_key",
                violation_error_message="A shipment with this key already exists.",
            ),
            models.CheckConstraint(
                condition=Q(amount__gte=1),
                name="shipment_amount_positive",
                violation_error_message="A shipment carries at least 1.",
            ),
        ]

    def __str__(self) -> str:
        return self.key

    def clean(self) -> None:
        super().clean()
        if (
            self.to_hub_id
            and self.power_id
            and self.to_hub
            and self.to_hub.power_id != self.power_id
        ):
            raise ValidationError({"to_hub": "The destination hub must be the receiver's."})
        if (
            self.from_hub_id
            and self.sender_id
            and self.from_hub
            and self.from_hub.power_id != self.sender_id
        ):
            raise ValidationError({"from_hub": "The sending hub must be the sender's."})


class MarketEdge(CampaignScoped):
    """One edge of the Common Market cycle Ore→Bio→Gal→Ore with its rate and tax (R-6.1)."""

    EDGES = [("ore>bio", "Ore → Bio"), ("bio>gal", "Bio → Gal"), ("gal>ore", "Gal → Ore")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="market")
    edge = models.CharField(max_length=7, choices=EDGES)
    rate = models.DecimalField(
        max_digits=12,
        decimal_places=4,
        default=Decimal("1.0000"),
        validators=[MinValueValidator(Decimal("0"))],
        help_text="Units received per unit sold (R-6.2: starts at 1).",
    )
    tax = models.DecimalField(
        max_digits=5,
        decimal_places=4,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("1"))],
        help_text="A fraction 0–1 taken from what is received (R-6.1).",
    )
    volume = models.BigIntegerField(
        default=0, help_text="Units sold along this edge since the last market report (R-6.3)."
    )

    class Meta:
        verbose_name = "market edge"
        ordering = ["campaign", "edge"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "edge"],
                name="marketedge_unique",
                violation_error_message="The campaign already has this market edge.",
            ),
            models.CheckConstraint(
                condition=Q(volume__gte=0),
                name="marketedge_volume_non_negative",
                violation_error_message="Volume cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(rate__gte=0),
                name="marketedge_rate_non_negative",
                violation_error_message="A rate cannot be negative.",
            ),
            models.CheckConstraint(
                condition=Q(tax__gte=0, tax__lte=1),
                name="marketedge_tax_fraction",
                violation_error_message="Tax is a fraction between 0 and 1.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_edge_display()} {self.rate} (tax {self.tax})"


class PowerTax(CampaignScoped):
    """A Common Market tax on one power's sales along one edge (R-6.1), replacing the edge's
    tax for that power."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="power_taxes")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="market_taxes")
    edge = models.CharField(max_length=7, choices=MarketEdge.EDGES)
    tax = models.DecimalField(
        max_digits=5,
        decimal_places=4,
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(Decimal("1"))],
    )

    class Meta:
        verbose_name = "power tax"
        constraints = [
            models.UniqueConstraint(
                fields=["power", "edge"],
                name="powertax_unique",
                violation_error_message="This power already has a tax on that edge.",
            ),
            models.CheckConstraint(
                condition=Q(tax__gte=0, tax__lte=1),
                name="powertax_fraction",
                violation_error_message="Tax is a fraction between 0 and 1.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.power}: {self.get_edge_display()} tax {self.tax}"


class RouteJob(models.Model):
    """A trade-route mapping run (seed 002), cached by the hash of its input: the same sector
    files (or campaign statistics) and settings give back the stored result at once."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    input_hash = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=300, help_text="What was mapped, for people.")
    inputs = models.JSONField(
        default=dict, help_text="Uploaded files {name, text, xml}, or a campaign id; variants."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(100)])
    message = models.TextField(blank=True, default="")
    summary = models.JSONField(default=dict, help_text="Worlds, pairs, legs by class, skipped.")
    result_json = models.TextField(blank=True, default="")
    result_svg = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="route_jobs",
        help_text="Who started it (uploads: the only one who may see it; all: the rate limit).",
    )
    private = models.BooleanField(
        default=False, help_text="An upload: shown and served to its owner only."
    )

    class Meta:
        verbose_name = "trade-route job"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="routejob_owner_recent")]

    def __str__(self) -> str:
        return f"{self.label} ({self.get_status_display()})"


# --- trade agreements (R-5.5) ---------------------------------------------------------------


class LegStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DISPATCHED = "dispatched", "Dispatched"
    FAILED = "failed", "Failed"


class Agreement(CampaignScoped):
    """A trade agreement between two powers (Resource §5.3, R-5.5).

    The proposer is the contract's ``a`` and sends leg A; the partner is ``b`` and sends leg B
    (one leg may be empty, amount 0). Each party names its own sending and receiving hubs
    privately. Only ``accepted`` agreements are part of the round state; proposals, counters and
    declines are history (``AgreementEvent``).
    """

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"  # by the party whose offer awaited an answer
        CLOSED = "closed", "Closed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="agreements")
    key = models.CharField(max_length=64, validators=[key_validator])
    proposer = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="agreements_made")
    partner = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="agreements_offered")
    awaiting = models.ForeignKey(
        Power,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="The party whose answer is awaited (after a counter, the other one).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    deposit_col = models.PositiveSmallIntegerField(validators=COORD)
    deposit_row = models.PositiveSmallIntegerField(validators=COORD)
    delivery = models.PositiveIntegerField(help_text="Round N the goods arrive (R-5.5).")
    a_resource = models.CharField(max_length=3, choices=HubResource.choices, blank=True)
    a_amount = models.PositiveIntegerField(default=0, help_text="What the proposer sends.")
    a_status = models.CharField(max_length=10, choices=LegStatus.choices, default="pending")
    a_shipment = models.CharField(max_length=64, blank=True, default="")
    a_note = models.CharField(max_length=300, blank=True, default="")
    b_resource = models.CharField(max_length=3, choices=HubResource.choices, blank=True)
    b_amount = models.PositiveIntegerField(default=0, help_text="What the partner sends.")
    b_status = models.CharField(max_length=10, choices=LegStatus.choices, default="pending")
    b_shipment = models.CharField(max_length=64, blank=True, default="")
    b_note = models.CharField(max_length=300, blank=True, default="")
    a_send_hub = models.ForeignKey(
        TradeHub, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    a_receive_hub = models.ForeignKey(
        TradeHub, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    b_send_hub = models.ForeignKey(
        TradeHub, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    b_receive_hub = models.ForeignKey(
        TradeHub, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_round = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "-created_at", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="agreement_unique_key",
                violation_error_message="An agreement with this key already exists.",
            ),
            models.CheckConstraint(
                condition=~Q(proposer=models.F("partner")),
                name="agreement_two_powers",
                violation_error_message="An agreement is between two different powers.",
            ),
            models.CheckConstraint(
                condition=Q(a_amount__gt=0) | Q(b_amount__gt=0),
                name="agreement_has_a_leg",
                violation_error_message="An agreement needs at least one leg.",
            ),
            *coord_checks("agreement", "deposit_col", "deposit_row"),
        ]

    @property
    def deposit(self) -> str:
        return hex_code(self.deposit_col, self.deposit_row)

    def party(self, power: Power) -> str:
        """``a`` for the proposer, ``b`` for the partner."""
        return "a" if power.pk == self.proposer_id else "b"

    def __str__(self) -> str:
        return f"{self.key}: {self.proposer} / {self.partner}"


class AgreementEvent(models.Model):
    """One step of an agreement's negotiation: propose, counter, accept, decline."""

    agreement = models.ForeignKey(Agreement, on_delete=models.CASCADE, related_name="history")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=10)
    terms = models.JSONField(default=dict, help_text="The terms as they stood after the step.")
    round_number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["agreement", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.agreement.key} {self.action} by {self.power}"


# --- the UN Monetary Committee (R-6.3, R-6.4) ------------------------------------------------


class Motion(CampaignScoped):
    """A motion before the UN Monetary Committee (R-6.4). A draft is private to its proposer;
    a submitted motion is voted on during its round and decided at the UN Meeting."""

    class Kind(models.TextChoices):
        RATE = "rate", "Set an exchange rate"
        TAX = "tax", "Set a tax"
        LIFT_TAX = "lift_tax", "Lift a tax"
        BAN = "ban", "Ban a power from the market"
        UNBAN = "unban", "Lift a market ban"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        SUBMITTED = "submitted", "Before the committee"
        PASSED = "passed", "Passed"
        FAILED = "failed", "Failed"

    EDGE_CHOICES = [*MarketEdge.EDGES, ("all", "Every edge")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="motions")
    key = models.CharField(max_length=64, validators=[key_validator])
    round_number = models.PositiveIntegerField(help_text="The round whose UN Meeting decides it.")
    proposer = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="motions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    edge = models.CharField(max_length=7, choices=EDGE_CHOICES, blank=True, default="")
    target = models.ForeignKey(
        Power, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    value = models.DecimalField(
        max_digits=12,
        decimal_places=4,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0"))],
        help_text="The rate, or the tax (0–1).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    yes = models.PositiveSmallIntegerField(default=0)
    no = models.PositiveSmallIntegerField(default=0)
    abstain = models.PositiveSmallIntegerField(default=0)
    reason = models.CharField(max_length=300, blank=True, default="")
    effect = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "-round_number", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="motion_unique_key",
                violation_error_message="A motion with this key already exists.",
            ),
            models.CheckConstraint(
                condition=Q(value__isnull=True) | Q(value__gte=0),
                name="motion_value_non_negative",
                violation_error_message="A rate or tax cannot be negative.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.get_kind_display()}"


class Vote(models.Model):
    """One member's vote on one motion (R-6.4); unique per (motion, member) — reliability R9."""

    class Choice(models.TextChoices):
        YES = "yes", "Yes"
        NO = "no", "No"
        ABSTAIN = "abstain", "Abstain"

    motion = models.ForeignKey(Motion, on_delete=models.CASCADE, related_name="votes")
    member = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="un_votes")
    choice = models.CharField(max_length=7, choices=Choice.choices)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["motion", "member"]
        constraints = [
            models.UniqueConstraint(
                fields=["motion", "member"],
                name="vote_one_per_member",
                violation_error_message="This member has already voted on the motion.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.choice} on {self.motion.key}"


class MarketBan(CampaignScoped):
    """A power banned from the Common Market by the UN (R-6.4)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="market_bans")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="market_bans")

    class Meta:
        verbose_name = "market ban"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "power"], name="marketban_unique")
        ]

    def __str__(self) -> str:
        return f"{self.power} banned"


class RateHistory(CampaignScoped):
    """The market of one edge in one resolved round, for the public chart (R-6.3): the rate
    and tax in force, the units sold that round, and at a report round the report's figures."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rate_history")
    round_number = models.PositiveIntegerField()
    edge = models.CharField(max_length=7, choices=MarketEdge.EDGES)
    rate = models.DecimalField(max_digits=12, decimal_places=4)
    tax = models.DecimalField(max_digits=5, decimal_places=4)
    volume = models.BigIntegerField(default=0, help_text="Units sold along the edge this round.")
    report = models.BooleanField(default=False, help_text="A Common Market Report round.")
    report_volume = models.BigIntegerField(null=True, blank=True)
    suggested = models.DecimalField(max_digits=12, decimal_places=4, null=True, blank=True)
    production = models.BigIntegerField(
        null=True, blank=True, help_text="Round production of the resource the edge buys."
    )

    class Meta:
        verbose_name_plural = "rate history"
        ordering = ["campaign", "round_number", "edge"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "round_number", "edge"], name="ratehistory_unique"
            ),
            models.CheckConstraint(
                condition=Q(volume__gte=0), name="ratehistory_volume_non_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round_number} {self.edge} {self.rate}"
