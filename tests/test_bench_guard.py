"""Reliability L4: the fault-injection benchmark refuses any host but loopback, before it
touches anything."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT


def test_bench_recovery_refuses_a_remote_database_or_broker() -> None:
    for variable, url in (
        ("DATABASE_URL", "postgres://postgres@db.example.com:5432/ftcamp"),
        ("REDIS_URL", "redis://10.1.2.3:6379/15"),
    ):
        env = {**os.environ, variable: url}
        result = subprocess.run(
            [sys.executable, "bench/recovery.py", "1"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 1
        assert f"{variable} must point at loopback" in result.stderr
