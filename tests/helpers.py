"""Helpers shared by tests: waiting, finding a worker's pool processes, and which frameworks a
pure module pulls in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The ``worker`` fixture: starts a real ``celery worker`` subprocess (tests/conftest.py).
StartWorker = Callable[..., subprocess.Popen[bytes]]


def children(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


FRAMEWORKS = ("django", "rest_framework", "celery")


def imported_frameworks(modules: list[str]) -> list[str]:
    """The framework modules loaded after importing ``modules`` in a fresh interpreter, so a
    transitive import counts too (the pure packages' boundary, style.md)."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r})\n"
        "print(json.dumps(bad))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return list(json.loads(out.stdout))


def _on_postgresql() -> bool:
    from django.conf import settings

    return bool(settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


#: A test of PostgreSQL's own branch (advisory locks, statement triggers, COPY, fair row locks):
#: in the SQLite lane of ``make test`` (make run's settings) it is skipped, and runs in the other.
postgresql_only = pytest.mark.skipif(
    not _on_postgresql(), reason="PostgreSQL's own branch: runs in make test's PostgreSQL lane"
)
#: A test of SQLite's branch, where ``make run`` takes it: skipped in the PostgreSQL lane.
sqlite_only = pytest.mark.skipif(
    _on_postgresql(), reason="SQLite's own branch: runs in make test's SQLite lane"
)


#: Hypothesis profiles (issue 27): ``make test`` runs the suite's, in which a property test that
#: has never found a bug in this project's history runs a quarter of its examples (``examples``);
#: a test that has found one (the engine's resolution invariants, the codec's corruption test)
#: keeps its count in every profile. ``HYPOTHESIS_PROFILE=thorough`` runs every test in full.
THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def examples(full: int) -> int:
    """The example count of a property test that has not found a bug: ``full`` when thorough."""
    return full if THOROUGH else max(1, full // 4)
