"""Map pages: the public campaign map (no login: spectators), each power's private map, their
raw SVG and the hex panel (an htmx fragment). Views are thin: gate, selector, renderer."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from campaigns import map_selectors
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


def _svg_response(data: MapData, *, campaign_id: int, power: Power | None) -> HttpResponse:
    svg = render_svg(data, hex_url=_urls(campaign_id, power)[1])
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Security-Policy"] = SVG_CSP
    return response


def _page(
    request: HttpRequest, data: MapData, *, campaign: Campaign, power: Power | None
) -> HttpResponse:
    svg_url, hex_url = _urls(campaign.pk, power)
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
    }
    return render(request, "maps/map.html", context)


def _panel(
    request: HtmxHttpRequest, panel: map_selectors.HexPanel, campaign: Campaign
) -> HttpResponse:
    template = "maps/_hex_panel.html" if request.htmx else "maps/hex_page.html"
    return render(request, template, {"panel": panel, "campaign": campaign})


@require_safe
def public_map(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    data = map_selectors.public_map(campaign=campaign)
    return _page(request, data, campaign=campaign, power=None)


@require_safe
def public_map_svg(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    return _svg_response(
        map_selectors.public_map(campaign=campaign), campaign_id=campaign.pk, power=None
    )


@require_safe
def public_hex(request: HtmxHttpRequest, campaign_id: int, hex: str) -> HttpResponse:
    hexagon = _hex_or_404(hex)
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    return _panel(request, map_selectors.public_hex(campaign=campaign, hexagon=hexagon), campaign)


@login_required
@require_safe
def private_map(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    data = map_selectors.private_map(power=power)
    return _page(request, data, campaign=power.campaign, power=power)


@login_required
@require_safe
def private_map_svg(request: HttpRequest, campaign_id: int, power_key: str) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    return _svg_response(
        map_selectors.private_map(power=power), campaign_id=campaign_id, power=power
    )


@login_required
@require_safe
def private_hex(
    request: HtmxHttpRequest, campaign_id: int, power_key: str, hex: str
) -> HttpResponse:
    power = access_power_for_user(user=request.user, campaign_id=campaign_id, power_key=power_key)
    hexagon = _hex_or_404(hex)
    panel = map_selectors.private_hex(power=power, hexagon=hexagon)
    return _panel(request, panel, power.campaign)
