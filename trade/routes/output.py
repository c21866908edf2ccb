"""JSON output ``ftcamp-traderoutes/1`` (contracts §2, T-9)."""

from __future__ import annotations

import json
from typing import Any

from .btn import half_to_number
from .mapper import RouteMap

FORMAT = "ftcamp-traderoutes/1"


def to_dict(result: RouteMap) -> dict[str, Any]:
    """contracts §2: worlds, pairs (BTN >= 8, a < b, sorted) and legs (a < b, sorted); trade
    numbers as multiples of 0.5, GWP in whole credits."""
    return {
        "format": FORMAT,
        "worlds": [
            {
                "id": w.id,
                "name": w.name,
                "uwp": w.uwp,
                "uwtn": half_to_number(w.uwtn_h),
                "wtn": half_to_number(w.wtn_h),
                "gwp": w.gwp,
                "codes": list(w.codes),
            }
            for w in result.worlds
        ],
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "btn": half_to_number(p.btn_h),
                "distance": p.distance,
                "jumps": p.jumps,
            }
            for p in result.pairs
        ],
        "legs": [
            {"a": g.a, "b": g.b, "btn": half_to_number(g.btn_h), "class": g.route_class}
            for g in result.legs
        ],
    }


def to_json(result: RouteMap, *, indent: int | None = None) -> str:
    """The ``ftcamp-traderoutes/1`` document as text (UTF-8 names kept as they are).

    Without ``indent`` it is exactly ``json.dumps(to_dict(result), ensure_ascii=False)``, written
    straight from the result: a large map has tens of thousands of pairs, and building a dict
    for each only for the encoder to take it apart again costs more than the text itself.
    """
    if indent is not None:
        return json.dumps(to_dict(result), indent=indent, ensure_ascii=False)
    ids = {w.id: _text(w.id) for w in result.worlds}

    def ref(world_id: str) -> str:
        return ids.get(world_id) or _text(world_id)

    worlds = (
        f'{{"id": {ids[w.id]}, "name": {_text(w.name)}, "uwp": {_text(w.uwp)}, '
        f'"uwtn": {half_to_number(w.uwtn_h)!r}, "wtn": {half_to_number(w.wtn_h)!r}, '
        f'"gwp": {w.gwp!r}, "codes": [{", ".join(map(_text, w.codes))}]}}'
        for w in result.worlds
    )
    pairs = (
        f'{{"a": {ref(p.a)}, "b": {ref(p.b)}, "btn": {half_to_number(p.btn_h)!r}, '
        f'"distance": {p.distance!r}, "jumps": {p.jumps!r}}}'
        for p in result.pairs
    )
    legs = (
        f'{{"a": {ref(g.a)}, "b": {ref(g.b)}, "btn": {half_to_number(g.btn_h)!r}, '
        f'"class": {"null" if g.route_class is None else _text(g.route_class)}}}'
        for g in result.legs
    )
    return (
        f'{{"format": {_text(FORMAT)}, "worlds": [{", ".join(worlds)}], '
        f'"pairs": [{", ".join(pairs)}], "legs": [{", ".join(legs)}]}}'
    )


def _text(value: str) -> str:
    """A JSON string as ``json.dumps(value, ensure_ascii=False)`` writes it."""
    return _ENCODER.encode(value)


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # one encoder: json.dumps builds one per call
