"""Player API for the player's own trade hubs (nodes, centre and links are private)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from rest_framework import generics, serializers

from powers.access import power_of_user_in_campaign
from trade.models import HubLink, HubNode, TradeHub


class HubSerializer(serializers.ModelSerializer):
    centre = serializers.SerializerMethodField()
    nodes = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta:
        model = TradeHub
        fields = ["key", "centre", "nodes", "links", "guild", "pool_ore", "pool_bio", "pool_pl"]
        read_only_fields = fields

    def get_centre(self, hub: TradeHub) -> str | None:
        return next((n.code for n in hub.nodes.all() if n.is_centre), None)

    def get_nodes(self, hub: TradeHub) -> list[str]:
        return [n.code for n in hub.nodes.all() if not n.is_centre]

    def get_links(self, hub: TradeHub) -> list[list[str]]:
        return [sorted([link.a.code, link.b.code]) for link in hub.links.all()]


class MyHubs(generics.ListAPIView):
    """The trade hubs of the user's power, with pools."""

    serializer_class = HubSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[TradeHub]:
        power = power_of_user_in_campaign(
            user=self.request.user, campaign_id=self.kwargs["campaign_id"]
        )
        return (
            TradeHub.objects.filter(power=power)
            .prefetch_related(
                Prefetch("nodes", queryset=HubNode.objects.order_by("col", "row")),
                Prefetch("links", queryset=HubLink.objects.select_related("a", "b")),
            )
            .order_by("key")
        )
