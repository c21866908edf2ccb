"""Benchmark of the Far Trader trade-route mapper on the real sectors (issue 19;
docs/trade-routes.md).

    .venv/bin/python bench/traderoutes.py [--sectors DIR] [--runs N]

For Spinward Marches alone, the five-sector block around it and the whole 4 x 4 block (16
sectors) in DIR (default ../shared/data/sectors, read in place: the files are never copied into
the project), prints worlds, pairs, legs and:

- compute: ``map_routes`` in this process (reading the files included), best of N;
- process: ``python -m trade.routes FILES --json --svg`` as a child process, its whole wall
  time (interpreter, imports, reading, mapping, writing both files) best of N, the CPU time of
  that run (user + system: what a shared machine's load does not inflate as much) and its peak
  RSS (``os.wait4``'s ``ru_maxrss``, the largest over the runs).
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trade.routes import map_routes  # noqa: E402 - after the sys.path line, run as a script

BLOCKS = {
    "Spinward Marches": ("Spinward Marches",),
    "5-sector block": ("Spinward Marches", "Deneb", "Corridor", "Trojan Reach", "Reft"),
    "16-sector block": (
        "Gvurrdon", "Tuglikki", "Provence", "Windhorn",
        "Spinward Marches", "Deneb", "Corridor", "Vland",
        "Trojan Reach", "Reft", "Gushemege", "Dagudashaag",
        "Riftspan Reaches", "Verge", "Ilelish", "Zarushagar",
    ),
}  # fmt: skip


def compute(files: list[Path], runs: int) -> tuple[float, str]:
    best, summary = float("inf"), ""
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        result = map_routes(files)
        best = min(best, time.perf_counter() - t0)
        summary = (
            f"worlds {len(result.worlds):>5}  pairs {result.counted_pairs:>8} "
            f"(>=8: {len(result.pairs):>6})  legs {len(result.legs):>6}"
        )
    return best, summary


def whole_process(files: list[Path], runs: int) -> tuple[float, float, float]:
    """Best wall time, its CPU time and the largest peak RSS (MiB) of ``python -m
    trade.routes`` on ``files``."""
    best, cpu, peak = float("inf"), 0.0, 0.0
    with tempfile.TemporaryDirectory() as out:
        argv = [sys.executable, "-m", "trade.routes", *map(str, files), "--no-progress"]
        argv += ["--json", f"{out}/r.json", "--svg", f"{out}/r.svg"]
        for _ in range(runs):
            t0 = time.perf_counter()
            child = subprocess.Popen(
                argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - t0
            if wall < best:
                best, cpu = wall, usage.ru_utime + usage.ru_stime
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"python -m trade.routes failed on {files}")
            peak = max(peak, usage.ru_maxrss / 1024)
    return best, cpu, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sectors", default=str(ROOT.parent / "shared" / "data" / "sectors"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    folder = Path(args.sectors)
    if not (folder / "Spinward Marches.tab").is_file():
        print(f"no sector files in {folder}; use --sectors DIR", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for label, names in BLOCKS.items():
        files = [folder / f"{name}.tab" for name in names]
        seconds, summary = compute(files, args.runs)
        wall, cpu, rss = whole_process(files, args.runs)
        print(
            f"{label:<17} {summary}  compute {seconds:5.2f} s  "
            f"process {wall:5.2f} s (cpu {cpu:5.2f} s), peak RSS {rss:6.1f} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
