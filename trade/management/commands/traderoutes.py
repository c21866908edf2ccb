"""``manage.py traderoutes``: map Far Trader trade routes over sector files (contracts §2).

A thin shell around :mod:`trade.routes.cli` (the same options and output as
``python -m trade.routes``); all the rules live in the pure package.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from trade.routes import cli


class Command(BaseCommand):
    help = "Map Far Trader trade routes over sector files (.tab + .xml, or .sec)."

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_arguments(parser)

    def _out(self, text: str) -> None:
        self.stdout.write(text, ending="")

    def _err(self, text: str) -> None:
        self.stderr.write(text, ending="")
        self.stderr.flush()

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            cli.run(opts, self._out, self._err)
        except cli.UsageError as exc:
            raise CommandError(str(exc), returncode=2) from None
