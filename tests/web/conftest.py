"""Shared fixtures for web tests: real Celery workers on real Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from ftcamp.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]


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
        time.sleep(0.05)


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Start real `celery worker` subprocesses (prefork) on this test run's queue, against the
    test database. Use with ``django_db(transaction=True)`` so the worker sees the rows."""
    celery_app.control.purge()
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[object] = []

    def start(**env: str) -> subprocess.Popen[bytes]:
        full_env = {
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "SECRET_KEY": "worker-test-secret",
            "DATABASE_URL": (
                f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
            ),
            "REDIS_URL": settings.REDIS_URL,
            "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            **env,
        }
        cmd = [sys.executable, "-m", "celery", "-A", "ftcamp", "worker", "-P", "prefork"]
        cmd += ["-c", "1", "-l", "info", "--without-mingle", "--without-gossip"]
        cmd += ["-Q", settings.CELERY_TASK_DEFAULT_QUEUE]
        log = (tmp_path / f"worker{len(procs)}.log").open("wb")
        logs.append(log)
        proc = subprocess.Popen(cmd, cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT)
        procs.append(proc)
        wait_for(lambda: bool(children(proc.pid)), 30, "the worker's pool process")
        return proc

    yield start
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    for log in logs:
        log.close()  # type: ignore[attr-defined]
