"""Traveller hex geometry, pure Python (no Django): the one place for hex maths.

Hexes are numbered ``XXYY`` (column, row), 1-based, flat-topped, with the odd columns "up" and
the even columns half a hex lower, as on Traveller Map sectors (R-0.5, contracts §1 "odd-q").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    col: int
    row: int

    @classmethod
    def parse(cls, code: str) -> Hex:
        """``"0310"`` -> ``Hex(3, 10)``; raises ``ValueError`` for anything else."""
        if not isinstance(code, str) or len(code) != 4 or not code.isdigit():
            raise ValueError(f"hex must be four digits XXYY, got {code!r}")
        return cls(int(code[:2]), int(code[2:]))

    def __str__(self) -> str:
        return f"{self.col:02d}{self.row:02d}"


def _cube(h: Hex) -> tuple[int, int, int]:
    # Column 1 is an "up" column; in 0-based terms odd columns are pushed down (odd-q).
    c = h.col - 1
    x = c
    z = (h.row - 1) - (c - (c & 1)) // 2
    return x, -x - z, z


def _from_cube(x: int, z: int) -> Hex:
    return Hex(x + 1, z + (x - (x & 1)) // 2 + 1)


def distance(a: Hex, b: Hex) -> int:
    """R-0.5: the number of hex steps between two hexes."""
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # cube (dx, dz)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes one step away (coordinates may fall off a finite map: callers filter)."""
    x, _, z = _cube(h)
    return [_from_cube(x + dx, z + dz) for dx, dz in _DIRECTIONS]


def ring(h: Hex, radius: int) -> list[Hex]:
    """Hexes exactly ``radius`` steps from ``h``, in a fixed order (just ``[h]`` for radius 0)."""
    if radius == 0:
        return [h]
    x, _, z = _cube(h)
    # start at direction 4 scaled, then walk the six sides
    cx, cz = x + _DIRECTIONS[4][0] * radius, z + _DIRECTIONS[4][1] * radius
    out: list[Hex] = []
    for dx, dz in _DIRECTIONS:
        for _ in range(radius):
            out.append(_from_cube(cx, cz))
            cx, cz = cx + dx, cz + dz
    return out


def within(h: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance 0..radius of ``h``."""
    for r in range(radius + 1):
        yield from ring(h, r)


def on_map(h: Hex, size: tuple[int, int] | None) -> bool:
    """Contracts §1 ``map.size``: on a map of (cols, rows) when 1 <= col <= cols and
    1 <= row <= rows; with no bounds (``None``) every hex is on it."""
    if size is None:
        return True
    cols, rows = size
    return 1 <= h.col <= cols and 1 <= h.row <= rows


def bounding_size(hexes: Iterable[Hex]) -> tuple[int, int] | None:
    """Contracts §1: the default ``map.size``, from 0101 to the largest column and row listed
    (``None`` when nothing is listed)."""
    cells = list(hexes)
    if not cells:
        return None
    return max(h.col for h in cells), max(h.row for h in cells)


# --- pixel geometry for SVG ------------------------------------------------------------------

SQRT3 = math.sqrt(3)


def centre_px(h: Hex, size: float) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex of circumradius ``size`` (0101 at (size, size*√3/2))."""
    c = h.col - 1
    x = size + c * 1.5 * size
    y = SQRT3 * size * (h.row - 0.5 + (0.5 if c % 2 else 0.0))
    return x, y


def corners_px(h: Hex, size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex, clockwise from the east corner."""
    cx, cy = centre_px(h, size)
    return [
        (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def outline(hexes: Iterable[Hex]) -> list[tuple[Hex, int]]:
    """The boundary of a union of hexes as (hex, side) pairs, side i joins corner i and i+1.

    A side is on the boundary when the neighbour across it is not in the set; drawing these
    edges traces the outline of the union (Support §4.1.3, R-5.8) without revealing its members.
    """
    cells = set(hexes)
    # side i of a flat-topped hex (between corners i, i+1) faces this cube direction
    side_dir = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    edges: list[tuple[Hex, int]] = []
    for h in sorted(cells):
        x, _, z = _cube(h)
        for i, (dx, dz) in enumerate(side_dir):
            if _from_cube(x + dx, z + dz) not in cells:
                edges.append((h, i))
    return edges


# --- closed outlines on an exact integer lattice ------------------------------------------------

#: Corner i of a flat-topped hex relative to its centre, in lattice units: x in size/2, y in
#: size*√3/2 (clockwise on screen from the east corner, as ``corners_px``).
_CORNER_STEPS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

Point = tuple[int, int]


def corner_lattice(h: Hex, i: int) -> Point:
    """Corner ``i`` of ``h`` as exact integers, so that shared corners compare equal."""
    c = h.col - 1
    dx, dy = _CORNER_STEPS[i % 6]
    return 2 + 3 * c + dx, 2 * h.row - 1 + (c & 1) + dy


def lattice_px(p: Point, size: float) -> tuple[float, float]:
    """Pixel position of a lattice point (matches ``centre_px`` and ``corners_px``)."""
    return p[0] * size / 2, p[1] * SQRT3 * size / 2


def outline_loops(hexes: Iterable[Hex]) -> list[list[Point]]:
    """The boundary of a union of hexes as closed loops of lattice corners (R-5.8).

    Boundary sides (``outline``) run clockwise around each hex; every hex-grid corner joins
    three hexes, so each boundary corner has exactly one outgoing boundary side and the sides
    chain into loops without ambiguity: the outer edge clockwise, any holes anticlockwise.
    Loops start at their smallest corner and come in sorted order, so output is deterministic.
    """
    nxt: dict[Point, Point] = {}
    for h, side in outline(hexes):
        nxt[corner_lattice(h, side)] = corner_lattice(h, side + 1)
    loops: list[list[Point]] = []
    for start in sorted(nxt):
        if start not in nxt:
            continue
        loop = [start]
        p = nxt.pop(start)
        while p != start:
            loop.append(p)
            p = nxt.pop(p)
        loops.append(loop)
    return loops


def hex_at_px(x: float, y: float, size: float) -> Hex:
    """The hex whose area holds pixel ``(x, y)`` (the inverse of ``centre_px``; static/js/map.js
    does the same sums in the browser)."""
    q = (x - size) / (1.5 * size)
    z = (y - SQRT3 * size / 2) / (SQRT3 * size) - q / 2
    cx, cz = q, z
    cy = -cx - cz
    rx, ry, rz = round(cx), round(cy), round(cz)
    dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return _from_cube(rx, rz)
