"""Reading the contract's JSON (contracts §1): ``CaseError`` naming the bad path, typed access to
one object (``_Reader``), and the ids, powers, hubs and systems a state's parsers share
(``_Context``). Used by ``codec`` and ``codec_command``."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any


class CaseError(ValueError):
    """A malformed case: ``path`` names the offending field (contracts §1, exit 2)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


_MISSING = object()


def is_hex(value: object) -> bool:
    """R-0.5: four digits ``XXYY``, both parts 1-based."""
    return (
        isinstance(value, str)
        and len(value) == 4
        and value.isdigit()
        and value[:2] != "00"
        and value[2:] != "00"
    )


def parse_decimal(value: object) -> Decimal | None:
    """Contracts §1: decimals are strings with at most 4 places; ``None`` if not one."""
    if not isinstance(value, str):
        return None
    try:
        d = Decimal(value)
    except InvalidOperation:
        return None
    if not d.is_finite():
        return None
    exponent = d.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -4:
        return None
    return d


class _Reader:
    """Typed access to one JSON object, raising ``CaseError`` with the full path."""

    def __init__(self, obj: object, path: str) -> None:
        if not isinstance(obj, dict):
            raise CaseError(path, "expected object")
        self.obj: dict[str, Any] = obj
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: object = _MISSING) -> Any:
        if key not in self.obj:
            if default is _MISSING:
                raise CaseError(self.at(key), "missing required key")
            return default
        return self.obj[key]

    def opt_int(self, key: str) -> int | None:
        return None if self.raw(key, None) is None else self.int(key)

    def int(self, key: str, default: object = _MISSING, *, minimum: int | None = 0) -> int:
        v = self.raw(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise CaseError(self.at(key), f"expected integer, got {v!r}")
        if minimum is not None and v < minimum:
            raise CaseError(self.at(key), f"expected integer >= {minimum}, got {v}")
        return v

    def text(self, key: str, default: object = _MISSING) -> str:
        v = self.raw(key, default)
        if not isinstance(v, str) or not v:
            raise CaseError(self.at(key), f"expected non-empty string, got {v!r}")
        return v

    def opt_str(self, key: str) -> str | None:
        v = self.raw(key, None)
        if v is None:
            return None
        if not isinstance(v, str) or not v:
            raise CaseError(self.at(key), f"expected string or null, got {v!r}")
        return v

    def bool(self, key: str, default: object = _MISSING) -> bool:
        v = self.raw(key, default)
        if not isinstance(v, bool):
            raise CaseError(self.at(key), f"expected boolean, got {v!r}")
        return v

    def hex(self, key: str, default: object = _MISSING) -> str:
        v = self.raw(key, default)
        if not is_hex(v):
            raise CaseError(self.at(key), f"expected hex XXYY, got {v!r}")
        return str(v)

    def choice(self, key: str, options: tuple[str, ...], default: object = _MISSING) -> str:
        v = self.raw(key, default)
        if v not in options:
            raise CaseError(self.at(key), f"expected one of {', '.join(options)}, got {v!r}")
        return str(v)

    def list(self, key: str) -> list[Any]:
        v = self.raw(key, [])
        if v is None:
            return []
        if not isinstance(v, list):
            raise CaseError(self.at(key), "expected list")
        return v

    def sub(self, key: str, default: object = _MISSING) -> _Reader:
        return _Reader(self.raw(key, default), self.at(key))

    def decimal(self, key: str) -> Decimal:
        v = self.raw(key)
        d = parse_decimal(v)
        if d is None:
            raise CaseError(self.at(key), f"expected decimal string (<= 4 places), got {v!r}")
        return d


def _items(r: _Reader, key: str) -> list[_Reader]:
    return [_Reader(item, f"{r.at(key)}[{i}]") for i, item in enumerate(r.list(key))]


def _stock(r: _Reader, key: str, resources: tuple[str, ...]) -> dict[str, int]:
    sub = r.sub(key, {})
    return {res: sub.int(res, 0) for res in resources}


class _Context:
    """What the per-object parsers share: the ids seen so far (unique across the case) and the
    powers, hubs and systems that later objects may refer to."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}
        self.powers: set[str] = set()
        self.hubs: set[str] = set()
        self.systems: set[str] = set()

    def new_id(self, item: _Reader) -> str:
        ident = item.text("id")
        if ident in self.seen:
            raise CaseError(item.at("id"), f"duplicate id {ident!r} (also {self.seen[ident]})")
        self.seen[ident] = item.path
        return ident

    def power(self, item: _Reader, key: str) -> str:
        value = item.text(key)
        if value not in self.powers:
            raise CaseError(item.at(key), f"unknown power {value!r}")
        return value

    def power_or_none(self, item: _Reader, key: str) -> str | None:
        return self.power(item, key) if item.raw(key, None) is not None else None

    def power_list(self, item: _Reader, key: str) -> list[str]:
        out = []
        for i, who in enumerate(item.list(key)):
            if not isinstance(who, str) or who not in self.powers:
                raise CaseError(f"{item.at(key)}[{i}]", f"unknown power {who!r}")
            out.append(who)
        return out


def _hex_list(r: _Reader, key: str) -> list[str]:
    out = []
    for i, hx in enumerate(r.list(key)):
        if not is_hex(hx):
            raise CaseError(f"{r.at(key)}[{i}]", f"expected hex XXYY, got {hx!r}")
        out.append(hx)
    return out
