"""Issue 27: the hot queries said with the ORM and compiled once (``powers.db.Prepared``) answer
as the ORM does, on SQLite (the SQLite lane of ``make test``) and on PostgreSQL alike: the same
rows, values converted as the ORM converts them, related objects cached, an integer no column
can hold answered with nothing rather than a driver's overflow, and the text compiled once."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import CharField, QuerySet
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from economy import catalogue
from economy.models import Round, RoundStatus
from economy.rounds import RoundNotOpen, lock_open_round
from economy.snapshot.pacts import _any_pact
from powers.access import access_power_for_user, power_of_user_in_campaign
from powers.db import Param, Prepared
from powers.models import BattleRecord, Craft, FleetGroup, Power
from tests.web.factories import World, add_fleet, make_campaign
from trade.models import TradeHub

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

TOO_BIG = 3361679045915775598592  # an id schemathesis sent: beyond any 64-bit column


def test_the_gate_gives_the_power_with_its_campaign_in_one_query(world: World) -> None:
    user, campaign = world.users[0], world.campaign
    with CaptureQueriesContext(connection) as queries:
        power = access_power_for_user(user=user, campaign_id=campaign.pk, power_key="p0")
        assert power.campaign.name == campaign.name  # cached with it: no second query
    assert len(queries) == 1
    orm = Power.objects.select_related("campaign").get(campaign=campaign, key="p0")
    assert power == orm and power.__dict__.keys() == orm.__dict__.keys()
    # converted as the ORM converts it: an aware datetime on SQLite too (the hand-built query
    # it replaced gave SQLite's naive text there)
    assert power.campaign.created_at == orm.campaign.created_at
    assert timezone.is_aware(power.campaign.created_at)
    assert power_of_user_in_campaign(user=user, campaign_id=campaign.pk) == orm
    with pytest.raises(Http404):
        access_power_for_user(user=user, campaign_id=campaign.pk, power_key="p1")


@pytest.mark.parametrize("campaign_id", [TOO_BIG, -TOO_BIG])
def test_an_id_no_column_can_hold_finds_nothing(world: World, campaign_id: int) -> None:
    """The ORM answers such a lookup with no rows; so does a prepared query (SQLite's driver
    raised OverflowError: a 500 on ``make run``'s demo for any such URL)."""
    with pytest.raises(Http404):
        access_power_for_user(user=world.users[0], campaign_id=campaign_id, power_key="p0")
    with transaction.atomic(), pytest.raises(RoundNotOpen):
        lock_open_round(campaign_id)
    assert not _any_pact(campaign_id)


def test_a_too_big_campaign_id_in_a_url_is_a_404(client: Any, world: World) -> None:
    client.force_login(world.users[0])
    for url in (f"/api/campaigns/{TOO_BIG}/", f"/campaigns/{TOO_BIG}/powers/p0/orders/"):
        assert client.get(url).status_code == 404, url


def test_the_open_round_is_the_orms(world: World) -> None:
    with transaction.atomic():
        rnd = lock_open_round(world.campaign.pk)
    assert rnd == Round.objects.get(campaign=world.campaign, status=RoundStatus.OPEN)
    assert rnd.__dict__ == Round.objects.get(pk=rnd.pk).__dict__ | {"_state": rnd._state}


def test_any_pact_sees_each_kind(world: World) -> None:
    add_fleet(world, groups=1)
    cid = world.campaign.pk
    assert not _any_pact(cid)
    Craft.objects.filter(campaign=world.campaign, key="p0-g0-f0").update(captured=True)
    assert _any_pact(cid)
    Craft.objects.filter(campaign=world.campaign).update(captured=False)
    record = BattleRecord.objects.create(
        campaign=world.campaign, key="b1", col=1, row=1, entered_by=world.powers[0]
    )
    assert not _any_pact(cid)  # proposed, not confirmed
    record.status = BattleRecord.Status.CONFIRMED
    record.save()
    assert _any_pact(cid)
    assert not _any_pact(make_campaign("Another").campaign.pk)  # its own campaign only


def test_the_catalogue_is_the_orms_reading(world: World) -> None:
    add_fleet(world, groups=1)
    names = ["p0", "p1", "p0-g0", "hub0", "hub1", "s0-0", "s1-1", "p0-frigate", "p0-y1", "p0-b0"]
    names += ["p0-base", "fighter", "nope"]
    size = 1 << (len(names) - 1).bit_length()
    keys = {f"k{i}": names[min(i, len(names) - 1)] for i in range(size)}
    rows = catalogue._catalog(size).rows(campaign=world.campaign.pk, **keys)
    # written out by hand: each kind of part of the union, its owner or none
    assert sorted(r[:3] for r in rows) == [
        ("build", "p0-b0", "p0"),
        ("consumable", "fighter", None),
        ("craft", "p0-y1", "p0"),
        ("design", "p0-frigate", "p0"),
        ("group", "p0-g0", "p0"),
        ("hub", "hub0", "p0"),
        ("hub", "hub1", "p1"),
        ("power", "p0", None),
        ("power", "p1", None),
        ("static", "p0-base", "p0"),
        ("system", "s0-0", "p0"),
        ("system", "s1-1", "p1"),
    ]
    # then what each holds (issue 30's warnings at entry) and, for a carrier, its hex
    by_key = {r[1]: r[3:] for r in rows}
    hub = TradeHub.objects.get(key="hub0")
    assert by_key["hub0"] == (hub.pool_ore, hub.pool_bio, hub.pool_pl, None, None)
    group = FleetGroup.objects.get(key="p0-g0")
    assert by_key["p0-g0"] == (group.troops, group.ep, 0, group.col, group.row)
    assert by_key["p0-frigate"] == (0, 0, 0, None, None)


def test_a_prepared_query_is_compiled_once() -> None:
    built: list[int] = []

    def build() -> QuerySet[Power, tuple[str]]:
        built.append(1)
        return Power.objects.filter(key=Param("key", CharField())).order_by().values_list("key")

    query = Prepared(build)
    world = make_campaign()
    for key in ("p0", "p1", "p9"):
        assert query.rows(key=key) == ([(key,)] if key != "p9" else [])
    assert built == [1]
    assert world.powers
