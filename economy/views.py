"""Round pages: the order sheet (htmx), reports and history. Views are thin: the access gate,
then a service (writes) or a selector (reads). With htmx a view returns a fragment; without
it, the whole page (or a redirect after a write), so everything also works without JavaScript."""

from __future__ import annotations

import csv
import json
from typing import Any, TypedDict

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from economy import chooser, entry, guide, order_map, selectors, services
from economy.engine.orders import SPECS
from economy.engine.orders.kinds import Field
from economy.engine.state import GROUP_ORDERS, GROUP_STATUSES
from economy.entry import player_order
from economy.events import ORDERS, STATUSES
from economy.guide import anchor, step_of
from economy.models import Order, Round, RoundStatus
from economy.orderforms import enum_word, form_values, payload_from, summary
from economy.rounds import RoundNotOpen
from economy.texts import labels_for, plain, plain_all
from fleet import costs as fleet_costs
from ftcamp.errors import DomainError
from ftcamp.http import HtmxHttpRequest, reload_with
from ftcamp.pagewrites import page_write, posted_round
from powers.access import actor, my_power, player_view
from powers.maps import render_svg
from powers.models import Campaign, FleetGroup, Power


def _sheet_url(power: Power) -> str:
    return reverse("orders", args=[power.campaign_id, power.key])


class FormField(TypedDict):
    spec: Field
    value: str
    values: list[str]
    choices: list[tuple[str, str]]
    options: list[tuple[str, str]]
    error: str


def _form_context(
    power: Power, kind: str, values: dict[str, str], errors: list[str]
) -> dict[str, object]:
    choices = selectors.choices_for(power)  # kept for the sheet's greyed types (one reading)
    spec = SPECS.get(kind)
    labels = labels_for(kind)
    fields: list[FormField] = []
    if spec:
        for f in spec.fields:
            own = next((e for e in errors if e.startswith(f"{f.name}:")), "")
            value = values.get(f.name, "")
            fields.append(
                {
                    "spec": f,
                    "value": value,
                    "values": value.split() if f.widget == "ids" else [],
                    "choices": choices.get(f.source) if f.source else [],
                    "options": [(o, enum_word(f, o)) for o in f.options],
                    "error": plain(own, labels),
                }
            )
    other = [e for e in errors if not any(e.startswith(f"{f['spec'].name}:") for f in fields)]
    if errors:  # messages may name ids: with names, as everywhere players read (issue 17)
        names = selectors.names_for(power)
        for field in fields:
            field["error"] = names.words(field["error"])
        other = [names.words(e) for e in other]
        errors = [names.words(e) for e in errors]
    return {
        "kind": kind,
        "spec": spec,
        "step": step_of(spec.step) if spec else None,
        "anchor": anchor("order", kind),
        "fields": fields,
        "errors": plain_all(other, labels),
        "all_errors": plain_all(errors, labels),
        "choices": choices,
    }


def _sheet_context(power: Power, **extra: Any) -> dict[str, Any]:
    rnd = selectors.live_round(power.campaign_id)
    sheet, orders = selectors.sheet_of(rnd, power) if rnd else (None, [])
    declared = {
        o.payload.get("group"): o.payload
        for o in orders
        if o.payload.get("type") == "declare_group"
    }
    names = selectors.names_for(power)
    form = extra.get("form")
    choices = form.get("choices") if isinstance(form, dict) else None
    why = selectors.unavailable(power, choices if isinstance(choices, selectors.Choices) else None)
    groups = [
        {
            "group": g,
            "name": names.name("groups", g.key),
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
        "orders": [
            (
                o,
                summary(player_order(power.key, o.payload), names),
                names.words(plain(o.error, labels_for(o.payload.get("type", "")))),
                names.words(plain(o.warning, labels_for(o.payload.get("type", "")))),
            )
            for o in orders
        ],
        "open": rnd is not None and rnd.status == "open",
        "submissions": selectors.submissions(rnd) if rnd else [],
        # by phase, the unusable apart; an order being edited keeps its type (issue 30)
        "chooser": chooser.choose(
            why, str(form.get("kind") or "") if isinstance(form, dict) else ""
        ),
        "groups": groups,
        "group_orders": [(o, ORDERS[o]) for o in GROUP_ORDERS],
        "group_statuses": [(o, STATUSES[o]) for o in GROUP_STATUSES],
        **extra,
    }


def _closed(request: HtmxHttpRequest, power: Power, exc: RoundNotOpen) -> HttpResponse:
    """A write the round no longer takes (being resolved, or over: issue 10): refused with
    409, and the sheet reloads as it is now, with the reason."""
    if request.htmx:
        return reload_with(request, str(exc), exc.status)
    return render(
        request,
        "economy/orders.html",
        _sheet_context(power, closed_error=str(exc)),
        status=exc.status,
    )


@require_GET
@player_view
def orders(request: HttpRequest, power: Power) -> HttpResponse:
    """The sheet. ``?part=map``: only its map (htmx loads it after the page and again on every
    change of the sheet, so the page itself reads no more). Any other field named in the query
    prefills the order form (the map's "Build here" and the like: issue 30)."""
    if request.GET.get("part") == "map":
        return _orders_map(request, power)
    kind = request.GET.get("type", "")
    ctx = _sheet_context(
        power,
        form=_form_context(power, kind, request.GET.dict(), []),
        resolved=_just_resolved(power, request.GET.get("resolved", "")),
    )
    return render(request, "economy/orders.html", ctx)


def _orders_map(request: HttpRequest, power: Power) -> HttpResponse:
    mapped = order_map.order_map(power=power)
    hex_url = reverse("map-private-hex", args=[power.campaign_id, power.key, "XXYY"])
    size = mapped.data.size or (99, 99)
    context = {
        "power": power,
        "svg": mark_safe(render_svg(mapped.data, hex_url=hex_url)),  # noqa: S308 - maps._e
        "places": mapped.places,
        "cols": size[0],
        "rows": size[1],
    }
    return render(request, "economy/_orders_map.html", context)


def _just_resolved(power: Power, number: str) -> int | None:
    """The round named by ``?resolved=N`` after the last submission, if it is resolved."""
    if not number.isdigit() or len(number) > 9:
        return None
    done = Round.objects.filter(
        campaign_id=power.campaign_id, number=int(number), status=RoundStatus.RESOLVED
    ).exists()
    return int(number) if done else None


@require_GET
@player_view
def order_form(request: HttpRequest, power: Power) -> HttpResponse:
    """The fields of one order type (htmx swaps them in when the type is chosen)."""
    kind = request.GET.get("type", "")
    form = _form_context(power, kind, request.GET.dict(), [])
    return render(request, "economy/_order_fields.html", {"form": form, "power": power})


@require_POST
@player_view
def validate_order(request: HttpRequest, power: Power) -> HttpResponse:
    """Validation as the player types: the engine's own entry checks and messages."""
    kind = request.POST.get("type", "")
    payload = payload_from(kind, request.POST)
    errors = entry.check(power, payload, position=_position(request)).problems
    if errors:
        names = selectors.names_for(power)
        errors = [names.words(e) for e in errors]
    return render(
        request,
        "economy/_order_errors.html",
        {
            "errors": plain_all(errors, labels_for(kind)),
            "cost": fleet_costs.order_cost(power=power, payload=payload),
        },
    )


def _position(request: HttpRequest) -> int | None:
    """The place on the sheet of the order being edited, if the form names one."""
    value = request.POST.get("position", "")
    return int(value) if value.isdigit() and len(value) < 10 else None


def _added(request: HtmxHttpRequest, power: Power, outcome: Order | DomainError) -> HttpResponse:
    """The answer of ``add_order``: the sheet with the form afresh, or with what was typed kept
    when the order was refused (400: nothing written) or saved with errors."""
    if isinstance(outcome, RoundNotOpen):
        return _closed(request, power, outcome)
    kind = request.POST.get("type", "")
    if isinstance(outcome, DomainError):
        # Refused (nothing written): the form again with what was typed and why.
        form = _form_context(power, kind, request.POST.dict(), outcome.errors)
        position = _position(request)
        if position is not None:
            form["position"] = position
        template = "economy/_sheet.html" if request.htmx else "economy/orders.html"
        return render(request, template, _sheet_context(power, form=form), status=400)
    errors = [m for mark in (outcome.error, outcome.warning) if mark for m in mark.split("; ")]
    # Keep what was typed when the order has errors or warnings; start afresh when it is clean.
    form = _form_context(power, kind, request.POST.dict() if errors else {}, errors)
    if errors:
        form["saved_with_errors"] = True
        form["position"] = outcome.position
    if request.htmx:
        response = render(request, "economy/_sheet.html", _sheet_context(power, form=form))
        return trigger_client_event(response, "sheet-changed")
    return redirect(_sheet_url(power))


@page_write(_added, shown=(RoundNotOpen, services.OrderInvalid))
def add_order(request: HttpRequest, power: Power) -> Order:
    """An order added to the sheet, or put in place of the one at ``position``."""
    payload = payload_from(request.POST.get("type", ""), request.POST)
    position = _position(request)
    rnd = posted_round(request)
    if position is not None:
        return services.update_order(
            power=power, position=position, payload=payload, actor=actor(request), round_number=rnd
        )
    return services.add_order(power=power, payload=payload, actor=actor(request), round_number=rnd)


@require_GET
@player_view
def edit_order(request: HtmxHttpRequest, power: Power, position: int) -> HttpResponse:
    order = selectors.order_at(power, position)
    if order is None:
        raise Http404("No such order.")
    kind = order.payload.get("type", "")
    errors = order.error.split("; ") if order.error else []
    form = _form_context(power, kind, form_values(player_order(power.key, order.payload)), errors)
    form["position"] = position
    template = "economy/_sheet.html" if request.htmx else "economy/orders.html"
    return render(request, template, _sheet_context(power, form=form))


def _written(
    request: HtmxHttpRequest, power: Power, outcome: int | DomainError | None
) -> HttpResponse:
    """The answer of a write on the sheet: 409 if the round is closed, the refusal as a message
    on the sheet, else the refreshed sheet (``_after_write``)."""
    if isinstance(outcome, RoundNotOpen):
        return _closed(request, power, outcome)
    if isinstance(outcome, DomainError):
        text = "; ".join(plain_all(outcome.errors))
        if request.htmx:
            return reload_with(request, text, outcome.status)
        messages.error(request, text)
        return redirect(_sheet_url(power))
    return _after_write(request, power, outcome)


# A POST that changes the power's sheet through a service; a missing order is a 404 (the
# middleware's answer to ``OrderNotFound``).
sheet_write = page_write(_written, shown=(RoundNotOpen, services.OrderInvalid))


@sheet_write
def remove_order(request: HttpRequest, power: Power, position: int) -> None:
    services.remove_order(
        power=power, position=position, actor=actor(request), round_number=posted_round(request)
    )


@sheet_write
def move_order(request: HttpRequest, power: Power, position: int) -> None:
    to = request.POST.get("to", "")
    if not to.isdigit() or len(to) > 9:
        raise services.OrderNotFound("There is no such place on your sheet.")
    services.move_order(
        power=power,
        position=position,
        to=int(to),
        actor=actor(request),
        round_number=posted_round(request),
    )


@sheet_write
def declare(request: HttpRequest, power: Power, group_key: str) -> None:
    """A fleet group's declaration for the round (R-2), kept as one declare_group order."""
    payload = payload_from("declare_group", {**request.POST.dict(), "group": group_key})
    services.set_declaration(
        power=power, payload=payload, actor=actor(request), round_number=posted_round(request)
    )


@sheet_write
def submit(request: HttpRequest, power: Power) -> int | None:
    """Submit (or withdraw) the sheet. The number of the round, when this submission was the
    last one and the round is already resolved (in-process tasks, or a quick worker)."""
    number = posted_round(request)
    if request.POST.get("action") == "withdraw":
        services.withdraw_sheet(power=power, actor=actor(request), round_number=number)
        return None
    sheet = services.submit_sheet(power=power, actor=actor(request), round_number=number)
    rnd = Round.objects.get(pk=sheet.round_id)
    return rnd.number if rnd.status == RoundStatus.RESOLVED else None


def _after_write(
    request: HtmxHttpRequest, power: Power, resolved: int | None = None
) -> HttpResponse:
    if resolved is not None:
        # The player whose submission resolved the round reads about it (issue 10).
        url = f"{_sheet_url(power)}?resolved={resolved}"
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if request.htmx:
        ctx = _sheet_context(power, form=_form_context(power, "", {}, []))
        response = render(request, "economy/_sheet.html", ctx)
        return trigger_client_event(response, "sheet-changed")
    return redirect(_sheet_url(power))


@require_GET
@player_view
def projection(request: HttpRequest, power: Power) -> HttpResponse:
    """The projected statement; with it, each order the projection would reject is marked on
    its row, and submitting asks for a confirmation while any would be (issue 17)."""
    statement = selectors.projected_statement(power)
    rnd = selectors.live_round(power.campaign_id)
    sheet, orders = selectors.sheet_of(rnd, power) if rnd else (None, [])
    rejected = dict(statement.rejected_in_words())
    return render(
        request,
        "economy/_projection.html",
        {
            "statement": statement,
            "projected": True,
            "power": power,
            "round": rnd,
            "sheet": sheet,
            "open": rnd is not None and rnd.status == "open",
            "marks": [
                (o.position, "" if o.error else rejected.get(o.position + 1, "")) for o in orders
            ],
            "would_reject": len(rejected),
        },
    )


# --- the rules guide ----------------------------------------------------------------------


@require_GET
def rules_guide(request: HttpRequest) -> HttpResponse:
    """Public: the round's steps and every order type in plain words (issue 17)."""
    by_step: dict[str, list[dict[str, Any]]] = {}
    for kind, spec in SPECS.items():
        by_step.setdefault(spec.step, []).append(
            {"kind": kind, "spec": spec, "anchor": anchor("order", kind)}
        )
    steps = [{"step": s, "orders": by_step.get(s.key, [])} for s in guide.STEPS]
    return render(request, "economy/rules.html", {"phases": guide.PHASES, "steps": steps})


# --- reports ------------------------------------------------------------------------------


@require_GET
@player_view
def report(request: HttpRequest, power: Power, number: int) -> HttpResponse:
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
    mine = my_power(user=request.user, campaign_id=campaign.pk)
    return render(
        request,
        "economy/history.html",
        {
            "campaign": campaign,
            "rows": rows,
            "my_power": mine,
        },
    )


@require_GET
@player_view
def ledger_export(request: HttpRequest, power: Power, fmt: str) -> HttpResponseBase:
    """A power's whole ledger as CSV or JSON (its books, for its players only). The URL
    pattern admits only those two formats."""
    fields, rows = selectors.ledger_export(power)  # places and reasons in names (issue 30)
    filename = f"ledger-{power.campaign_id}-{power.key}.{fmt}"
    if fmt == "json":
        data = [dict(zip(fields, row, strict=True)) for row in rows]
        response: HttpResponseBase = HttpResponse(
            json.dumps(data, indent=1), content_type="application/json"
        )
    else:

        class Echo:
            def write(self, value: str) -> str:
                return value

        writer = csv.writer(Echo())
        response = StreamingHttpResponse(
            (writer.writerow(r) for r in [fields, *rows]), content_type="text/csv"
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
