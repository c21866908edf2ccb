"""The one decorator of a player's page writes: a POST from one power's page through a service.
It holds what every such write does alike — POST only, the access gate (``player_view``: another
power's page is a 404), a missing object as a 404, a refusal caught — and leaves to each page
what differs: which refusals it shows itself (the others reach ``ftcamp.http``'s middleware) and
how it answers, given what the view returned or the refusal it raised (its *outcome*).
``section`` is the answer of the pages whose writes htmx swaps into one section."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from economy.rounds import writes_for_round
from ftcamp.errors import Conflict, DomainError
from ftcamp.http import HtmxHttpRequest
from powers.access import player_view
from powers.models import Power

T = TypeVar("T")


def page_write(
    answer: Callable[[HtmxHttpRequest, Power, T | DomainError], HttpResponse],
    *,
    shown: tuple[type[DomainError], ...],
    missing: tuple[type[Exception], ...] = (),
    missing_text: str = "",
) -> Callable[[Callable[..., T]], Callable[..., HttpResponse]]:
    """A view ``(request, power, **url_kwargs) -> T`` made a page write: POST only, the access
    gate, then the view; ``missing`` raised becomes a 404 saying ``missing_text``, ``shown`` is
    caught (nothing was written); ``answer`` answers the outcome either way. A write that
    carries its ``round`` (a hidden field, or htmx's ``hx-vals`` on the section) is refused
    with 409 (``RoundOver``) if that round is over, by the round lock its service takes
    (issue 32); one that does not is taken as before."""

    def decorate(view: Callable[..., T]) -> Callable[..., HttpResponse]:
        @require_POST
        @player_view
        @wraps(view)
        def wrapper(request: HtmxHttpRequest, power: Power, **kwargs: Any) -> HttpResponse:
            outcome: T | DomainError
            try:
                with writes_for_round(posted_round(request), campaign_id=power.campaign_id):
                    outcome = view(request, power, **kwargs)
            except missing:
                raise Http404(missing_text) from None
            except shown as exc:
                outcome = exc
            return answer(request, power, outcome)

        return wrapper

    return decorate


def section(
    page: str,
    fragment: str,
    url_name: str,
    context: Callable[[HttpRequest, Power, list[str]], dict[str, Any]],
) -> Callable[[HtmxHttpRequest, Power, object], HttpResponse]:
    """The answer of a write on one section of a page: with htmx the section (``fragment``)
    again, a refusal's errors in it (2xx, or 409 for a round that is over or resolving, which
    the page's htmx config swaps too); without, the whole ``page`` with the errors and the
    refusal's status, or else a redirect to it. ``context`` builds either from the request,
    the power and the refusal's errors (none after a write)."""

    def answer(request: HtmxHttpRequest, power: Power, outcome: object) -> HttpResponse:
        errors = outcome.errors if isinstance(outcome, DomainError) else []
        ctx = context(request, power, errors)
        if request.htmx:
            status = outcome.status if isinstance(outcome, Conflict) else 200
            return render(request, fragment, ctx, status=status)
        if isinstance(outcome, DomainError) and errors:
            return render(request, page, ctx, status=outcome.status)
        return redirect(reverse(url_name, args=[power.campaign_id, power.key]))

    return answer


def posted_round(request: HttpRequest) -> int | None:
    """The round the page was showing when it posted (the order sheet's and the Fleet page's
    forms carry it), so a write for a round that is over is refused rather than applied to
    the next one."""
    value = request.POST.get("round", "")
    return int(value) if value.isdigit() and len(value) < 10 else None
