"""One table words every event (issue 28): each kind the engine can emit has exactly one
wording, in ``economy.engine.events.WORDS``; the contract's ``text`` and the players' words
(``economy.events``, with names) are that wording filled."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from economy.engine import events
from economy.engine.events import WORDS, text_of

ENGINE = Path(events.__file__).resolve().parent


def _kind(node: ast.expr) -> str:
    """The kind an ``event(...)`` call names, as a pattern: a literal, or an f-string whose
    holes stand for any word (``f"{kind}.failed"``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return re.escape(node.value)
    assert isinstance(node, ast.JoinedStr), ast.dump(node)
    return "".join(
        re.escape(str(part.value)) if isinstance(part, ast.Constant) else "[a-z_]+"
        for part in node.values
    )


def emitted() -> dict[str, str]:
    """Every kind a step of the engine records (``books.event(kind, ...)``), by pattern, with
    where it is recorded."""
    found: dict[str, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "event"
            ):
                assert node.args, f"{path.name}:{node.lineno}: the kind comes first"
                found.setdefault(_kind(node.args[0]), f"{path.name}:{node.lineno}")
    return found


def worded() -> Counter[str]:
    """How many times each kind is worded in the source of ``events.py``: in ``WORDS = {...}``
    and in any ``WORDS.update({...})`` (a later line would silently replace an earlier one)."""
    keys: Counter[str] = Counter()
    for node in ast.walk(ast.parse(Path(events.__file__).read_text())):
        table = None
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "WORDS" for t in targets):
                table = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "WORDS"
            and node.args
        ):
            table = node.args[0]
        if isinstance(table, ast.Dict):
            keys.update(str(k.value) for k in table.keys if isinstance(k, ast.Constant))
    return keys


def test_every_kind_the_engine_emits_has_exactly_one_wording() -> None:
    kinds = emitted()
    assert len(kinds) > 80  # the scan finds the steps' events
    for pattern, where in kinds.items():
        matches = [k for k in WORDS if re.fullmatch(pattern, k)]
        assert matches, f"{where}: {pattern} has no wording in events.WORDS"
    unused = [k for k in WORDS if not any(re.fullmatch(p, k) for p in kinds)]
    assert not unused, f"worded but never emitted: {unused}"
    twice = [k for k, n in worded().items() if n > 1]
    assert not twice, f"worded more than once: {twice}"
    assert sum(worded().values()) == len(WORDS)


def test_the_contract_text_is_the_wording_with_ids() -> None:
    data = {"system": "sol", "before": 20, "after": 21, "why": "+1 maintain orbit"}
    assert text_of("loyalty.changed", data) == (
        "sol loyalty 20 → 21 (+1: your fleet on Maintain Orbit)"
    )
    assert text_of(
        "hub.node_lost", {"hub": "h", "hex": "0101", "ore": 1, "bio": 2, "captor": None}
    ) == ("Hub h loses 0101: 1 Ore and 2 Bio captured by nobody")
