"""T-1 readers: tab + xml, T5 column and classic SEC; anomalies, malformed lines, placement."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trade.routes import (
    SectorFormatError,
    load_sectors,
    map_routes,
    map_worlds,
    parse_sector,
    place,
    to_json,
    to_svg,
)
from trade.routes.sectors import read_sector

from .helpers import BIG, row, write_sector


def test_tab_reader_fields_metadata_and_routes(tmp_path: Path) -> None:
    rows = [
        row(
            "1910",
            "Regina",
            "A788899-C",
            remarks="Ri Pa Ph Cp (Vegans)3",
            pbg="703",
            bases="NS",
            allegiance="ImDd",
        ),
        row("0101", "Odd Star", "B430587-8", zone="A", allegiance="ZhIN"),
        row("0534", "Beacon Point", "???????-?", remarks="{Anomaly}", pbg="???"),
    ]
    routes = [
        '<Route Start="1910" End="0101"/>',
        '<Route Start="0101" End="3201" EndOffsetX="-1" Type="Xboat" Allegiance="ImDd"/>',
        '<Route Start="0101" End="0303" Type="Trade"/>',
    ]
    path = write_sector(tmp_path, "Alpha", rows, x=-4, y=-1, routes=routes)
    sector = read_sector(path)
    assert (sector.name, sector.abbreviation, sector.position) == ("Alpha", "Test", (-4, -1))
    assert sector.format == "tab"
    regina = sector.worlds[0]
    assert regina.id == "Alpha 1910"
    assert (regina.name, regina.uwp, regina.starport) == ("Regina", "A788899-C", "A")
    assert (regina.size, regina.atmosphere, regina.hydrographics) == (7, 8, 8)
    assert (regina.population, regina.government, regina.law, regina.tech_level) == (8, 9, 9, 12)
    assert regina.remarks == ("Ri", "Pa", "Ph", "Cp", "(Vegans)3")
    assert (regina.bases, regina.zone, regina.pbg, regina.allegiance) == ("NS", "", "703", "ImDd")
    assert (regina.pop_multiplier, regina.belts, regina.gas_giants) == (7, 0, 3)
    assert (regina.col, regina.row, regina.stars, regina.subsector) == (19, 10, "G2 V", "A")
    assert sector.worlds[1].zone == "A"
    # T-6: routes without a Type or with Type="Xboat" count; other types do not.
    assert [(r.start, r.end, r.end_offset) for r in sector.routes] == [
        ("1910", "0101", (0, 0)),
        ("0101", "3201", (-1, 0)),
    ]
    # T-1: the anomaly row is skipped and counted, with its line number (2 comments + header).
    assert len(sector.anomalies) == 1 and sector.anomalies[0].line_no == 6
    assert sector.malformed == ()


def test_malformed_lines_are_reported_with_line_numbers(tmp_path: Path) -> None:
    rows = [
        row("0101", "Good", BIG),
        "Test\tA\t0102",  # too few fields
        row("0199", "Bad Row", BIG),  # row 99 is outside a sector
        row("0103", "Bad UWP", "A7I8899-C"),  # I is not eHex
        row("0104", "Odd Stars", BIG).replace("G2 V", "BH ZZ9 Q"),  # unknown stars: kept
    ]
    path = write_sector(tmp_path, "Beta", rows)
    sector = read_sector(path)
    assert [w.name for w in sector.worlds] == ["Good", "Odd Stars"]
    assert [(s.path, s.line_no) for s in sector.malformed] == [
        (str(path), 5),
        (str(path), 6),
        (str(path), 7),
    ]
    assert "0199" in sector.malformed[1].reason
    assert "UWP" in sector.malformed[2].reason
    assert str(sector.malformed[0]).startswith(f"{path}:5: ")


def test_t5_column_format() -> None:
    text = (
        "Hex  Name                 UWP       Remarks              {Ix}   B  Z PBG W  A    Stellar\n"
        "---- -------------------- --------- -------------------- ------ -- - --- -- ---- -------\n"
        "0101 Mistral              C430587-8 De Na Ni Po          { -1 } -  - 613 8  ZhIN K9 V\n"
        "1910 Regina               A788899-C Ri Pa Ph             { 4 }  NS A 703 9  ImDd G1 V D\n"
        "0534 Beacon Point         ???????-? {Anomaly}            {}     -  - ??? -  -    \n"
    )
    sector = parse_sector(text, path="cols.txt", name="Cols")
    assert sector.format == "column"
    assert [w.id for w in sector.worlds] == ["Cols 0101", "Cols 1910"]
    regina = sector.worlds[1]
    assert (regina.bases, regina.zone, regina.pbg, regina.allegiance) == ("NS", "A", "703", "ImDd")
    assert regina.remarks == ("Ri", "Pa", "Ph") and regina.stars == "G1 V D"
    assert sector.worlds[0].bases == "" and sector.worlds[0].zone == ""
    assert [s.line_no for s in sector.anomalies] == [5]


def test_classic_sec_format() -> None:
    text = (
        "# Sector: Old Format\n"
        "@SUB-SECTOR: Regina  SECTOR: Old Format\n"
        "Mistral      0101 C430587-8    De Na Ni Po       613 Zh K9 V\n"
        "Regina       1910 A788899-C A  Ri Pa Ph        A 703 Im G1 V M2 V\n"
        "this line is not a world\n"
        "Anomaly      0534 ???????-?    {Anomaly}         ??? --\n"
    )
    sector = parse_sector(text, path="old.sec")
    assert sector.format == "sec" and sector.name == "Old Format"
    mis, regina = sector.worlds
    assert (mis.hex, mis.uwp, mis.bases, mis.zone, mis.pbg) == ("0101", "C430587-8", "", "", "613")
    assert mis.remarks == ("De", "Na", "Ni", "Po") and mis.allegiance == "Zh"
    assert (regina.name, regina.bases, regina.zone, regina.allegiance) == ("Regina", "A", "A", "Im")
    assert regina.remarks == ("Ri", "Pa", "Ph") and regina.stars == "G1 V M2 V"
    assert [s.line_no for s in sector.malformed] == [5]
    assert [s.line_no for s in sector.anomalies] == [6]


def test_sec_file_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "Gamma.sec"
    path.write_text("Regina       1910 A788899-C A  Ri Pa Ph          703 Im F7 V\n")
    sector = read_sector(path)
    assert sector.name == "Gamma" and sector.position is None
    assert [w.id for w in sector.worlds] == ["Gamma 1910"]


def test_not_a_sector_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello\nworld\n")
    with pytest.raises(SectorFormatError):
        read_sector(path)
    with pytest.raises(SectorFormatError):
        read_sector(tmp_path / "missing.tab")


def test_metadata_with_doctype_is_refused() -> None:
    evil = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Sector><X>&a;</X></Sector>'
    with pytest.raises(SectorFormatError):
        parse_sector("", metadata_xml=evil)


def test_two_sectors_side_by_side(tmp_path: Path) -> None:
    # T-1: x = col + 32 * SectorX. West 3210 (x = 32) and East 0110 (x = 33) are neighbours.
    west = write_sector(tmp_path, "West", [row("3210", "Edge", BIG)], x=0, y=0)
    east = write_sector(
        tmp_path,
        "East",
        [row("0110", "Rim", BIG), row("0610", "Far", BIG)],
        x=1,
        y=0,
        routes=['<Route Start="0610" End="3210" EndOffsetX="-1"/>'],
    )
    files = load_sectors([west, east])
    placement = place(files)
    coords = {p.world.id: (p.x, p.y) for p in placement.worlds}
    assert coords == {"West 3210": (32, 10), "East 0110": (33, 10), "East 0610": (38, 10)}
    assert placement.xboat == (("East 0610", "West 3210"),)
    result = map_routes([west, east])
    pair = next(p for p in result.pairs if p.a == "East 0110" and p.b == "West 3210")
    assert (pair.distance, pair.jumps) == (1, 1)
    # The X-boat route runs across the sector border: one 6-parsec jump.
    pair = next(p for p in result.pairs if p.a == "East 0610" and p.b == "West 3210")
    assert (pair.distance, pair.jumps) == (6, 1)


def test_at_overrides_and_missing_positions(tmp_path: Path) -> None:
    a = write_sector(tmp_path, "A", [row("0101", "One", BIG)], x=None, y=None)
    b = write_sector(tmp_path, "B", [row("0101", "Two", BIG)], x=None, y=None)
    with pytest.raises(SectorFormatError, match="--at"):
        place(load_sectors([a, b]))
    placed = place(load_sectors([a, b], at=[(0, 0), (0, 1)]))
    assert sorted((p.x, p.y) for p in placed.worlds) == [(1, 1), (1, 41)]
    # A lone file without a position sits at 0, 0.
    assert [(p.x, p.y) for p in place(load_sectors([a])).worlds] == [(1, 1)]


def test_duplicate_hex_is_skipped_and_reported(tmp_path: Path) -> None:
    path = write_sector(tmp_path, "Dup", [row("0101", "First", BIG), row("0101", "Second", BIG)])
    placement = place(load_sectors([path]))
    assert [p.world.name for p in placement.worlds] == ["First"]
    assert [(s.line_no, "already holds" in s.reason) for s in placement.malformed] == [(5, True)]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Hex\tName\tUWP\n",
        "Hex\tName\tUWP\tZone\n0101\tRed\tA788899-C\tR\n",
        "Hex\tName\tUWP\n0101\tAlone\tA788899-C\n",
        "Hex\tName\tUWP\n0101\tA\tX000000-0\n0102\tB\tX000000-0\n",
    ],
)
def test_tiny_maps_do_not_break(text: str) -> None:
    result = map_worlds(place([parse_sector(text, path="t.tab", name="T")]))
    assert result.pairs == () and result.legs == ()
    assert to_json(result).startswith('{"format": "ftcamp-traderoutes/1"')
    assert to_svg(result).rstrip().endswith("</svg>")


def test_same_sector_twice_is_reported_not_doubled(tmp_path: Path) -> None:
    path = write_sector(tmp_path, "Twice", [row("0101", "One", BIG), row("0103", "Two", BIG)])
    placement = place(load_sectors([path, path], at=[(0, 0), (1, 0)]))
    assert sorted(p.world.id for p in placement.worlds) == ["Twice 0101", "Twice 0103"]
    assert len(placement.malformed) == 2


def test_bom_and_crlf_are_tolerated() -> None:
    text = "\ufeffHex\tName\tUWP\r\n0101\tA\tA788899-C\r\n"
    sector = parse_sector(text, path="bom.tab", name="Bom")
    assert [w.id for w in sector.worlds] == ["Bom 0101"] and sector.malformed == ()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=60),
            st.builds(
                lambda h, u, z: row(h, "Fuzz", u, zone=z),
                st.text(alphabet="0123456789", min_size=3, max_size=5),
                st.text(alphabet="ABCDEX0123456789?-IO", min_size=7, max_size=10),
                st.sampled_from(["", "A", "R", "Q"]),
            ),
        ),
        max_size=12,
    )
)
def test_reader_never_crashes_on_bad_lines(lines: list[str]) -> None:
    # T-1: every line is a world, an anomaly, a comment or a reported malformed line.
    text = "\n".join(["Sector\tSS\tHex\tName\tUWP\tBases\tRemarks\tZone\tPBG\tAllegiance", *lines])
    sector = parse_sector(text, path="fuzz.tab", name="Fuzz")
    data_lines = sum(
        1 for line in text.splitlines()[1:] if line.strip() and not line.startswith(("#", "@"))
    )
    assert len(sector.worlds) + len(sector.anomalies) + len(sector.malformed) == data_lines
    assert all(s.path == "fuzz.tab" and s.line_no >= 2 for s in sector.malformed)
    map_worlds(place([sector]))  # and the mapper takes whatever was read
