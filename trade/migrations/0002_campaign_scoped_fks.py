"""Composite foreign keys: hubs, nodes and shipments stay in their campaign, and both ends of a
link are nodes of the link's own hub (no link joins two hubs, Support §4.1.1)."""

from django.db import migrations

from powers.db import composite_fks

SPECS = (
    ("trade.TradeHub", "power", "campaign"),
    ("trade.HubNode", "hub", "campaign"),
    ("trade.HubLink", "a", "hub"),
    ("trade.HubLink", "b", "hub"),
    ("trade.Shipment", "power", "campaign"),
    ("trade.Shipment", "sender", "campaign"),
    ("trade.Shipment", "from_hub", "campaign"),
    ("trade.Shipment", "to_hub", "campaign"),
)


class Migration(migrations.Migration):
    dependencies = [("trade", "0001_initial"), ("powers", "0002_campaign_scoped_fks")]

    operations = [
        migrations.RunPython(composite_fks(*SPECS), composite_fks(*SPECS, reverse=True)),
    ]
