"""The mapper's variants as one frozen settings object (trade-routes.md: every *variant*)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from decimal import Decimal, InvalidOperation
from typing import TypedDict

from .btn import btn_cap

_CHOICES = {
    "classifications": ("uwp", "remarks"),
    "btn_cap": ("2wtn+1", "wtn+5", "none"),
}


class _Changes(TypedDict, total=False):
    """Parsed ``--variant`` values, keyed and typed as the :class:`RouteSettings` fields."""

    classifications: str
    btn_cap: str
    min_btn: int | Decimal
    gwp_cap: bool
    chunk: int
    workers: int


@dataclass(frozen=True, slots=True)
class RouteSettings:
    """Variants with the spec's defaults.

    - ``classifications``: ``"uwp"`` (T-4 on UWP digits) or ``"remarks"`` (the file's codes).
    - ``btn_cap``: ``"2wtn+1"`` (T-5 default), ``"wtn+5"`` or ``"none"``.
    - ``min_btn``: lowest BTN whose trade is counted on legs (T-5, T-7), default 6.
    - ``gwp_cap``: T-8 variant, limit a pair's trade to 10 x the smaller GWP.
    - ``chunk``: sources per Dijkstra batch (memory/speed only; never changes a result).
    - ``workers``: 2 shares the batches with one forked worker process (speed only; never
      changes a result; ``python -m trade.routes`` asks for it on a machine with two cores).
      Only for a single-threaded process: a fork copies no other thread, nor what it holds.
    """

    classifications: str = "uwp"
    btn_cap: str = "2wtn+1"
    min_btn: int | Decimal = 6
    gwp_cap: bool = False
    chunk: int = 64
    workers: int = 1

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}")
        doubled = Decimal(str(self.min_btn)) * 2
        if doubled % 1 or not -200 <= doubled <= 200:
            raise ValueError("min_btn must be a multiple of 0.5")
        if self.chunk < 1:
            raise ValueError("chunk must be at least 1")
        if self.workers not in (1, 2):
            raise ValueError("workers must be 1 or 2")
        btn_cap(0, 0, self.btn_cap)

    @property
    def min_btn_h(self) -> int:
        """``min_btn`` in half-units."""
        return int(Decimal(str(self.min_btn)) * 2)

    def with_variants(self, items: list[str] | tuple[str, ...]) -> RouteSettings:
        """Apply ``k=v`` strings (the command's ``--variant``); ValueError names a bad one."""
        known = {f.name for f in fields(self)}
        changes: _Changes = {}
        for item in items:
            key, sep, raw = item.partition("=")
            key, raw = key.strip(), raw.strip()
            if not sep or key not in known:
                raise ValueError(f"unknown variant {item!r} (known: {', '.join(sorted(known))})")
            _convert(changes, key, raw)
        return replace(self, **changes)


def _convert(changes: _Changes, key: str, raw: str) -> None:
    """Parse one variant's text into ``changes`` (``key`` is a known field name)."""
    if key == "gwp_cap":
        changes["gwp_cap"] = _flag(raw)
    elif key == "min_btn":
        changes["min_btn"] = _number(raw)
    elif key == "chunk":
        if not raw.isdigit():
            raise ValueError(f"chunk must be a positive integer, got {raw!r}")
        changes["chunk"] = int(raw)
    elif key == "workers":
        if not raw.isdigit():
            raise ValueError(f"workers must be 1 or 2, got {raw!r}")
        changes["workers"] = int(raw)
    elif key == "classifications":
        changes["classifications"] = raw
    elif key == "btn_cap":
        changes["btn_cap"] = raw
    else:
        raise ValueError(f"variant {key!r} has no parser")


def _flag(raw: str) -> bool:
    if raw.lower() in ("1", "true", "yes", "on"):
        return True
    if raw.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"gwp_cap must be true or false, got {raw!r}")


def _number(raw: str) -> int | Decimal:
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise ValueError(f"min_btn must be a number, got {raw!r}") from None
    if not value.is_finite():
        raise ValueError(f"min_btn must be a number, got {raw!r}")
    return int(value) if value == value.to_integral_value() else value
