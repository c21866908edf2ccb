"""Composite foreign keys for agreements, motions and bans: they stay in their campaign."""

from django.db import migrations

from powers.db import composite_fks

SPECS = (
    ("trade.Agreement", "proposer", "campaign"),
    ("trade.Agreement", "partner", "campaign"),
    ("trade.Agreement", "awaiting", "campaign"),
    ("trade.Agreement", "a_send_hub", "campaign"),
    ("trade.Agreement", "a_receive_hub", "campaign"),
    ("trade.Agreement", "b_send_hub", "campaign"),
    ("trade.Agreement", "b_receive_hub", "campaign"),
    ("trade.Motion", "proposer", "campaign"),
    ("trade.Motion", "target", "campaign"),
    ("trade.MarketBan", "power", "campaign"),
)


class Migration(migrations.Migration):
    dependencies = [("trade", "0006_un_and_agreements")]

    operations = [
        migrations.RunPython(composite_fks(*SPECS), composite_fks(*SPECS, reverse=True)),
    ]
