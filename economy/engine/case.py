"""``ftcamp-case/1`` files: load, resolve, dump the result, and compare with ``expect``."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from .codec import CaseError, dump_state, parse_orders, parse_state
from .resolve import Result, resolve
from .state import State

CASE_FORMAT = "ftcamp-case/1"
RESULT_FORMAT = "ftcamp-result/1"


@dataclass(frozen=True, slots=True)
class Case:
    title: str
    state: State
    orders: list[tuple[str, int, Any]]
    expect: dict[str, Any] | None


def load_case(obj: object) -> Case:
    """Parse a case object; raises ``CaseError`` naming the offending path."""
    if not isinstance(obj, dict):
        raise CaseError("(case)", "expected a JSON object")
    if obj.get("format") != CASE_FORMAT:
        raise CaseError("format", f"expected {CASE_FORMAT!r}, got {obj.get('format')!r}")
    if "state" not in obj:
        raise CaseError("state", "missing required key")
    state = parse_state(obj["state"])
    orders = parse_orders(obj.get("orders"), state)
    expect = obj.get("expect")
    if expect is not None and not isinstance(expect, dict):
        raise CaseError("expect", "expected object")
    return Case(str(obj.get("title", "")), state, orders, expect)


def read_case(path: Path) -> Case:
    """Read a case file; unreadable JSON is a ``CaseError`` too."""
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseError(str(path), f"cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise CaseError(f"(json line {exc.lineno} column {exc.colno})", exc.msg) from None
    return load_case(obj)


def dump_result(result: Result) -> dict[str, Any]:
    """Contracts §1: the ``ftcamp-result/1`` object."""
    return {
        "format": RESULT_FORMAT,
        "state": dump_state(result.state),
        "ledger": [line.as_json() for line in result.ledger],
        "rejected": [r.as_json() for r in result.rejected],
        "events": [e.as_json() for e in result.events],
        "un_meeting": result.un_meeting,
    }


def run_case(case: Case) -> Result:
    return resolve(case.state, case.orders)


# --- expect ------------------------------------------------------------------------------


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if expected == actual:
        return True
    # Decimals are strings compared by value ("1.5" == "1.5000"), contracts §1.
    plain = isinstance(expected, (str, int)) and isinstance(actual, (str, int))
    if plain and ("." in str(expected) or "." in str(actual)):
        try:
            return Decimal(str(expected)) == Decimal(str(actual))
        except InvalidOperation:
            return False
    return False


def _canonical(value: Any) -> Any:
    """A hashable form for multiset comparison; inner plain lists (link pairs) are unordered."""
    if isinstance(value, list):
        return ("list", tuple(sorted((_canonical(v) for v in value), key=repr)))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _canonical(v)) for k, v in value.items())))
    if isinstance(value, str):
        try:
            if "." in value:
                return ("dec", Decimal(value).normalize())
        except InvalidOperation:
            pass
    return (type(value).__name__, value)


def _matches(expected: Any, actual: Any) -> bool:
    out: list[str] = []
    _compare(expected, actual, "", out)
    return not out


def _compare(expected: Any, actual: Any, path: str, out: list[str]) -> None:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            out.append(f"{path}: expected {_show(expected)}, got {_show(actual)}")
            return
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else key
            if key not in actual:
                out.append(f"{sub}: expected {_show(value)}, got nothing")
            else:
                _compare(value, actual[key], sub, out)
        return
    if isinstance(expected, list):
        if not isinstance(actual, list):
            out.append(f"{path}: expected {_show(expected)}, got {_show(actual)}")
        elif not expected:
            if actual:
                out.append(f"{path}: expected [], got {_show(actual)}")
        elif all(isinstance(e, dict) and "id" in e for e in expected):
            by_id = {a.get("id"): a for a in actual if isinstance(a, dict)}
            for item in expected:
                sub = f"{path}[id={item['id']}]"
                if item["id"] not in by_id:
                    out.append(f"{sub}: expected {_show(item)}, got nothing")
                else:
                    _compare(item, by_id[item["id"]], sub, out)
        elif all(isinstance(e, dict) for e in expected):
            _compare_unkeyed(expected, actual, path, out)
        elif Counter(map(_canonical, expected)) != Counter(map(_canonical, actual)):
            out.append(f"{path}: expected {_show(expected)}, got {_show(actual)}")
        return
    if not _scalar_equal(expected, actual):
        out.append(f"{path}: expected {_show(expected)}, got {_show(actual)}")


def _compare_unkeyed(expected: list[Any], actual: list[Any], path: str, out: list[str]) -> None:
    """Same length, and each expected object matches a different actual one (a matching)."""
    if len(expected) != len(actual):
        out.append(f"{path}: expected {len(expected)} items, got {len(actual)}: {_show(actual)}")
        return
    fits = [[j for j, a in enumerate(actual) if _matches(e, a)] for e in expected]
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i, item in enumerate(expected):
        if not place(i, set()):
            out.append(f"{path}: expected an item {_show(item)}, got {_show(actual)}")


def _reasons(expected: list[Any], result: Result) -> list[str]:
    """Contracts §1: a ``reason`` must appear, case-insensitive, in that rejection's error."""
    errors: dict[tuple[str, Any], str] = {(r.power, r.index): r.error for r in result.rejected}
    out = []
    for i, item in enumerate(expected):
        if not isinstance(item, dict) or "reason" not in item:
            continue
        error = errors.get((str(item.get("power")), item.get("index")))
        reason = str(item["reason"])
        if error is not None and reason.lower() not in error.lower():
            out.append(f"rejected[{i}].reason: expected {_show(reason)}, got {_show(error)}")
    return out


def check_expect(expect: dict[str, Any], result: Result) -> list[str]:
    """Contracts §1 "Expect": mismatches as ``path: expected X, got Y`` (empty if it passes)."""
    out: list[str] = []
    state = dump_state(result.state)
    extra = ("rejected", "ledger_contains", "un_meeting")
    partial = {k: v for k, v in expect.items() if k not in extra}
    _compare(partial, state, "", out)
    if "un_meeting" in expect:  # project extension: the decided motions and market report
        _compare(expect["un_meeting"], result.un_meeting, "un_meeting", out)
    if "rejected" in expect:
        want = sorted(
            (str(r.get("power")), r.get("index")) for r in expect["rejected"] if isinstance(r, dict)
        )
        got = sorted((r.power, r.index) for r in result.rejected)
        if want != got:
            detail = {f"{r.power}[{r.index}]": r.error for r in result.rejected}
            out.append(
                f"rejected: expected {_show([list(w) for w in want])}, "
                f"got {_show([list(g) for g in got])} {_show(detail)}"
            )
        out.extend(_reasons(expect["rejected"], result))
    lines = [line.as_json() for line in result.ledger]
    for i, want_line in enumerate(expect.get("ledger_contains", [])):
        if not any(_matches(want_line, line) for line in lines):
            out.append(f"ledger_contains[{i}]: expected {_show(want_line)}, got no such line")
    return out
