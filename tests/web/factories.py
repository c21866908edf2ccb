"""Campaigns of any size for web tests, built in a few bulk queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser

from campaigns import services
from powers.models import Campaign, MapHex, Membership, Power, StarSystem
from trade.models import HubLink, HubNode, TradeHub

PASSWORD = "correct-horse-battery"


@dataclass
class World:
    campaign: Campaign
    powers: list[Power]
    users: list[AbstractUser]


def make_user(username: str) -> AbstractUser:
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
