"""Campaigns, the hex map, powers and their players, star systems, fleet groups and statics,
invading troops and command bubbles: the state of contracts §1 as database rows."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q

from economy.engine.rules import map_bounds, max_loyalty
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
        return map_bounds(None, (hex_code(c, r) for c, r in self.hexes.values_list("col", "row")))

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

    class Meta:
        verbose_name = "fleet group"
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="fleetgroup_unique_key",
                violation_error_message="A group with this key already exists in the campaign.",
            ),
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

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "key"],
                name="static_unique_key",
                violation_error_message="A static with this key already exists in the campaign.",
            ),
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
