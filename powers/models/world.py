"""The hex map and its star systems (contracts §1), and troops invading them (R-3.4)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q

from economy.engine.rules import max_loyalty
from powers.db import CampaignScoped, hex_code, key_validator, scoped_unique_id

from .base import COORD, coord_checks, non_negative
from .campaign import Campaign, Power


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
