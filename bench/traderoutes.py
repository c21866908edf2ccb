"""Benchmark of the Far Trader trade-route mapper on the real sectors (issue 19;
docs/trade-routes.md).

    .venv/bin/python bench/traderoutes.py [--sectors DIR] [--runs N] [--only 1|5|16]

For Spinward Marches alone, the five-sector block around it and the whole 4 x 4 block (16
sectors) in DIR (default ../shared/data/sectors, read in place: the files are never copied into
the project), prints worlds, pairs, legs and:

- compute: ``map_routes`` in this process (reading the files included), best of N, wall and
  CPU seconds;
- process: ``python -m trade.routes FILES --json --svg`` as a child process, its whole wall
  time (interpreter, imports, reading, mapping, writing both files) best of N, the CPU time of
  that run (user + system of the child and anything it waited for: what a shared machine's
  load does not inflate as much) and its peak RSS (``os.wait4``'s ``ru_maxrss``, the largest
  over the runs), measured from a small launcher process (see LAUNCHER).

The mapper's modules are byte-compiled first (``compileall``, into the git-ignored
``__pycache__``), as an installed copy is: with ``PYTHONDONTWRITEBYTECODE=1`` (this container,
the Dockerfile) they would otherwise be compiled from source on every run.
"""

from __future__ import annotations

import argparse
import compileall
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
    "1": ("Spinward Marches", ("Spinward Marches",)),
    "5": (
        "5-sector block",
        ("Spinward Marches", "Deneb", "Corridor", "Trojan Reach", "Reft"),
    ),
    "16": (
        "16-sector block",
        (
            "Gvurrdon", "Tuglikki", "Provence", "Windhorn",
            "Spinward Marches", "Deneb", "Corridor", "Vland",
            "Trojan Reach", "Reft", "Gushemege", "Dagudashaag",
            "Riftspan Reaches", "Verge", "Ilelish", "Zarushagar",
        ),
    ),
}  # fmt: skip


def compute(files: list[Path], runs: int) -> tuple[float, float, str]:
    """Best wall time of ``map_routes`` in this process, its CPU time and a summary."""
    best, cpu, summary = float("inf"), 0.0, ""
    for _ in range(runs):
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        result = map_routes(files)
        wall, used = time.perf_counter() - t0, time.process_time() - c0
        if wall < best:
            best, cpu = wall, used
        summary = (
            f"worlds {len(result.worlds):>5}  pairs {result.counted_pairs:>7} "
            f"(>=8: {len(result.pairs):>6})  legs {len(result.legs):>6}"
        )
    return best, cpu, summary


# ``ru_maxrss`` of a process counts the memory of whatever it was before exec: a child forked
# (or vforked) from this benchmark, which holds the mapped sectors, would report this process's
# RSS. So a small launcher forks the command and reports its figures as seen by wait4.
LAUNCHER = """
import os, sys, time
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
print(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def whole_process(files: list[Path], runs: int) -> tuple[float, float, float]:
    """Best wall time, its CPU time and the largest peak RSS (MiB) of ``python -m
    trade.routes`` on ``files``."""
    best, cpu, peak = float("inf"), 0.0, 0.0
    with tempfile.TemporaryDirectory() as out:
        argv = [sys.executable, "-m", "trade.routes", *map(str, files), "--no-progress"]
        argv += ["--json", f"{out}/r.json", "--svg", f"{out}/r.svg"]
        for _ in range(runs):
            report = subprocess.run(
                [sys.executable, "-c", LAUNCHER, *argv],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            wall, used, maxrss, status = report.stdout.split()
            if status != "0":
                raise SystemExit(f"python -m trade.routes failed on {files}")
            if float(wall) < best:
                best, cpu = float(wall), float(used)
            peak = max(peak, int(maxrss) / 1024)
    return best, cpu, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sectors", default=str(ROOT.parent / "shared" / "data" / "sectors"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=sorted(BLOCKS, key=int), action="append")
    args = parser.parse_args(argv)
    folder = Path(args.sectors)
    if not (folder / "Spinward Marches.tab").is_file():
        print(f"no sector files in {folder}; use --sectors DIR", file=sys.stderr)
        return 2
    compileall.compile_dir(ROOT / "trade" / "routes", quiet=1)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.runs}")
    for key in args.only or BLOCKS:
        label, names = BLOCKS[key]
        files = [folder / f"{name}.tab" for name in names]
        seconds, used, summary = compute(files, args.runs)
        wall, cpu, rss = whole_process(files, args.runs)
        print(
            f"{label:<17} {summary}  compute {seconds:5.2f} s (cpu {used:5.2f} s)  "
            f"process {wall:5.2f} s (cpu {cpu:5.2f} s), peak RSS {rss:6.1f} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
