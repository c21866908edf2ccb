"""The Fleet page of a power (issue 14): its designs with a form to register one, its groups
and statics with their craft, EP and crew, and its builders with their work in progress.
Views are thin: the access gate, then a selector (reads) or the order service (writes: a design
is registered by an order on the sheet, like every other order)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from economy import entry, selectors, services
from economy.engine.designs import npv_problem
from economy.engine.orders import SPECS
from economy.engine.state import CAPACITIES, CRAFT_CLASSES, MOBILITIES, DesignSystem
from economy.orderforms import design_payload, system_rows
from economy.rounds import RoundNotOpen
from economy.texts import labels_for, plain_all
from fleet import costs as fleet_costs
from fleet import selectors as fleet_selectors
from ftcamp.errors import DomainError
from ftcamp.pagewrites import page_write, posted_round
from powers.access import actor, player_view
from powers.models import Power

DESIGN_FIELDS = ("id", "name", "class", "mobility", "mass", "npv", "crew", "loadout")


def _design_form(power: Power, data: Any = None, errors: list[str] | None = None) -> dict[str, Any]:
    """The register-a-design form: what was typed (kept on error) and why it was refused."""
    values = {f: str(data.get(f, "")) for f in DESIGN_FIELDS} if data is not None else {}
    return {
        "values": values,
        "rows": system_rows(data if data is not None else {}),
        "capacities": [(c, c.replace("_", " ")) for c in CAPACITIES],
        "classes": CRAFT_CLASSES,
        "mobilities": MOBILITIES,
        "errors": plain_all(errors or [], labels_for("register_design")),
        "check": _npv_check(design_payload(data)) if data is not None else "",
        "help": SPECS["register_design"].pays,
        "design_tp": power.campaign.design_tp,
    }


def _npv_check(payload: dict[str, Any]) -> str:
    """R-10.0 in words: the systems' point cost against the NPV typed so far."""
    systems = payload.get("systems")
    if not isinstance(systems, list):
        return ""
    points = 0
    for s in systems:
        p, n = s.get("points"), s.get("count", 1)
        if isinstance(p, int) and isinstance(n, int):
            points += p * n
    npv = payload.get("npv")
    if not isinstance(npv, int):
        return f"The systems cost {points} points: the NPV must be at least that."
    problem = npv_problem(npv, [DesignSystem("sum", "sum", points)])
    if problem:
        return f"The systems cost {points} points, more than the NPV {npv}: raise the NPV."
    return f"The systems cost {points} points; NPV {npv} leaves {npv - points} for hull and drives."


def _page(
    request: HttpRequest, power: Power, form: dict[str, Any], status: int = 200
) -> HttpResponse:
    rnd = selectors.live_round(power.campaign_id)
    page = fleet_selectors.fleet_page(power=power)
    kept = request.session.pop(fleet_selectors.PACT_KEPT, None)  # a refused offer's choices
    if kept is None and request.method == "GET":  # a thread's "propose" (issue 31): prefilled
        kept = {k: request.GET[k][:64] for k in ("kind", "other") if k in request.GET} or None
    context = {
        "power": power,
        "fleet": page,
        "pacts": fleet_selectors.pacts_of(power),  # loans and transfers in and out (Support 1.6)
        "pact_form": fleet_selectors.pact_form(power, page, kept),  # by name (issue 30)
        "form": form,
        "round": rnd,
        "open": rnd is not None and rnd.status == "open",
    }
    return render(request, "economy/fleet.html", context, status=status)


@require_GET
@player_view
def fleet(request: HttpRequest, power: Power) -> HttpResponse:
    return _page(request, power, _design_form(power))


def _registered(request: HttpRequest, power: Power, outcome: str | DomainError) -> HttpResponse:
    """Back to the Fleet page saying the design is on the orders; refused (nothing written),
    the page again with what was typed kept and why."""
    if isinstance(outcome, RoundNotOpen):  # over (409, as on the sheet): typed values kept
        form = _design_form(power, request.POST, [f"order: {outcome}"])
        return _page(request, power, form, status=outcome.status)
    if isinstance(outcome, DomainError):
        return _page(request, power, _design_form(power, request.POST, outcome.errors), status=400)
    messages.success(request, outcome)
    return redirect(reverse("fleet", args=[power.campaign_id, power.key]))


@page_write(_registered, shown=(RoundNotOpen, services.OrderInvalid))
def register_design(request: HttpRequest, power: Power) -> str:
    """Adds a ``register_design`` order to the sheet; refused (nothing written) with what was
    typed kept when the entry check or a rule says no."""
    payload = design_payload(request.POST)
    services.add_order(
        power=power,
        payload=payload,
        actor=actor(request),
        strict=True,
        round_number=posted_round(request),
    )
    name = payload.get("name") or payload.get("id")
    return (
        f"Design {name} is on your orders: it is registered when the round resolves, and you "
        "can order builds of it in the same round."
    )


@require_POST
@player_view
def check_design(request: HttpRequest, power: Power) -> HttpResponse:
    """The design form checked as it is typed (htmx): the NPV check and the entry check."""
    payload = design_payload(request.POST)
    errors = entry.check(power, payload).problems
    return render(
        request,
        "economy/_design_check.html",
        {
            "check": _npv_check(payload),
            "errors": plain_all(errors, labels_for("register_design")),
            "cost": fleet_costs.order_cost(power=power, payload=payload),
        },
    )
