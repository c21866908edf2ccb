"""Hex maths, checked against distances worked by hand on a Traveller map (R-0.5): odd columns
are "up", even columns half a hex lower."""

import pytest

from economy.engine.hexgrid import Hex, distance, neighbours, outline, ring, within


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("0101", "0101", 0),
        ("0101", "0102", 1),  # same column
        ("0101", "0105", 4),
        ("0101", "0201", 1),  # even column sits lower: 0201 is down-right of 0101
        ("0101", "0202", 2),
        ("0102", "0201", 1),  # ...and up-right of 0102
        ("0201", "0301", 1),  # from an even column, 0301 is up-right
        ("0202", "0301", 2),  # 0202 sits lower: its column-3 neighbours are 0302 and 0303
        ("0202", "0302", 1),
        ("0202", "0303", 1),
        ("0101", "0301", 2),  # two columns across, same row: two steps
        ("0101", "0801", 7),
        ("0101", "0110", 9),
        ("0101", "0405", 6),  # 3 across (gaining 1.5 rows) + 2.5 rows down -> 3 + 3
        ("1910", "2007", 3),  # Regina to a world three parsecs away
        ("0101", "3240", 55),  # corner to corner of a sector: 31 across + (39 - 15.5) rows
    ],
)
def test_distance(a: str, b: str, d: int) -> None:
    assert distance(Hex.parse(a), Hex.parse(b)) == d
    assert distance(Hex.parse(b), Hex.parse(a)) == d


def test_neighbours_of_odd_and_even_columns() -> None:
    assert sorted(map(str, neighbours(Hex.parse("0303")))) == [
        "0202",
        "0203",
        "0302",
        "0304",
        "0402",
        "0403",
    ]
    assert sorted(map(str, neighbours(Hex.parse("0403")))) == [
        "0303",
        "0304",
        "0402",
        "0404",
        "0503",
        "0504",
    ]


def test_ring_and_within() -> None:
    centre = Hex.parse("0505")
    assert ring(centre, 0) == [centre]
    for r in range(1, 5):
        hexes = ring(centre, r)
        assert len(hexes) == 6 * r == len(set(hexes))
        assert all(distance(centre, h) == r for h in hexes)
    assert len(set(within(centre, 3))) == 1 + 6 + 12 + 18


def test_parse_rejects_bad_codes() -> None:
    for bad in ("101", "01011", "ab01", ""):
        with pytest.raises(ValueError, match="four digits"):
            Hex.parse(bad)
    assert str(Hex(3, 10)) == "0310"


def test_outline_of_one_hex_and_of_two_neighbours() -> None:
    single = outline([Hex(5, 5)])
    assert len(single) == 6
    pair = outline([Hex(5, 5), Hex(5, 6)])
    assert len(pair) == 10  # the shared side is inside
    ring1 = list(within(Hex(5, 5), 1))
    assert len(outline(ring1)) == 18  # a radius-1 flower: 6 hexes x 3 outer sides


def test_corner_lattice_matches_pixel_corners() -> None:
    from economy.engine.hexgrid import corner_lattice, corners_px, lattice_px

    for h in (Hex(1, 1), Hex(2, 1), Hex(7, 12), Hex(32, 40)):
        for i, (x, y) in enumerate(corners_px(h, 10)):
            lx, ly = lattice_px(corner_lattice(h, i), 10)
            assert abs(lx - x) < 1e-9 and abs(ly - y) < 1e-9


def test_outline_loops_of_one_hex_a_flower_and_a_ring_with_a_hole() -> None:
    from economy.engine.hexgrid import corner_lattice, outline_loops

    (single,) = outline_loops([Hex(5, 5)])
    assert sorted(single) == sorted(corner_lattice(Hex(5, 5), i) for i in range(6))
    (flower,) = outline_loops(within(Hex(4, 4), 1))  # odd and even columns mixed
    assert len(flower) == 18
    outer, hole = outline_loops(ring(Hex(6, 6), 1))  # the six neighbours, centre missing
    assert len(outer) == 18 and len(hole) == 6
    assert sorted(hole) == sorted(corner_lattice(Hex(6, 6), i) for i in range(6))
    # two separate hexes give two loops; the order is stable
    assert outline_loops([Hex(9, 9), Hex(1, 1)]) == outline_loops([Hex(1, 1), Hex(9, 9)])
    assert len(outline_loops([Hex(1, 1), Hex(9, 9)])) == 2


def test_hub_outline_of_rings_around_two_nodes_hides_them() -> None:
    """R-5.8: the union of radius-1 rings around centre 0505 and node 0707 is one loop whose
    corners are all on the outside: no corner of either member hex is inside the outline."""
    from economy.engine.hexgrid import corner_lattice, outline_loops

    members = [Hex(5, 5), Hex(7, 7)]
    area = {h for m in members for h in within(m, 1)}
    loops = outline_loops(area)
    assert len(loops) == 1
    corners = set(loops[0])
    for m in members:
        assert not corners & {corner_lattice(m, i) for i in range(6)}


@pytest.mark.parametrize("code", ["0101", "0201", "0505", "0606", "1910", "3240", "9999"])
def test_hex_at_px_inverts_centre_px(code: str) -> None:
    from economy.engine.hexgrid import centre_px, corners_px, hex_at_px

    h = Hex.parse(code)
    x, y = centre_px(h, 24)
    assert hex_at_px(x, y, 24) == h
    for cx, cy in corners_px(h, 24):  # just inside each corner
        assert hex_at_px(x + 0.9 * (cx - x), y + 0.9 * (cy - y), 24) == h
