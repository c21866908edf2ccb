"""A starting builder for a power (issue 30, item 7): without a builder a power cannot build at
all (R-10.1: work is done by a craft with construction), so the organiser may give it the
demo's orbital yard — a static at its homeworld with one "Orbital Yard" craft (construction 40
Ore a round, workshop 60) — from the campaign's admin page."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Model

from campaigns.checklist import builder_craft
from campaigns.demo import DESIGNS, template_design, template_systems
from ftcamp.errors import Refused
from powers.models import (
    Campaign,
    Craft,
    Design,
    DesignSystem,
    Power,
    StarSystem,
    Static,
    SystemType,
)

TEMPLATE = "yard"  # the demo's design, so a new campaign's yard is the one players know


class NoShipyard(Refused):
    """The power cannot be given a starting shipyard (no homeworld, or a builder already)."""


def _free_key(model: type[Model], campaign: Campaign, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``…: keys are unique in a campaign."""
    taken = set(
        model._default_manager.filter(campaign=campaign, key__startswith=base).values_list(
            "key", flat=True
        )
    )
    key, n = base, 1
    while key in taken:
        n += 1
        key = f"{base}-{n}"
    return key


def _yard_design(power: Power) -> Design:
    """The power's own copy of the demo's yard design (registered, completed: a starting
    design costs no TP and no +10 %), made once."""
    name, _cls, mobility, *_ = DESIGNS[TEMPLATE]
    mine = Design.objects.filter(power=power, name=name, mobility=mobility).first()
    if mine is not None and mine.systems.filter(construction__gt=0).exists():
        return mine
    key = _free_key(Design, power.campaign, f"{power.key}-{TEMPLATE}")
    design = template_design(power, key, TEMPLATE)
    design.save()
    DesignSystem.objects.bulk_create(template_systems(design, TEMPLATE))
    return design


@transaction.atomic
def give_shipyard(*, power: Power) -> Craft:
    """A static at ``power``'s homeworld holding one craft of the yard design: its builder.
    Refused (``NoShipyard``, nothing made) if it holds no homeworld or has a builder already."""
    power = Power.objects.select_for_update().select_related("campaign").get(pk=power.pk)
    if builder_craft().filter(power=power).exists():
        raise NoShipyard(f"{power.name} already has a builder.")
    home = (
        StarSystem.objects.filter(holder=power, system_type=SystemType.HOMEWORLD)
        .select_related("hex")
        .first()
    )
    if home is None:
        raise NoShipyard(
            f"{power.name} holds no homeworld: give it one first (Star systems: holder and type)."
        )
    design = _yard_design(power)
    campaign = power.campaign
    static = Static.objects.create(
        campaign=campaign,
        power=power,
        key=_free_key(Static, campaign, f"{power.key}-shipyard"),
        col=home.hex.col,
        row=home.hex.row,
        civilian=design.craft_class == "civilian",
    )
    return Craft.objects.create(
        campaign=campaign,
        power=power,
        key=_free_key(Craft, campaign, f"{power.key}-y1"),
        design=design,
        static=static,
        crew=design.crew,
    )
