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


class FakeCallgrind:
    """A callgrind child: ``base`` instructions to start and build, ``per_round`` x systems for
    each round, or a failure for ``fail_at`` systems."""

    base, per_round, fail_at = 1_000_000, 50, 0

    def __init__(self, command: list[str], **_: object) -> None:
        n, count = int(command[-2]), int(command[-1])
        self.returncode = 1 if n == self.fail_at else 0
        self.total = self.base + n * self.per_round * count

    def communicate(self) -> tuple[None, str]:
        # valgrind reports what it counted even when the program under it fails
        error = "Traceback: ValueError: no campaign\n" if self.returncode else ""
        return None, f"{error}==7== Events    : Ir\n==7== Collected : {self.total}"


def test_one_rounds_instructions_are_the_difference_of_two_children(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("shutil.which", lambda _: "/usr/bin/valgrind")
    monkeypatch.setattr("subprocess.Popen", FakeCallgrind)
    assert engine.instructions((100, 200)) == {100: 5_000, 200: 10_000}
    monkeypatch.setattr(FakeCallgrind, "fail_at", 200)
    failed = engine.instructions((100, 200))
    assert isinstance(failed, str) and failed.startswith("callgrind failed for 200 systems")
    assert "ValueError: no campaign" in failed
