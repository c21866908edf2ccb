import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from economy.services import replay
from powers.models import Campaign


class Command(BaseCommand):
    help = "Re-run a resolved round from its stored inputs and compare with what was saved."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="Campaign id or exact name.")
        parser.add_argument("round", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        ref = options["campaign"]
        query = {"pk": int(ref)} if ref.isdigit() else {"name": ref}
        campaign = Campaign.objects.filter(**query).first()
        if campaign is None:
            self.stderr.write(f"No campaign {ref!r}.")
            sys.exit(2)
        try:
            diffs = replay(campaign=campaign, number=options["round"])
        except ValueError as exc:
            self.stderr.write(str(exc))
            sys.exit(2)
        for diff in diffs:
            self.stdout.write(diff)
        if diffs:
            sys.exit(1)
        self.stdout.write(f"Round {options['round']} replays identically.")
