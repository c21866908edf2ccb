"""``manage.py traderoutes``: map Far Trader trade routes over sector files (contracts §2).

A thin shell around :func:`trade.routes.map_routes`; all the rules live in the pure package.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from trade.routes import RouteSettings, SectorFormatError, map_routes, to_json, to_svg
from trade.routes.allegiance import AllegianceTable

# Sector files from Traveller Map carry this licence notice (shared/data/sectors/README.md).
NOTICE = (
    "The Traveller game in all forms is owned by Mongoose Publishing. Sector data: its authors "
    "(Traveller Map); personal, non-commercial use only."
)


def _parse_at(text: str) -> tuple[int, int]:
    try:
        sx, sy = text.split(",")
        return int(sx), int(sy)
    except ValueError:
        raise CommandError(f"--at wants X,Y (two integers), got {text!r}", returncode=2) from None


class _Bar:
    """A progress bar on stderr, shown once a run has taken more than half a second."""

    def __init__(self, write: Callable[[str], object], enabled: bool) -> None:
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


class Command(BaseCommand):
    help = "Map Far Trader trade routes over sector files (.tab + .xml, or .sec)."

    def add_arguments(self, parser: CommandParser) -> None:
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

    def _raw_stderr(self, text: str) -> None:
        self.stderr.write(text, ending="")
        self.stderr.flush()

    def handle(self, *args: Any, **opts: Any) -> None:
        started = time.perf_counter()
        try:
            settings = RouteSettings().with_variants(opts["variant"])
        except (ValueError, TypeError) as exc:
            raise CommandError(f"bad --variant: {exc}", returncode=2) from None
        files = [Path(f) for f in opts["files"]]
        for f in files:
            if not f.is_file():
                raise CommandError(f"{f}: no such file", returncode=2)
        at = None
        if opts["at"] is not None:
            if len(opts["at"]) != len(files):
                raise CommandError("give --at once per file, in the files' order", returncode=2)
            at = [_parse_at(a) for a in opts["at"]]
        table = None
        try:
            if opts["allegiances"]:
                table = AllegianceTable.load(opts["allegiances"])
            bar = _Bar(self._raw_stderr, not opts["no_progress"])
            try:
                result = map_routes(files, settings, at=at, allegiances=table, progress=bar)
            finally:
                bar.close()
        except (SectorFormatError, ValueError) as exc:
            raise CommandError(str(exc), returncode=2) from None
        for skipped in result.malformed:
            self.stderr.write(f"warning: skipped {skipped}")
        if result.anomalies:
            self.stderr.write(
                f"warning: skipped {len(result.anomalies)} anomaly rows (UWP with '?')"
            )
        try:
            if opts["json"]:
                Path(opts["json"]).write_text(to_json(result), encoding="utf-8")
            if opts["svg"]:
                Path(opts["svg"]).write_text(to_svg(result, notice=NOTICE), encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write output: {exc}", returncode=2) from None
        classes = result.legs_by_class()
        by_class = ", ".join(f"{name} {count}" for name, count in classes.items())
        self.stdout.write(
            f"worlds {len(result.worlds)}; pairs {result.counted_pairs} counted "
            f"(BTN >= {settings.min_btn}), {len(result.pairs)} Minor or better; "
            f"legs {len(result.legs)} ({by_class}); "
            f"skipped {len(result.anomalies)} anomaly rows, {len(result.malformed)} malformed "
            f"lines; {time.perf_counter() - started:.2f} s"
        )
