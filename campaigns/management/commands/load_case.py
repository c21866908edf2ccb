import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from campaigns.cases import campaign_from_case
from economy.engine.codec import CaseError


class Command(BaseCommand):
    help = "Create a campaign from an ftcamp-case/1 file: its state, and its orders as drafts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("case", type=Path)
        parser.add_argument("--name", help="Campaign name (default: the case's title or file).")
        parser.add_argument(
            "--submit", action="store_true", help="Submit every power's sheet as well."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["case"]
        try:
            case = json.loads(path.read_text(encoding="utf-8"))
            name = options["name"] or case.get("title") or path.stem
            campaign = campaign_from_case(case, name=name)
        except (OSError, json.JSONDecodeError) as exc:
            self.stderr.write(f"{path}: cannot read: {exc}")
            sys.exit(2)
        except (CaseError, AttributeError) as exc:
            self.stderr.write(f"{path}: malformed case: {exc}")
            sys.exit(2)
        if options["submit"]:
            from campaigns.cases import submit_all

            submit_all(campaign)
        self.stdout.write(f"Created campaign {campaign.pk}: {campaign.name}")
