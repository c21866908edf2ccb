"""Composite foreign keys for Fleets II (issue 15): battle records, loans and transfers never
point at a power of another campaign."""

from django.db import migrations

from powers.db import composite_fks

SPECS = (
    ("powers.BattleRecord", "entered_by", "campaign"),
    ("powers.Loan", "owner", "campaign"),
    ("powers.Loan", "borrower", "campaign"),
    ("powers.Transfer", "owner", "campaign"),
    ("powers.Transfer", "receiver", "campaign"),
)


class Migration(migrations.Migration):
    dependencies = [("powers", "0008_fleet2")]

    operations = [
        migrations.RunPython(composite_fks(*SPECS), composite_fks(*SPECS, reverse=True)),
    ]
