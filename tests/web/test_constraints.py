"""Bad data is refused twice: by model validation with a clear message (admin, services) and by
the database itself (anything that bypasses validation)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from economy.models import Round
from powers.models import Campaign, MapHex, Power, StarSystem
from tests.web.factories import make_campaign
from trade.models import HubLink, HubNode, TradeHub

pytestmark = pytest.mark.django_db


def _immediate() -> None:
    """Check deferred (composite) foreign keys now rather than at commit."""
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")


def messages(exc: ValidationError) -> str:
    return " ".join(m for msgs in exc.message_dict.values() for m in msgs)


def test_negative_stockpile_rejected_by_validation_and_database() -> None:
    world = make_campaign()
    system = StarSystem.objects.get(key="s0-1", campaign=world.campaign)
    system.stock_ore = -1
    with pytest.raises(ValidationError) as err:
        system.full_clean()
    assert "Stock ore cannot be negative." in messages(err.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        system.save()


def test_negative_bank_and_pool_rejected_by_database() -> None:
    world = make_campaign()
    with pytest.raises(IntegrityError), transaction.atomic():
        Power.objects.filter(pk=world.powers[0].pk).update(gal=-5)
    with pytest.raises(IntegrityError), transaction.atomic():
        TradeHub.objects.filter(campaign=world.campaign).update(pool_bio=-1)


@pytest.mark.parametrize(
    ("kind", "lr", "ok"),
    [
        ("homeworld", 30, True),
        ("homeworld", 31, False),
        ("primary", 20, True),
        ("primary", 21, False),
        ("standard", 15, True),
        ("standard", 16, False),
        ("basic", 10, True),
        ("basic", 11, False),
    ],
)
def test_r_3_2_loyalty_above_type_maximum(kind: str, lr: int, ok: bool) -> None:
    world = make_campaign()
    system = StarSystem.objects.get(key="s0-1", campaign=world.campaign)
    system.system_type, system.loyalty = kind, lr
    if kind == "homeworld":
        StarSystem.objects.filter(key="s0-0", campaign=world.campaign).update(system_type="basic")
    if ok:
        system.full_clean()
        system.save()
        return
    with pytest.raises(ValidationError) as err:
        system.full_clean()
    assert "LR is above the maximum for this system type" in messages(err.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        system.save()


def test_r_3_1_neutral_system_has_no_loyalty() -> None:
    world = make_campaign()
    system = StarSystem.objects.get(key="s0-1", campaign=world.campaign)
    system.holder = None
    with pytest.raises(ValidationError) as err:
        system.full_clean()
    assert "A neutral system (no holder) has LR 0" in messages(err.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        system.save()


def test_two_homeworlds_for_one_power() -> None:
    world = make_campaign()
    system = StarSystem.objects.get(key="s0-1", campaign=world.campaign)
    system.system_type = "homeworld"
    with pytest.raises(ValidationError) as err:
        system.full_clean()
    assert "already has a homeworld" in messages(err.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        system.save()


def test_holder_from_another_campaign_is_rejected() -> None:
    mine = make_campaign("Mine")
    other = make_campaign("Other")
    system = StarSystem.objects.get(key="s0-1", campaign=mine.campaign)
    system.holder = other.powers[1]
    with pytest.raises(ValidationError) as err:
        system.full_clean()
    assert err.value.message_dict["holder"] == ["Power 1 belongs to another campaign."]
    _immediate()
    with pytest.raises(IntegrityError), transaction.atomic():
        system.save()


def test_hub_node_of_another_campaigns_hub_is_rejected_by_database() -> None:
    mine = make_campaign("Mine")
    other = make_campaign("Other")
    hub = TradeHub.objects.get(campaign=other.campaign, key="hub0")
    _immediate()
    with pytest.raises(IntegrityError), transaction.atomic():
        HubNode.objects.create(campaign=mine.campaign, hub=hub, col=50, row=50)


def test_hub_node_in_two_hubs() -> None:
    world = make_campaign()
    taken = HubNode.objects.get(hub__key="hub0", is_centre=True, campaign=world.campaign)
    hub1 = TradeHub.objects.get(campaign=world.campaign, key="hub1")
    node = HubNode(campaign=world.campaign, hub=hub1, col=taken.col, row=taken.row)
    with pytest.raises(ValidationError) as err:
        node.full_clean()
    assert "already a node of a trade hub" in messages(err.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        node.save()


def test_link_joining_two_hubs() -> None:
    world = make_campaign()
    a = HubNode.objects.get(hub__key="hub0", is_centre=True, campaign=world.campaign)
    b = HubNode.objects.get(hub__key="hub1", is_centre=True, campaign=world.campaign)
    link = HubLink(hub=a.hub, a=a, b=b)
    with pytest.raises(ValidationError) as err:
        link.full_clean()
    assert err.value.message_dict["b"] == [
        "A link may only join hexes of its own hub (Support §4.1.1)."
    ]
    _immediate()
    with pytest.raises(IntegrityError), transaction.atomic():
        link.save()


def test_link_pair_is_unordered_and_unique() -> None:
    world = make_campaign()
    link = HubLink.objects.get(hub__key="hub0", hub__campaign=world.campaign)
    reverse = HubLink(hub=link.hub, a=link.b, b=link.a)
    with pytest.raises(ValidationError) as err:
        reverse.full_clean()
    assert "These two hexes are already linked." in messages(err.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        reverse.save()


def test_duplicate_key_in_campaign_but_not_across_campaigns() -> None:
    mine = make_campaign("Mine")
    other = make_campaign("Other")
    assert Power.objects.filter(key="p0").count() == 2  # same key, two campaigns: fine
    dup = Power(campaign=mine.campaign, key="p1", name="Again")
    with pytest.raises(ValidationError) as err:
        dup.full_clean()
    assert "A power with this key already exists in the campaign." in messages(err.value)
    assert other.campaign != mine.campaign


def test_star_system_needs_a_system_hex() -> None:
    world = make_campaign()
    dust = MapHex.objects.create(campaign=world.campaign, col=90, row=90, hex_type="dust_cloud")
    system = StarSystem(campaign=world.campaign, key="x", name="X", hex=dust)
    with pytest.raises(ValidationError) as err:
        system.full_clean()
    assert err.value.message_dict["hex"] == ["A star system must sit on a hex of type 'system'."]


def test_hex_off_the_map() -> None:
    campaign = Campaign.objects.create(name="Edge")
    with pytest.raises(ValidationError):
        MapHex(campaign=campaign, col=100, row=1).full_clean()
    with pytest.raises(IntegrityError), transaction.atomic():
        MapHex.objects.create(campaign=campaign, col=0, row=1)


def test_reliability_r4_one_live_round_and_unique_numbers() -> None:
    world = make_campaign()
    assert Round.objects.filter(campaign=world.campaign, status="open").count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(campaign=world.campaign, number=2, status="open")
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(campaign=world.campaign, number=1, status="resolved")


def test_agreements_motions_and_bans_stay_in_their_campaign() -> None:
    from trade.models import Agreement, MarketBan, Motion

    mine = make_campaign("Mine")
    other = make_campaign("Other")
    _immediate()
    with pytest.raises(IntegrityError, match="scoped_fk"), transaction.atomic():
        MarketBan.objects.create(campaign=mine.campaign, power=other.powers[0])
    with pytest.raises(IntegrityError, match="scoped_fk"), transaction.atomic():
        Motion.objects.create(
            campaign=mine.campaign, key="m1", round_number=1, proposer=other.powers[0], kind="rate"
        )
    with pytest.raises(IntegrityError, match="scoped_fk"), transaction.atomic():
        Agreement.objects.create(
            campaign=mine.campaign,
            key="a1",
            proposer=mine.powers[0],
            partner=other.powers[1],
            deposit_col=1,
            deposit_row=1,
            delivery=3,
            a_resource="ore",
            a_amount=1,
        )
