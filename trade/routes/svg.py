"""SVG map of a route map (T-9), drawn to be read like a Traveller sector map: hex grid, sector
and subsector borders with their names, worlds tinted by allegiance with Amber/Red rings, each
world's name, hex number and UWP, legs drawn with width and colour by class, X-boat routes on
top in their own colour, and a legend. Every name is XML-escaped; no script is ever emitted.

Labels carry classes (``wname``, ``hexnum``, ``uwp``) so a page can show them as the reader
zooms in (static/js/routemap.js); the file on its own shows them all.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from html import escape
from itertools import pairwise

from .mapper import RouteMap, WorldTrade
from .sectors import SECTOR_COLS, SECTOR_ROWS

SIZE = 10.0  # hex circumradius in px
SQRT3 = math.sqrt(3)
SUB_COLS, SUB_ROWS = 8, 10  # a subsector: 8 x 10 hexes, lettered A-P row by row
# T-9: width and colour per route class, lowest first.
LEG_STYLE = {
    "minor": (1.2, "#5b8fd9"),
    "feeder": (2.0, "#3aa655"),
    "main": (3.0, "#e0b100"),
    "major": (4.5, "#e06a00"),
    "super": (6.0, "#c8102e"),
}
XBOAT = "#d36bff"  # X-boat routes: drawn over the legs, thin and dashed, in a colour no leg has
ZONE_RING = {"A": "#f2a900", "R": "#d0021b"}
MARGIN = 2 * SIZE
TEXT = "#e8ecf5"
LEGEND_ROW = 16.0


def _centre(x: int, y: int) -> tuple[float, float]:
    """Pixel centre of absolute hex (x, y): flat-topped, odd-q (even columns half a hex lower)."""
    c = x - 1
    return 1.5 * SIZE * c, SQRT3 * SIZE * (y - 0.5 + (0.5 if c & 1 else 0.0))


def _family(allegiance: str) -> str:
    return allegiance[:2] if len(allegiance) == 4 else allegiance


def _tint(key: str) -> str:
    """A stable pale colour per allegiance (sha256, never ``hash()``: same input, same map)."""
    if not key:
        return "#d9d9d9"
    hue = int.from_bytes(hashlib.sha256(key.encode()).digest()[:2], "big") % 360
    return f"hsl({hue},55%,70%)"


def legend_polities(result: RouteMap, most: int = 16) -> list[list[str | int]]:
    """The allegiance families on the map with their colour and world count, most worlds first
    (at most ``most``): the map's legend, also shown beside it on the web page."""
    counts = Counter(_family(w.allegiance) for w in result.worlds)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:most]
    return [[family or "none", _tint(family), n] for family, n in ranked]


CORNERS = tuple(
    (SIZE * math.cos(math.radians(60 * i)), SIZE * math.sin(math.radians(60 * i))) for i in range(6)
)  # a flat-topped hex's corners around its centre


# One hex outline after its first corner, in relative moves: the same for every hex.
_OUTLINE = (
    "l"
    + "l".join(
        f"{round(bx - ax, 1) + 0:g},{round(by - ay, 1) + 0:g}"  # + 0: never "-0"
        for (ax, ay), (bx, by) in pairwise(CORNERS)
    )
    + "z"
)


def _grid(frame: _Frame) -> str:
    """Every hex's outline: its first corner, then the relative moves all hexes share."""
    dx, dy = CORNERS[0]
    return "".join(
        f"M{cx + dx:.1f},{cy + dy:.1f}{_OUTLINE}" for cx, cy in map(frame.at_cell, frame.cells)
    )


class _Frame:
    """Pixel placement of the map: the box of every hex drawn, shifted to start at the margin."""

    def __init__(self, result: RouteMap) -> None:
        if result.sectors:
            self.cells = [
                (c + SECTOR_COLS * sx, r + SECTOR_ROWS * sy)
                for _, sx, sy in result.sectors
                for c in range(1, SECTOR_COLS + 1)
                for r in range(1, SECTOR_ROWS + 1)
            ]
        elif result.worlds:  # a campaign map: the box around its worlds
            xs, ys = [w.x for w in result.worlds], [w.y for w in result.worlds]
            self.cells = [
                (x, y) for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1)
            ]
        else:
            self.cells = []
        centres = [_centre(x, y) for x, y in self.cells] or [(0.0, 0.0)]
        self.min_x = min(p[0] for p in centres) - SIZE - MARGIN
        self.min_y = min(p[1] for p in centres) - SIZE - MARGIN
        self.width = max(p[0] for p in centres) - self.min_x + SIZE + MARGIN
        self.map_height = max(p[1] for p in centres) - self.min_y + SIZE + MARGIN

    def at(self, x: int, y: int) -> tuple[float, float]:
        px, py = _centre(x, y)
        return px - self.min_x, py - self.min_y

    def at_cell(self, cell: tuple[int, int]) -> tuple[float, float]:
        return self.at(*cell)


def _borders(result: RouteMap, frame: _Frame) -> list[str]:
    """Sector borders (solid) and subsector borders (dotted) between hex columns and rows, the
    sector names along their top edge and subsector names faint in their middle."""
    out = ['<g class="borders" fill="none">']
    sub_lines, sector_lines, names = [], [], []
    half_w, half_h = 0.75 * SIZE, SQRT3 * SIZE / 2
    for name, sx, sy in result.sectors:
        x0, y0 = SECTOR_COLS * sx, SECTOR_ROWS * sy  # the hex before the sector's first
        left, top = frame.at(x0 + 1, y0 + 1)
        right, bottom = frame.at(x0 + SECTOR_COLS, y0 + SECTOR_ROWS)
        left, right = left - half_w, right + half_w
        top, bottom = top - half_h, bottom + half_h
        for k in range(1, SECTOR_COLS // SUB_COLS):
            bx = frame.at(x0 + k * SUB_COLS, y0 + 1)[0] + half_w
            sub_lines.append(f"M{bx:.1f},{top:.1f}V{bottom:.1f}")
        for k in range(1, SECTOR_ROWS // SUB_ROWS):
            by = frame.at(x0 + 1, y0 + k * SUB_ROWS)[1] + half_h
            sub_lines.append(f"M{left:.1f},{by:.1f}H{right:.1f}")
        sector_lines.append(f"M{left:.1f},{top:.1f}H{right:.1f}V{bottom:.1f}H{left:.1f}Z")
        names.append(
            f'<text class="sector-name" x="{(left + right) / 2:.1f}" y="{top + 14:.1f}" '
            f'font-size="14" fill="#8fa3d9" text-anchor="middle" opacity="0.8">'
            f"{escape(name)}</text>"
        )
    for sx, sy, letter, sub in result.subsectors:
        i = ord(letter) - ord("A")
        col = SECTOR_COLS * sx + (i % 4) * SUB_COLS + SUB_COLS // 2
        row = SECTOR_ROWS * sy + (i // 4) * SUB_ROWS + SUB_ROWS // 2
        cx, cy = frame.at(col, row)
        names.append(
            f'<text class="subsector-name" x="{cx:.1f}" y="{cy:.1f}" font-size="9" '
            f'fill="#5d6d99" text-anchor="middle" opacity="0.7">{escape(sub)}</text>'
        )
    out.append(
        f'<path class="subsector-border" d="{"".join(sub_lines)}" stroke="#3b4a75" '
        'stroke-width="0.8" stroke-dasharray="3 2"/>'
    )
    out.append(
        f'<path class="sector-border" d="{"".join(sector_lines)}" stroke="#6a7cb5" '
        'stroke-width="1.6"/>'
    )
    out.append("</g>")
    out.append(f'<g class="region-names">{"".join(names)}</g>')
    return out


def _world(w: WorldTrade, cx: float, cy: float) -> str:
    ring = ZONE_RING.get(w.zone)
    stroke = f' stroke="{ring}" stroke-width="1.2"' if ring else ""
    label = f"{w.name} ({w.id}) {w.uwp} WTN {w.wtn_h / 2}"
    hex_code = w.id.rsplit(" ", 1)[-1]
    return (
        f'<g class="world" data-id="{escape(w.id)}"><title>{escape(label)}</title>'
        f'<circle cx="{cx:.1f}" cy="{cy - 1:.1f}" r="2.2" fill="{_tint(_family(w.allegiance))}"'
        f"{stroke}/>"
        f'<text class="hexnum" x="{cx:.1f}" y="{cy - 5.6:.1f}" font-size="2.6" fill="#9aa4bf" '
        f'text-anchor="middle">{escape(hex_code)}</text>'
        f'<text class="wname" x="{cx:.1f}" y="{cy + 4.6:.1f}" font-size="4.2" fill="{TEXT}" '
        f'text-anchor="middle">{escape(w.name)}</text>'
        f'<text class="uwp" x="{cx:.1f}" y="{cy + 7.8:.1f}" font-size="2.6" fill="#c3cbe0" '
        f'text-anchor="middle">{escape(w.uwp)}</text></g>'
    )


def _legend(result: RouteMap, top: float, width: float) -> tuple[list[str], float]:
    """Route classes, X-boat routes, zones and the allegiance families, in rows that wrap."""
    items: list[str] = []
    x, y = MARGIN, top
    entries: list[tuple[str, str]] = []  # (symbol markup at 0,0, label)
    for name, (w_px, colour) in LEG_STYLE.items():
        entries.append(
            (f'<line x1="0" y1="0" x2="20" y2="0" stroke="{colour}" stroke-width="{w_px}"/>', name)
        )
    entries.append(
        (
            f'<line x1="0" y1="0" x2="20" y2="0" stroke="{XBOAT}" stroke-width="1" '
            'stroke-dasharray="3 2"/>',
            "X-boat route",
        )
    )
    for zone, colour in (("Amber zone", ZONE_RING["A"]), ("Red zone", ZONE_RING["R"])):
        entries.append(
            (
                f'<circle cx="10" cy="0" r="3" fill="none" stroke="{colour}" stroke-width="1.5"/>',
                zone,
            )
        )
    for family, tint, n in legend_polities(result):
        entries.append((f'<circle cx="10" cy="0" r="3.5" fill="{tint!s}"/>', f"{family} ({n})"))
    for symbol, label in entries:
        span = 28 + 6 * len(label) + 14
        if x + span > width - MARGIN and x > MARGIN:
            x, y = MARGIN, y + LEGEND_ROW
        items.append(
            f'<g transform="translate({x:.1f},{y:.1f})">{symbol}'
            f'<text x="26" y="3" font-size="9" fill="{TEXT}">{escape(label)}</text></g>'
        )
        x += span
    return ['<g class="legend">', *items, "</g>"], y + LEGEND_ROW - top


def to_svg(result: RouteMap, *, title: str = "Trade routes", notice: str | None = None) -> str:
    """T-9: the whole map as one standalone SVG document (text)."""
    frame = _Frame(result)
    legend, legend_h = _legend(result, frame.map_height + LEGEND_ROW / 2, frame.width)
    width, height = frame.width, frame.map_height + legend_h + (2 * SIZE if notice else SIZE)
    where = {w.id: frame.at(w.x, w.y) for w in result.worlds}
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" class="routemap" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" '
        f'data-hex-size="{SIZE}" data-map-height="{frame.map_height:.1f}">',
        f"<title>{escape(title)}</title>",
        '<rect width="100%" height="100%" fill="#0b1020"/>',
    ]
    grid = _grid(frame)
    out.append(f'<path class="grid" d="{grid}" fill="none" stroke="#1f2840" stroke-width="0.5"/>')
    out.extend(_borders(result, frame))
    out.append('<g class="legs" stroke-linecap="round">')
    ranked = sorted(
        (leg for leg in result.legs if leg.route_class),
        key=lambda leg: (leg.btn_h, leg.a, leg.b),  # bigger routes drawn on top
    )
    # Each world ends many legs: its escaped id and its formatted centre, once.
    escaped = {w.id: escape(w.id) for w in result.worlds}
    at = {wid: (f"{x:.1f}", f"{y:.1f}") for wid, (x, y) in where.items()}
    for leg in ranked:
        w_px, colour = LEG_STYLE[leg.route_class or "minor"]
        (x1, y1), (x2, y2) = at[leg.a], at[leg.b]
        out.append(
            f'<line class="leg leg-{leg.route_class}" x1="{x1}" y1="{y1}" '
            f'x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="{w_px}" '
            f'data-a="{escaped[leg.a]}" data-b="{escaped[leg.b]}" data-btn="{leg.btn_h / 2}"/>'
        )
    out.append("</g>")
    out.append(
        f'<g class="xboat" stroke="{XBOAT}" stroke-width="1" stroke-dasharray="3 2" opacity="0.9">'
    )
    for a, b in result.xboat:
        if a in at and b in at:
            (x1, y1), (x2, y2) = at[a], at[b]
            out.append(
                f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                f'data-a="{escape(a)}" data-b="{escape(b)}"/>'
            )
    out.append("</g>")
    out.append('<g class="worlds">')
    out.extend(_world(w, *where[w.id]) for w in result.worlds)
    out.append("</g>")
    out.extend(legend)
    if notice:
        out.append(
            f'<text x="{MARGIN:.1f}" y="{height - SIZE:.1f}" font-size="6" fill="#9aa4bf">'
            f"{escape(notice)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
