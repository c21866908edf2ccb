"""Order appends are retry-safe (issue 32, item 6): a POST with an ``Idempotency-Key`` done
again by the same user — after a lost answer, by another process — gets the first answer
(status and body) and appends nothing; another request with the same key is a 422; another
user's key is their own; a refused append keeps no key; keys expire (24 hours)."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client

from economy.models import IdempotencyKey, Order
from tests.helpers import postgresql_only
from tests.web.factories import World, make_campaign

pytestmark = pytest.mark.sqlite

ORDER = {"type": "gal_transfer", "to": "p1", "amount": 3}


def append(client: Client, world: World, body: object, key: str | None) -> tuple[int, object]:
    r = client.post(
        f"/api/campaigns/{world.campaign.pk}/orders/",
        json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": key} if key is not None else None,
    )
    return r.status_code, r.json()


@pytest.mark.django_db
def test_a_retry_with_the_same_key_gets_the_first_answer_and_appends_nothing(
    player: Client, world: World
) -> None:
    first = append(player, world, ORDER, "k-1")
    assert first[0] == 201
    assert append(player, world, ORDER, "k-1") == first
    assert Order.objects.count() == 1
    # a new key, a new append; no key, as before
    assert append(player, world, ORDER, "k-2")[0] == 201
    assert append(player, world, ORDER, None)[0] == 201
    assert Order.objects.count() == 3


@pytest.mark.django_db
def test_the_same_key_with_another_request_is_a_422(player: Client, world: World) -> None:
    assert append(player, world, ORDER, "k-1")[0] == 201
    status, body = append(player, world, {**ORDER, "amount": 4}, "k-1")
    assert status == 422 and "Idempotency-Key" in str(body)
    assert Order.objects.count() == 1


@pytest.mark.django_db
def test_keys_are_per_user_and_refusals_are_not_kept(player: Client, world: World) -> None:
    other = Client()
    other.force_login(world.users[1])
    assert append(player, world, ORDER, "same")[0] == 201
    assert append(other, world, {**ORDER, "to": "p0"}, "same")[0] == 201
    assert Order.objects.count() == 2
    bad = {**ORDER, "amount": -1}
    assert append(player, world, bad, "bad")[0] == 400
    assert not IdempotencyKey.objects.filter(key="bad").exists()


@pytest.mark.django_db
def test_a_bad_key_is_a_400(player: Client, world: World) -> None:
    assert append(player, world, ORDER, "x" * 256)[0] == 400
    assert append(player, world, ORDER, "caf\u00e9")[0] == 400
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_keys_expire(player: Client, world: World) -> None:
    assert append(player, world, ORDER, "k-1")[0] == 201
    IdempotencyKey.objects.update(
        created_at=IdempotencyKey.objects.get().created_at - timedelta(hours=25)
    )
    assert append(player, world, ORDER, "k-1")[0] == 201
    assert Order.objects.count() == 2 and IdempotencyKey.objects.count() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_append_once() -> None:
    """Eight threads, eight connections, one key at once: one append, eight equal answers."""
    world = make_campaign()
    answers: list[tuple[int, object]] = []
    barrier = threading.Barrier(8)

    def retry() -> None:
        client = Client()
        client.force_login(world.users[0])
        barrier.wait()
        try:
            answers.append(append(client, world, ORDER, "race"))
        finally:
            connection.close()

    threads = [threading.Thread(target=retry) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert Order.objects.count() == 1
    assert len(answers) == 8 and all(a == answers[0] for a in answers)
    assert answers[0][0] == 201
