"""The public market chart (R-6.3): rates and volumes per edge over the rounds, as an SVG
drawn on the server (no JavaScript, no CDN). Pure: numbers in, markup out."""

from __future__ import annotations

import math
from decimal import Decimal
from html import escape

COLOURS = {"ore>bio": "#b45309", "bio>gal": "#15803d", "gal>ore": "#1d4ed8"}
LABELS = {"ore>bio": "Ore → Bio", "bio>gal": "Bio → Gal", "gal>ore": "Gal → Ore"}
WIDTH, LEFT, RIGHT = 760, 56, 16
RATE_TOP, RATE_H = 28, 170
VOL_TOP, VOL_H = 240, 110
HEIGHT = VOL_TOP + VOL_H + 40

Point = tuple[str, dict[str, tuple[Decimal, int]]]  # (round label, {edge: (rate, volume)})


# Lines that lie on top of each other stay apart (issue 17): each edge has its own dash and
# marker size (a hollow ring around a dot around a small dot), so equal rates show all three.
DASHES = {"ore>bio": "", "bio>gal": "7 4", "gal>ore": "2 3"}
MARKERS = {"ore>bio": (6.5, "none"), "bio>gal": (4.5, "fill"), "gal>ore": (2.2, "fill")}


def _ticks(top: float) -> list[float]:
    """Round tick values from 0 to at least ``top``: steps of 1, 2, 2.5 or 5 times a power of
    ten, four or five of them."""
    raw = top / 4
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [step * i for i in range(math.ceil(top / step - 1e-9) + 1)]


def market_chart(points: list[Point]) -> str:
    """An SVG with the rate of each edge as a line (upper panel) and the units sold per round
    as bars (lower panel). ``points`` are in round order; the last may be the current round."""
    edges = list(COLOURS)
    n = max(1, len(points))
    step = (WIDTH - LEFT - RIGHT) / n
    max_rate = max([float(p[1][e][0]) for p in points for e in edges if e in p[1]] + [1.0])
    rate_top = _ticks(max_rate * 1.1)[-1]
    max_vol = _ticks(max([p[1][e][1] for p in points for e in edges if e in p[1]] + [4]))[-1]

    def x(i: int) -> float:
        return LEFT + step * (i + 0.5)

    def y_rate(rate: float) -> float:
        return RATE_TOP + RATE_H - RATE_H * rate / rate_top

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'class="market-chart" role="img" aria-label="Common Market rates and volumes by round">',
        f'<text x="{LEFT}" y="16" class="chart-title">Exchange rates (units received per unit '
        "sold)</text>",
        f'<text x="{LEFT}" y="{VOL_TOP - 10}" class="chart-title">Units sold per round</text>',
    ]
    for tick in _ticks(rate_top):
        ty = y_rate(tick)
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" class="grid"/>'
            f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end" class="tick">'
            f"{tick:.2f}</text>"
        )
    for tick in _ticks(max_vol):
        ty = VOL_TOP + VOL_H - VOL_H * tick / max_vol
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{ty:.1f}" y2="{ty:.1f}" class="grid"/>'
            f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end" class="tick">'
            f"{tick:.0f}</text>"
        )
    bar = step * 0.8 / len(edges)
    for i, (label, values) in enumerate(points):
        out.append(
            f'<text x="{x(i):.1f}" y="{VOL_TOP + VOL_H + 16}" text-anchor="middle" '
            f'class="tick">{escape(label)}</text>'
        )
        for j, edge in enumerate(edges):
            if edge not in values:
                continue
            volume = values[edge][1]
            h = VOL_H * volume / max_vol
            bx = x(i) - step * 0.4 + j * bar
            out.append(
                f'<rect x="{bx:.1f}" y="{VOL_TOP + VOL_H - h:.1f}" width="{bar:.1f}" '
                f'height="{h:.1f}" fill="{COLOURS[edge]}" data-edge="{escape(edge)}" '
                f'data-round="{escape(label)}" data-volume="{volume}">'
                f"<title>{escape(LABELS[edge])} round {escape(label)}: {volume} sold</title></rect>"
            )
    for edge in edges:
        coords = [
            (x(i), y_rate(float(values[edge][0])), label, values[edge][0])
            for i, (label, values) in enumerate(points)
            if edge in values
        ]
        if not coords:
            continue
        line = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy, _, _ in coords)
        dash = f' stroke-dasharray="{DASHES[edge]}"' if DASHES[edge] else ""
        out.append(
            f'<polyline points="{line}" fill="none" stroke="{COLOURS[edge]}" stroke-width="2"'
            f' data-edge="{escape(edge)}"{dash}/>'
        )
        radius, fill = MARKERS[edge]
        paint = (
            f'fill="{COLOURS[edge]}"'
            if fill == "fill"
            else f'fill="none" stroke="{COLOURS[edge]}" stroke-width="2"'
        )
        for cx, cy, label, rate in coords:
            out.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius}" {paint} '
                f'data-edge="{escape(edge)}" data-round="{escape(label)}" data-rate="{rate:.4f}">'
                f"<title>{escape(LABELS[edge])} round {escape(label)}: {rate:.4f}</title></circle>"
            )
    for j, edge in enumerate(edges):
        lx = LEFT + j * 140
        dash = f' stroke-dasharray="{DASHES[edge]}"' if DASHES[edge] else ""
        out.append(
            f'<line x1="{lx}" x2="{lx + 22}" y1="{HEIGHT - 9}" y2="{HEIGHT - 9}" '
            f'stroke="{COLOURS[edge]}" stroke-width="2"{dash}/>'
            f'<text x="{lx + 26}" y="{HEIGHT - 5}" class="tick">{escape(LABELS[edge])}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def chart_points(
    history: list[tuple[int, str, Decimal, int]], current: tuple[int, dict[str, Decimal]] | None
) -> list[Point]:
    """Rows (round, edge, rate, volume) of the resolved rounds, then the current round's rates
    (volume 0: nothing is sold until it resolves) labelled with its number and "now"."""
    by_round: dict[int, dict[str, tuple[Decimal, int]]] = {}
    for number, edge, rate, volume in history:
        by_round.setdefault(number, {})[edge] = (rate, volume)
    points: list[Point] = [(str(n), by_round[n]) for n in sorted(by_round)]
    if current is not None:
        number, rates = current
        points.append((f"{number} (now)", {e: (r, 0) for e, r in rates.items()}))
    return points
