"""Loans and transfers as agreements between powers (Support 1.6.1, 1.6.2, issue 15): the
owner proposes, the other party accepts or declines, the owner withdraws; accepted ones take
effect at the next resolution and a loan ends after its last round. A third power never sees
a loan's or transfer's terms; bad input names the field and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from economy import entry, services
from economy.models import Round
from powers.models import Craft, FleetGroup, Loan, Transfer
from tests.web.factories import ApiClient, World, add_fleet, make_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


@pytest.fixture
def world() -> World:
    world = make_campaign("Pacts", n_powers=3, systems_per_power=2)
    add_fleet(world)
    return world


def api(world: World, i: int) -> ApiClient:
    client = ApiClient()
    client.force_login(world.users[i])
    client.base = f"/api/campaigns/{world.campaign.pk}/"
    return client


def post(client: ApiClient, path: str, data: object) -> Any:
    return client.post(client.base + path, json.dumps(data), content_type="application/json")


def resolve(world: World) -> None:
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(round_id=rnd.pk)


LOAN = {"kind": "loan", "borrower": "p1", "groups": ["p0-g0"], "last": 2}


def test_a_loan_is_accepted_takes_effect_and_returns_after_its_last_round(world: World) -> None:
    r = post(api(world, 0), "pacts/", LOAN)
    assert r.status_code == 201, r.json()
    key = r.json()["key"]
    assert r.json()["status"] == "proposed"
    r = post(api(world, 1), f"pacts/{key}/", {"action": "accept"})
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.json()
    resolve(world)  # round 1: Support §1.6 lends it
    assert FleetGroup.objects.get(key="p0-g0").power.key == "p1"
    assert Loan.objects.get(key=key).active
    resolve(world)  # round 2, its last: it returns at the end of the Support Phase
    assert FleetGroup.objects.get(key="p0-g0").power.key == "p0"
    assert Loan.objects.get(key=key).status == "done"


def test_a_transfer_is_made_for_good(world: World) -> None:
    r = post(api(world, 0), "pacts/", {"kind": "transfer", "receiver": "p1", "carriers": ["p0-g0"]})
    key = r.json()["key"]
    post(api(world, 1), f"pacts/{key}/", {"action": "accept"})
    resolve(world)
    assert FleetGroup.objects.get(key="p0-g0").power.key == "p1"
    assert set(Craft.objects.filter(group__key="p0-g0").values_list("power__key", flat=True)) == {
        "p1"
    }
    assert Transfer.objects.get(key=key).status == "done"


def test_decline_and_withdraw(world: World) -> None:
    key = post(api(world, 0), "pacts/", LOAN).json()["key"]
    r = post(api(world, 0), f"pacts/{key}/", {"action": "accept"})
    assert r.status_code == 400 and "the other party answers" in json.dumps(r.json())
    r = post(api(world, 1), f"pacts/{key}/", {"action": "withdraw"})
    assert r.status_code == 400 and "only its owner" in json.dumps(r.json())
    assert post(api(world, 1), f"pacts/{key}/", {"action": "decline"}).json()["status"] == (
        "declined"
    )
    again = post(api(world, 0), "pacts/", LOAN).json()["key"]
    assert post(api(world, 0), f"pacts/{again}/", {"action": "withdraw"}).json()["status"] == (
        "withdrawn"
    )
    resolve(world)
    assert FleetGroup.objects.get(key="p0-g0").power.key == "p0"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"borrower": "p0"}, "borrower"),
        ({"borrower": "zz"}, "borrower"),
        ({"groups": ["p1-g0"]}, "groups"),  # not the owner's
        ({"groups": []}, "groups"),
        ({"last": 0}, "last"),
        ({"last": "2"}, "last"),
    ],
)
def test_bad_input_names_the_field_and_changes_nothing(
    world: World, change: dict[str, Any], field: str
) -> None:
    r = post(api(world, 0), "pacts/", {**LOAN, **change})
    assert r.status_code == 400 and field in r.json(), r.json()
    assert not Loan.objects.exists()


def test_a_group_in_an_accepted_pact_is_not_offered_again(world: World) -> None:
    key = post(api(world, 0), "pacts/", LOAN).json()["key"]
    post(api(world, 1), f"pacts/{key}/", {"action": "accept"})
    r = post(api(world, 0), "pacts/", {**LOAN, "borrower": "p2"})
    assert r.status_code == 400 and "already lent or given" in json.dumps(r.json())


def test_a_third_power_never_sees_the_terms(world: World) -> None:
    key = post(api(world, 0), "pacts/", LOAN).json()["key"]
    third = api(world, 2)
    assert third.get(third.base + "pacts/").json() == []
    r = post(third, f"pacts/{key}/", {"action": "accept"})
    assert r.status_code == 404 and key not in json.dumps(r.json())
    assert [v["key"] for v in api(world, 1).get(api(world, 1).base + "pacts/").json()] == [key]


def test_the_fleet_page_shows_fatigue_damage_and_loans_in_and_out(
    world: World, client: Any
) -> None:
    Craft.objects.filter(key="p0-g0-f0").update(fatigue=7, destroyed={"b1": 1})
    campaign = world.campaign.pk
    client.force_login(world.users[0])
    bad = client.post(
        reverse("pact-propose", args=[campaign, "p0"]),
        {"kind": "loan", "other": "p1", "carriers": "p0-g0", "last": "x"},
        follow=True,
    ).content.decode()
    assert "last: the last round of the loan" in bad and not Loan.objects.exists()
    client.post(
        reverse("pact-propose", args=[campaign, "p0"]),
        {"kind": "loan", "other": "p1", "carriers": "p0-g0", "last": "3"},
    )
    loan = Loan.objects.get()
    page = client.get(reverse("fleet", args=[campaign, "p0"])).content.decode()
    assert "b1 destroyed" in page and "7% fatigue" in page
    assert f'data-pact="{loan.key}"' in page and "until the end of round 3" in page
    client.force_login(world.users[1])
    client.post(reverse("pact-act", args=[campaign, "p1"]), {"key": loan.key, "action": "accept"})
    assert Loan.objects.get().status == "accepted"
    page = client.get(reverse("fleet", args=[campaign, "p1"])).content.decode()
    assert f'data-pact="{loan.key}"' in page  # the loan in
    client.force_login(world.users[2])
    page = client.get(reverse("fleet", args=[campaign, "p2"])).content.decode()
    assert loan.key not in page and "until the end of round 3" not in page
    r = client.post(
        reverse("pact-act", args=[campaign, "p2"]), {"key": loan.key, "action": "decline"}
    )
    assert r.status_code == 404


def test_a_loan_runs_on_only_when_both_extend_it(world: World) -> None:
    key = post(api(world, 0), "pacts/", LOAN).json()["key"]
    r = post(api(world, 0), f"pacts/{key}/", {"action": "extend", "last": 5})
    assert r.status_code == 400 and "only an accepted loan" in json.dumps(r.json())
    post(api(world, 1), f"pacts/{key}/", {"action": "accept"})
    r = post(api(world, 0), f"pacts/{key}/", {"action": "extend", "last": 2})
    assert r.status_code == 400 and "last" in r.json()
    r = post(api(world, 0), f"pacts/{key}/", {"action": "extend", "last": 5})
    assert (r.json()["last"], r.json()["extends_to"]) == (2, [5, None])
    r = post(api(world, 1), f"pacts/{key}/", {"action": "extend", "last": 4})
    assert (r.json()["last"], r.json()["extends_to"]) == (2, [5, 4])
    r = post(api(world, 1), f"pacts/{key}/", {"action": "extend", "last": 5})
    assert (r.json()["last"], r.json()["extends_to"]) == (5, [None, None])
    resolve(world)
    resolve(world)  # round 2 was its old last round: it runs on
    assert FleetGroup.objects.get(key="p0-g0").power.key == "p1"


def test_the_borrower_may_not_unbuild_a_lent_craft(world: World) -> None:
    """Support 1.6.1: a craft of a lent group is the borrower's to order, but only its owner
    may unbuild it; the entry check reads the lent groups' craft to know it (no battle record
    pending, so it reads no other craft)."""
    key = post(api(world, 0), "pacts/", LOAN).json()["key"]
    post(api(world, 1), f"pacts/{key}/", {"action": "accept"})
    resolve(world)
    assert Craft.objects.get(key="p0-g0-f0").power.key == "p1"
    order = {"type": "unbuild", "id": "u1", "craft": "p0-g0-f0", "builder": "p1-y1"}
    errors = entry.check(world.powers[1], order).problems
    assert any("p0-g0-f0 is on loan from p0" in e for e in errors), errors


def test_a_pact_no_longer_possible_is_refused_in_names(world: World) -> None:
    """The engine's check at acceptance speaks of things by name, never by key (issue 30)."""
    transfer = {"kind": "transfer", "receiver": "p1", "carriers": ["p0-g0"]}
    key = post(api(world, 0), "pacts/", transfer).json()["key"]
    FleetGroup.objects.filter(key="p0-g0").update(power=world.powers[2])  # taken meanwhile
    r = post(api(world, 1), f"pacts/{key}/", {"action": "accept"})
    assert r.status_code == 400
    assert r.json() == {
        "key": ["it can no longer be accepted: group g0 of Power 0 belongs to Power 2, not Power 0"]
    }
    assert Transfer.objects.get(key=key).status == "proposed"
