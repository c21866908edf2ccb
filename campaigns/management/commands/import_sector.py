"""``python manage.py import_sector FILE [FILE ...] --campaign NAME`` (issue 7)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.sector_import import SectorImportError, import_sectors
from trade.routes import SectorFormatError


class Command(BaseCommand):
    help = (
        "Create or update a campaign's map from Traveller sector files (T5 tab-delimited or "
        "classic SEC; the .xml beside a .tab gives the sector's position). Several files are "
        "placed from the top-left sector's 0101. Bad lines are listed and skipped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")
        parser.add_argument("--campaign", required=True, metavar="NAME")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = import_sectors(campaign_name=options["campaign"], files=options["files"])
        except (SectorFormatError, SectorImportError) as exc:
            raise CommandError(str(exc)) from exc
        for line in report.skipped:
            self.stdout.write(f"skipped {line}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Campaign {report.campaign.name!r} (id {report.campaign.pk}): "
                f"{report.created} systems created, {report.updated} updated, "
                f"{len(report.skipped)} lines skipped, {report.hexes_created} hexes created."
            )
        )
