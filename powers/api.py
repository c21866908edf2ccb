"""Player API for campaigns, the player's power and its systems. Every object is reached through
``access.power_of_user_in_campaign``: anything else is a 404."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from powers.access import power_of_user_in_campaign
from powers.models import Membership, Power, ProjectResource, StarSystem


class CampaignSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="campaign.pk")
    name = serializers.CharField(source="campaign.name")
    current_round = serializers.IntegerField(source="campaign.current_round")
    my_power = serializers.CharField(source="power.key")


class PowerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Power
        fields = ["key", "name", "colour", "gal", "tp", "un_member"]
        read_only_fields = fields


class SystemSerializer(serializers.ModelSerializer):
    hex = serializers.CharField(source="hex.code")
    type = serializers.CharField(source="system_type")
    uwp = serializers.CharField()
    # "" when the system runs no planetary project (documented, as the API's contract needs)
    project_source = serializers.ChoiceField(ProjectResource.choices, allow_blank=True)
    project_target = serializers.ChoiceField(ProjectResource.choices, allow_blank=True)

    class Meta:
        model = StarSystem
        fields = [
            "key",
            "name",
            "hex",
            "type",
            "loyalty",
            "rate_ore",
            "rate_gal",
            "rate_bio",
            "rate_pl",
            "stock_ore",
            "stock_bio",
            "stock_pl",
            "project_source",
            "project_target",
            "project_pct",
            "uwp",
            "bases",
            "trade_codes",
            "zone",
            "allegiance",
        ]
        read_only_fields = fields


class CampaignList(generics.ListAPIView):
    """The campaigns the user plays in, with the power played in each."""

    serializer_class = CampaignSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Membership]:
        return (
            Membership.objects.filter(user=self.request.user)
            .select_related("campaign", "power")
            .order_by("campaign__name")
        )


class CampaignDetail(APIView):
    @extend_schema(responses=CampaignSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        power = power_of_user_in_campaign(user=request.user, campaign_id=campaign_id)
        membership = Membership(campaign=power.campaign, power=power)
        return Response(CampaignSerializer(membership).data)


class MyPower(APIView):
    """The user's power in this campaign: its banks."""

    @extend_schema(responses=PowerSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        power = power_of_user_in_campaign(user=request.user, campaign_id=campaign_id)
        return Response(PowerSerializer(power).data)


class MySystems(generics.ListAPIView):
    """The systems the user's power holds."""

    serializer_class = SystemSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[StarSystem]:
        power = power_of_user_in_campaign(
            user=self.request.user, campaign_id=self.kwargs["campaign_id"]
        )
        return StarSystem.objects.filter(holder=power).select_related("hex").order_by("key")
