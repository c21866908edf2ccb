"""The one mapping of the services' refusals to HTTP answers (``ftcamp.errors``), for the API
(DRF's exception handler) and for the pages (a middleware), so both front doors answer a refusal
the same way: 400 naming the field, 403, 404 or 409 with the open round."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_htmx.middleware import HtmxDetails
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from economy.texts import plain_all
from ftcamp.errors import Conflict, DomainError


class HtmxHttpRequest(HttpRequest):
    """A request as ``HtmxMiddleware`` (on for every request) leaves it."""

    htmx: HtmxDetails


class ConflictSerializer(serializers.Serializer[Any]):
    """Why a write was refused with 409, and the round that is open now (null while one is
    being resolved)."""

    detail = serializers.CharField()
    open_round = serializers.IntegerField(allow_null=True)


class ApiConflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The round no longer takes orders."
    default_code = "round_not_open"

    def __init__(self, exc: Conflict) -> None:
        super().__init__(str(exc))
        # the body as documented (ConflictSerializer): the open round stays a number (DRF
        # answers any JSON detail; its stubs allow error details only)
        self.detail = {
            "detail": exceptions.ErrorDetail(str(exc), self.default_code),
            "open_round": exc.open_round,  # type: ignore[dict-item]
        }


def field_errors(errors: list[str]) -> dict[str, list[str]]:
    """'amount: expected a positive integer' -> {"amount": ["expected a positive integer"]};
    a sentence naming no field goes under "detail"."""
    out: dict[str, list[str]] = {}
    for error in errors:
        name, _, text = error.partition(": ")
        known = text and name.replace("_", "").isalnum() and name.islower()
        out.setdefault(name if known else "detail", []).append(text if known else error)
    return out


def as_api_exception(exc: Exception) -> Exception:
    """A refusal as DRF answers it; anything else unchanged."""
    if isinstance(exc, ObjectDoesNotExist):
        return exceptions.NotFound()
    if not isinstance(exc, DomainError):
        return exc
    if isinstance(exc, Conflict):
        return ApiConflict(exc)
    if exc.status == 403:
        return exceptions.PermissionDenied(str(exc))
    if exc.status == 404:
        return exceptions.NotFound(str(exc))
    return exceptions.ValidationError(field_errors(exc.errors))


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """``REST_FRAMEWORK["EXCEPTION_HANDLER"]``."""
    return exception_handler(as_api_exception(exc), context)


class RefusalMiddleware:
    """A page's refusal: with htmx, the message is kept for the reloaded page (the sheet shows
    it); otherwise a short page says why, with the status of the mapping above. Views that
    re-show a form with what was typed catch ``Refused`` themselves."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not isinstance(exc, DomainError) or request.path.startswith("/api/"):
            return None
        text = "; ".join(plain_all(exc.errors))
        if getattr(request, "htmx", False):
            return reload_with(request, text, exc.status)
        return render(request, "refused.html", {"message": text}, status=exc.status)


def reload_with(request: HttpRequest, text: str, status: int) -> HttpResponse:
    """An htmx write refused: the message is kept for the page, which htmx reloads (it swaps
    2xx answers only, so the reloaded page is where the player reads why)."""
    messages.error(request, text)
    response = HttpResponse(status=status)
    response["HX-Refresh"] = "true"
    return response
