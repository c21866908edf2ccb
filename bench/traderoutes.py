"""Benchmark of the Far Trader trade-route mapper on the real sectors (issue 19;
docs/trade-routes.md).

    .venv/bin/python bench/traderoutes.py [--sectors DIR] [--runs N] [--only 1|5|16]
        [--workers 1|2]

For Spinward Marches alone, the five-sector block around it and the whole 4 x 4 block (16
sectors) in DIR (default: the directory in FTCAMP_SECTORS, else ../shared/data/sectors; read in
place: the files are never copied into the project), prints worlds, pairs, legs and:

- compute: ``map_routes`` in this process (reading the files included), best of N, wall and
  CPU seconds;
- process: ``python -m trade.routes FILES --json --svg`` as a child process, its whole wall
  time (interpreter, imports, reading, mapping, writing both files) best of N, the CPU time of
  that run (user + system of the child and anything it waited for: what a shared machine's
  load does not inflate as much) and its peak RSS (``os.wait4``'s ``ru_maxrss``, the largest
  over the runs), measured from a small launcher process (see LAUNCHER); then, from one more
  run sampled every 5 ms, the most memory the command and its worker held at once (RSS and PSS
  sums). Both ways: ``workers=2`` (the command's default on two cores: one forked worker shares
  the batches, trade/routes/parallel.py) and ``workers=1`` (one process).

The mapper's modules are byte-compiled first (``compileall``, into the git-ignored
``__pycache__``), as an installed copy is: with ``PYTHONDONTWRITEBYTECODE=1`` (this container,
the Dockerfile) they would otherwise be compiled from source on every run.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import describe  # noqa: E402 - after the sys.path line, run as a script
from bench.sectors import SECTORS  # noqa: E402
from trade.routes import map_routes, native  # noqa: E402

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
# RSS. So a small launcher forks the command and reports its figures as seen by wait4: its CPU
# time includes the command's worker process (a child it waits for), and its ``ru_maxrss`` is
# the largest of the two processes, not their sum. With ``sample`` first, the launcher also reads
# the RSS and PSS of the command and its worker from /proc every 5 ms and reports the largest
# sums: the memory both hold at once (PSS shares each page the two processes share between them;
# RSS counts such a page in both). Sampling takes CPU, so those runs are not timed.
LAUNCHER = """
import os, sys, time
sample = sys.argv[1] == "sample"
argv = sys.argv[2:]
def tree(pid):
    found = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                for child in f.read().split():
                    found += tree(int(child))
    except OSError:
        pass
    return found
def rollup(pid):
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execv(argv[0], argv)
rss_sum = pss_sum = 0
while sample:
    done, status, ru = os.wait4(pid, os.WNOHANG)
    if done:
        break
    both = [rollup(p) for p in tree(pid)]
    rss_sum = max(rss_sum, sum(r for r, _ in both))
    pss_sum = max(pss_sum, sum(p for _, p in both))
    time.sleep(0.005)
else:
    _, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
code = os.waitstatus_to_exitcode(status)
print(wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, rss_sum, pss_sum, code)
"""


class Process(NamedTuple):
    wall: float  # best of N
    cpu: float  # of that run, the worker's included
    rss: float  # MiB: the largest ru_maxrss over the runs (the bigger of the two processes)
    rss_sum: float  # MiB: the largest RSS both processes held at once (sampled run)
    pss_sum: float  # MiB: the same in PSS


def whole_process(files: list[Path], runs: int, variants: list[str]) -> Process:
    """``python -m trade.routes`` on ``files``: best wall time, its CPU time, the largest peak
    RSS, and from one more (sampled, untimed) run the largest RSS and PSS sums."""
    best, cpu, peak, rss_sum, pss_sum = float("inf"), 0.0, 0.0, 0.0, 0.0
    with tempfile.TemporaryDirectory() as out:
        argv = [sys.executable, "-m", "trade.routes", *map(str, files), "--no-progress"]
        argv += ["--json", f"{out}/r.json", "--svg", f"{out}/r.svg"]
        argv += [f"--variant={v}" for v in variants]
        for run in range(runs + 1):
            mode = "sample" if run == runs else "time"
            report = subprocess.run(
                [sys.executable, "-c", LAUNCHER, mode, *argv],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            wall, used, maxrss, rss_kib, pss_kib, status = report.stdout.split()
            if status != "0":
                raise SystemExit(f"python -m trade.routes failed on {files}")
            if mode == "sample":
                rss_sum, pss_sum = int(rss_kib) / 1024, int(pss_kib) / 1024
                continue
            if float(wall) < best:
                best, cpu = float(wall), float(used)
            peak = max(peak, int(maxrss) / 1024)
    return Process(best, cpu, peak, rss_sum, pss_sum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sectors", default=str(SECTORS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=sorted(BLOCKS, key=int), action="append")
    parser.add_argument(
        "--workers", choices=("1", "2"), help="the command's processes (default: both ways)"
    )
    args = parser.parse_args(argv)
    folder = Path(args.sectors)
    if not (folder / "Spinward Marches.tab").is_file():
        print(f"no sector files in {folder}; use --sectors DIR", file=sys.stderr)
        return 2
    compileall.compile_dir(ROOT / "trade" / "routes", quiet=1)
    print(describe())
    print(f"best of {args.runs}; searches and tree flows in {native.status()}")
    for key in args.only or BLOCKS:
        label, names = BLOCKS[key]
        files = [folder / f"{name}.tab" for name in names]
        seconds, used, summary = compute(files, args.runs)
        print(f"{label:<17} {summary}  compute {seconds:5.2f} s (cpu {used:5.2f} s)")
        for workers in ("2", "1") if args.workers is None else (args.workers,):
            p = whole_process(files, args.runs, [f"workers={workers}"])
            print(
                f"{'':<17} process, workers={workers}: {p.wall:5.2f} s (cpu {p.cpu:5.2f} s), "
                f"peak RSS {p.rss:6.1f} MiB; both processes at once: RSS {p.rss_sum:6.1f} MiB, "
                f"PSS {p.pss_sum:6.1f} MiB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
