"""Round pages: the order sheet (htmx), reports and history. Views are thin: the access gate,
then a service (writes) or a selector (reads). With htmx a view returns a fragment; without
it, the whole page (or a redirect after a write), so everything also works without JavaScript."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from economy import selectors, services
from economy.orderforms import ORDER_TYPES, form_values, payload_from, summary
from powers.access import access_power_for_user
from powers.models import Campaign, FleetGroup, Power


def _power(request: HttpRequest, campaign_id: int, power_key: str) -> Power:
    return access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)


def _actor(request: HttpRequest) -> str:
    return request.user.get_username()


def _sheet_url(power: Power) -> str:
    return reverse("orders", args=[power.campaign_id, power.key])


def _form_context(power: Power, kind: str, values: dict[str, str], errors: list[str]) -> dict:
    choices = selectors.choices_for(power)
    spec = ORDER_TYPES.get(kind)
    fields = []
    if spec:
        for f in spec.fields:
            fields.append(
                {
                    "spec": f,
                    "value": values.get(f.name, ""),
                    "choices": choices.get(f.source) if f.kind == "ref" else [],
                    "error": next((e for e in errors if e.startswith(f"{f.name}:")), ""),
                }
            )
    other = [e for e in errors if not any(e.startswith(f"{f['spec'].name}:") for f in fields)]
    return {"kind": kind, "spec": spec, "fields": fields, "errors": other, "all_errors": errors}


def _sheet_context(power: Power, **extra: Any) -> dict[str, Any]:
    rnd = selectors.live_round(power.campaign_id)
    sheet, orders = selectors.sheet_of(rnd, power) if rnd else (None, [])
    declared = {
        o.payload.get("group"): o.payload
        for o in orders
        if o.payload.get("type") == "declare_group"
    }
    groups = [
        {
            "group": g,
            "hex": declared.get(g.key, {}).get("hex", g.hex_code),
            "order": declared.get(g.key, {}).get("order", g.order),
            "status": declared.get(g.key, {}).get("status", "none"),
        }
        for g in FleetGroup.objects.filter(power=power).order_by("key")
    ]
    return {
        "power": power,
        "round": rnd,
        "sheet": sheet,
        "orders": [(o, summary(o.payload)) for o in orders],
        "open": rnd is not None and rnd.status == "open",
        "submissions": selectors.submissions(rnd) if rnd else [],
        "order_types": ORDER_TYPES,
        "groups": groups,
        "group_orders": ORDER_TYPES["declare_group"].fields[2].options,
        "group_statuses": ORDER_TYPES["declare_group"].fields[3].options,
        **extra,
    }


def _closed(request: HttpRequest, power: Power, exc: Exception) -> HttpResponse:
    if request.htmx:
        return HttpResponse(f'<p class="error">{exc}</p>', status=409)
    return render(
        request, "economy/orders.html", _sheet_context(power, closed_error=str(exc)), status=409
    )


@login_required
@require_GET
def orders(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = _power(request, campaign_id, power_key)
    kind = request.GET.get("type", "")
    ctx = _sheet_context(power, form=_form_context(power, kind, {}, []))
    return render(request, "economy/orders.html", ctx)


@login_required
@require_GET
def order_form(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    """The fields of one order type (htmx swaps them in when the type is chosen)."""
    power = _power(request, campaign_id, power_key)
    kind = request.GET.get("type", "")
    form = _form_context(power, kind, request.GET.dict(), [])
    return render(request, "economy/_order_fields.html", {"form": form, "power": power})


@login_required
@require_POST
def validate_order(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    """Validation as the player types: the engine's own entry checks and messages."""
    power = _power(request, campaign_id, power_key)
    kind = request.POST.get("type", "")
    errors = services.entry_errors(power=power, payload=payload_from(kind, request.POST))
    return render(request, "economy/_order_errors.html", {"errors": errors})


@login_required
@require_POST
def add_order(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = _power(request, campaign_id, power_key)
    kind = request.POST.get("type", "")
    payload = payload_from(kind, request.POST)
    position = request.POST.get("position", "")
    try:
        if position.isdigit():
            order = services.update_order(
                power=power, position=int(position), payload=payload, actor=_actor(request)
            )
        else:
            order = services.add_order(power=power, payload=payload, actor=_actor(request))
    except services.RoundNotOpen as exc:
        return _closed(request, power, exc)
    except services.OrderNotFound as exc:
        raise Http404(str(exc)) from None
    errors = order.error.split("; ") if order.error else []
    # Keep what was typed when the order has errors; start afresh when it is clean.
    form = _form_context(power, kind, request.POST.dict() if errors else {}, errors)
    if errors:
        form["saved_with_errors"] = True
    if request.htmx:
        response = render(request, "economy/_sheet.html", _sheet_context(power, form=form))
        return trigger_client_event(response, "sheet-changed")
    return redirect(_sheet_url(power))


@login_required
@require_GET
def edit_order(
    request: HttpRequest, campaign_id: int, power_key: str, position: int
) -> HttpResponse:
    power = _power(request, campaign_id, power_key)
    order = selectors.order_at(power, position)
    if order is None:
        raise Http404("No such order.")
    kind = order.payload.get("type", "")
    errors = order.error.split("; ") if order.error else []
    form = _form_context(power, kind, form_values(order.payload), errors)
    form["position"] = position
    template = "economy/_sheet.html" if request.htmx else "economy/orders.html"
    return render(request, template, _sheet_context(power, form=form))


def sheet_write(view: Callable[..., None]) -> Callable[..., HttpResponse]:
    """A POST that changes the power's sheet through a service: the access gate first, then
    409 if the round is closed, 404 for a missing order, else the refreshed sheet."""

    @login_required
    @require_POST
    @wraps(view)
    def wrapper(
        request: HttpRequest, campaign_id: int, power_key: str, **kwargs: Any
    ) -> HttpResponse:
        power = _power(request, campaign_id, power_key)
        try:
            view(request, power, **kwargs)
        except services.RoundNotOpen as exc:
            return _closed(request, power, exc)
        except services.OrderNotFound as exc:
            raise Http404(str(exc)) from None
        return _after_write(request, power)

    return wrapper


@sheet_write
def remove_order(request: HttpRequest, power: Power, position: int) -> None:
    services.remove_order(power=power, position=position, actor=_actor(request))


@sheet_write
def move_order(request: HttpRequest, power: Power, position: int) -> None:
    to = request.POST.get("to", "")
    if not to.lstrip("-").isdigit():
        raise services.OrderNotFound("to: expected a position")
    services.move_order(power=power, position=position, to=int(to), actor=_actor(request))


@sheet_write
def declare(request: HttpRequest, power: Power, group_key: str) -> None:
    """A fleet group's declaration for the round (R-2), kept as one declare_group order."""
    payload = payload_from("declare_group", {**request.POST.dict(), "group": group_key})
    services.set_declaration(power=power, payload=payload, actor=_actor(request))


@sheet_write
def submit(request: HttpRequest, power: Power) -> None:
    if request.POST.get("action") == "withdraw":
        services.withdraw_sheet(power=power, actor=_actor(request))
    else:
        services.submit_sheet(power=power, actor=_actor(request))


def _after_write(request: HttpRequest, power: Power) -> HttpResponse:
    if request.htmx:
        ctx = _sheet_context(power, form=_form_context(power, "", {}, []))
        response = render(request, "economy/_sheet.html", ctx)
        return trigger_client_event(response, "sheet-changed")
    return redirect(_sheet_url(power))


@login_required
@require_GET
def projection(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = _power(request, campaign_id, power_key)
    statement = selectors.projected_statement(power)
    return render(request, "economy/_statement.html", {"statement": statement, "projected": True})


# --- reports ------------------------------------------------------------------------------


@login_required
@require_GET
def report(request: HttpRequest, campaign_id: int, power_key: str, number: int) -> HttpResponse:
    power = _power(request, campaign_id, power_key)
    statement = selectors.round_statement(power, number)
    if statement is None:
        raise Http404("That round has not been resolved.")
    summary_ = selectors.round_summary(power.campaign, number)
    return render(
        request,
        "economy/report.html",
        {"power": power, "number": number, "statement": statement, "summary": summary_},
    )


@require_GET
def history(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Public: every round of the campaign with its public summary."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise Http404("No such campaign.")
    rows = selectors.round_history(campaign)
    my_power = None
    if request.user.is_authenticated:
        my_power = Power.objects.filter(campaign=campaign, memberships__user=request.user).first()
    return render(
        request,
        "economy/history.html",
        {
            "campaign": campaign,
            "rows": rows,
            "my_power": my_power,
        },
    )


@login_required
@require_GET
def ledger_export(request: HttpRequest, campaign_id: int, power_key: str, fmt: str) -> HttpResponse:
    """A power's whole ledger as CSV or JSON (its books, for its players only)."""
    power = _power(request, campaign_id, power_key)
    fields = ["round_number", "step", "where", "resource", "amount", "reason", "rule"]
    rows = selectors.power_ledger(power).values_list(*fields)
    filename = f"ledger-{power.campaign_id}-{power.key}.{fmt}"
    if fmt == "json":
        data = [dict(zip(fields, row, strict=True)) for row in rows]
        response = HttpResponse(json.dumps(data, indent=1), content_type="application/json")
    else:

        class Echo:
            def write(self, value: str) -> str:
                return value

        writer = csv.writer(Echo())
        response = StreamingHttpResponse(
            (writer.writerow(r) for r in [fields, *rows.iterator()]), content_type="text/csv"
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
