"""Composite foreign keys for the fleet (issue 14): designs, craft and work in progress never
point into another campaign."""

from django.db import migrations

from powers.db import composite_fks

SPECS = (
    ("powers.Design", "power", "campaign"),
    ("powers.Craft", "power", "campaign"),
    ("powers.Craft", "design", "campaign"),
    ("powers.Craft", "group", "campaign"),
    ("powers.Craft", "static", "campaign"),
    ("powers.Craft", "orbit", "campaign"),
    ("powers.Build", "power", "campaign"),
    ("powers.Build", "design", "campaign"),
    ("powers.Build", "craft", "campaign"),
)


class Migration(migrations.Migration):
    dependencies = [("powers", "0005_fleets")]

    operations = [
        migrations.RunPython(composite_fks(*SPECS), composite_fks(*SPECS, reverse=True)),
    ]
