"""Fleets II in the database (issue 15): battle records, loans and transfers load in a fixed
number of queries, and a resolution settles them — a confirmed record becomes applied, an
ended loan and a made transfer are done — while proposals are never round state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from campaigns.cases import campaign_from_case, submit_all
from economy import services
from economy.models import Round
from economy.snapshot import load_state
from powers.models import BattleParty, BattleRecord, Loan, PactStatus, Power, Transfer
from tests.web.factories import make_campaign

CASES = Path(__file__).resolve().parents[1] / "cases"
pytestmark = pytest.mark.django_db

LOAD_QUERIES = 40  # economy.snapshot.load_state: 28, 5 for the pacts, 7 for command


def case(stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / f"{stem}.json").read_text())
    return data


def resolve(stem: str) -> Any:
    campaign = campaign_from_case(case(stem), name=stem)
    submit_all(campaign)
    rnd = Round.objects.get(campaign=campaign, status="open")
    assert services.resolve_round(round_id=rnd.pk)
    return campaign


@pytest.mark.parametrize(
    "stem",
    [
        "001-homeworld-production",
        "305-r-10-6-battle-record-applied-at-the-start",
        "310-support-1-6-1-loan-takes-effect",
        "312-r-10-5a-transfer-crew-returns-as-pl",
    ],
)
def test_load_state_query_count_is_fixed(stem: str, django_assert_num_queries: Any) -> None:
    campaign = campaign_from_case(case(stem), name=stem)
    with django_assert_num_queries(LOAD_QUERIES):
        load_state(campaign)


def test_load_state_query_count_does_not_grow_with_records(django_assert_num_queries: Any) -> None:
    stem = "305-r-10-6-battle-record-applied-at-the-start"
    campaign = campaign_from_case(case(stem), name=stem)
    terra, vega = (Power.objects.get(campaign=campaign, key=k) for k in ("terra", "vega"))
    for i in range(5):
        record = BattleRecord.objects.create(
            campaign=campaign, key=f"x{i}", col=1, row=1, entered_by=terra, status="confirmed"
        )
        BattleParty.objects.create(record=record, power=terra, position=0)
        BattleParty.objects.create(record=record, power=vega, position=1)
        Loan.objects.create(
            campaign=campaign, key=f"l{i}", owner=terra, borrower=vega, groups=[], last=9,
            status="accepted",
        )  # fmt: skip
    with django_assert_num_queries(LOAD_QUERIES):
        assert len(load_state(campaign).fleet.battles) == 6


def test_only_confirmed_records_and_accepted_pacts_are_round_state() -> None:
    stem = "305-r-10-6-battle-record-applied-at-the-start"
    campaign = campaign_from_case(case(stem), name=stem)
    terra, vega = (Power.objects.get(campaign=campaign, key=k) for k in ("terra", "vega"))
    pending = BattleRecord.objects.create(
        campaign=campaign, key="b8", col=1, row=1, entered_by=terra
    )
    BattleParty.objects.create(record=pending, power=terra, position=0, answer="confirmed")
    BattleParty.objects.create(record=pending, power=vega, position=1)
    Loan.objects.create(campaign=campaign, key="l9", owner=terra, borrower=vega, groups=[], last=9)
    Transfer.objects.create(campaign=campaign, key="t9", owner=terra, receiver=vega, carriers=[])
    fleet = load_state(campaign).fleet
    assert [b.id for b in fleet.battles] == ["b7"]
    assert fleet.battles[0].powers == ("terra", "vega")
    assert (fleet.loans, fleet.transfers) == ([], [])


def test_a_confirmed_record_is_applied_once() -> None:
    campaign = resolve("305-r-10-6-battle-record-applied-at-the-start")
    assert BattleRecord.objects.get(campaign=campaign, key="b7").status == "applied"
    assert load_state(campaign).fleet.battles == []


def test_an_accepted_loan_takes_effect_and_stays_until_its_end() -> None:
    campaign = resolve("310-support-1-6-1-loan-takes-effect")
    loans = {x.key: x for x in Loan.objects.filter(campaign=campaign)}
    assert {k: (x.status, x.active) for k, x in loans.items()} == {
        "l1": (PactStatus.ACCEPTED, True),
        "l2": (PactStatus.DONE, False),  # refused: its group is entangled with work
    }


def test_a_loan_ends_and_a_transfer_is_made() -> None:
    campaign = resolve("311-r-10-5a-loan-ends-borrower-supplies-and-repairs")
    assert set(Loan.objects.filter(campaign=campaign).values_list("status", flat=True)) == {
        PactStatus.DONE
    }
    campaign = resolve("312-r-10-5a-transfer-crew-returns-as-pl")
    assert set(Transfer.objects.filter(campaign=campaign).values_list("status", flat=True)) == {
        PactStatus.DONE
    }


def test_pacts_never_point_at_another_campaigns_power() -> None:
    """The database refuses a record, loan or transfer naming another campaign's power
    (composite foreign keys, powers/migrations/0009)."""
    mine, other = make_campaign("Mine"), make_campaign("Other")
    stranger = Power.objects.get(campaign=other.campaign, key="p1")
    p0 = Power.objects.get(campaign=mine.campaign, key="p0")
    with connection.cursor() as cur:
        cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for make in (
        lambda: BattleRecord.objects.create(
            campaign=mine.campaign, key="b", col=1, row=1, entered_by=stranger
        ),
        lambda: Loan.objects.create(
            campaign=mine.campaign, key="l", owner=p0, borrower=stranger, last=1
        ),
        lambda: Transfer.objects.create(
            campaign=mine.campaign, key="t", owner=stranger, receiver=p0
        ),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            make()
