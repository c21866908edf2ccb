"""Resolution as a service: claimed once, all-or-nothing, retried at most three times, swept
when stalled or due, paused, rolled back (issue 4; reliability R2, R3, F6, F7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from economy import rounds, selectors, services
from economy.models import AuditEvent, LedgerLine, OrderSheet, Round, RoundRecord
from economy.snapshot import export_state
from powers.models import Campaign, Power
from tests.helpers import postgresql_only, sqlite_only
from tests.web.factories import World, make_campaign
from trade.models import RateHistory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def open_round(campaign: Campaign) -> Round:
    return Round.objects.get(campaign=campaign, status="open")


def submit_everyone(world: World) -> None:
    for power in world.powers:
        services.submit_sheet(power=power, actor="test")


def test_round_is_not_resolved_until_due() -> None:
    world = make_campaign()
    rnd = open_round(world.campaign)
    services.submit_sheet(power=world.powers[0], actor="test")
    assert not services.resolve_round(round_id=rnd.pk)
    assert open_round(world.campaign).pk == rnd.pk


def test_last_submission_resolves_and_opens_next_round() -> None:
    world = make_campaign()
    services.add_order(
        power=world.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 5}, actor="t"
    )
    submit_everyone(world)
    rnd = open_round(world.campaign)
    assert services.resolve_round(round_id=rnd.pk)
    rnd.refresh_from_db()
    assert rnd.status == "resolved" and rnd.attempts == 1
    nxt = open_round(world.campaign)
    assert nxt.number == 2
    world.campaign.refresh_from_db()
    assert world.campaign.current_round == 2
    record = RoundRecord.objects.get(round=rnd)
    assert record.orders == {"p0": [{"type": "gal_transfer", "to": "p1", "amount": 5}], "p1": []}
    assert record.nmr == []
    assert LedgerLine.objects.filter(
        campaign=world.campaign, resource="gal", amount=-5, power__key="p0"
    ).exists()


def test_resolving_twice_changes_nothing() -> None:
    world = make_campaign()
    submit_everyone(world)
    rnd = open_round(world.campaign)
    assert services.resolve_round(round_id=rnd.pk)
    world.campaign.refresh_from_db()
    before = (export_state(world.campaign), LedgerLine.objects.count(), Round.objects.count())
    for _ in range(3):
        assert not services.resolve_round(round_id=rnd.pk)
        assert not services.resolve_round(round_id=rnd.pk, force=True)
    world.campaign.refresh_from_db()
    after = (export_state(world.campaign), LedgerLine.objects.count(), Round.objects.count())
    assert before == after
    assert AuditEvent.objects.filter(action="resolution_started").count() == 1


def test_deadline_resolves_non_submitters_with_no_orders() -> None:
    world = make_campaign()
    services.add_order(
        power=world.powers[1], payload={"type": "gal_transfer", "to": "p0", "amount": 1}, actor="t"
    )
    services.submit_sheet(power=world.powers[0], actor="test")
    rnd = open_round(world.campaign)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.resolve_round(round_id=rnd.pk)
    record = RoundRecord.objects.get(round=rnd)
    assert record.nmr == ["p1"]
    assert "p1" not in record.orders  # a draft that was never submitted is not resolved
    world.powers[1].refresh_from_db()
    assert world.powers[1].gal >= 101


def test_orders_are_refused_once_resolution_starts() -> None:
    world = make_campaign()
    submit_everyone(world)
    rnd = open_round(world.campaign)
    assert services.claim_round(round_id=rnd.pk)
    with pytest.raises(rounds.RoundNotOpen):
        services.add_order(power=world.powers[0], payload={"type": "x"}, actor="t")
    with pytest.raises(rounds.RoundNotOpen):
        services.withdraw_sheet(power=world.powers[0], actor="t")


def test_failure_returns_to_open_then_fails_after_three_attempts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = make_campaign()
    submit_everyone(world)
    rnd = open_round(world.campaign)
    before = export_state(world.campaign)

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("adjudicator exploded")

    monkeypatch.setattr(services, "save_state", boom)
    for attempt in (1, 2, 3):
        assert not services.resolve_round(round_id=rnd.pk)
        rnd.refresh_from_db()
        assert rnd.attempts == attempt
        assert rnd.status == ("failed" if attempt == 3 else "open")
        assert "adjudicator exploded" in rnd.last_error
    assert not services.resolve_round(round_id=rnd.pk)  # never retried forever
    assert export_state(world.campaign) == before
    assert not RoundRecord.objects.exists() and not LedgerLine.objects.exists()
    assert AuditEvent.objects.filter(action="resolution_failed").count() == 3


@postgresql_only
def test_sweep_returns_a_dead_claim_and_enqueues_due_rounds() -> None:
    world = make_campaign()
    submit_everyone(world)
    rnd = open_round(world.campaign)
    assert services.claim_round(round_id=rnd.pk)  # the worker died right after claiming
    assert services.sweep() == [rnd.pk]  # nobody holds its resolver lock: no timeout to wait
    rnd.refresh_from_db()
    assert rnd.status == "open" and rnd.attempts == 1
    assert services.resolve_round(round_id=rnd.pk)


@sqlite_only
def test_without_advisory_locks_a_claim_is_dead_after_the_stall_timeout(
    settings: Settings,
) -> None:
    """SQLite (`make run`) has no advisory locks: there the stall timeout decides, for the
    sweep and for a redelivered task alike."""
    settings.FTCAMP_STALL_SECONDS = 10
    world = make_campaign()
    submit_everyone(world)
    rnd = open_round(world.campaign)
    assert services.claim_round(round_id=rnd.pk)
    assert not services.resolve_round(round_id=rnd.pk)  # a live claim is not taken over
    assert services.sweep(now=timezone.now()) == []  # not stalled yet
    assert services.sweep(now=timezone.now() + timedelta(seconds=11)) == [rnd.pk]
    rnd.refresh_from_db()
    assert rnd.status == "open" and rnd.attempts == 1
    assert services.claim_round(round_id=rnd.pk)  # claimed again, and its resolver dies
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - timedelta(seconds=11))
    assert services.resolve_round(round_id=rnd.pk)  # a redelivered task takes it over, once
    assert Round.objects.get(pk=rnd.pk).attempts == 3


def test_sweep_enqueues_rounds_past_deadline_but_not_paused_ones() -> None:
    world = make_campaign()
    rnd = open_round(world.campaign)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert services.sweep() == [rnd.pk]
    services.set_paused(round_id=rnd.pk, paused=True, actor="admin")
    assert services.sweep() == []
    assert not services.resolve_round(round_id=rnd.pk)
    assert services.resolve_round(round_id=rnd.pk, force=True, actor="admin")


def test_extend_deadline_keeps_the_round_open() -> None:
    world = make_campaign()
    rnd = open_round(world.campaign)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    services.extend_deadline(round_id=rnd.pk, hours=24, actor="admin")
    assert services.sweep() == []
    assert not services.resolve_round(round_id=rnd.pk)


def test_rollback_restores_the_start_of_a_round() -> None:
    world = make_campaign()
    start = export_state(world.campaign)
    services.add_order(
        power=world.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 7}, actor="t"
    )
    submit_everyone(world)
    assert services.resolve_round(round_id=open_round(world.campaign).pk)
    submit_everyone(world)
    assert services.resolve_round(round_id=open_round(world.campaign).pk)
    world.campaign.refresh_from_db()
    assert world.campaign.current_round == 3

    services.rollback_to(campaign=world.campaign, number=1, actor="admin")
    world.campaign.refresh_from_db()
    assert world.campaign.current_round == 1
    assert export_state(world.campaign) == start
    assert list(Round.objects.filter(campaign=world.campaign).values_list("number", "status")) == [
        (1, "open")
    ]
    assert not LedgerLine.objects.filter(campaign=world.campaign).exists()
    assert not RateHistory.objects.filter(campaign=world.campaign).exists()
    sheet = OrderSheet.objects.get(round__campaign=world.campaign, power=world.powers[0])
    assert sheet.status == "draft" and sheet.orders.count() == 1
    # and the replay resolves to the same result
    submit_everyone(world)
    assert services.resolve_round(round_id=open_round(world.campaign).pk)
    assert (
        LedgerLine.objects.filter(campaign=world.campaign, amount=-7, resource="gal").count() == 1
    )


def test_invalid_order_is_kept_with_its_error_and_rejected_at_its_position() -> None:
    world = make_campaign()
    p0 = world.powers[0]
    services.add_order(
        power=p0, payload={"type": "gal_transfer", "to": "p1", "amount": 1}, actor="t"
    )
    bad = services.add_order(
        power=p0, payload={"type": "gal_transfer", "to": "p1", "amount": -3}, actor="t"
    )
    services.add_order(
        power=p0, payload={"type": "gal_transfer", "to": "p1", "amount": 2}, actor="t"
    )
    assert bad.position == 1 and "amount" in bad.error
    submit_everyone(world)
    rnd = open_round(world.campaign)
    assert services.resolve_round(round_id=rnd.pk)
    rejected = RoundRecord.objects.get(round=rnd).rejected
    assert [(r["power"], r["index"]) for r in rejected] == [("p0", 1)]


def test_editing_a_submitted_sheet_takes_it_back_to_draft() -> None:
    world = make_campaign()
    p0 = world.powers[0]
    services.submit_sheet(power=p0, actor="t")
    services.add_order(power=p0, payload={"type": "research_project", "gal": 2}, actor="t")
    assert OrderSheet.objects.get(power=p0).status == "draft"


def test_move_and_remove_keep_positions_contiguous() -> None:
    world = make_campaign()
    p0 = world.powers[0]
    for amount in (1, 2, 3):
        services.add_order(
            power=p0, payload={"type": "gal_transfer", "to": "p1", "amount": amount}, actor="t"
        )
    services.move_order(power=p0, position=2, to=0, actor="t")
    services.remove_order(power=p0, position=1, actor="t")
    amounts = [
        (o.position, o.payload["amount"])
        for o in OrderSheet.objects.get(power=p0).orders.order_by("position")
    ]
    assert amounts == [(0, 3), (1, 2)]
    with pytest.raises(services.OrderNotFound):
        services.remove_order(power=p0, position=5, actor="t")


def test_a_resolved_round_replays_identically_from_its_inputs() -> None:
    world = make_campaign()
    services.add_order(
        power=world.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 4}, actor="t"
    )
    submit_everyone(world)
    assert services.resolve_round(round_id=open_round(world.campaign).pk)
    assert services.replay(campaign=world.campaign, number=1) == []
    Power.objects.filter(pk=world.powers[0].pk).update(gal=1)  # an edit after the fact shows
    assert services.replay(campaign=world.campaign, number=1) == [
        "state.powers.p0.gal: stored 1, replayed 107"
    ]


def test_statements_show_a_power_its_own_events_only(client: Client) -> None:
    from django.urls import reverse

    world = make_campaign()
    services.add_order(
        power=world.powers[0],
        payload={"type": "market_sell", "resource": "ore", "amount": 3, "from": "hub0"},
        actor="t",
    )
    submit_everyone(world)
    assert services.resolve_round(round_id=open_round(world.campaign).pk)
    record = RoundRecord.objects.get(round__campaign=world.campaign, round__number=1)
    sale = next(e for e in record.events if "sells 3 ore" in e["text"])
    assert sale["powers"] == ["p0"]
    # Structured (issue 12): a kind and its ids and numbers; the page words it with names.
    assert sale["kind"] == "market.sold"
    assert {k: sale["data"][k] for k in ("power", "amount", "resource")} == {
        "power": "p0",
        "amount": 3,
        "resource": "ore",
    }
    client.force_login(world.users[0])
    mine = client.get(reverse("report", args=[world.campaign.pk, "p0", 1])).content.decode()
    assert "Power 0 sells 3 Ore" in mine  # in words (issue 17)
    client.force_login(world.users[1])
    theirs = client.get(reverse("report", args=[world.campaign.pk, "p1", 1])).content.decode()
    assert "sells 3 Ore" not in theirs
    public = client.get(reverse("history", args=[world.campaign.pk])).content.decode()
    assert "sells 3 Ore" not in public


def test_public_summary_reports_changes_of_holder(client: Client) -> None:
    from django.urls import reverse

    from powers.models import FleetGroup, MapHex, StarSystem

    world = make_campaign()
    hx = MapHex.objects.create(campaign=world.campaign, col=20, row=20)
    StarSystem.objects.create(campaign=world.campaign, key="vega", name="Vega", hex=hx)
    FleetGroup.objects.create(
        campaign=world.campaign,
        key="g",
        power=world.powers[0],
        col=20,
        row=20,
        order="maintain_orbit",
        points=100,
    )
    submit_everyone(world)
    assert services.resolve_round(round_id=open_round(world.campaign).pk)
    page = client.get(reverse("history", args=[world.campaign.pk])).content.decode()
    assert "Vega (2020) passed from neutral to Power 0." in page
    summary = selectors.round_summary(world.campaign, 1)
    assert summary is not None and summary.submitted == ["Power 0", "Power 1"]
