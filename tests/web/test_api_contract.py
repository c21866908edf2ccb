"""Issue 11, item 12: the API keeps the contract its OpenAPI schema states. A bounded
schemathesis run — a fixed seed, a few examples per operation, valid and invalid requests —
as a player with a token, with the checks ``not_a_server_error``, ``status_code_conformance``,
``content_type_conformance``, ``response_schema_conformance`` and ``negative_data_rejection``
(not ``positive_data_acceptance``: a well-formed order may still break a rule). 0 failures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from powers.models import FleetGroup
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
EXAMPLES = 10  # per operation and run: about 900 requests in all


@pytest.fixture
def keep_the_test_connection() -> Iterator[None]:
    """Requests go straight to the WSGI application, whose request signals would close the
    test's database connection (and its transaction) after each one."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_the_api_keeps_its_contract(keep_the_test_connection: None) -> None:
    world = make_campaign()
    FleetGroup.objects.create(
        campaign=world.campaign, key="g0", power=world.powers[0], col=1, row=1
    )
    token = Token.objects.create(user=world.users[0])
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    auth = {"Authorization": f"Token {token.key}"}
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 25
    for operation in operations:
        ours = {"campaign_id": world.campaign.pk} if "campaign_id" in str(operation.path) else {}
        runs = [
            # the player's own campaign: requests reach the views
            (GenerationMode.POSITIVE, ours),
            (GenerationMode.NEGATIVE, ours),
            # any path: invalid path parts too (a JSON 404 is the answer)
            (GenerationMode.NEGATIVE, {}),
        ]
        for mode, fixed in runs:
            strategy = operation.as_strategy(
                generation_mode=mode, path_parameters=fixed, headers=auth
            )

            @settings(
                max_examples=EXAMPLES,
                derandomize=True,
                database=None,
                deadline=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=strategy)
            def call(case: Any) -> None:
                response = case.call()
                case.validate_response(response, checks=CHECKS)

            try:
                call()
            except Unsatisfiable:
                # nothing in this request can be made invalid (no body, query or free path)
                assert mode is GenerationMode.NEGATIVE
            except (Exception, BaseExceptionGroup) as exc:
                # collected, so that one run reports every operation
                failures.append(f"{operation.label} ({mode.value}, {fixed}): {exc}")
    assert failures == [], "\n\n".join(failures)
