"""A persistent database connection that PostgreSQL closed under Django (a restart, a failover,
an idle timeout) costs no 500: ``CONN_HEALTH_CHECKS`` is on wherever ``CONN_MAX_AGE`` keeps
connections, so the next request finds the dead one and opens another (issue 32, item 2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.helpers import postgresql_only
from tests.web.factories import make_campaign

pytestmark = [pytest.mark.django_db(transaction=True), postgresql_only]


@pytest.fixture
def persistent_connections() -> Iterator[None]:
    """The production shape's ``DB_CONN_MAX_AGE`` (60 s) for this test's connection; the
    health-check flag stays as the settings module set it."""
    saved = connection.settings_dict["CONN_MAX_AGE"]
    connection.settings_dict["CONN_MAX_AGE"] = 60
    connection.close()
    yield
    connection.settings_dict["CONN_MAX_AGE"] = saved
    connection.close()


def _terminate(pid: int) -> None:
    """From a connection of its own, as a PostgreSQL restart would: end the backend ``pid``."""
    params = connection.get_connection_params()
    with psycopg.connect(
        host=params.get("host") or "127.0.0.1",
        port=params.get("port") or 5432,
        user=params.get("user"),
        dbname=params["dbname"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _backend_pid() -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        return int(cur.fetchone()[0])


def _serve(path: str, session: str) -> int:
    """One request through Django's WSGI handler as gunicorn calls it (the test client skips
    the request signals that check connections), in this thread: its status."""
    environ = RequestFactory().get(path, HTTP_COOKIE=f"sessionid={session}").environ
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
        statuses.append(status)

    answer = WSGIHandler()(environ, start_response)
    answer.close()  # request_finished, as gunicorn does
    return int(statuses[0].split()[0])


def test_health_checks_are_on_with_persistent_connections() -> None:
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_a_connection_terminated_between_requests_gives_no_500(
    persistent_connections: None,
) -> None:
    world = make_campaign()
    client = Client()
    client.force_login(world.users[0])
    session = client.cookies["sessionid"].value
    path = reverse("my-campaigns")
    assert _serve(path, session) == 200
    pid = _backend_pid()  # kept (CONN_MAX_AGE), as a gunicorn worker keeps it
    _terminate(pid)
    assert _serve(path, session) == 200
    assert _backend_pid() != pid
