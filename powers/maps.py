"""Campaign maps as SVG, server-rendered from plain data (no ORM here: see ``map_selectors``).

The public map (product capability 7) shows the hex types, the star systems with their names
and holders' colours, the public markers (fleet groups and statics as counters, no contents) and
each trade hub as the outline of the union of radius-1 rings around its centre and nodes
(Support §4.1.3, R-5.8). A power's private map adds its own hubs' centre, nodes and links, its
command bubbles and sensors (Support §5.2.6, R-8.3), the loyalty of its systems and its
shipments' routes and its own fleet groups with their strength and supply. What a map may
show is decided by the data it is given: the public data has
no field that could carry a node, a centre, a link, a bubble or a loyalty rating.

Only the bounding box of the campaign's content (plus a margin) is drawn, and the deep-space
grid is one SVG pattern, so a large map costs a few elements per system, not per hex.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from economy.engine.hexgrid import SQRT3, Hex, centre_px, lattice_px, outline_loops, within

HEX_SIZE = 24  # circumradius in px
MARGIN = 1  # hexes of deep space drawn around the content

TRAVELLER_NOTICE = (
    "Sector data: Traveller Map (travellermap.com), from the T5 Second Survey; each sector's "
    "authors are credited in its files. The Traveller game in all forms is owned by Mongoose "
    "Publishing. Copyright 1977 - 2024 Mongoose Publishing. For personal, non-commercial use."
)

HEX_TYPE_LABELS = {
    "system": "System",
    "outer_system": "Outer system",
    "deep_space": "Deep space",
    "dust_cloud": "Dust cloud",
    "special_interest": "Area of special interest",
}


@dataclass(frozen=True, slots=True)
class PowerView:
    key: str
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class SystemView:
    """A star system as a map draws it; ``loyalty`` is set on its holder's private map only."""

    hex: Hex
    name: str
    holder: str | None  # power key; None when neutral
    loyalty: int | None = None


@dataclass(frozen=True, slots=True)
class Marker:
    """Public counters of one power at one hex: how many groups or statics, nothing inside."""

    hex: Hex
    power: str
    kind: str  # "group" or "static"
    count: int


@dataclass(frozen=True, slots=True)
class HubArea:
    """The hexes covered by a hub's radius-1 rings (R-5.8); only its outline is ever drawn."""

    power: str
    hexes: frozenset[Hex]


@dataclass(frozen=True, slots=True)
class OwnHub:
    key: str
    centre: Hex | None
    nodes: tuple[Hex, ...]
    links: tuple[tuple[Hex, Hex], ...]
    name: str = ""  # as players read it (issue 30: never the key in a hover title)


@dataclass(frozen=True, slots=True)
class BubbleView:
    """A command bubble of the viewing power: HQ and outposts with their radius (R-8.3a: the
    grade of the officer commanding each), the HQ's sensors and each outpost's sensors
    (``(sensor, outpost)``); ``name`` is how the player typed its id."""

    key: str
    hq: Hex
    radius: int
    outposts: tuple[tuple[Hex, int], ...] = ()
    sensors: tuple[Hex, ...] = ()
    outpost_sensors: tuple[tuple[Hex, Hex], ...] = ()
    name: str = ""

    @property
    def coverage(self) -> frozenset[Hex]:
        """Support §5.2.1: the bubble extends to every hex within the radius of its HQ and of
        each outpost."""
        cover = set(within(self.hq, self.radius))
        for hexagon, radius in self.outposts:
            cover.update(within(hexagon, radius))
        return frozenset(h for h in cover if 1 <= h.col <= 99 and 1 <= h.row <= 99)


@dataclass(frozen=True, slots=True)
class RouteView:
    """A shipment in transit between two of the viewing power's hub centres (R-5.4)."""

    key: str
    start: Hex
    end: Hex
    label: str


@dataclass(frozen=True, slots=True)
class OwnGroup:
    """A fleet group of the viewing power: its strength and supply (R-7.4, R-10.7)."""

    name: str
    hex: Hex
    points: int
    craft: int
    ep: int
    out_of_supply: bool
    # On the orders page only: the key its declaration is posted under (set, the marker is a
    # button), and the hex its drafted declare_group names when that is elsewhere (an arrow).
    key: str = ""
    drafted: Hex | None = None

    @property
    def label(self) -> str:
        supply = "out of supply" if self.out_of_supply else f"{self.ep} EP stored"
        craft = f"{self.craft} craft, " if self.craft else ""
        return f"Group {self.name}: {craft}{self.points} points, {supply}"


@dataclass(frozen=True, slots=True)
class PrivateLayer:
    power: str
    hubs: tuple[OwnHub, ...] = ()
    bubbles: tuple[BubbleView, ...] = ()
    routes: tuple[RouteView, ...] = ()
    groups: tuple[OwnGroup, ...] = ()


@dataclass(frozen=True, slots=True)
class InterestMark:
    """R-8.1a: the Area of Special Interest, public while announced or active."""

    hex: Hex
    label: str


@dataclass(frozen=True, slots=True)
class MapData:
    title: str
    powers: dict[str, PowerView]
    hexes: tuple[tuple[Hex, str], ...] = ()  # non-deep-space hexes and their type
    systems: tuple[SystemView, ...] = ()
    markers: tuple[Marker, ...] = ()
    hub_areas: tuple[HubArea, ...] = ()
    private: PrivateLayer | None = None
    extra_hexes: tuple[Hex, ...] = field(default=())  # anything else that must be in view
    notice: str = ""  # attribution of the map's data, when it came from Traveller sector files
    size: tuple[int, int] | None = None  # the map bounds (cols, rows): nothing outside is drawn
    battles: tuple[Hex, ...] = ()  # where a battle was fought (a marker, no contents)
    interest: InterestMark | None = None  # R-8.1a: public while announced or active


def ring_area(members: Iterable[Hex]) -> frozenset[Hex]:
    """R-5.8 / Support §4.1.3: the union of the radius-1 rings around a hub's centre and nodes
    (the member hexes included), kept on the 99 × 99 map."""
    return frozenset(
        h for m in members for h in within(m, 1) if 1 <= h.col <= 99 and 1 <= h.row <= 99
    )


def bounds(data: MapData) -> tuple[int, int, int, int]:
    """(first column, first row, last column, last row) of the content plus ``MARGIN``.
    Content outside the map bounds is left out, so one stray marker cannot stretch the map."""
    cols: list[int] = []
    rows: list[int] = []
    last_col, last_row = data.size or (99, 99)

    def add(hexes: Iterable[Hex]) -> None:
        for h in hexes:
            if h.col <= last_col and h.row <= last_row:
                cols.append(h.col)
                rows.append(h.row)

    add(h for h, _ in data.hexes)
    add(s.hex for s in data.systems)
    add(m.hex for m in data.markers)
    add(data.extra_hexes)
    if data.interest is not None:
        add((data.interest.hex,))
    for area in data.hub_areas:
        add(area.hexes)
    if data.private:
        for hub in data.private.hubs:
            add(hub.nodes)
        for bubble in data.private.bubbles:
            add(bubble.coverage)
    if not cols:
        return 1, 1, 8, 10
    return (
        max(1, min(cols) - MARGIN),
        max(1, min(rows) - MARGIN),
        min(99, max(cols) + MARGIN),
        min(99, max(rows) + MARGIN),
    )


def _f(v: float) -> str:
    return f"{v:.1f}"


def _e(text: object) -> str:
    """Escape any text for SVG content or a double- or single-quoted attribute."""
    return escape(str(text), quote=True)


def _loops_path(hexes: Iterable[Hex], size: float) -> str:
    parts = []
    for loop in outline_loops(hexes):
        pts = [lattice_px(p, size) for p in loop]
        parts.append("M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in pts) + "Z")
    return "".join(parts)


def _hex_polygon(h: Hex, size: float) -> str:
    cx, cy = centre_px(h, size)
    half, hh = size / 2, SQRT3 * size / 2
    pts = (
        (cx + size, cy),
        (cx + half, cy + hh),
        (cx - half, cy + hh),
        (cx - size, cy),
        (cx - half, cy - hh),
        (cx + half, cy - hh),
    )
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)


_STYLE = (
    ".bg{fill:#0b1020}.grid{fill:none;stroke:#2a3350;stroke-width:.8}"
    ".t-system{fill:#141c33}.t-outer_system{fill:#1b2640}.t-dust_cloud{fill:#4a3b2a}"
    ".t-special_interest{fill:#3d2350}"
    ".hub{fill-opacity:.12;stroke-width:2;fill-rule:evenodd}"
    ".sys circle{stroke:#e5e7eb;stroke-width:1}.neutral{fill:#9aa3b5}"
    "text{font-family:system-ui,sans-serif;fill:#e5e7eb;text-anchor:middle}"
    # label sizes in map units: at the first view's scale (static/js/map.js READABLE) a system's
    # name and hex code read at 11 px or more (issue 30)
    ".name{font-size:9px}.code{font-size:9px;fill:#8c96ad}.lr{font-size:8px;fill:#ffd866}"
    ".counter{stroke:#0b1020;stroke-width:.8}.count{font-size:5.5px;fill:#fff}"
    ".asi{fill:none;stroke:#e879f9;stroke-width:2.5;stroke-dasharray:4 2}"
    ".asi-label{font-size:9px;fill:#f5d0fe}"
)
# Styles of the private layer: only in a private map, so the public one does not even name it.
_PRIVATE_STYLE = (
    ".bubble{fill-opacity:.08;stroke-width:1.5;stroke-dasharray:5 3;fill-rule:evenodd}"
    ".link{stroke-width:2}.route{stroke:#ffd866;stroke-width:1.5;stroke-dasharray:2 2}"
    ".node{fill:none;stroke-width:1.5}.sensor{fill:#ffd866}"
    ".outpost-sensor{fill:none;stroke:#ffd866;stroke-width:1.2}"
    ".own-group rect{fill:#0b1020;stroke-width:1.2}.own-group text{font-size:6px;fill:#fff}"
    ".own-group.oos rect{stroke:#ff5a4f;stroke-dasharray:2 1.5}.own-group.oos text{fill:#ff9c94}"
)


def _scoped(css: str) -> str:
    """Prefix every rule with ``.ftmap``: an SVG inlined in a page shares the page's styles."""
    return "".join(f".ftmap {rule}}}" for rule in css.split("}") if rule)


def render_svg(data: MapData, *, size: float = HEX_SIZE, hex_url: str = "") -> str:
    """The map as one standalone SVG document (public when ``data.private`` is None).

    With ``hex_url`` (a URL with ``XXYY`` in place of the hex), each system links to its hex
    panel, so the panel is reachable without JavaScript and from the keyboard.
    """
    c0, r0, c1, r1 = bounds(data)
    x0 = 1.5 * size * (c0 - 1)
    x1 = size + 1.5 * size * (c1 - 1) + size
    y0 = SQRT3 * size * (r0 - 1)
    y1 = SQRT3 * size * (r1 + 0.5)
    w, h = x1 - x0, y1 - y0
    hh = SQRT3 * size / 2
    colour = {k: p.colour for k, p in data.powers.items()}
    name = {k: p.name for k, p in data.powers.items()}
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ftmap" '
        f'viewBox="{_f(x0)} {_f(y0)} {_f(w)} {_f(h)}" width="{_f(w)}" height="{_f(h)}" '
        f'data-hex-size="{size:g}" data-view="{"private" if data.private else "public"}" '
        f'role="img" aria-label="{_e(data.title)}">',
        f"<title>{_e(data.title)}</title>",
        f"<desc>{_e(data.notice)}</desc>" if data.notice else "",
        f"<style>{_scoped(_STYLE)}{_scoped(_PRIVATE_STYLE) if data.private else ''}</style>",
        # The deep-space grid is one tile of two hexes (columns 1 and 2), repeated.
        f'<defs><pattern id="ftgrid" patternUnits="userSpaceOnUse" width="{_f(3 * size)}" '
        f'height="{_f(2 * hh)}"><path class="grid" d="M0,{_f(hh)} L{_f(size / 2)},0 '
        f"L{_f(1.5 * size)},0 L{_f(2 * size)},{_f(hh)} L{_f(1.5 * size)},{_f(2 * hh)} "
        f'L{_f(size / 2)},{_f(2 * hh)}Z M{_f(2 * size)},{_f(hh)} L{_f(3 * size)},{_f(hh)}"/>'
        "</pattern></defs>",
        f'<rect class="bg" x="{_f(x0)}" y="{_f(y0)}" width="{_f(w)}" height="{_f(h)}"/>',
        '<g class="hex-types">',
    ]
    for hexagon, kind in data.hexes:
        if kind != "deep_space":
            out.append(
                f'<polygon class="t-{_e(kind)}" data-hex="{hexagon}" '
                f'points="{_hex_polygon(hexagon, size)}"/>'
            )
    out.append("</g>")
    out.append(
        f'<rect fill="url(#ftgrid)" x="{_f(x0)}" y="{_f(y0)}" '
        f'width="{_f(w)}" height="{_f(h)}" pointer-events="none"/>'
    )

    out.append('<g class="hubs">')
    for area in data.hub_areas:
        c = _e(colour.get(area.power, "#cccccc"))
        out.append(
            f'<path class="hub" fill="{c}" stroke="{c}" d="{_loops_path(area.hexes, size)}">'
            f"<title>Trade hub of {_e(name.get(area.power, area.power))}</title></path>"
        )
    out.append("</g>")

    if data.interest is not None:  # R-8.1a: public, with its rounds
        mark = data.interest
        cx, cy = centre_px(mark.hex, size)
        out.append(
            f'<g class="special-interest" data-hex="{mark.hex}"><title>{_e(mark.label)}</title>'
            f'<polygon class="asi" points="{_hex_polygon(mark.hex, size)}"/>'
            f'<text class="asi-label" x="{_f(cx)}" y="{_f(cy + size / 2 + 3)}">ASI</text></g>'
        )

    if data.private:
        out.extend(_private_layer(data.private, colour, size))

    out.append('<g class="systems">')
    for s in data.systems:
        cx, cy = centre_px(s.hex, size)
        holder = f'fill="{_e(colour[s.holder])}"' if s.holder in colour else 'class="neutral"'
        owner = _e(name[s.holder]) if s.holder in name else "neutral"
        own = ' data-own="1"' if s.loyalty is not None else ""  # the viewer's (private map)
        if hex_url:
            out.append(f'<a href="{_e(hex_url.replace("XXYY", str(s.hex)))}">')
        out.append(
            f'<g class="sys" data-hex="{s.hex}"><title>{_e(s.name)} ({s.hex}, {owner})</title>'
            f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(size / 5)}" {holder}{own}/>'
            f'<text class="code" x="{_f(cx)}" y="{_f(cy - hh + 9)}">{s.hex}</text>'
            f'<text class="name" x="{_f(cx)}" y="{_f(cy + size / 5 + 7.5)}">{_e(s.name)}</text>'
        )
        if s.loyalty is not None:
            out.append(
                f'<text class="lr" x="{_f(cx + size / 2)}" y="{_f(cy + 2)}">{s.loyalty}</text>'
            )
        out.append("</g></a>" if hex_url else "</g>")
    out.append("</g>")

    out.append('<g class="markers">')
    stacked: dict[Hex, int] = {}
    for m in data.markers:
        cx, cy = centre_px(m.hex, size)
        slot = stacked.get(m.hex, 0)
        stacked[m.hex] = slot + 1
        mx, my = cx - size * 0.75 + slot * 6.5, cy - 4
        c = _e(colour.get(m.power, "#cccccc"))
        label = "fleet group" if m.kind == "group" else "static"
        title = f"{m.count} {label}{'s' if m.count != 1 else ''} of {name.get(m.power, m.power)}"
        shape = (
            f'<rect class="counter" x="{_f(mx)}" y="{_f(my)}" width="6" height="6" fill="{c}"/>'
            if m.kind == "group"
            else f'<circle class="counter" cx="{_f(mx + 3)}" cy="{_f(my + 3)}" r="3.2" fill="{c}"/>'
        )
        out.append(
            f'<g class="marker {_e(m.kind)}"><title>{_e(title)}</title>{shape}'
            f'<text class="count" x="{_f(mx + 3)}" y="{_f(my + 5)}">{m.count}</text></g>'
        )
    for fought in data.battles:  # that a battle was fought here, never what it did
        cx, cy = centre_px(fought, size)
        out.append(
            f'<g class="marker battle" data-hex="{fought}"><title>A battle was fought here'
            f'</title><text x="{_f(cx + size * 0.45)}" y="{_f(cy - size * 0.35)}">⚔</text></g>'
        )
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _private_layer(layer: PrivateLayer, colour: dict[str, str], size: float) -> list[str]:
    """Support §5.2.6 and R-5.8: what only the viewing power may see of its own assets."""
    c = _e(colour.get(layer.power, "#ffd866"))
    out = ['<g class="bubbles">']
    for b in layer.bubbles:
        out.append(
            f'<g class="bubble-set" data-bubble="{_e(b.key)}"><title>Command bubble '
            f"{_e(b.name or b.key)} (HQ {b.hq}, radius {b.radius})</title>"
            f'<path class="bubble" fill="{c}" stroke="{c}" d="{_loops_path(b.coverage, size)}"/>'
        )
        hx, hy = centre_px(b.hq, size)
        out.append(
            f'<rect class="hq" x="{_f(hx - 4)}" y="{_f(hy + 5)}" width="8" height="8" '
            f'fill="none" stroke="{c}" stroke-width="1.5"><title>HQ {b.hq} (radius {b.radius})'
            "</title></rect>"
        )
        for o, radius in b.outposts:
            ox, oy = centre_px(o, size)
            out.append(
                f'<rect class="outpost" x="{_f(ox - 3)}" y="{_f(oy + 5)}" width="6" height="6" '
                f'fill="none" stroke="{c}"><title>Outpost {o} (radius {radius})</title></rect>'
            )
        for s in b.sensors:
            sx, sy = centre_px(s, size)
            out.append(
                f'<circle class="sensor" cx="{_f(sx + size / 2)}" cy="{_f(sy - size / 3)}" '
                f'r="2"><title>Sensor {s} of the HQ {b.hq}</title></circle>'
            )
        for s, o in b.outpost_sensors:  # R-8.3a: an outpost's own sensors, a ring
            sx, sy = centre_px(s, size)
            out.append(
                f'<circle class="sensor outpost-sensor" cx="{_f(sx + size / 2)}" '
                f'cy="{_f(sy - size / 3)}" r="2"><title>Sensor {s} of the outpost {o}</title>'
                "</circle>"
            )
        out.append("</g>")
    out.append("</g>")
    out.append('<g class="own-hubs">')
    for hub in layer.hubs:
        out.append(f'<g class="own-hub" data-hub="{_e(hub.key)}">')
        of_hub = f"of hub {_e(hub.name or hub.key)}"
        for a, z in hub.links:
            (ax, ay), (bx, by) = centre_px(a, size), centre_px(z, size)
            out.append(
                f'<line class="link" stroke="{c}" x1="{_f(ax)}" y1="{_f(ay)}" '
                f'x2="{_f(bx)}" y2="{_f(by)}"/>'
            )
        for n in hub.nodes:
            nx, ny = centre_px(n, size)
            out.append(
                f'<circle class="node" stroke="{c}" cx="{_f(nx)}" cy="{_f(ny)}" '
                f'r="{_f(size / 2.6)}"><title>Node {n} {of_hub}</title></circle>'
            )
        if hub.centre is not None:
            cx, cy = centre_px(hub.centre, size)
            r = size / 2.2
            out.append(
                f'<polygon class="centre" fill="none" stroke="{c}" stroke-width="2" '
                f'points="{_f(cx)},{_f(cy - r)} {_f(cx + r)},{_f(cy)} {_f(cx)},{_f(cy + r)} '
                f'{_f(cx - r)},{_f(cy)}"><title>Trade centre {hub.centre} {of_hub}'
                "</title></polygon>"
            )
        out.append("</g>")
    out.append("</g>")
    out.append('<g class="own-groups">')
    here: dict[Hex, int] = {}
    for g in layer.groups:
        here[g.hex] = here.get(g.hex, 0) + 1
    stacked: dict[Hex, int] = {}
    for g in layer.groups:  # strength at the foot of the hex, side by side
        cx, gy = centre_px(g.hex, size)
        slot = stacked.get(g.hex, 0)
        stacked[g.hex] = slot + 1
        gx = cx + (slot - (here[g.hex] - 1) / 2) * 19
        y = gy + SQRT3 * size / 2 - 2.5
        state = " oos" if g.out_of_supply else ""
        out.append(
            f'<g class="own-group{state}" data-group="{_e(g.name)}"{_group_button(g)}>'
            f"<title>{_e(g.label)}</title>"
            f'<rect x="{_f(gx - 9)}" y="{_f(y - 5.5)}" width="18" height="7.5" rx="1.5" '
            f'stroke="{c}"/><text x="{_f(gx)}" y="{_f(y)}">{g.points}</text></g>'
        )
    out.append("</g>")
    out.extend(_moves(layer.groups, size))
    out.append('<g class="routes">')
    for route in layer.routes:
        (ax, ay), (bx, by) = centre_px(route.start, size), centre_px(route.end, size)
        out.append(
            f'<line class="route" x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}">'
            f"<title>{_e(route.label)}</title></line>"
        )
    out.append("</g>")
    return out


def _group_button(g: OwnGroup) -> str:
    """A group of the orders page's map: focusable and named, so the keyboard can pick it."""
    if not g.key:
        return ""
    where = f"at {g.hex}" + (f", drafted to {g.drafted}" if g.drafted else "")
    return (
        f' data-key="{_e(g.key)}" data-hex="{g.hex}" tabindex="0" role="button" '
        f'aria-label="{_e(f"Group {g.name} {where}: choose its hex")}"'
    )


def _moves(groups: Iterable[OwnGroup], size: float) -> list[str]:
    """R-2: each drafted declaration that names another hex, as an arrow from where the group
    is to where it is declared (nothing when no group has one, as on the private map)."""
    moves = [(g, g.drafted) for g in groups if g.drafted is not None and g.drafted != g.hex]
    if not moves:
        return []
    out = [
        '<g class="moves"><defs><marker id="ftarrow" viewBox="0 0 10 10" refX="8" refY="5" '
        'markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10Z" fill="#ffd866"/></marker></defs>'
    ]
    for g, to in moves:
        (ax, ay), (bx, by) = centre_px(g.hex, size), centre_px(to, size)
        out.append(
            f'<line class="move" data-key="{_e(g.key)}" data-to="{to}" x1="{_f(ax)}" '
            f'y1="{_f(ay)}" x2="{_f(bx)}" y2="{_f(by)}" stroke="#ffd866" stroke-width="2" '
            f'marker-end="url(#ftarrow)"><title>{_e(f"Group {g.name}: {g.hex} → {to}")}'
            "</title></line>"
        )
    out.append("</g>")
    return out
