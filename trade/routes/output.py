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
    """The ``ftcamp-traderoutes/1`` document as text (UTF-8 names kept as they are)."""
    return json.dumps(to_dict(result), indent=indent, ensure_ascii=False)
