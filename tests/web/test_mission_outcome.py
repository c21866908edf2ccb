"""The organiser's outcome of a diplomatic mission (R-8.4, R-8.4a; issue 16), end to end: in
the admin an organiser picks the declared mission and records its text and effects, each bad
field named with nothing stored; the outcome is stored as the codec's object; only the
target's and the sender's players are told (a notice and an email, none to a third power);
the next resolution applies it at its start — a ledger line each side of a move, an event for
the LR change — and the one after applies nothing more."""

from __future__ import annotations

import pytest
from django.core.mail import EmailMessage
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks

from command import services as mission_outcomes
from economy import services
from economy.events import describe
from economy.models import LedgerLine, Round
from economy.rounds import RoundNotOpen
from economy.selectors import names_for
from notices.models import Kind, Notice
from powers.models import Craft, StarSystem
from powers.models.command import Diplomat, Mission
from tests.web.factories import World, add_fleet, make_campaign, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    """p0's diplomat Ochre and its mission against p1, declared in round 1; p2 looks on."""
    world = make_campaign("Envoys", n_powers=3)
    add_fleet(world, groups=1)
    for i, user in enumerate(world.users):
        user.email = f"player{i}@example.org"
        user.save(update_fields=["email"])
    p0, p1, _ = world.powers
    Diplomat.objects.create(
        campaign=world.campaign, key="p0-ochre", power=p0, name="Envoy Ochre",
        craft=Craft.objects.get(key="p0-g0-f0"),
    )  # fmt: skip
    Mission.objects.create(
        campaign=world.campaign, key="p0-m1", power=p0, diplomat="p0-ochre", target=p1,
        kind="bribe_guild", declared=1, spent={"gal": 9},
    )  # fmt: skip
    return world


@pytest.fixture
def organiser() -> Client:
    user = make_user("organiser")
    user.is_staff = user.is_superuser = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def url(mission: Mission) -> str:
    return f"/admin/powers/mission/{mission.pk}/change/"


GOOD = {
    "outcome_text": "The guild took the bribe and looked away.",
    "reveal": "p1 keeps 40 Ore at s1-0",
    "moves": "gal 5 p1 p0",
    "loyalty": "s1-0 -2",
}


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("outcome_text", "   ", "write what happened"),
        ("moves", "gal 5 p9 p0", "line 1: gal moves between a power each; there is no power 'p9'"),
        ("moves", "gal 5 p1 p0\nore 3 p1 s0-0", "line 2: ore moves between a hub or system each"),
        ("moves", "gold 5 p1 p0", "line 1: the resource is one of gal, tp, ore, bio, pl"),
        ("moves", "gal five p1 p0", "line 1: the amount is a whole number"),
        ("loyalty", "s1-0 -2\nnowhere 1", "line 2: no system &#x27;nowhere&#x27;"),
        ("loyalty", "s1-0 zero", "line 1: the change is a whole number other than 0"),
    ],
)
def test_a_bad_field_is_named_and_nothing_is_stored(
    world: World, organiser: Client, field: str, value: str, problem: str
) -> None:
    mission = Mission.objects.get(key="p0-m1")
    page = organiser.post(url(mission), {**GOOD, field: value})
    assert page.status_code == 200  # the form again, with the error at its field
    text = page.content.decode()
    assert problem.replace("'", "&#x27;") in text
    assert f'id="id_{field}_error"' in text or "errorlist" in text
    mission.refresh_from_db()
    assert mission.outcome is None
    assert not Notice.objects.exists()


def test_the_outcome_is_stored_told_to_both_and_applied_once(
    world: World,
    organiser: Client,
    eager: None,
    mailoutbox: list[EmailMessage],
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    p2 = world.powers[2]
    mission = Mission.objects.get(key="p0-m1")
    form = organiser.get(url(mission)).content.decode()
    assert "Resources moved" in form and "Envoy" not in form.split("<form")[0]
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser.post(url(mission), GOOD)
    assert response.status_code == 302
    mission.refresh_from_db()
    assert mission.outcome == {
        "text": "The guild took the bribe and looked away.",
        "reveal": ["p1 keeps 40 Ore at s1-0"],
        "moves": [{"resource": "gal", "amount": 5, "from": "p1", "to": "p0"}],
        "loyalty": [{"system": "s1-0", "change": -2}],
    }
    # told: the target's and the sender's players, nobody else; never the diplomat or costs
    notices = {n.user.username: n for n in Notice.objects.filter(kind=Kind.MISSION_RESOLVED)}
    assert set(notices) == {world.users[0].username, world.users[1].username}
    assert sorted(m.to[0] for m in mailoutbox) == ["player0@example.org", "player1@example.org"]
    to_target = next(m for m in mailoutbox if m.to == ["player1@example.org"])
    assert "Power 0 sent a diplomatic mission (bribe guild) against Power 1" in to_target.body
    assert "looked away" in to_target.body
    for m in mailoutbox:
        assert "Ochre" not in m.body and "9 Gal" not in m.body and "40 Ore" not in m.body
    # a correction before the round resolves replaces it, told once
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(url(mission), {**GOOD, "moves": "gal 6 p1 p0"})
    assert Notice.objects.filter(kind=Kind.MISSION_RESOLVED).count() == 2
    assert len(mailoutbox) == 2
    # the next resolution applies it at its start, once
    lr = StarSystem.objects.get(key="s1-0").loyalty
    for p in world.powers:
        services.submit_sheet(power=p, actor="t")
    rnd = Round.objects.get(campaign=world.campaign, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.resolve_round(round_id=rnd.pk)
    lines = LedgerLine.objects.filter(rule="R-8.4a").order_by("seq")
    assert [(line.power.key, line.resource, line.amount) for line in lines] == [
        ("p1", "gal", -6),
        ("p0", "gal", 6),
    ]
    assert {line.step for line in lines} == {"round.start"}
    events = [e for e in rnd.record.events if str(e["kind"]).startswith("mission.")]
    assert [(e["kind"], e["step"], e["powers"]) for e in events] == [
        ("mission.resolved", "round.start", ["p0", "p1"]),
        ("mission.revealed", "round.start", ["p0"]),  # the facts: to the sender only
        ("mission.moved", "round.start", ["p0", "p1"]),
        ("mission.loyalty", "round.start", ["p0", "p1"]),
    ]
    assert rnd.record.events[: len(events)] == events  # at the start of the round
    assert p2.key not in str(events)
    assert events[3]["data"]["before"] == lr and events[3]["data"]["after"] == lr - 2
    # in words: the target reads the mission by its sender and kind, never by the sender's id
    target_words = [describe(e, names_for(world.powers[1])) for e in events if "p1" in e["powers"]]
    assert target_words[0] == (
        "Power 0's diplomatic mission (bribe the guild) against Power 1: "
        "The guild took the bribe and looked away."
    )
    assert target_words[1] == "By the diplomatic mission: 6 Gal moved"
    assert "m1" not in " ".join(target_words)
    sender_words = [describe(e, names_for(world.powers[0])) for e in events]
    assert sender_words[1] == "Mission m1 reveals: p1 keeps 40 Ore at s1-0"
    assert not Mission.objects.filter(key="p0-m1").exists()
    for p in world.powers:
        services.submit_sheet(power=p, actor="t")
    assert services.resolve_round(round_id=Round.objects.get(campaign=world.campaign, number=2).pk)
    assert LedgerLine.objects.filter(rule="R-8.4a").count() == 2


def test_no_outcome_while_the_round_is_being_resolved(world: World, organiser: Client) -> None:
    """The outcome is an input of the next resolution, whole: while one runs, the form says
    so and nothing is stored (the service takes the open round's lock and re-checks)."""
    mission = Mission.objects.get(key="p0-m1")
    Round.objects.filter(campaign=world.campaign, number=1).update(status="resolving")
    page = organiser.post(url(mission), GOOD)
    assert page.status_code == 200
    assert "No round is open" in page.content.decode()
    mission.refresh_from_db()
    assert mission.outcome is None
    with pytest.raises(RoundNotOpen):
        mission_outcomes.resolve_mission(
            mission_id=mission.pk, effects=mission_outcomes.Effects("x"), actor="t"
        )
    mission.refresh_from_db()
    assert mission.outcome is None and not Notice.objects.exists()
