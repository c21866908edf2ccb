"""Map pages: the public campaign map (no login: spectators), each power's private map, their
raw SVG and the hex panel (an htmx fragment). Views are thin: gate, selector, renderer.
``?round=N`` on a map or its SVG draws the map after resolved round N (``map_history``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from campaigns import map_history, map_selectors
from economy.engine.hexgrid import Hex
from ftcamp.http import HtmxHttpRequest
from powers.access import access_power_for_user
from powers.maps import MapData, render_svg
from powers.models import Campaign, Power

# A raw SVG opened on its own is a document: forbid scripts in it outright (names are escaped
# already; this is the second lock).
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _hex_or_404(code: str) -> Hex:
    try:
        h = Hex.parse(code)
    except ValueError as exc:
        raise Http404("No such hex.") from exc
    if not (1 <= h.col <= 99 and 1 <= h.row <= 99):
        raise Http404("No such hex.")
    return h


def _urls(campaign_id: int, power: Power | None) -> tuple[str, str]:
    """(raw SVG URL, hex panel URL with ``XXYY`` for the hex) of the public or a private map."""
    args: list[object] = [campaign_id] if power is None else [campaign_id, power.key]
    prefix = "map-public" if power is None else "map-private"
    return reverse(f"{prefix}-svg", args=args), reverse(f"{prefix}-hex", args=[*args, "XXYY"])


def _svg_response(
    data: MapData, *, campaign_id: int, power: Power | None, past: bool = False
) -> HttpResponse:
    # a past map has no hex panel: the panel tells what is known now, not then
    svg = render_svg(data, hex_url="" if past else _urls(campaign_id, power)[1])
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Security-Policy"] = SVG_CSP
    return response


def _page(
    request: HttpRequest,
    data: MapData,
    *,
    campaign: Campaign,
    power: Power | None,
    past: map_history.PastMap | None = None,
) -> HttpResponse:
    svg_url, hex_url = _urls(campaign.pk, power)
    stepper = past.stepper if past is not None else map_history.live_stepper(campaign)
    if past is not None:
        svg_url, hex_url = f"{svg_url}?round={stepper.shown}", ""
    svg = render_svg(data, hex_url=hex_url)
    context = {
        "campaign": campaign,
        "power": power,
        "powers": sorted(data.powers.values(), key=lambda p: p.name),
        "svg": mark_safe(svg),  # noqa: S308 - every text in it is escaped (maps._e)
        "svg_url": svg_url,
        "hex_url": hex_url,
        "private": data.private,
        "notice": data.notice,
        "interest": data.interest,
        "stepper": stepper,
        "changes": past.changes if past is not None else None,
    }
    return render(request, "maps/map.html", context)


def _map_data(
    request: HttpRequest, campaign: Campaign, power: Power | None
) -> tuple[MapData, map_history.PastMap | None]:
    """The public map (``power`` None) or ``power``'s map: now, or after the round in
    ``?round=`` (404 for a bad or unresolved one; a past private map holds only ``power``'s
    own secrets of then)."""
    number = map_history.parse_round(request.GET.get("round"))
    if number is None:
        live = (
            map_selectors.public_map(campaign=campaign)
            if power is None
            else map_selectors.private_map(power=power)
        )
        return live, None
    past = (
        map_history.past_public(campaign=campaign, number=number)
        if power is None
        else map_history.past_private(power=power, number=number)
    )
    return past.data, past


def _panel(
    request: HtmxHttpRequest, panel: map_selectors.HexPanel, campaign: Campaign
) -> HttpResponse:
    template = "maps/_hex_panel.html" if request.htmx else "maps/hex_page.html"
    return render(request, template, {"panel": panel, "campaign": campaign})


@require_safe
def public_map(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    data, past = _map_data(request, campaign, None)
    return _page(request, data, campaign=campaign, power=None, past=past)


@require_safe
def public_map_svg(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    data, past = _map_data(request, campaign, None)
    return _svg_response(data, campaign_id=campaign.pk, power=None, past=past is not None)


@require_safe
def public_hex(request: HtmxHttpRequest, campaign_id: int, hex: str) -> HttpResponse:
    hexagon = _hex_or_404(hex)
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    return _panel(request, map_selectors.public_hex(campaign=campaign, hexagon=hexagon), campaign)


@login_required
@require_safe
def private_map(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    data, past = _map_data(request, power.campaign, power)
    return _page(request, data, campaign=power.campaign, power=power, past=past)


@login_required
@require_safe
def private_map_svg(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    data, past = _map_data(request, power.campaign, power)
    return _svg_response(data, campaign_id=campaign_id, power=power, past=past is not None)


@login_required
@require_safe
def private_hex(
    request: HtmxHttpRequest, campaign_id: int, power_key: str, hex: str
) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    hexagon = _hex_or_404(hex)
    panel = map_selectors.private_hex(power=power, hexagon=hexagon)
    return _panel(request, panel, power.campaign)
