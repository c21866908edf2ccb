"""Every benchmark, one after the other: ``make bench`` (``.venv/bin/python bench/run_all.py``).

Each runs as its own process, so one that fails or cannot run never stops the others. A
benchmark whose service is not reachable (PostgreSQL, Redis on loopback) or whose input is not
there (the sector files) is skipped, with the reason; at the end a summary says what ran, what
failed (with its exit status) and what was skipped and why. Exits 1 if any failed.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import describe  # noqa: E402 - after the sys.path line, run as a script
from bench.sectors import SECTORS  # noqa: E402


def reachable(port: int) -> Callable[[], str | None]:
    def check() -> str | None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return None
        except OSError as exc:
            return f"nothing answers on 127.0.0.1:{port} ({exc.strerror or exc}); `make services`"

    return check


def sectors() -> str | None:
    if (SECTORS / "Spinward Marches.tab").is_file():
        return None
    return f"no sector files in {SECTORS} (set FTCAMP_SECTORS to their directory)"


POSTGRES, REDIS = reachable(5432), reachable(6379)

# (script and its arguments, what it needs)
BENCHES: list[tuple[str, list[Callable[[], str | None]]]] = [
    ("engine.py --instructions", []),  # says itself if it has no valgrind to count with
    ("traderoutes.py", [sectors]),
    ("resolution.py", [POSTGRES]),
    ("orders.py", [POSTGRES]),
    ("maps.py", []),
    ("recovery.py", [POSTGRES, REDIS]),
    ("diplomacy.py", [POSTGRES]),  # issue 31: a thread's poll, 304 and 200
]


def main() -> int:
    print(describe(), flush=True)
    outcome: list[tuple[str, str]] = []
    for script, needs in BENCHES:
        missing = next((why for check in needs if (why := check())), None)
        if missing:
            print(f"== {script}: skipped: {missing}", flush=True)
            outcome.append((script, f"skipped: {missing}"))
            continue
        print(f"== {script} (load average {os.getloadavg()[0]:.2f})", flush=True)
        start = time.monotonic()
        name, *args = script.split()
        code = subprocess.run(
            [sys.executable, str(ROOT / "bench" / name), *args], cwd=ROOT
        ).returncode
        took = time.monotonic() - start
        outcome.append((script, f"ran in {took:.0f} s" if code == 0 else f"FAILED (exit {code})"))
    print("== summary")
    for script, what in outcome:
        print(f"  {script:<16} {what}")
    return 1 if any(what.startswith("FAILED") for _, what in outcome) else 0


if __name__ == "__main__":
    sys.exit(main())
