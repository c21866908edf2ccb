"""The maps of past rounds (issue 30): ``?round=N`` on the public and private maps draws the map
after resolved round N from the round records, lists what that round changed in names, keeps
another power's secrets out, and costs the same number of queries however many rounds passed."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from economy.models import Round, RoundRecord, RoundStatus
from economy.snapshot.load import export_state
from powers.models import BubbleSensor, CommandBubble, Power, StarSystem
from tests.web.factories import World, make_campaign
from tests.web.test_maps import assert_no_trace_of, count_queries, login
from trade.models import HubLink, HubNode, TradeHub

pytestmark = pytest.mark.django_db

# Secrets that exist only in round 2's record (the state after round 1), in deep space.
P0_CENTRE, P0_NODE, P0_HQ, P0_SENSOR = "1520", "1722", "1225", "1326"
P1_CENTRE, P1_NODE, P1_HQ, P1_SENSOR = "2030", "2232", "3035", "3336"
BATTLE = "0402"


def _at(code: str) -> dict[str, int]:
    return {"col": int(code[:2]), "row": int(code[2:])}


def _hub(world: World, power: Power, key: str, name: str, centre: str, node: str) -> None:
    hub = TradeHub.objects.create(campaign=world.campaign, key=key, name=name, power=power)
    c = HubNode.objects.create(campaign=world.campaign, hub=hub, is_centre=True, **_at(centre))
    n = HubNode.objects.create(campaign=world.campaign, hub=hub, **_at(node))
    HubLink.objects.create(hub=hub, a=c, b=n)


def _bubble(world: World, power: Power, key: str, hq: str, sensor: str) -> None:
    at = _at(hq)
    bubble = CommandBubble.objects.create(
        campaign=world.campaign, key=key, power=power, radius=1, hq_col=at["col"], hq_row=at["row"]
    )
    BubbleSensor.objects.create(bubble=bubble, **_at(sensor))


def _resolve(world: World, number: int, events: list[dict[str, object]] | None = None) -> None:
    """Round ``number`` resolved with the live state as its starting state, the next opened."""
    campaign = world.campaign
    rnd, _ = Round.objects.get_or_create(campaign=campaign, number=number)
    RoundRecord.objects.create(
        round=rnd, state=export_state(campaign), orders={}, seed=0, events=events or []
    )
    rnd.status = RoundStatus.RESOLVED
    rnd.save(update_fields=["status"])
    Round.objects.create(campaign=campaign, number=number + 1)
    campaign.current_round = number + 1
    campaign.save(update_fields=["current_round"])


def history(name: str = "History", *, extra_rounds: int = 0) -> World:
    """Two resolved rounds (and ``extra_rounds`` more, changing nothing): in round 1, Power 0
    sets up hub West and both powers a bubble; in round 2, a battle at 0402, Power 0's West and
    both bubbles are gone and System 0-1 (0102) passes from Power 0 to Power 1."""
    world = make_campaign(name)
    p0, p1 = world.powers
    Power.objects.filter(pk=p1.pk).update(colour="#aa0000")
    _resolve(world, 1)
    _hub(world, p0, "p0-west", "West", P0_CENTRE, P0_NODE)
    _hub(world, p1, "p1-deep", "Deep", P1_CENTRE, P1_NODE)
    _bubble(world, p0, "p0-b1", P0_HQ, P0_SENSOR)
    _bubble(world, p1, "SECRET-P1-BUBBLE", P1_HQ, P1_SENSOR)
    battle = {"step": "10", "kind": "battle.fought", "data": {"hex": BATTLE}, "public": True}
    _resolve(world, 2, [battle])
    TradeHub.objects.filter(key="p0-west").delete()
    CommandBubble.objects.filter(campaign=world.campaign).delete()
    StarSystem.objects.filter(campaign=world.campaign, key="s0-1").update(holder=p1)
    for n in range(3, 3 + extra_rounds):
        _resolve(world, n)
    return world


def _get(client: Client, name: str, *args: object, round: object = None) -> str:
    url = reverse(name, args=args) + ("" if round is None else f"?round={round}")
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _changes(page: str) -> list[str]:
    aside = page.split('id="map-changes"', 1)[1].split("</aside>", 1)[0]
    return [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(r"<li>(.*?)</li>", aside)]


def test_round_1_shows_the_old_holder_and_round_2_lists_the_change_in_names(
    client: Client,
) -> None:
    world = history()
    cid = world.campaign.pk
    old = "<title>System 0-1 (0102, Power 0)</title>"
    new = "<title>System 0-1 (0102, Power 1)</title>"
    now = _get(client, "map-public-svg", cid)
    assert new in now and old not in now
    for name in ("map-public", "map-public-svg"):
        after_1 = _get(client, name, cid, round=1)
        assert old in after_1 and new not in after_1
    page_1 = _get(client, "map-public", cid, round=1)
    assert _changes(page_1) == [
        "Power 0 set up a trade hub (outline on the map)",
        "Power 1 set up a trade hub (outline on the map)",
    ]
    assert "After round 1" in page_1 and 'href="?round=2"' in page_1
    assert f'href="{reverse("map-public-svg", args=[cid])}?round=1"' in page_1
    page_2 = _get(client, "map-public", cid, round=2)
    assert new in page_2 and old not in page_2
    assert _changes(page_2) == [
        "System 0-1 (0102): Power 0 → Power 1",
        "Power 0 lost a trade hub",
        f"A battle was fought at {BATTLE}",
    ]
    # names, never keys
    assert not re.search(r"\b(p0|p1|s0-1|p0-west)\b", " ".join(_changes(page_2)))
    # the battle marker is round 2's, not round 1's
    assert BATTLE in _get(client, "map-public-svg", cid, round=2)
    assert 'class="battle' not in _get(client, "map-public-svg", cid, round=1)
    # the stepper: now steps back to round 2, round 2 forward to now, round 1 has no back
    assert 'href="?round=2"' in _get(client, "map-public", cid)
    assert 'href="?" rel="next"' in page_2
    assert 'rel="prev"' not in page_1


def test_past_private_map_has_its_own_secrets_of_then_and_never_anothers(client: Client) -> None:
    world = history()
    cid = world.campaign.pk
    p0, p1 = world.powers
    login(client, world.users[0].username)
    page = _get(client, "map-private", cid, p0.key, round=1)
    svg = _get(client, "map-private-svg", cid, p0.key, round=1)
    for text in (page, svg):
        # Power 0's hub West and bubble of then, from the record (both are gone now)
        assert 'data-hub="p0-west"' in text and 'data-bubble="p0-b1"' in text
        assert f"Node {P0_NODE} of hub West" in text
        assert_no_trace_of(text, [P1_CENTRE, P1_NODE, P1_HQ, P1_SENSOR])
        assert "SECRET-P1-BUBBLE" not in text and "p1-deep" not in text
    assert _changes(page) == [
        "Your hub West was set up",
        "Power 1 set up a trade hub (outline on the map)",
    ]
    assert "Your hub West was lost" in _changes(_get(client, "map-private", cid, p0.key, round=2))
    now = _get(client, "map-private-svg", cid, p0.key)
    assert 'data-hub="p0-west"' not in now and 'data-bubble="p0-b1"' not in now
    # another power's past map stays a 404, as its live map
    url = reverse("map-private", args=[cid, p1.key]) + "?round=1"
    assert client.get(url).status_code == 404
    # the public past map: outlines only, no node, centre, link or bubble of anyone
    client.logout()
    public = _get(client, "map-public-svg", cid, round=1)
    assert_no_trace_of(public, [P0_CENTRE, P0_NODE, P0_HQ, P0_SENSOR, P1_CENTRE, P1_NODE, P1_HQ])
    assert "own-hub" not in public and "bubble" not in public and "p0-west" not in public


@pytest.mark.parametrize("value", ["abc", "0", "-1", "3", "99", "1.5", "%C2%B2", "9" * 20, " 1"])
def test_bad_rounds_are_404_never_500(client: Client, value: str) -> None:
    world = history()
    cid, key = world.campaign.pk, world.powers[0].key
    login(client, world.users[0].username)
    for url in (
        reverse("map-public", args=[cid]),
        reverse("map-public-svg", args=[cid]),
        reverse("map-private", args=[cid, key]),
        reverse("map-private-svg", args=[cid, key]),
    ):
        assert client.get(f"{url}?round={value}").status_code == 404, (url, value)
    # an empty value is the map now
    assert client.get(reverse("map-public", args=[cid]) + "?round=").status_code == 200


def test_query_count_of_a_past_map_does_not_grow_with_the_rounds(client: Client) -> None:
    counts = []
    for name, extra in (("Short", 0), ("Long", 6)):
        world = history(name, extra_rounds=extra)
        cid, key = world.campaign.pk, world.powers[0].key
        last = 2 + extra
        client.logout()
        row = [
            count_queries(client, reverse("map-public", args=[cid]) + "?round=1"),
            count_queries(client, reverse("map-public-svg", args=[cid]) + f"?round={last}"),
            count_queries(client, reverse("map-public", args=[cid])),
        ]
        login(client, world.users[0].username)
        row += [
            count_queries(client, reverse("map-private", args=[cid, key]) + "?round=1"),
            count_queries(client, reverse("map-private-svg", args=[cid, key]) + f"?round={last}"),
        ]
        counts.append(row)
    assert counts[0] == counts[1]


def test_rounds_resolved_by_the_service_have_their_past_maps(client: Client) -> None:
    """The records the resolver itself writes (not hand-made ones) draw: public and private,
    each resolved round, the stepper's links leading from one to the next."""
    from economy import services

    world = make_campaign("Resolved")
    for _ in range(2):
        for power in world.powers:
            services.submit_sheet(power=power, actor="t")
        rnd = Round.objects.get(campaign=world.campaign, status=RoundStatus.OPEN)
        assert services.resolve_round(round_id=rnd.pk)
    cid, key = world.campaign.pk, world.powers[0].key
    assert 'href="?round=2"' in _get(client, "map-public", cid)
    page = _get(client, "map-public", cid, round=1)
    assert "<title>System 0-1 (0102, Power 0)</title>" in page and 'href="?round=2"' in page
    assert 'href="?" rel="next"' in _get(client, "map-public", cid, round=2)
    login(client, world.users[0].username)
    for number in (1, 2):
        assert 'data-hub="hub0"' in _get(client, "map-private-svg", cid, key, round=number)
        assert 'data-hub="hub1"' not in _get(client, "map-private", cid, key, round=number)
