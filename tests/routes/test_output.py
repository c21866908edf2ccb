"""contracts §2 JSON shape and the T-9 SVG (well-formed, names escaped)."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET  # parsing our own output only
from itertools import pairwise
from pathlib import Path

from economy.engine.hexgrid import Hex, distance
from trade.routes import map_routes, to_dict, to_json, to_svg

from .helpers import BIG, row, write_sector

SVG = "{http://www.w3.org/2000/svg}"


def test_json_shape_contract_example(tmp_path: Path) -> None:
    rows = [
        row("1910", "Regina", "A788899-C", remarks="Ri", pbg="703"),
        row("2007", "Other", BIG),
        row("2010", "Lonely", "X000000-0", zone="R"),
    ]
    result = map_routes([write_sector(tmp_path, "Spinward Marches", rows)])
    doc = json.loads(to_json(result))
    assert list(doc) == ["format", "worlds", "pairs", "legs"]
    assert doc["format"] == "ftcamp-traderoutes/1"
    regina = doc["worlds"][0]
    # contracts §2 example world, value for value.
    assert regina == {
        "id": "Spinward Marches 1910",
        "name": "Regina",
        "uwp": "A788899-C",
        "uwtn": 5.0,
        "wtn": 5.0,
        "gwp": 6563200000000,
        "codes": ["Ri"],
    }
    assert [w["id"] for w in doc["worlds"]] == sorted(w["id"] for w in doc["worlds"])
    # 1910-2007 is 3 parsecs: 5 + 5 - 1 = 9, Feeder, so the lone jump-3 leg is allowed (T-6).
    assert distance(Hex.parse("1910"), Hex.parse("2007")) == 3
    assert doc["pairs"] == [
        {
            "a": "Spinward Marches 1910",
            "b": "Spinward Marches 2007",
            "btn": 9.0,
            "distance": 3,
            "jumps": 1,
        }
    ]
    assert doc["legs"] == [
        {"a": "Spinward Marches 1910", "b": "Spinward Marches 2007", "btn": 9.0, "class": "feeder"}
    ]
    for item in doc["pairs"] + doc["legs"]:
        assert item["a"] < item["b"]
        assert isinstance(item["btn"], float) and (item["btn"] * 2).is_integer()
    assert isinstance(regina["gwp"], int)
    assert to_dict(result) == doc


def test_svg_escapes_hostile_names(tmp_path: Path) -> None:
    hostile = ["<script>alert(1)</script>", '"><svg onload=alert(2)>', "A & B 'quoted'"]
    rows = [
        row("0101", hostile[0], BIG),
        row("0103", hostile[1], BIG),
        row("0105", hostile[2], BIG),
    ]
    path = write_sector(
        tmp_path, 'Evil "<Sector>"', rows, routes=['<Route Start="0101" End="0105"/>']
    )
    svg = to_svg(map_routes([path]), notice="<b>notice</b>")
    assert "<script" not in svg and "<svg onload" not in svg and "<b>" not in svg
    root = ET.fromstring(svg)  # noqa: S314 - our own output; well-formed = nothing broke out
    assert root.tag == f"{SVG}svg"
    assert not list(root.iter(f"{SVG}script"))
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert set(hostile) <= texts
    legs = [e for e in root.iter(f"{SVG}line") if "leg" in (e.get("class") or "").split()]
    assert legs and all(e.get("data-a", "").startswith('Evil "<Sector>"') for e in legs)
    xboat = [
        e
        for e in root.iter(f"{SVG}line")
        if e.get("stroke-dasharray") is None
        and e.get("data-a")
        and "leg" not in (e.get("class") or "")
    ]
    assert xboat  # the X-boat group's dashes are set on its <g>
    onload = [e for e in root.iter() if any(k.lower().startswith("on") for k in e.attrib)]
    assert onload == []


def test_json_text_is_exactly_the_dict_dumped(tmp_path: Path) -> None:
    # to_json writes the text itself (no dict per pair); it must be json.dumps of to_dict to the
    # byte, names with quotes, backslashes, non-ASCII letters and control characters included.
    names = ['Q"uote', "Back\\slash", "Ærø Ünïcode ✦", "Bell\x07", "Plain", "Empty codes", "Faint"]
    uwps = [BIG, BIG, "B867A69-C", BIG, "C430698-9", "X000000-0", "C544400-7"]
    hexes = ["0101", "0103", "0105", "0107", "0109", "0111", "0301"]
    rows = [
        row(hex_code, name, uwp, remarks="Ri" if i % 2 else "")
        for i, (hex_code, name, uwp) in enumerate(zip(hexes, names, uwps, strict=True))
    ]
    result = map_routes([write_sector(tmp_path, 'Sector "Ω"', rows)])
    assert result.pairs and any(not w.codes for w in result.worlds)
    assert {leg.route_class for leg in result.legs} >= {None, "minor", "main"}
    assert to_json(result) == json.dumps(to_dict(result), ensure_ascii=False)
    assert to_json(result, indent=2) == json.dumps(to_dict(result), indent=2, ensure_ascii=False)


def test_svg_grid_outlines_every_hex_of_its_sectors(tmp_path: Path) -> None:
    # The grid is one path of relative moves (a few hundred KB less on 16 sectors): read back,
    # every hex of the sector has its six corners where a flat-topped hex of circumradius 10 px
    # has them around its centre, to the 0.05 px its numbers are rounded to.
    worlds = [row("0101", "One", BIG), row("0204", "Two", BIG), row("3240", "Three", BIG)]
    result = map_routes([write_sector(tmp_path, "Grid", worlds)])
    root = ET.fromstring(to_svg(result))  # noqa: S314 - our own output
    grid = next(e for e in root.iter(f"{SVG}path") if e.get("class") == "grid")
    outlines = [part for part in (grid.get("d") or "").split("M") if part]
    assert len(outlines) == 32 * 40
    corners = []
    for outline in outlines:
        start, *moves = outline.rstrip("z").split("l")
        x, y = (float(v) for v in start.split(","))
        points = [(x, y)]
        for move in moves:
            dx, dy = (float(v) for v in move.split(","))
            x, y = x + dx, y + dy
            points.append((x, y))
        assert len(points) == 6
        cx, cy = sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6
        for (px, py), angle in zip(points, range(0, 360, 60), strict=True):
            assert abs(px - cx - 10 * math.cos(math.radians(angle))) <= 0.05
            assert abs(py - cy - 10 * math.sin(math.radians(angle))) <= 0.1
        corners.append((round(cx, 1), round(cy, 1)))
    # Neighbouring columns sit 15 px apart and half a hex (8.66 px) up or down: the 1,280 centres
    # are every (column, row) of the sector, each once.
    xs = sorted({c[0] for c in corners})
    assert len(xs) == 32 and all(abs(b - a - 15) <= 0.1 for a, b in pairwise(xs))
    assert len(set(corners)) == 32 * 40
    # ... and each world's dot sits in the middle of its hex (drawn 1 px above the centre).
    dots = [
        (float(c.get("cx") or 0), float(c.get("cy") or 0) + 1) for c in root.iter(f"{SVG}circle")
    ]
    dots = dots[: len(worlds)]  # the legend's circles come after the worlds'
    assert len(dots) == 3
    for x, y in dots:
        assert any(abs(x - cx) <= 0.1 and abs(y - cy) <= 0.1 for cx, cy in corners), (x, y)
