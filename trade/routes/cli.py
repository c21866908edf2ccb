"""The command line of the mapper (contracts §2), shared by ``python -m trade.routes`` and
``manage.py traderoutes``: the same options, the same output, no Django.

stdout gets a one-line summary; stderr the skipped lines, an anomaly count and a progress bar
once a run takes more than half a second. A bad argument or an unreadable file is a
:class:`UsageError` (exit status 2, a message, no traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from .allegiance import AllegianceTable
from .mapper import RouteMap, map_routes
from .output import to_json
from .parallel import Child
from .sectors import SectorFormatError
from .settings import RouteSettings

# Sector files from Traveller Map carry this licence notice (shared/data/sectors/README.md).
NOTICE = (
    "The Traveller game in all forms is owned by Mongoose Publishing. Sector data: its authors "
    "(Traveller Map); personal, non-commercial use only."
)

Write = Callable[[str], object]
SHARE_OUTPUT = 2000  # worlds: on fewer, both files take a few hundredths of a second together


class UsageError(Exception):
    """A bad argument or input file: the command prints the message and exits with 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options (also added to the Django command's parser, so both stay the same)."""
    parser.add_argument("files", nargs="+", metavar="SECTOR_FILE")
    parser.add_argument("--json", metavar="OUT.json", help="write ftcamp-traderoutes/1 JSON")
    parser.add_argument("--svg", metavar="OUT.svg", help="write the SVG map")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="K=V",
        help="classifications=uwp|remarks, btn_cap=2wtn+1|wtn+5|none, min_btn=N, gwp_cap=1",
    )
    parser.add_argument(
        "--at",
        action="append",
        default=None,
        metavar="X,Y",
        help="sector position, once per file in order (overrides the .xml)",
    )
    parser.add_argument(
        "--allegiances",
        metavar="PATH",
        help="allegiance_codes.tab (default: the one beside the first sector file, if any)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


class Bar:
    """A progress bar on stderr, shown once a run has taken more than half a second."""

    def __init__(self, write: Write, enabled: bool) -> None:
        self.write, self.enabled = write, enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self.start < 0.5 or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        self.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} sources")
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.write("\n")


def _parse_at(text: str) -> tuple[int, int]:
    try:
        sx, sy = text.split(",")
        return int(sx), int(sy)
    except ValueError:
        raise UsageError(f"--at wants X,Y (two integers), got {text!r}") from None


def default_workers() -> int:
    """2 (one forked worker shares the searches, trade/routes/parallel.py) where this process
    may use two cores and can fork, else 1; ``--variant workers=1`` keeps to one process."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 2 if cores >= 2 and hasattr(os, "fork") else 1


def run(opts: dict[str, Any], out: Write, err: Write) -> None:
    """Map the files named in ``opts`` (the parsed options) and write what was asked for.

    ``out`` and ``err`` take whole lines (without their newline) or, for the bar, raw text.
    """
    started = time.perf_counter()
    try:
        settings = RouteSettings(workers=default_workers()).with_variants(opts["variant"])
    except (ValueError, TypeError) as exc:
        raise UsageError(f"bad --variant: {exc}") from None
    files = [Path(f) for f in opts["files"]]
    for f in files:
        if not f.is_file():
            raise UsageError(f"{f}: no such file")
    at = None
    if opts.get("at") is not None:
        if len(opts["at"]) != len(files):
            raise UsageError("give --at once per file, in the files' order")
        at = [_parse_at(a) for a in opts["at"]]
    try:
        table = AllegianceTable.load(opts["allegiances"]) if opts.get("allegiances") else None
        bar = Bar(err, not opts.get("no_progress"))
        try:
            result = map_routes(files, settings, at=at, allegiances=table, progress=bar)
        finally:
            bar.close()
    except (SectorFormatError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    for skipped in result.malformed:
        err(f"warning: skipped {skipped}\n")
    if result.anomalies:
        err(f"warning: skipped {len(result.anomalies)} anomaly rows (UWP with '?')\n")
    failed = _write_outputs(result, opts.get("json"), opts.get("svg"), settings.workers)
    if failed:
        raise UsageError(f"cannot write output: {failed}")
    by_class = ", ".join(f"{name} {count}" for name, count in result.legs_by_class().items())
    out(
        f"worlds {len(result.worlds)}; pairs {result.counted_pairs} counted "
        f"(BTN >= {settings.min_btn}), {len(result.pairs)} Minor or better; "
        f"legs {len(result.legs)} ({by_class}); "
        f"skipped {len(result.anomalies)} anomaly rows, {len(result.malformed)} malformed "
        f"lines; {time.perf_counter() - started:.2f} s\n"
    )


def _write_outputs(
    result: RouteMap, json_path: str | None, svg_path: str | None, workers: int
) -> str | None:
    """Write the JSON and the SVG asked for; returns why one could not be written, or None.

    With two workers, both files asked for and a map of :data:`SHARE_OUTPUT` worlds or more, a
    forked :class:`Child` writes the SVG while this process writes the JSON (each takes about
    0.1 s on 16 sectors)."""

    def write_svg() -> str | None:
        if not svg_path:
            return None
        from .svg import to_svg  # only when asked for: a JSON-only run never loads it

        return _write(svg_path, lambda: to_svg(result, notice=NOTICE))

    share = workers >= 2 and json_path and svg_path and len(result.worlds) >= SHARE_OUTPUT
    child = Child.start(write_svg) if share else None
    failed = _write(json_path, lambda: to_json(result))
    if child is not None:
        svg_failed = cast("str | None", child.join())  # always waited for, even after a failure
        return failed or svg_failed
    return failed or write_svg()


def _write(path: str | None, text: Callable[[], str]) -> str | None:
    if not path:
        return None
    try:
        Path(path).write_text(text(), encoding="utf-8")
    except OSError as exc:
        return str(exc)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m trade.routes FILE... [--json OUT] [--svg OUT] ...``: 0, or 2 on bad input."""
    parser = argparse.ArgumentParser(
        prog="python -m trade.routes",
        description="Map Far Trader trade routes over sector files (.tab + .xml, or .sec).",
    )
    add_arguments(parser)
    opts = vars(parser.parse_args(argv))

    def err(text: str) -> None:
        sys.stderr.write(text)
        sys.stderr.flush()

    try:
        run(opts, sys.stdout.write, err)
    except UsageError as exc:
        err(f"error: {exc}\n")
        return 2
    return 0
