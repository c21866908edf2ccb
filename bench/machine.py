"""One line on the machine a benchmark ran on, printed at the top of each: its CPU, cores, load
and the speed of a fixed pure-Python loop. The project's 2-core machine has run the same commit
1.5-1.8 times slower from one session to the next (README, benchmarks), so figures from
different runs compare only with this line beside them."""

from __future__ import annotations

import os
import time
from pathlib import Path

STEPS = 2_000_000


def _loop() -> float:
    """Seconds for STEPS additions in a plain loop (what the engine's Python mostly does)."""
    start = time.perf_counter()
    total = 0
    for i in range(STEPS):
        total += i
    return time.perf_counter() - start


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def describe() -> str:
    """``machine: <CPU>, N cores, load L; reference loop M Msteps/s`` (best of 5 loops)."""
    best = min(_loop() for _ in range(5))
    return (
        f"machine: {cpu_model()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f};"
        f" reference loop {STEPS / best / 1e6:.1f} M steps/s"
    )


if __name__ == "__main__":
    print(describe())
