"""Fixtures many web tests share: a small campaign and its first player, logged in."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.web.factories import World, make_campaign


@pytest.fixture
def world() -> World:
    """Two powers with three systems and a hub each (a module may define its own)."""
    return make_campaign()


@pytest.fixture
def player(client: Client, world: World) -> Client:
    """The client, logged in as the first power's player."""
    client.force_login(world.users[0])
    return client
