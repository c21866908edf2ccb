"""Small campaign builders for the engine tests (contract-shaped dicts, parsed by the codec)."""

from __future__ import annotations

from typing import Any

from economy.engine.codec import dump_state, parse_state
from economy.engine.resolve import Result, resolve
from economy.engine.state import State


def system(
    sid: str,
    hx: str,
    holder: str | None,
    lr: int,
    kind: str = "basic",
    *,
    stock: dict[str, int] | None = None,
    **rates: int,
) -> dict[str, Any]:
    stock = stock or {}
    return {
        "id": sid,
        "hex": hx,
        "type": kind,
        "holder": holder,
        "loyalty": lr,
        "rates": {r: rates.get(r, 0) for r in ("ore", "gal", "bio", "pl")},
        "stock": {"ore": 0, "bio": 0, "pl": 0, **stock},
    }


def static(sid: str, power: str, hx: str, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "power": power, "hex": hx, "civilian": True, **kw}


def group(
    gid: str, power: str, hx: str, order: str = "maintain_orbit", **kw: Any
) -> dict[str, Any]:
    return {"id": gid, "power": power, "hex": hx, "order": order, **kw}


def campaign(**parts: Any) -> dict[str, Any]:
    """A state dict; ``powers`` may be given as {id: gal}."""
    powers = parts.pop("powers", {"terra": 0})
    return {
        "round": parts.pop("round", 1),
        "powers": [{"id": p, "gal": gal, "tp": 0} for p, gal in powers.items()],
        **parts,
    }


def run(state: dict[str, Any], orders: dict[str, list[dict[str, Any]]] | None = None) -> Result:
    parsed = parse_state(state)
    sheet = [(p, i, o) for p in sorted(orders or {}) for i, o in enumerate((orders or {})[p])]
    return resolve(parsed, sheet)


def find(state: State, kind: str, ident: str) -> dict[str, Any]:
    """One object of the dumped state by id."""
    objects: list[dict[str, Any]] = dump_state(state)[kind]
    for obj in objects:
        if obj["id"] == ident:
            return obj
    raise KeyError(ident)
