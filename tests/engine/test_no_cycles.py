"""A state and a round's result hold no reference cycles, so reference counting alone frees
them. ``economy.snapshot`` relies on it: it puts each cached round state out of the cycle
collector's sight (``gc.freeze()``) and counts on it being freed when the cache drops it; a
cycle there would never be freed. A round's result is kept clear of cycles too (README,
benchmarks: the collection after a round finds nothing)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.engine import build
from economy.engine.case import load_case
from economy.engine.resolve import resolve

CASES = sorted((Path(__file__).resolve().parent.parent / "cases").glob("*.json"))


@contextmanager
def collector_paused() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def leftover(raw: dict[str, object]) -> int:
    """Objects in cycles left behind by parsing ``raw`` and resolving its round."""
    with collector_paused():
        case = load_case(raw)
        result = resolve(case.state, case.orders)
        del case, result
        return gc.collect()


def test_no_case_leaves_a_cycle() -> None:
    raws = {path.stem: json.loads(path.read_text()) for path in CASES}
    with collector_paused():
        for raw in raws.values():
            case = load_case(raw)
            resolve(case.state, case.orders)
            del case
        found = gc.collect()  # one full collection for all: each one walks the whole heap
    if found:  # which cases, then
        assert {name: n for name, raw in raws.items() if (n := leftover(raw))} == {}
    assert found == 0


def test_a_large_campaign_leaves_no_cycle() -> None:
    with collector_paused():
        state, orders = build(300)
        result = resolve(state, orders)
        assert len(result.ledger) > 1_000  # a real round, not an empty one
        del state, orders, result
        assert gc.collect() == 0
