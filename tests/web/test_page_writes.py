"""Every player's page write goes through ``ftcamp.pagewrites.page_write``: POST only, the access
gate first (another power's page is a 404, a visitor is sent to log in), and an object the power
may not see is a 404 on every page alike."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.factories import World

pytestmark = pytest.mark.django_db

WRITES = [
    ("order-add", ()),
    ("order-remove", (0,)),
    ("order-move", (0,)),
    ("declare", ("g1",)),
    ("sheet-submit", ()),
    ("fleet-design", ()),
    ("pact-propose", ()),
    ("pact-act", ()),
    ("battle-enter", ()),
    ("battle-act", ()),
    ("agreement-propose", ()),
    ("agreement-act", ()),
    ("motion-draft", ()),
    ("motion-act", ()),
    ("un-vote", ()),
]


@pytest.mark.parametrize(("name", "args"), WRITES)
def test_a_page_write_is_a_post_behind_the_gate(
    client: Client, world: World, name: str, args: tuple[object, ...]
) -> None:
    mine = reverse(name, args=[world.campaign.pk, "p0", *args])
    theirs = reverse(name, args=[world.campaign.pk, "p1", *args])
    assert client.post(mine)["Location"].startswith(reverse("login"))
    client.force_login(world.users[0])
    assert client.get(mine).status_code == 405
    assert client.post(theirs).status_code == 404


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("order-remove", {}),
        ("pact-act", {"key": "L9", "action": "accept"}),
        ("battle-act", {"record": "B9", "action": "confirm"}),
        ("agreement-act", {"agreement": "A9", "action": "accept"}),
    ],
)
def test_what_the_power_may_not_see_is_a_404(
    player: Client, world: World, name: str, data: dict[str, str]
) -> None:
    args = [world.campaign.pk, "p0", *([7] if name == "order-remove" else [])]
    assert player.post(reverse(name, args=args), data).status_code == 404
