"""Small line charts as server-rendered SVG (no JavaScript, no CDN). Pure: numbers in, markup
out; every label is escaped."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 220, 56, 16, 24, 32


def line_chart(
    title: str, labels: list[str], series: dict[str, list[int]], colours: dict[str, str]
) -> str:
    """One line per series over the same x labels, with a y grid and a legend."""
    values = [v for points in series.values() for v in points] or [0]
    low, high = min(0, *values), max(1, *values)
    span = high - low
    n = max(1, len(labels) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / n if len(labels) > 1 else LEFT + plot_w / 2

    def y(v: float) -> float:
        return TOP + plot_h - plot_h * (v - low) / span

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="chart" '
        f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for k in range(5):
        v = low + span * k / 4
        out.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
            f'class="grid"/><text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
            f'class="tick">{v:.0f}</text>'
        )
    for i, label in enumerate(labels):
        out.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle" class="tick">'
            f"{escape(label)}</text>"
        )
    for j, (name, points) in enumerate(series.items()):
        colour = escape(colours.get(name, "#475467"))
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        out.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2" '
            f'data-series="{escape(name)}"/>'
        )
        for i, v in enumerate(points):
            out.append(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}">'
                f"<title>{escape(name)} {escape(labels[i])}: {v}</title></circle>"
            )
        out.append(
            f'<text x="{LEFT + 8 + 90 * j}" y="{TOP - 8}" fill="{colour}" class="legend">'
            f"{escape(name)}</text>"
        )
    out.append("</svg>")
    return "".join(out)
