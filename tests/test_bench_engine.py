"""Issue 13: ``bench/engine.py`` takes the sizes in turn, so that the machine's drift over a
minute cannot fall on one size, and says why when it cannot count instructions."""

from __future__ import annotations

from typing import Any

import pytest

from bench import engine
from economy.engine.resolve import resolve as real


def test_the_sizes_are_timed_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []

    def resolve(state: Any, orders: Any) -> Any:
        sizes.append(len(state.systems))
        return real(state, orders)

    monkeypatch.setattr("bench.engine.resolve", resolve)
    runs = engine.measure((100, 200), repeats=2)
    assert sizes == [100, 200, 100, 200]
    assert [len(run.state.systems) for run in runs.values()] == [100, 200]
    assert all(run.seconds > 0 and run.lines > 0 and run.orders > 0 for run in runs.values())


def test_without_valgrind_the_count_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("shutil.which", lambda _: None)
    assert engine.instructions((100, 200)) == "no valgrind on PATH"
