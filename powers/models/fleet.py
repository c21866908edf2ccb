"""The fleet (R-2, R-7, R-10): fleet groups and statics on the map, the consumables catalogue and
group limits, designs and their systems, craft, and work in progress at builders."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q

from economy.engine.codec import LEDGER_RESOURCES
from economy.engine.state import CAPACITIES
from economy.engine.validate import hex_problem
from powers.db import CampaignScoped, hex_code, key_validator, scoped_unique_id

from .base import COORD, coord_checks, non_negative
from .campaign import Campaign, Power


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
    studied_from = models.CharField(
        max_length=64, blank=True, help_text="Support 1.6.3: the other power's design it copies."
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
    unready = models.JSONField(
        default=dict,
        blank=True,
        help_text="Support 2.0: restocked while engaged, beginning the battle disabled "
        "{kind: count}",
    )
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
    REPAIR = "repair", "Repair"
    REBUILD = "rebuild", "Rebuild"
    REFIT = "refit", "Refit"  # Support 1.5


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
        help_text="The craft worked on (all work but builds).",
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
    systems = models.JSONField(
        default=dict, blank=True, help_text="Repairs, rebuilds: destroyed units restored."
    )
    fatigue = models.PositiveIntegerField(
        default=0, help_text="Rebuilds: the fatigue (%) it removes (R-10.2)."
    )

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
                | (~Q(kind=WorkKind.BUILD) & Q(craft__isnull=False)),
                name="build_work_names_its_craft",
                violation_error_message="Work on a craft names it; a build names none.",
            ),
            models.CheckConstraint(
                condition=Q(kind=WorkKind.BUILD, inside=False, col__gte=1, row__gte=1)
                | (Q(col__isnull=True, row__isnull=True) & (Q(inside=True) | ~Q(kind="build"))),
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
        if self.kind != WorkKind.BUILD:
            if not self.craft_id:
                errors["craft"] = "Name the craft worked on."
            elif self.craft is not None and self.craft.power_id != self.power_id:
                errors["craft"] = "Work on one of its own power's craft."
            elif (
                self.craft is not None
                and self.kind != WorkKind.REFIT  # a refit's design is the variant (Support 1.5)
                and self.design_id != self.craft.design_id
            ):
                errors["design"] = "This work's design is its craft's."
        elif self.craft_id:
            errors["craft"] = "A build names no craft."
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
