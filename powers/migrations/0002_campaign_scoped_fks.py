"""Composite foreign keys: a relation between game objects never crosses campaigns."""

from django.db import migrations

from powers.db import composite_fks

SPECS = (
    ("powers.Membership", "power", "campaign"),
    ("powers.StarSystem", "hex", "campaign"),
    ("powers.StarSystem", "holder", "campaign"),
    ("powers.FleetGroup", "power", "campaign"),
    ("powers.Static", "power", "campaign"),
    ("powers.Invasion", "system", "campaign"),
    ("powers.Invasion", "power", "campaign"),
    ("powers.CommandBubble", "power", "campaign"),
)


class Migration(migrations.Migration):
    dependencies = [("powers", "0001_initial")]

    operations = [
        migrations.RunPython(composite_fks(*SPECS), composite_fks(*SPECS, reverse=True)),
    ]
