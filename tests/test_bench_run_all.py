"""Issue 13: ``make bench`` runs every benchmark even when one fails or cannot run, and says
what it skipped and why."""

from __future__ import annotations

import re
import subprocess

import pytest

from bench import run_all


def test_one_failing_and_one_skipped_never_stop_the_rest(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        run_all,
        "BENCHES",
        [
            ("no-such-benchmark.py", []),
            ("needs-a-service.py", [lambda: "nothing answers on 127.0.0.1:1"]),
            ("run_all_probe.py --flag", []),  # a benchmark's arguments reach it
        ],
    )
    ran: list[list[str]] = []
    real_run = subprocess.run

    def run(cmd: list[str], **kwargs: object) -> object:
        ran.append([cmd[1].rsplit("/", 1)[-1], *cmd[2:]])
        return real_run([cmd[0], "-c", "raise SystemExit(3)" if "no-such" in cmd[1] else ""])

    monkeypatch.setattr(subprocess, "run", run)
    assert run_all.main() == 1
    out = capsys.readouterr().out
    # the failure did not stop the rest; the arguments reach the benchmark as arguments
    assert ran == [["no-such-benchmark.py"], ["run_all_probe.py", "--flag"]]
    assert re.search(r"no-such-benchmark\.py\s+FAILED \(exit 3\)", out)
    assert re.search(r"needs-a-service\.py\s+skipped: nothing answers on 127\.0\.0\.1:1", out)
    assert re.search(r"run_all_probe\.py --flag\s+ran in", out)
