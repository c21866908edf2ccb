"""One mapping of the services' refusals to HTTP answers, shared by the API and the pages
(issue 12): each refusal class answers with its own status at both front doors."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory
from rest_framework.views import APIView

from economy.rounds import RoundNotOpen, RoundOver
from economy.services import OrderInvalid, OrderNotFound
from ftcamp.errors import DomainError
from ftcamp.http import RefusalMiddleware, api_exception_handler
from trade.services import NotAMember, TradeError

REFUSALS: list[tuple[DomainError, int]] = [
    (OrderInvalid(["amount: expected a positive integer, got 0"]), 400),
    (TradeError(["delivery: must be a later round"]), 400),
    (NotAMember("Only committee members may vote."), 403),
    (OrderNotFound("No order at that position."), 404),
    (RoundNotOpen("The round is being resolved."), 409),
    (RoundOver(3, 4), 409),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("exc", "status"), REFUSALS, ids=lambda v: type(v).__name__)
def test_the_api_and_the_pages_answer_a_refusal_alike(exc: DomainError, status: int) -> None:
    request = RequestFactory().post("/api/v1/anything/")
    response = api_exception_handler(exc, {"view": APIView(), "request": request})
    assert response is not None and response.status_code == status

    page = RequestFactory().post("/campaigns/1/powers/p/orders/add/")
    page.session = SessionStore()
    page._messages = FallbackStorage(page)  # type: ignore[attr-defined]
    page.user = AnonymousUser()
    answer = RefusalMiddleware(HttpResponse).process_exception(page, exc)
    assert answer is not None and answer.status_code == status


@pytest.mark.django_db
def test_the_api_bodies_name_the_field_and_the_open_round() -> None:
    request = RequestFactory().post("/api/v1/anything/")
    context = {"view": APIView(), "request": request}
    invalid = api_exception_handler(OrderInvalid(["amount: expected 1..10"]), context)
    assert invalid is not None and invalid.data == {"amount": ["expected 1..10"]}
    over = api_exception_handler(RoundOver(3, 4), context)
    assert over is not None and over.data["open_round"] == 4
    assert "round 3 is over" in str(over.data["detail"])
