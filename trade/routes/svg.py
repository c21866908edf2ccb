"""SVG map of a route map (T-9): hex grid, worlds tinted by allegiance, legs drawn with width and
colour by class, X-boat routes dashed. Every name is XML-escaped; no script is ever emitted."""

from __future__ import annotations

import hashlib
import math
from html import escape

from .mapper import RouteMap
from .sectors import SECTOR_COLS, SECTOR_ROWS

SIZE = 10.0  # hex circumradius in px
SQRT3 = math.sqrt(3)
# T-9: width and colour per route class, lowest first.
LEG_STYLE = {
    "minor": (1.2, "#5b8fd9"),
    "feeder": (2.0, "#3aa655"),
    "main": (3.0, "#e0b100"),
    "major": (4.5, "#e06a00"),
    "super": (6.0, "#c8102e"),
}
ZONE_RING = {"A": "#f2a900", "R": "#d0021b"}
MARGIN = 2 * SIZE


def _centre(x: int, y: int) -> tuple[float, float]:
    """Pixel centre of absolute hex (x, y): flat-topped, odd-q (even columns half a hex lower)."""
    c = x - 1
    return 1.5 * SIZE * c, SQRT3 * SIZE * (y - 0.5 + (0.5 if c & 1 else 0.0))


def _tint(key: str) -> str:
    """A stable pale colour per allegiance (sha256, never ``hash()``: same input, same map)."""
    if not key:
        return "#d9d9d9"
    hue = int.from_bytes(hashlib.sha256(key.encode()).digest()[:2], "big") % 360
    return f"hsl({hue},55%,70%)"


def _hex_path(cx: float, cy: float) -> str:
    pts = [
        (cx + SIZE * math.cos(math.radians(60 * i)), cy + SIZE * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]
    return "M" + "L".join(f"{px:.1f},{py:.1f}" for px, py in pts) + "Z"


def to_svg(result: RouteMap, *, title: str = "Trade routes", notice: str | None = None) -> str:
    """T-9: the whole map as one standalone SVG document (text)."""
    if result.sectors:
        cells = [
            (c + SECTOR_COLS * sx, r + SECTOR_ROWS * sy)
            for _, sx, sy in result.sectors
            for c in range(1, SECTOR_COLS + 1)
            for r in range(1, SECTOR_ROWS + 1)
        ]
    elif result.worlds:  # a campaign map: the box around its worlds
        xs, ys = [w.x for w in result.worlds], [w.y for w in result.worlds]
        cells = [(x, y) for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1)]
    else:
        cells = []
    centres = [_centre(x, y) for x, y in cells] or [(0.0, 0.0)]
    min_x = min(p[0] for p in centres) - SIZE - MARGIN
    min_y = min(p[1] for p in centres) - SIZE - MARGIN
    width = max(p[0] for p in centres) - min_x + SIZE + MARGIN
    height = max(p[1] for p in centres) - min_y + SIZE + MARGIN + 5 * SIZE

    def at(x: int, y: int) -> tuple[float, float]:
        px, py = _centre(x, y)
        return px - min_x, py - min_y

    where = {w.id: at(w.x, w.y) for w in result.worlds}
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        '<rect width="100%" height="100%" fill="#0b1020"/>',
    ]
    grid = "".join(_hex_path(*at(x, y)) for x, y in cells)
    out.append(f'<path class="grid" d="{grid}" fill="none" stroke="#26304a" stroke-width="0.6"/>')
    out.append('<g class="xboat" stroke="#9aa4bf" stroke-width="1" stroke-dasharray="4 3">')
    for a, b in result.xboat:
        if a in where and b in where:
            (x1, y1), (x2, y2) = where[a], where[b]
            out.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'data-a="{escape(a)}" data-b="{escape(b)}"/>'
            )
    out.append("</g>")
    out.append('<g class="legs" stroke-linecap="round">')
    ranked = sorted(
        (leg for leg in result.legs if leg.route_class),
        key=lambda leg: (leg.btn_h, leg.a, leg.b),  # bigger routes drawn on top
    )
    for leg in ranked:
        w_px, colour = LEG_STYLE[leg.route_class or "minor"]
        (x1, y1), (x2, y2) = where[leg.a], where[leg.b]
        out.append(
            f'<line class="leg leg-{leg.route_class}" x1="{x1:.1f}" y1="{y1:.1f}" '
            f'x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="{w_px}" '
            f'data-a="{escape(leg.a)}" data-b="{escape(leg.b)}" data-btn="{leg.btn_h / 2}"/>'
        )
    out.append("</g>")
    out.append('<g class="worlds">')
    for w in result.worlds:
        cx, cy = where[w.id]
        ring = ZONE_RING.get(w.zone)
        stroke = f' stroke="{ring}" stroke-width="1.5"' if ring else ""
        label = f"{w.name} ({w.id}) {w.uwp} WTN {w.wtn_h / 2}"
        family = w.allegiance[:2] if len(w.allegiance) == 4 else w.allegiance
        out.append(
            f'<g class="world" data-id="{escape(w.id)}"><title>{escape(label)}</title>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.3:.1f}" '
            f'fill="{_tint(family)}"{stroke}/>'
            f'<text x="{cx:.1f}" y="{cy + SIZE * 0.75:.1f}" font-size="3.2" fill="#e8ecf5" '
            f'text-anchor="middle">{escape(w.name)}</text></g>'
        )
    out.append("</g>")
    legend_y = height - 3.5 * SIZE
    x = MARGIN
    for name, (w_px, colour) in LEG_STYLE.items():
        out.append(
            f'<line x1="{x:.1f}" y1="{legend_y:.1f}" x2="{x + 20:.1f}" y2="{legend_y:.1f}" '
            f'stroke="{colour}" stroke-width="{w_px}"/>'
            f'<text x="{x + 24:.1f}" y="{legend_y + 3:.1f}" font-size="8" fill="#e8ecf5">'
            f"{name}</text>"
        )
        x += 70
    if notice:
        out.append(
            f'<text x="{MARGIN:.1f}" y="{height - SIZE:.1f}" font-size="6" fill="#9aa4bf">'
            f"{escape(notice)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
