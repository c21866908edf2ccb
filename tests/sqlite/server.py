"""`make run` as a fixture: the demo exactly as a newcomer starts it, on a port and SQLite file
of its own (the SQLite lane, tests/sqlite/conftest.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import ROOT


@dataclass(frozen=True)
class Demo:
    url: str  # the server's base URL
    db: Path  # its SQLite file
    log: Path  # what make run and the server printed (a 500's traceback)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """`make run PORT=<free port>` with nothing of the test run's environment but its own
    SQLite file: no REDIS_URL, so tasks run in-process, and DEBUG as the Makefile sets it."""
    port = free_port()
    workdir = tmp_path_factory.mktemp("make-run")
    db = workdir / "demo.sqlite3"
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(workdir)),
        # the demo's own SQLite file, so the developer's db.sqlite3 is left alone
        "DATABASE_URL": f"sqlite:///{db}",
    }
    log_path = workdir / "server.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/accounts/login/", timeout=2) as r:  # noqa: S310
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("make run did not serve:\n" + log_path.read_text())
            time.sleep(0.1)
        yield Demo(base, db, log_path)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
        log.close()
