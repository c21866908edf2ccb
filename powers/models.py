"""Campaigns, the hex map, powers and their players, star systems, fleet groups and statics,
invading troops and command bubbles: the state of contracts §1 as database rows."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from economy.engine.codec import LEDGER_RESOURCES
from economy.engine.rules import max_loyalty
from economy.engine.state import CAPACITIES
from economy.engine.validate import hex_problem
from powers.db import CampaignScoped, hex_code, key_validator, scoped_unique_id

COORD = [MinValueValidator(1), MaxValueValidator(99)]


def coord_checks(prefix: str, col: str = "col", row: str = "row") -> list[models.CheckConstraint]:
    """Map positions are 1-based column/row up to 99 × 99 (contracts §1)."""
    return [
        models.CheckConstraint(
            condition=Q(
                **{f"{col}__gte": 1, f"{col}__lte": 99, f"{row}__gte": 1, f"{row}__lte": 99}
            ),
            name=f"{prefix}_{col}_{row}_on_map",
            violation_error_message="Column and row must be between 01 and 99.",
        )
    ]


def non_negative(prefix: str, *fields: str) -> list[models.CheckConstraint]:
    """R-0.2: no stockpile or count is ever negative."""
    return [
        models.CheckConstraint(
            condition=Q(**{f"{f}__gte": 0}),
            name=f"{prefix}_{f}_non_negative",
            violation_error_message=f"{f.replace('_', ' ').capitalize()} cannot be negative.",
        )
        for f in fields
    ]


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


class HexType(models.TextChoices):
    SYSTEM = "system", "System"
    OUTER_SYSTEM = "outer_system", "Outer system"
    DEEP_SPACE = "deep_space", "Deep space"
    DUST_CLOUD = "dust_cloud", "Dust cloud"
    SPECIAL_INTEREST = "special_interest", "Area of special interest"


class MapHex(CampaignScoped):
    """A hex of the campaign map that is not plain deep space (unlisted hexes are, contracts §1)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="hexes")
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)
    hex_type = models.CharField(max_length=20, choices=HexType.choices, default=HexType.SYSTEM)

    class Meta:
        verbose_name = "map hex"
        verbose_name_plural = "map hexes"
        ordering = ["campaign", "col", "row"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "col", "row"],
                name="maphex_unique_position",
                violation_error_message="This campaign already has that hex.",
            ),
            scoped_unique_id("maphex"),
            *coord_checks("maphex"),
        ]

    @property
    def code(self) -> str:
        return hex_code(self.col, self.row)

    def __str__(self) -> str:
        return f"{self.code} ({self.get_hex_type_display()})"


colour_validator = RegexValidator(r"^#[0-9a-fA-F]{6}$", "Use a colour like #1f77b4.")


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


class Resource(models.TextChoices):
    ORE = "ore", "Ore"
    GAL = "gal", "Gal"
    BIO = "bio", "Bio"
    PL = "pl", "PL"


class ProjectResource(models.TextChoices):
    """Support §6.1: a planetary project shifts between Ore, Gal and Bio."""

    ORE = "ore", "Ore"
    GAL = "gal", "Gal"
    BIO = "bio", "Bio"


class SystemType(models.TextChoices):
    HOMEWORLD = "homeworld", "Homeworld"
    PRIMARY = "primary", "Primary"
    STANDARD = "standard", "Standard"
    BASIC = "basic", "Basic"


EHEX = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # Traveller extended hex (no I, no O)
#: The UWP's digits after the starport, in order (the tech level follows the dash).
UWP_DIGITS = ("size", "atmosphere", "hydrographics", "population", "government", "law")
#: A system's world statistics as stored: the UWP, bases, codes, zone, PBG and allegiance.
WORLD_STATISTICS = (
    "starport",
    *UWP_DIGITS,
    "tech_level",
    "bases",
    "trade_codes",
    "zone",
    "pbg",
    "allegiance",
)


def ehex(value: int | None) -> str:
    return "?" if value is None else EHEX[value]


def _uwp_digit(help_text: str) -> models.PositiveSmallIntegerField[int | None, int | None]:
    return models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(33)], help_text=help_text
    )


class StarSystem(CampaignScoped):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="systems")
    key = models.CharField(max_length=64, validators=[key_validator])
    name = models.CharField(max_length=120)
    hex = models.OneToOneField(MapHex, on_delete=models.PROTECT, related_name="system")
    system_type = models.CharField(
        "type", max_length=10, choices=SystemType.choices, default=SystemType.BASIC
    )
    holder = models.ForeignKey(
        Power, on_delete=models.SET_NULL, null=True, blank=True, related_name="systems"
    )
    loyalty = models.PositiveSmallIntegerField("LR", default=0)
    rate_ore = models.PositiveIntegerField("Ore rate", default=0)
    rate_gal = models.PositiveIntegerField("Gal rate", default=0)
    rate_bio = models.PositiveIntegerField("Bio rate", default=0)
    rate_pl = models.PositiveIntegerField("PL rate", default=0)
    stock_ore = models.BigIntegerField("Ore stock", default=0)
    stock_bio = models.BigIntegerField("Bio stock", default=0)
    stock_pl = models.BigIntegerField("PL stock", default=0)
    project_source = models.CharField(
        max_length=3, choices=ProjectResource.choices, blank=True, default=""
    )
    project_target = models.CharField(
        max_length=3, choices=ProjectResource.choices, blank=True, default=""
    )
    project_pct = models.PositiveSmallIntegerField(default=0, validators=[MaxValueValidator(75)])
    free_ep = models.PositiveIntegerField(default=0, help_text="Free EP allowance (R-7.4).")
    # World statistics, Traveller UWP form: Starport Size Atmo Hydro Pop Gov Law - TL.
    starport = models.CharField(max_length=1, blank=True, default="")
    size = _uwp_digit("Size digit")
    atmosphere = _uwp_digit("Atmosphere digit")
    hydrographics = _uwp_digit("Hydrographics digit")
    population = _uwp_digit("Population digit")
    government = _uwp_digit("Government digit")
    law = _uwp_digit("Law level digit")
    tech_level = _uwp_digit("Tech level")
    bases = models.CharField(max_length=12, blank=True, default="")
    trade_codes = models.CharField(max_length=200, blank=True, default="")
    zone = models.CharField(
        max_length=1, blank=True, default="", choices=[("", "Green"), ("A", "Amber"), ("R", "Red")]
    )
    pbg = models.CharField("PBG", max_length=3, blank=True, default="")
    allegiance = models.CharField(max_length=4, blank=True, default="")

    class Meta:
        verbose_name = "star system"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="starsystem_unique_key",
                violation_error_message="A system with this key already exists in the campaign.",
            ),
            scoped_unique_id("starsystem"),
            models.UniqueConstraint(
                fields=["holder"],
                condition=Q(system_type=SystemType.HOMEWORLD),
                name="starsystem_one_homeworld_per_power",
                violation_error_message="This power already has a homeworld (Resource §1.1).",
            ),
            models.CheckConstraint(
                condition=(  # the engine's rule, as a database backstop
                    Q(system_type=SystemType.HOMEWORLD, loyalty__lte=max_loyalty("homeworld"))
                    | Q(system_type=SystemType.PRIMARY, loyalty__lte=max_loyalty("primary"))
                    | Q(system_type=SystemType.STANDARD, loyalty__lte=max_loyalty("standard"))
                    | Q(system_type=SystemType.BASIC, loyalty__lte=max_loyalty("basic"))
                ),
                name="starsystem_loyalty_within_type_max",
                violation_error_message=(
                    "LR is above the maximum for this system type "
                    "(Homeworld 30, Primary 20, Standard 15, Basic 10; R-3.2)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(holder__isnull=False) | Q(loyalty=0),
                name="starsystem_neutral_has_no_loyalty",
                violation_error_message="A neutral system (no holder) has LR 0 (R-3.1).",
            ),
            models.CheckConstraint(
                condition=(
                    Q(project_source="", project_target="", project_pct=0)
                    | (
                        ~Q(project_source="")
                        & ~Q(project_target="")
                        & ~Q(project_source=models.F("project_target"))
                        & Q(project_pct__gte=1, project_pct__lte=75)
                    )
                ),
                name="starsystem_project_well_formed",
                violation_error_message=(
                    "A planetary project needs two different resources and 1–75% "
                    "(or none at all; Support §6)."
                ),
            ),
            *non_negative("starsystem", "stock_ore", "stock_bio", "stock_pl"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def max_loyalty(self) -> int:
        return max_loyalty(self.system_type)

    @property
    def uwp(self) -> str:
        """The world's statistics as a Traveller UWP string, e.g. ``A788899-C``."""
        digits = (
            self.size,
            self.atmosphere,
            self.hydrographics,
            self.population,
            self.government,
            self.law,
        )
        return (
            (self.starport or "?") + "".join(ehex(d) for d in digits) + "-" + ehex(self.tech_level)
        )

    def clean(self) -> None:
        super().clean()
        if self.hex_id is not None and self.hex.hex_type != HexType.SYSTEM:
            raise ValidationError({"hex": "A star system must sit on a hex of type 'system'."})


class GroupKind(models.TextChoices):
    STANDARD = "standard", "Standard"
    RESERVE = "reserve", "Reserve"
    PATROL = "patrol", "Patrol"
    CIVILIAN = "civilian", "Civilian"


class StandingOrder(models.TextChoices):
    MAINTAIN_ORBIT = "maintain_orbit", "Maintain Orbit"
    HOLD_BUILD = "hold_build", "Hold-Build"
    HOLD_REPAIR = "hold_repair", "Hold-Repair"
    HOLD_RESTOCK = "hold_restock", "Hold-Restock"
    HOLD_MAINTAIN = "hold_maintain", "Hold-Maintain"
    HOLD_RESEARCH = "hold_research", "Hold-Research"
    HOLD_PATROL = "hold_patrol", "Hold-Patrol"
    MOVE = "move", "Move"
    NONE = "none", "None"


class EngageStatus(models.TextChoices):
    NONE = "none", "None"
    ENGAGED = "engaged", "Engaged"
    TOOK_ENGAGE = "took_engage", "Took an engage"
    RETREATED = "retreated", "Retreated"
    STOOD_OFF = "stood_off", "Stood off"


class Positioned(CampaignScoped):
    """Something at a map position; any hex, listed on the map or deep space."""

    campaign: Campaign  # each kind's own foreign key
    col = models.PositiveSmallIntegerField(validators=COORD)
    row = models.PositiveSmallIntegerField(validators=COORD)

    class Meta:
        abstract = True

    @property
    def hex_code(self) -> str:
        return hex_code(self.col, self.row)

    def clean(self) -> None:
        super().clean()
        campaign = self.campaign if getattr(self, "campaign_id", None) else None
        if campaign and campaign.map_cols and campaign.map_rows and self.col and self.row:
            problem = hex_problem(self.hex_code, (campaign.map_cols, campaign.map_rows))
            if problem:
                raise ValidationError(problem[0].upper() + problem[1:] + ".")


class FleetGroup(Positioned):
    """A fleet group as its declarations for the round need it (R-2)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="groups")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="groups")
    kind = models.CharField(max_length=10, choices=GroupKind.choices, default=GroupKind.STANDARD)
    order = models.CharField(
        max_length=20, choices=StandingOrder.choices, default=StandingOrder.NONE
    )
    status = models.CharField(max_length=12, choices=EngageStatus.choices, default="none")
    points = models.PositiveIntegerField(default=0, help_text="Points of craft in the group.")
    ep = models.PositiveIntegerField("EP", default=0)
    troops = models.PositiveIntegerField(default=0)
    troop_space = models.PositiveIntegerField(default=0)
    diplomat = models.BooleanField(default=False)
    engages = models.JSONField(
        default=list, blank=True, help_text="Keys of the powers it engages this round (R-2a)."
    )
    defending = models.BooleanField(default=False, help_text="Only answers an attack (R-2a).")
    ep_storage = models.PositiveIntegerField(
        "EP storage",
        null=True,
        blank=True,
        help_text="Derived from its craft (R-7.4); empty for a group without craft: not limited.",
    )
    out_of_supply = models.BooleanField(
        default=False, help_text="Short of EP when the round started (R-7.4a)."
    )

    class Meta:
        verbose_name = "fleet group"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="fleetgroup_unique_key",
                violation_error_message="A group with this key already exists in the campaign.",
            ),
            scoped_unique_id("fleetgroup"),
            *coord_checks("fleetgroup"),
        ]

    def __str__(self) -> str:
        return self.key


class Static(Positioned):
    """A static (orbital installation) at a hex: a hub centre or node, PL storage, troops."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="statics")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="statics")
    civilian = models.BooleanField(default=True)
    passenger_space = models.PositiveIntegerField(default=0)
    passengers = models.PositiveIntegerField(default=0)
    troop_space = models.PositiveIntegerField(default=0)
    troops = models.PositiveIntegerField(default=0)
    ep = models.PositiveIntegerField(
        "EP", default=0, help_text="EP stored, for the craft in orbit and in deep space (R-7.4a)."
    )
    out_of_supply = models.BooleanField(
        default=False, help_text="Short of EP when the round started (R-7.4a)."
    )

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="static_unique_key",
                violation_error_message="A static with this key already exists in the campaign.",
            ),
            scoped_unique_id("static"),
            *coord_checks("static"),
        ]

    def __str__(self) -> str:
        return self.key


class Invasion(CampaignScoped):
    """Invading troops of one power landed on a system (R-3.4)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invasions")
    system = models.ForeignKey(StarSystem, on_delete=models.CASCADE, related_name="invasions")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="invasions")
    troops = models.PositiveIntegerField()

    class Meta:
        ordering = ["campaign", "system", "power"]
        constraints = [
            models.UniqueConstraint(
                fields=["system", "power"],
                name="invasion_one_per_invader",
                violation_error_message="This power already has troops on that system.",
            ),
            models.CheckConstraint(
                condition=Q(troops__gte=1),
                name="invasion_has_troops",
                violation_error_message="An invasion needs at least one troop.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.troops} troops of {self.power} on {self.system}"

    def clean(self) -> None:
        super().clean()
        if self.system_id and self.power_id and self.system.holder_id == self.power_id:
            raise ValidationError({"power": "A power cannot invade its own system."})


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


def _counts_problem(value: object, allowed: Iterable[str], what: str) -> str | None:
    """Why ``value`` is not a ``{name: count}`` object over ``allowed`` names, or None."""
    if not isinstance(value, dict):
        return f"Give an object of {what} -> count, e.g. {{}}."
    names = set(allowed)
    for name, n in value.items():
        if name not in names:
            return f"{name!r} is not a {what} here."
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            return f"{name}: the count must be a whole number of at least 0."
    return None


class Consumable(CampaignScoped):
    """R-10.1a: one kind of the campaign's consumables (fighters, drones, missiles, …)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="consumables")
    kind = models.CharField(
        max_length=24,
        validators=[RegexValidator(r"^[a-z][a-z0-9_-]*$", "Use lower-case letters and digits.")],
        help_text="e.g. fighter, drone, missile",
    )
    mass = models.PositiveIntegerField(help_text="Mass of one (workshop space, cargo).")
    ore = models.PositiveIntegerField("Ore cost", help_text="Ore to make one (Support §1.4).")

    class Meta:
        ordering = ["campaign", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kind"],
                name="consumable_unique_kind",
                violation_error_message="The catalogue already has this kind.",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=LEDGER_RESOURCES),
                name="consumable_kind_not_a_resource",
                violation_error_message="A consumable cannot take a resource's name (R-10.1a).",
            ),
        ]

    def __str__(self) -> str:
        return self.kind


CATALOGUED = "consumable in the catalogue"


def catalogue_kinds(campaign_id: int) -> list[str]:
    """The kinds of a campaign's consumables catalogue (R-10.1a)."""
    return list(Consumable.objects.filter(campaign_id=campaign_id).values_list("kind", flat=True))


class GroupLimit(CampaignScoped):
    """R-2b: the campaign's limits for one group kind (empty: no limit)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="group_limits")
    kind = models.CharField(max_length=10, choices=GroupKind.choices)
    points = models.PositiveIntegerField(null=True, blank=True, help_text="Most points a group.")
    officers = models.PositiveIntegerField(
        null=True, blank=True, help_text="Most officers' value (Support §5.1.3)."
    )

    class Meta:
        ordering = ["campaign", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kind"],
                name="grouplimit_unique_kind",
                violation_error_message="This campaign already limits that group kind.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} groups"


class CraftClass(models.TextChoices):
    MILITARY = "military", "Military"
    CIVILIAN = "civilian", "Civilian"


class Mobility(models.TextChoices):
    MOBILE = "mobile", "Mobile"
    STATIC = "static", "Static"


class Design(CampaignScoped):
    """R-10.0: a power's registered design; its systems are ``DesignSystem`` rows."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="designs")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="designs")
    name = models.CharField(max_length=60)
    craft_class = models.CharField("class", max_length=10, choices=CraftClass.choices)
    mobility = models.CharField(max_length=6, choices=Mobility.choices)
    mass = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    npv = models.PositiveIntegerField(
        "NPV", validators=[MinValueValidator(1)], help_text="At least its systems' point cost."
    )
    crew = models.PositiveIntegerField("CF needed", default=0)
    loadout = models.JSONField(
        default=dict, blank=True, help_text="Consumables a craft is built with: {kind: count}."
    )
    completed = models.BooleanField(
        default=False, help_text="A craft of it has been finished (no more +10 %, R-10.1)."
    )

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="design_unique_key",
                violation_error_message="A design with this key already exists in the campaign.",
            ),
            scoped_unique_id("design"),
            models.CheckConstraint(
                condition=Q(mass__gte=1, npv__gte=1),
                name="design_mass_and_npv_positive",
                violation_error_message="Mass and NPV are at least 1.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        if self.campaign_id is None:
            return
        problem = _counts_problem(self.loadout, catalogue_kinds(self.campaign_id), CATALOGUED)
        if problem:
            raise ValidationError({"loadout": problem})


class DesignSystem(models.Model):
    """R-10.0: ``count`` units of one system of a design, each costing ``points`` and giving
    the capacities below (per unit). Hull boxes are a system with a point cost per box."""

    design = models.ForeignKey(Design, on_delete=models.CASCADE, related_name="systems")
    position = models.PositiveSmallIntegerField(default=0)
    key = models.CharField("id", max_length=32, validators=[key_validator])
    name = models.CharField(max_length=60)
    points = models.PositiveIntegerField(help_text="Point cost of one unit.")
    count = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    construction = models.PositiveIntegerField(default=0, help_text="Ore converted per round.")
    repair = models.PositiveIntegerField(default=0, help_text="Ore of repairs per round.")
    workshop = models.PositiveIntegerField(default=0, help_text="Workshop space (mass).")
    passenger = models.PositiveIntegerField(default=0)
    troop = models.PositiveIntegerField(default=0)
    cargo = models.PositiveIntegerField(default=0)
    research = models.PositiveIntegerField(default=0)
    ep_storage = models.PositiveIntegerField("EP storage", default=0)
    flag_bridge = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "design system"
        ordering = ["design", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["design", "key"],
                name="designsystem_unique_key",
                violation_error_message="The design already has a system with this id.",
            ),
            models.CheckConstraint(
                condition=Q(count__gte=1),
                name="designsystem_count_positive",
                violation_error_message="A system has at least one unit.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ×{self.count}" if self.count != 1 else self.name

    def capacity(self) -> dict[str, int]:
        """R-10.0: what one unit gives, by the engine's capacity names (``CAPACITIES``)."""
        return {kind: n for kind in CAPACITIES if (n := getattr(self, kind))}


class Craft(CampaignScoped):
    """R-10.0: one built ship or base, in exactly one of a group (a mobile design), a static (a
    static design) or orbit with a builder craft (Support §1.1), whose hex it shares."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="craft")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="craft")
    design = models.ForeignKey(Design, on_delete=models.PROTECT, related_name="craft")
    group = models.ForeignKey(
        FleetGroup, on_delete=models.PROTECT, null=True, blank=True, related_name="craft"
    )
    static = models.ForeignKey(
        Static, on_delete=models.PROTECT, null=True, blank=True, related_name="craft"
    )
    orbit = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="orbiting",
        help_text="The builder it is in orbit with (it moves with it).",
    )
    crew = models.PositiveIntegerField("CF", default=0, help_text="Crew factors aboard.")
    fatigue = models.PositiveIntegerField(default=0, help_text="% (R-10.2).")
    destroyed = models.JSONField(default=dict, blank=True, help_text="{system id: units}")
    disabled = models.JSONField(default=dict, blank=True, help_text="{system id: units}")
    consumables = models.JSONField(default=dict, blank=True, help_text="Carried: {kind: count}")
    workshop = models.JSONField(
        default=dict, blank=True, help_text="Stored in its workshop space: {kind: count}"
    )
    captured = models.BooleanField(default=False)
    gantry_col = models.PositiveSmallIntegerField(null=True, blank=True, validators=COORD)
    gantry_row = models.PositiveSmallIntegerField(null=True, blank=True, validators=COORD)

    class Meta:
        verbose_name_plural = "craft"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="craft_unique_key",
                violation_error_message="A craft with this key already exists in the campaign.",
            ),
            scoped_unique_id("craft"),
            models.CheckConstraint(
                condition=(
                    Q(group__isnull=False, static__isnull=True, orbit__isnull=True)
                    | Q(group__isnull=True, static__isnull=False, orbit__isnull=True)
                    | Q(group__isnull=True, static__isnull=True, orbit__isnull=False)
                ),
                name="craft_in_one_place",
                violation_error_message=(
                    "A craft is in exactly one of a group, a static, or orbit with a builder."
                ),
            ),
            models.CheckConstraint(
                condition=Q(gantry_col__isnull=True, gantry_row__isnull=True)
                | Q(gantry_col__gte=1, gantry_col__lte=99, gantry_row__gte=1, gantry_row__lte=99),
                name="craft_gantry_on_map",
                violation_error_message="Give both the gantry's column and row, or neither.",
            ),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def gantry(self) -> str | None:
        return hex_code(self.gantry_col, self.gantry_row) or None

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        design = self.design if self.design_id else None
        if design is not None and self.power_id and design.power_id != self.power_id:
            errors["design"] = "A craft is of one of its own power's designs."
        places = [f for f in ("group", "static", "orbit") if getattr(self, f"{f}_id")]
        if len(places) != 1:
            errors["group"] = "Put it in exactly one of a group, a static, or orbit with a builder."
        for place, mobility in (("group", Mobility.MOBILE), ("static", Mobility.STATIC)):
            carrier = getattr(self, place) if getattr(self, f"{place}_id") else None
            if carrier is None:
                continue
            if carrier.power_id != self.power_id:
                errors[place] = f"That {place} belongs to another power."
            elif design is not None and design.mobility != mobility:
                errors[place] = f"A {design.mobility} design cannot be in a {place}."
        if self.orbit_id:
            builder = self.orbit
            if builder is None or builder.pk == self.pk or builder.power_id != self.power_id:
                errors["orbit"] = "Orbit a builder craft of the same power."
            elif builder.orbit_id or not builder.design.systems.filter(construction__gt=0).exists():
                errors["orbit"] = "Orbit a builder: a craft with construction, not in orbit."
        if (self.gantry_col is None) != (self.gantry_row is None):
            errors["gantry_row"] = "Give both the gantry's column and row, or neither."
        if design is not None:
            units = dict(design.systems.values_list("key", "count"))
            for name in ("destroyed", "disabled"):
                problem = _counts_problem(getattr(self, name), units, "system of its design")
                if problem:
                    errors[name] = problem
            if not errors.get("destroyed") and not errors.get("disabled"):
                for key, count in units.items():
                    if self.destroyed.get(key, 0) + self.disabled.get(key, 0) > count:
                        errors["destroyed"] = f"{key}: more units damaged than its {count}."
        if self.campaign_id is not None:
            kinds = catalogue_kinds(self.campaign_id)
            for name in ("consumables", "workshop"):
                problem = _counts_problem(getattr(self, name), kinds, CATALOGUED)
                if problem:
                    errors[name] = problem
        if errors:
            raise ValidationError(errors)


class WorkKind(models.TextChoices):
    BUILD = "build", "Build"
    UNBUILD = "unbuild", "Unbuild"


class Build(CampaignScoped):
    """R-10.1, R-10.3, R-10.7: work in progress at its builders (``BuildBuilder`` rows, in
    order). A build holds the Ore ``paid`` so far (a stockpile of its power, ledger
    ``build:<key>``) until it reaches ``cost``; the finished craft takes its key. An unbuild
    of ``craft`` has ``worked`` through ``cost`` (the NPV) at its builder's rating."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="builds")
    key = models.CharField(max_length=64, validators=[key_validator])
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="builds")
    kind = models.CharField(max_length=7, choices=WorkKind.choices, default=WorkKind.BUILD)
    design = models.ForeignKey(Design, on_delete=models.PROTECT, related_name="builds")
    craft = models.ForeignKey(
        Craft,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="unbuilds",
        help_text="The craft being unbuilt (unbuilds only).",
    )
    builders = models.ManyToManyField(Craft, through="BuildBuilder", related_name="work")
    inside = models.BooleanField(default=False, help_text="In its builder's workshop space.")
    col = models.PositiveSmallIntegerField(null=True, blank=True, validators=COORD)
    row = models.PositiveSmallIntegerField(null=True, blank=True, validators=COORD)
    cost = models.BigIntegerField(validators=[MinValueValidator(1)], help_text="Fixed at start.")
    surcharge = models.BigIntegerField(default=0, help_text="+10 % of a new design (R-10.1).")
    started = models.PositiveIntegerField(default=1, validators=[MinValueValidator(1)])
    paid = models.BigIntegerField("Ore paid", default=0)
    worked = models.BigIntegerField(default=0, help_text="NPV unbuilt so far (unbuilds).")

    class Meta:
        verbose_name = "build in progress"
        verbose_name_plural = "builds in progress"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="build_unique_key",
                violation_error_message="A build with this key already exists in the campaign.",
            ),
            *non_negative("build", "surcharge", "paid", "worked"),
            models.CheckConstraint(
                condition=Q(paid__lt=models.F("cost"), worked__lt=models.F("cost")),
                name="build_still_in_progress",
                violation_error_message="Work done in full is no longer in progress.",
            ),
            models.CheckConstraint(
                condition=Q(kind=WorkKind.BUILD, craft__isnull=True)
                | Q(kind=WorkKind.UNBUILD, craft__isnull=False),
                name="build_unbuild_names_its_craft",
                violation_error_message="An unbuild names its craft; a build names none.",
            ),
            models.CheckConstraint(
                condition=Q(kind=WorkKind.BUILD, inside=False, col__gte=1, row__gte=1)
                | (Q(col__isnull=True, row__isnull=True) & (Q(inside=True) | Q(kind="unbuild"))),
                name="build_external_has_a_hex",
                violation_error_message="An external build has a hex; an inside one has none.",
            ),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def hex_code(self) -> str | None:
        return hex_code(self.col, self.row) or None

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        if self.design_id and self.power_id and self.design.power_id != self.power_id:
            errors["design"] = "Build one of its own power's designs."
        if self.kind == WorkKind.UNBUILD:
            if not self.craft_id:
                errors["craft"] = "Name the craft being unbuilt."
            elif self.craft is not None and self.craft.power_id != self.power_id:
                errors["craft"] = "Unbuild one of its own power's craft."
            elif self.craft is not None and self.design_id != self.craft.design_id:
                errors["design"] = "An unbuild's design is its craft's."
        elif self.craft_id:
            errors["craft"] = "Only an unbuild names a craft."
        external = self.kind == WorkKind.BUILD and not self.inside
        if external and (self.col is None or self.row is None):
            errors["col"] = "An external build stands at a hex: give its column and row."
        if not external and (self.col is not None or self.row is not None):
            errors["col"] = "Only an external build has a hex."
        if self.cost is not None and (self.paid >= self.cost or self.worked >= self.cost):
            errors["cost"] = "Work done in full is no longer in progress."
        if errors:
            raise ValidationError(errors)


class BuildBuilder(models.Model):
    """One of a build's builders, in listed order (R-10.1a: ratings filled in this order)."""

    build = models.ForeignKey(Build, on_delete=models.CASCADE, related_name="workers")
    craft = models.ForeignKey(Craft, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["build", "position"]
        constraints = [
            models.UniqueConstraint(fields=["build", "craft"], name="buildbuilder_once"),
            models.UniqueConstraint(fields=["build", "position"], name="buildbuilder_position"),
        ]

    def __str__(self) -> str:
        return str(self.craft)

    def clean(self) -> None:
        super().clean()
        if not (self.build_id and self.craft_id):
            return
        if self.craft.power_id != self.build.power_id:
            raise ValidationError({"craft": "A builder of the build's own power."})
        if not self.craft.design.systems.filter(construction__gt=0).exists():
            raise ValidationError({"craft": "A builder has a construction system."})
