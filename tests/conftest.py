import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import pytest
from django.conf import settings as django_settings
from django.db import connection
from pytest_django import Settings

from ftcamp.celery import app as celery_app
from tests.helpers import ROOT, children, wait_for


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # a test with a real worker process runs in make test's serial lane, like the browser ones
    for item in items:
        if "worker" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.worker)


@pytest.fixture(scope="session", autouse=True)
def _static_root() -> None:
    # whitenoise warns (an error under filterwarnings) when STATIC_ROOT does not exist yet
    Path(django_settings.STATIC_ROOT).mkdir(exist_ok=True)


@pytest.fixture(autouse=True)
def _fresh_round_states() -> Iterator[None]:
    # The parsed-state cache is per process, keyed by round id and state version: a test's
    # rolled-back database may hand the next test the same ids, which production never does.
    from economy.snapshot import forget_round_states

    forget_round_states()
    yield
    forget_round_states()


@pytest.fixture
def eager() -> Iterator[None]:
    """Celery tasks (notice delivery, say) run in the test's process when they are sent, e.g.
    by an after-commit hook that ``django_capture_on_commit_callbacks`` fires."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Settings) -> None:
    # PBKDF2's deliberate slowness buys nothing in tests and costs most of their time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Start real `celery worker` subprocesses (prefork) on this test run's queue, against the
    test database. Use with ``django_db(transaction=True)`` so the worker sees the rows."""
    celery_app.control.purge()
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[BinaryIO] = []

    def start(app: str = "ftcamp", **env: str) -> subprocess.Popen[bytes]:
        full_env = {
            "PATH": os.environ["PATH"],
            "HOME": str(tmp_path),
            "SECRET_KEY": "worker-test-secret",
            "DATABASE_URL": (
                f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}"
            ),
            "REDIS_URL": django_settings.REDIS_URL,
            "CELERY_QUEUE": django_settings.CELERY_TASK_DEFAULT_QUEUE,
            **env,
        }
        cmd = [sys.executable, "-m", "celery", "-A", app, "worker", "-P", "prefork"]
        cmd += ["-c", "1", "-l", "info", "--without-mingle", "--without-gossip"]
        cmd += ["-Q", django_settings.CELERY_TASK_DEFAULT_QUEUE]
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
            proc.kill()  # a worker still busy after 15 s; reaped, or its Popen warns later
            proc.wait()
    for log in logs:
        log.close()
