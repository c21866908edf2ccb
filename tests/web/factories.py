"""Campaigns of any size for web tests, built in a few bulk queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from campaigns import services
from powers.models import (
    Build,
    BuildBuilder,
    Campaign,
    Consumable,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    MapHex,
    Membership,
    Power,
    StarSystem,
    Static,
)
from trade.models import HubLink, HubNode, TradeHub

PASSWORD = "correct-horse-battery"


@dataclass
class World:
    campaign: Campaign
    powers: list[Power]
    users: list[User]
    stranger: User | None = None  # a user of no campaign, made when a test needs one


class ApiClient(Client):
    """A test client logged in to a campaign's API, with its root (and the campaign)."""

    base: str
    world: World


def make_user(username: str) -> User:
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def make_campaign(
    name: str = "Test campaign", *, n_powers: int = 2, systems_per_power: int = 3, hubs: bool = True
) -> World:
    """Powers p0..pN each with a player u-<name>-i, systems in their own columns, and one hub
    per power centred on its first system."""
    campaign = Campaign.objects.create(name=name)
    services.setup_campaign(campaign=campaign)
    powers = Power.objects.bulk_create(
        Power(campaign=campaign, key=f"p{i}", name=f"Power {i}", gal=100 + i, tp=10 * i)
        for i in range(n_powers)
    )
    hexes = MapHex.objects.bulk_create(
        MapHex(campaign=campaign, col=1 + (j // 99) + 3 * i, row=1 + j % 99)
        for i in range(n_powers)
        for j in range(systems_per_power)
    )
    systems = StarSystem.objects.bulk_create(
        StarSystem(
            campaign=campaign,
            key=f"s{i}-{j}",
            name=f"System {i}-{j}",
            hex=hexes[i * systems_per_power + j],
            holder=powers[i],
            system_type="homeworld" if j == 0 else "basic",
            loyalty=5,
            rate_ore=10 + j,
            rate_gal=5,
            rate_bio=3,
            rate_pl=2,
            stock_ore=j,
        )
        for i in range(n_powers)
        for j in range(systems_per_power)
    )
    if hubs:
        hub_rows = TradeHub.objects.bulk_create(
            TradeHub(campaign=campaign, key=f"hub{i}", power=powers[i], pool_ore=7 * (i + 1))
            for i in range(n_powers)
        )
        nodes = HubNode.objects.bulk_create(
            HubNode(
                campaign=campaign,
                hub=hub_rows[i],
                col=systems[i * systems_per_power + j].hex.col,
                row=systems[i * systems_per_power + j].hex.row,
                is_centre=j == 0,
            )
            for i in range(n_powers)
            for j in range(min(2, systems_per_power))
        )
        if systems_per_power > 1:
            HubLink.objects.bulk_create(
                HubLink(hub=hub_rows[i], a=nodes[2 * i], b=nodes[2 * i + 1])
                for i in range(n_powers)
            )
    users = [make_user(f"u-{campaign.pk}-{i}") for i in range(n_powers)]
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, power=p) for u, p in zip(users, powers, strict=True)
    )
    return World(campaign=campaign, powers=list(powers), users=users)


def add_fleet(world: World, *, groups: int = 1) -> None:
    """Each power p<i>: a builder static ``p<i>-base`` (craft ``p<i>-y1`` of design
    ``p<i>-yard``, construction 30) at its homeworld, a frigate design ``p<i>-frigate`` (NPV 60,
    EP storage 2), ``groups`` groups ``p<i>-g<j>`` of two frigates each, and ``groups`` builds of
    a frigate in progress at the yard (issue 14), in a few bulk queries."""
    campaign = world.campaign
    Consumable.objects.get_or_create(
        campaign=campaign, kind="fighter", defaults={"mass": 1, "ore": 3}
    )
    homes = {
        s.holder_id: s.hex
        for s in StarSystem.objects.filter(
            campaign=campaign, system_type="homeworld"
        ).select_related("hex")
    }
    designs = Design.objects.bulk_create(
        Design(
            campaign=campaign,
            power=p,
            key=f"{p.key}-{kind}",
            name=name,
            craft_class=cls,
            mobility=mobility,
            mass=mass,
            npv=npv,
            crew=crew,
            completed=True,
        )
        for p in world.powers
        for kind, name, cls, mobility, mass, npv, crew in (
            ("yard", "Yard", "civilian", "static", 200, 100, 4),
            ("frigate", "Frigate", "military", "mobile", 20, 60, 3),
        )
    )
    by_key = {d.key: d for d in designs}
    DesignSystem.objects.bulk_create(
        DesignSystem(design=d, position=i, key=key, name=name, points=points, **capacity)
        for d in designs
        for i, (key, name, points, capacity) in enumerate(
            [
                ("cy", "Construction yard", 40, {"construction": 30, "workshop": 40}),
                ("eps", "EP store", 5, {"ep_storage": 10}),
            ]
            if d.key.endswith("yard")
            else [("b1", "Class 1 beam", 3, {}), ("eps", "EP store", 2, {"ep_storage": 2})]
        )
    )
    bases = Static.objects.bulk_create(
        Static(
            campaign=campaign,
            power=p,
            key=f"{p.key}-base",
            col=homes[p.pk].col,
            row=homes[p.pk].row,
            civilian=True,
        )
        for p in world.powers
    )
    yards = Craft.objects.bulk_create(
        Craft(
            campaign=campaign,
            power=p,
            key=f"{p.key}-y1",
            design=by_key[f"{p.key}-yard"],
            static=base,
            crew=4,
        )
        for p, base in zip(world.powers, bases, strict=True)
    )
    fleet = FleetGroup.objects.bulk_create(
        FleetGroup(
            campaign=campaign,
            power=p,
            key=f"{p.key}-g{j}",
            col=homes[p.pk].col,
            row=homes[p.pk].row,
            points=120,
            ep=2,
            ep_storage=4,
        )
        for p in world.powers
        for j in range(groups)
    )
    Craft.objects.bulk_create(
        Craft(
            campaign=campaign,
            power=g.power,
            key=f"{g.key}-f{k}",
            design=by_key[f"{g.power.key}-frigate"],
            group=g,
            crew=3,
        )
        for g in fleet
        for k in range(2)
    )
    builds = Build.objects.bulk_create(
        Build(
            campaign=campaign,
            power=p,
            key=f"{p.key}-b{j}",
            design=by_key[f"{p.key}-frigate"],
            col=homes[p.pk].col,
            row=homes[p.pk].row,
            cost=60,
            paid=j % 50,
            started=1,
        )
        for p in world.powers
        for j in range(groups)
    )
    yard_of = {y.power_id: y for y in yards}
    BuildBuilder.objects.bulk_create(
        BuildBuilder(build=b, craft=yard_of[b.power_id]) for b in builds
    )
