"""contracts §2 JSON shape and the T-9 SVG (well-formed, names escaped)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET  # parsing our own output only
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
