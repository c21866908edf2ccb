import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from economy.snapshot import export_state
from powers.models import Campaign


class Command(BaseCommand):
    help = "Print a campaign's current state as a contracts §1 state object (JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="Campaign id or exact name.")

    def handle(self, *args: Any, **options: Any) -> None:
        ref = options["campaign"]
        query = {"pk": int(ref)} if ref.isdigit() else {"name": ref}
        campaign = Campaign.objects.filter(**query).first()
        if campaign is None:
            self.stderr.write(f"No campaign {ref!r}.")
            sys.exit(2)
        self.stdout.write(json.dumps(export_state(campaign), indent=2, sort_keys=True))
