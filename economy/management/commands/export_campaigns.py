import json
from typing import Any

from django.core.management.base import BaseCommand

from economy.selectors import ledger_export
from economy.snapshot import export_state
from powers.models import Campaign, Power


class Command(BaseCommand):
    help = (
        "Print every campaign's export as one JSON document: its state (contracts §1, as "
        "export_state prints it) and each power's ledger (as its download gives it). Run it "
        "against a database and against its restored backup and compare (docs/operations.md)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        out: dict[str, Any] = {}
        for campaign in Campaign.objects.order_by("pk"):
            ledgers = {}
            for power in Power.objects.filter(campaign=campaign).order_by("key"):
                fields, rows = ledger_export(power)
                ledgers[power.key] = [dict(zip(fields, row, strict=True)) for row in rows]
            out[str(campaign.pk)] = {
                "name": campaign.name,
                "state": export_state(campaign),
                "ledgers": ledgers,
            }
        self.stdout.write(json.dumps(out, indent=1, sort_keys=True, default=str))
