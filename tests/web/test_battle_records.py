"""Battle records between powers (R-10.6, issue 15): one power enters a record; it takes
effect when every other power in it confirms, or the admin confirms it; a power declines with
a reason; the entering power amends. Confirmed records feed the next resolution; the round
does not resolve early while one awaits confirmation. A power sees only the records it is in."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from economy import services
from economy.models import Round
from fleet import battles
from ftcamp.errors import Refused
from notices import announce
from notices.models import Notice
from powers.models import BattleRecord, Craft, FleetGroup
from tests.web.factories import ApiClient, World, add_fleet, make_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

RECORD = {
    "hex": "0101",
    "powers": ["p0", "p1"],
    "craft": [
        {"craft": "p0-g0-f0", "systems_destroyed": {"b1": 1}, "cf_lost": 1},
        {"craft": "p1-g0-f0", "destroyed": True},
    ],
}


@pytest.fixture
def world() -> World:
    world = make_campaign("Battles", n_powers=3, systems_per_power=2)
    add_fleet(world)
    FleetGroup.objects.filter(key="p1-g0").update(col=1, row=1)  # met p0-g0 at 0101
    return world


def client_of(world: World, i: int) -> ApiClient:
    client = ApiClient()
    client.force_login(world.users[i])
    client.base = f"/api/campaigns/{world.campaign.pk}/"
    return client


def post(client: ApiClient, path: str, data: object) -> Any:
    return client.post(client.base + path, json.dumps(data), content_type="application/json")


def propose(world: World, record: dict[str, Any] = RECORD) -> str:
    r = post(client_of(world, 0), "battles/", record)
    assert r.status_code == 201, r.json()
    key: str = r.json()["key"]
    return key


def open_round(world: World) -> Round:
    return Round.objects.get(campaign=world.campaign, status="open")


def test_entered_confirmed_and_applied_at_the_next_resolution(
    world: World, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[dict[str, Any]] = []
    monkeypatch.setattr(announce, "battle_record_proposed", lambda **kw: told.append(kw))
    key = propose(world)
    p0, p1, _ = world.powers
    assert told == [
        {
            "campaign_id": world.campaign.pk,
            "record": key,
            "round_number": 1,
            "proposer_id": p0.pk,
            "power_ids": [p1.pk],
            "amended": "",
        }
    ]
    mine = client_of(world, 1).get(client_of(world, 1).base + "battles/").json()
    assert [(r["key"], r["status"], r["my_answer"]) for r in mine] == [(key, "proposed", "pending")]
    # every power has submitted, but the record awaits p1: no early resolution
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert not services.round_is_complete(open_round(world))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        r = post(client_of(world, 1), f"battles/{key}/", {"action": "confirm"})
    assert r.status_code == 200 and r.json()["status"] == "confirmed"
    assert callbacks, "the last confirmation enqueues the resolution"
    assert services.round_is_complete(open_round(world))
    assert services.resolve_round(round_id=open_round(world).pk)
    assert BattleRecord.objects.get(key=key).status == "applied"
    assert not Craft.objects.filter(key="p1-g0-f0").exists()
    hit = Craft.objects.get(key="p0-g0-f0")
    assert (hit.destroyed, hit.crew) == ({"b1": 1}, 2)


def test_decline_needs_a_reason_and_the_entering_power_amends(world: World) -> None:
    key = propose(world)
    p1 = client_of(world, 1)
    r = post(p1, f"battles/{key}/", {"action": "decline"})
    assert r.status_code == 400 and "reason" in r.json()
    r = post(p1, f"battles/{key}/", {"action": "decline", "reason": "f0 was not destroyed"})
    assert r.json()["parties"][1] == {
        "power": "p1",
        "answer": "declined",
        "reason": "f0 was not destroyed",
    }
    assert r.json()["status"] == "proposed"
    r = post(p1, f"battles/{key}/", {"action": "amend", **RECORD})
    assert r.status_code == 400 and "only the power that entered it" in json.dumps(r.json())
    amended = {**RECORD, "craft": [{"craft": "p1-g0-f0", "systems_disabled": {"b1": 1}}]}
    r = post(client_of(world, 0), f"battles/{key}/", {"action": "amend", **amended})
    assert r.status_code == 200
    assert [p["answer"] for p in r.json()["parties"]] == ["confirmed", "pending"]
    assert r.json()["craft"][0]["systems_disabled"] == {"b1": 1}


def test_each_amendment_asks_the_other_powers_again(
    world: World,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
    eager: None,
) -> None:
    # Notices are once per event: an amendment is an event of its own, so p1 is told of the
    # proposal, then of each amendment once (by notice and email), and p0 of none of them.
    for i, user in enumerate(world.users):
        user.email = f"player{i}@example.org"
        user.save()
    with django_capture_on_commit_callbacks(execute=True):
        key = propose(world)
    for hex_ in ("0101", "0101"):  # the same battle amended twice
        with django_capture_on_commit_callbacks(execute=True):
            r = post(
                client_of(world, 0), f"battles/{key}/", {"action": "amend", **RECORD, "hex": hex_}
            )
        assert r.status_code == 200
    subjects = [(m.to, m.subject) for m in mailoutbox]
    assert subjects == [
        (
            ["player1@example.org"],
            "[FTCamp] Battles: A battle record of round 1 awaits your confirmation",
        ),
        (
            ["player1@example.org"],
            "[FTCamp] Battles: A battle record of round 1 was amended and awaits your confirmation",
        ),
        (
            ["player1@example.org"],
            "[FTCamp] Battles: A battle record of round 1 was amended and awaits your confirmation",
        ),
    ]
    assert mailoutbox[1].body.startswith(
        "Power 0 has amended its record of a battle of round 1 of Battles."
    )
    assert Notice.objects.filter(user=world.users[1], kind="battle_record").count() == 3
    assert not Notice.objects.filter(user=world.users[0]).exists()


def test_the_admin_confirms_a_record_awaiting_others(world: World) -> None:
    key = propose(world)
    record = battles.admin_confirm(record=BattleRecord.objects.get(key=key), actor="gm")
    assert record.status == "confirmed"
    with pytest.raises(Refused, match="confirmed already"):
        battles.admin_confirm(record=record, actor="gm")


@pytest.mark.parametrize(
    ("change", "field", "text"),
    [
        ({"hex": "9999"}, "hex", "outside the map"),
        ({"powers": ["p1", "p2"]}, "powers", "one of its powers"),
        ({"powers": ["p0", "zz"]}, "powers", "no such power: zz"),
        ({"craft": []}, "craft", "a list of 1..200 craft"),
        (
            {"craft": [{"craft": "p0-g0-f0", "captured_by": "p2", "into": "g9"}]},
            "craft",
            "#1, captured_by: one of the powers in the battle",
        ),
        ({"craft": [{"craft": "p0-g0-f0", "cf_lost": -1}]}, "craft", "#1, cf_lost"),
    ],
)
def test_bad_input_names_the_field_and_changes_nothing(
    world: World, change: dict[str, Any], field: str, text: str
) -> None:
    r = post(client_of(world, 0), "battles/", {**RECORD, **change})
    assert r.status_code == 400
    assert text in " ".join(r.json()[field]), r.json()
    assert not BattleRecord.objects.exists()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # a craft elsewhere and no craft at all read alike: nothing of other fleets leaks
        ({"craft": "p1-y1", "destroyed": True}, "p1-y1: no such craft of p0 or p1 at 0101"),
        (
            {"craft": "p1-nothing", "destroyed": True},
            "p1-nothing: no such craft of p0 or p1 at 0101",
        ),
        ({"craft": "p2-g0-f0", "destroyed": True}, "p2-g0-f0: no such craft of p0 or p1 at 0101"),
        ({"craft": "p1-g0-f0", "systems_destroyed": {"hull": 1}}, "p1-g0-f0, systems destroyed"),
        ({"craft": "p1-g0-f0", "systems_destroyed": {"b1": 2}}, "b1: more than its 1 units"),
        ({"craft": "p1-g0-f0", "cf_lost": 4}, "p1-g0-f0: 4 CF lost, but it has 3 aboard"),
        (
            {"craft": "p1-g0-f0", "captured_by": "p0", "into": "p0-far"},
            "p1-g0-f0: captured into p0-far, which is not at 0101",
        ),
    ],
)
def test_a_record_is_checked_whole_when_it_is_entered(
    world: World, line: dict[str, Any], message: str
) -> None:
    """Issue 29: the engine's own rules check the record at entry, and the power entering it is
    told what is wrong; nothing is written."""
    FleetGroup.objects.create(
        campaign=world.campaign, key="p0-far", power=world.powers[0], col=2, row=2
    )
    record = {**RECORD, "craft": [{"craft": "p0-g0-f0", "cf_lost": 1}, line]}
    r = post(client_of(world, 0), "battles/", record)
    assert r.status_code == 400
    assert any(message in e for e in r.json()["craft"]), r.json()
    assert not BattleRecord.objects.exists()


def test_a_decline_tells_the_entering_power_who_and_why(
    world: World, eager: None, django_capture_on_commit_callbacks: Any
) -> None:
    key = propose(world)
    with django_capture_on_commit_callbacks(execute=True):
        r = post(client_of(world, 1), f"battles/{key}/", {"action": "decline", "reason": "No."})
    assert r.status_code == 200
    told = Notice.objects.get(user=world.users[0], kind="battle_declined")
    assert told.title == "Power 1 declined your battle record at 0101"
    assert "\u201cNo.\u201d" in told.body and told.link.endswith("/powers/p0/battles/")
    assert not Notice.objects.filter(kind="battle_declined").exclude(user=world.users[0])


def test_the_entering_power_withdraws_and_the_round_resolves_by_itself(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    key = propose(world)
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert not services.round_is_complete(open_round(world))
    r = post(client_of(world, 1), f"battles/{key}/", {"action": "withdraw"})
    assert r.status_code == 400 and "only the power that entered it" in json.dumps(r.json())
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        r = post(client_of(world, 0), f"battles/{key}/", {"action": "withdraw"})
    assert r.status_code == 200 and r.json()["status"] == "withdrawn"
    assert callbacks, "no resubmission: the withdrawal enqueues the resolution"
    assert services.round_is_complete(open_round(world))
    assert services.resolve_round(round_id=open_round(world).pk)
    assert Craft.objects.filter(key="p1-g0-f0").exists()  # never applied


def test_the_organiser_voids_a_record_and_the_round_resolves_by_itself(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    key = propose(world)
    post(client_of(world, 1), f"battles/{key}/", {"action": "confirm"})
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    record = BattleRecord.objects.get(key=key)
    with django_capture_on_commit_callbacks(execute=False):
        battles.void(record=record, actor="admin:o")
    record.refresh_from_db()
    assert record.status == "void"
    assert services.resolve_round(round_id=open_round(world).pk)
    assert Craft.objects.filter(key="p1-g0-f0").exists()  # a voided record never applies


def test_an_unconfirmed_record_at_the_deadline_is_not_applied_and_expires(world: World) -> None:
    """R-10.6: at the deadline the round resolves without it; it expires, so it does not hold
    the next round back."""
    key = propose(world)
    rnd = open_round(world)
    Round.objects.filter(pk=rnd.pk).update(deadline=timezone.now())
    assert rnd.pk in services.sweep(now=timezone.now() + timedelta(seconds=1))
    assert services.resolve_round(round_id=rnd.pk)
    assert BattleRecord.objects.get(key=key).status == "expired"
    assert Craft.objects.filter(key="p1-g0-f0").exists()
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")
    assert services.round_is_complete(open_round(world))


def test_a_record_never_reaches_a_power_not_in_it(world: World, client: Any) -> None:
    key = propose(world)
    third = client_of(world, 2)
    assert third.get(third.base + "battles/").json() == []
    r = post(third, f"battles/{key}/", {"action": "confirm"})
    assert r.status_code == 404 and key not in json.dumps(r.json())
    client.force_login(world.users[2])
    for name in ("fleet", "orders"):
        html = client.get(reverse(name, args=[world.campaign.pk, "p2"])).content.decode()
        assert key not in html and "p0-g0-f0" not in html


def test_the_page_enters_confirms_and_shows_only_own_records(world: World, client: Any) -> None:
    campaign = world.campaign.pk
    client.force_login(world.users[0])
    bad = client.post(
        reverse("battle-enter", args=[campaign, "p0"]),
        {"hex": "0101", "powers": "p0 p1", "craft": "p0-g0-f0 lost b1=x"},
        headers={"HX-Request": "true"},
    )
    assert "craft: #1, systems destroyed" in bad.content.decode()
    assert not BattleRecord.objects.exists()
    # the form offers the powers by name, its own ticked; on error it keeps what was ticked
    blank = client.get(reverse("battles", args=[campaign, "p0"])).content.decode()
    assert 'disabled name="powers" value="p0" checked> Power 0' in blank  # its own, fixed
    assert 'name="powers" value="p2"> Power 2' in blank
    ticked = client.post(
        reverse("battle-enter", args=[campaign, "p0"]),
        {"hex": "0101", "powers": ["p1", "p2"], "craft": "p0-g0-f0 lost b1=1"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "powers: " in ticked and not BattleRecord.objects.exists()
    assert 'value="p1" checked> Power 1' in ticked and 'value="p2" checked> Power 2' in ticked
    client.post(
        reverse("battle-enter", args=[campaign, "p0"]),
        {
            "hex": "0101",
            "powers": ["p0", "p1"],  # ticked, one value each
            "craft": "p0-g0-f0 lost b1=1 cf 1\np1-g0-f0 destroyed",
        },
    )
    record = BattleRecord.objects.get()
    assert record.craft.get(position=0).systems_destroyed == {"b1": 1}
    mine = client.get(
        reverse("battles", args=[campaign, "p0"]), {"amend": record.key}
    ).content.decode()
    # to amend, the rows filled in (fleet.battle_views; tests/web/test_battle_form.py)
    assert 'name="cf:p0-g0-f0" min="0" max="3" value="1"' in mine
    assert 'name="destroyed:p1-g0-f0" value="1" aria-label="Destroyed" checked' in mine
    client.force_login(world.users[1])
    page = client.get(reverse("battles", args=[campaign, "p1"])).content.decode()
    assert f'data-record="{record.key}"' in page and "Confirm" in page
    client.post(
        reverse("battle-act", args=[campaign, "p1"]), {"record": record.key, "action": "confirm"}
    )
    assert BattleRecord.objects.get().status == "confirmed"
    client.force_login(world.users[2])
    page = client.get(reverse("battles", args=[campaign, "p2"])).content.decode()
    assert record.key not in page and "p0-g0-f0" not in page
    r = client.post(
        reverse("battle-act", args=[campaign, "p2"]), {"record": record.key, "action": "confirm"}
    )
    assert r.status_code == 404 and record.key not in r.content.decode()


def test_the_admin_lists_awaiting_records_and_confirms_them(
    world: World, admin_client: Any
) -> None:
    key = propose(world)
    changelist = reverse("admin:powers_battlerecord_changelist")
    assert key in admin_client.get(changelist + "?status__exact=proposed").content.decode()
    pk = BattleRecord.objects.get(key=key).pk
    admin_client.post(changelist, {"action": "confirm", "_selected_action": [pk]})
    assert BattleRecord.objects.get(key=key).status == "confirmed"


def test_the_public_map_shows_only_a_marker_where_a_battle_was_fought(
    world: World, client: Any
) -> None:
    key = propose(world)
    svg = client.get(reverse("map-public-svg", args=[world.campaign.pk])).content.decode()
    assert 'class="marker battle"' not in svg  # awaiting confirmation: nothing yet
    post(client_of(world, 1), f"battles/{key}/", {"action": "confirm"})
    svg = client.get(reverse("map-public-svg", args=[world.campaign.pk])).content.decode()
    assert '<g class="marker battle" data-hex="0101">' in svg
    assert key not in svg and "p1-g0-f0" not in svg and "cf_lost" not in svg
    client.force_login(world.users[2])
    private = reverse("map-private-svg", args=[world.campaign.pk, "p2"])
    svg = client.get(private).content.decode()
    assert 'data-hex="0101"' in svg and key not in svg and "p0-g0-f0" not in svg
