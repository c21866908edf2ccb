"""The batches shared with a forked worker (trade/routes/parallel.py): the same map, progress to
the end, and a worker's failure raised in the parent, never a hang or a partial map. The map is
a generated sector as full as a real one: some 260 sources in batches of 8 (16 halved for two
processes), dozens of batches, so that the worker takes its share of them."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.routes.helpers import random_sector
from trade.routes import RouteSettings, map_routes, parallel
from trade.routes.batch import BatchContext, Pairs, run_batch


@pytest.fixture(scope="module")
def sector(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return random_sector(tmp_path_factory.mktemp("parallel"), "Parallel", seed=1)


@pytest.fixture(autouse=True)
def _fork_even_for_one_sector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_CELLS", 0)  # a sector alone is not worth a fork


def test_two_processes_give_the_same_map_and_progress_reaches_the_end(
    sector: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = map_routes([sector], RouteSettings(chunk=16))
    workers: list[parallel.Child | None] = []
    start = parallel.Child.start

    def counted_start(work: Callable[[], Any]) -> parallel.Child | None:
        workers.append(start(work))
        return workers[-1]

    monkeypatch.setattr(parallel.Child, "start", counted_start)
    seen: list[tuple[int, int]] = []
    shared = map_routes(
        [sector],
        RouteSettings(chunk=16, workers=2),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert len(workers) == 1 and workers[0] is not None  # the work was shared
    assert replace(shared, settings=alone.settings) == alone
    assert shared.counted_pairs == alone.counted_pairs > 0
    total = seen[0][1]
    assert seen[0] == (0, total)
    assert seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_failing_worker_is_raised_in_the_parent(
    sector: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    real = run_batch

    def fails_in_the_worker(
        ctx: BatchContext, src: np.ndarray, reach: int | None
    ) -> tuple[list[Pairs], int]:
        if os.getpid() != parent:
            raise ArithmeticError("boom in the worker")
        return real(ctx, src, reach)

    monkeypatch.setattr("trade.routes.parallel.run_batch", fails_in_the_worker)
    with pytest.raises(RuntimeError, match="boom in the worker"):
        map_routes([sector], RouteSettings(chunk=16, workers=2))


def test_no_fork_means_one_process(sector: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError("no more processes")

    monkeypatch.setattr("os.fork", no_fork)
    alone = map_routes([sector], RouteSettings(chunk=16))
    shared = map_routes([sector], RouteSettings(chunk=16, workers=2))
    assert replace(shared, settings=alone.settings) == alone


def test_one_sector_is_not_worth_a_fork(sector: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_CELLS", 1_000_000)

    def no_fork() -> int:
        raise AssertionError("forked for one sector")

    monkeypatch.setattr("os.fork", no_fork)
    assert map_routes([sector], RouteSettings(chunk=16, workers=2)).counted_pairs > 0


def test_workers_setting_is_checked() -> None:
    assert RouteSettings().with_variants(["workers=2"]).workers == 2
    for bad in ("workers=0", "workers=3", "workers=two"):
        with pytest.raises(ValueError, match="workers"):
            RouteSettings().with_variants([bad])
