"""Player API for campaigns, the player's power and its systems. Every object is reached through
``access.power_of_user_in_campaign``: anything else is a 404."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Model, Prefetch, QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from economy.engine.state import CAPACITIES
from powers.access import power_of_user_in_campaign
from powers.models import (
    Build,
    BuildBuilder,
    Craft,
    CraftClass,
    Design,
    DesignSystem,
    FleetGroup,
    Membership,
    Power,
    ProjectResource,
    StarSystem,
)


class CampaignSerializer(serializers.Serializer[Membership]):
    id = serializers.IntegerField(source="campaign.pk")
    name = serializers.CharField(source="campaign.name")
    current_round = serializers.IntegerField(source="campaign.current_round")
    my_power = serializers.CharField(source="power.key")


class PowerSerializer(serializers.ModelSerializer[Power]):
    class Meta:
        model = Power
        fields = ["key", "name", "colour", "gal", "tp", "un_member"]
        read_only_fields = fields


class SystemSerializer(serializers.ModelSerializer[StarSystem]):
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


class AuthenticatedRequest(Request):
    """A request past ``IsAuthenticated`` (the API's default permission): a signed-in user."""

    user: User


class CampaignList(generics.ListAPIView[Membership]):
    """The campaigns the user plays in, with the power played in each."""

    request: AuthenticatedRequest

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


class MySystems(generics.ListAPIView[StarSystem]):
    """The systems the user's power holds."""

    serializer_class = SystemSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[StarSystem]:
        power = power_of_user_in_campaign(
            user=self.request.user, campaign_id=self.kwargs["campaign_id"]
        )
        return StarSystem.objects.filter(holder=power).select_related("hex").order_by("key")


# --- the fleet (issue 14): the user's power's designs, craft, groups and work in progress ---
# Each list is its power's queryset: another power's objects are never read.


def _counts() -> serializers.DictField:
    """``{name: count}`` (system ids, consumable kinds)."""
    return serializers.DictField(child=serializers.IntegerField(min_value=0))


class DesignSystemSerializer(serializers.ModelSerializer[DesignSystem]):
    """R-10.0: one system of a design; capacities are per unit (0: none)."""

    id = serializers.CharField(source="key")

    class Meta:
        model = DesignSystem
        fields = ["id", "name", "points", "count", *CAPACITIES]
        read_only_fields = fields


class DesignSerializer(serializers.ModelSerializer[Design]):
    """R-10.0: a registered design (``class``: military or civilian)."""

    systems = DesignSystemSerializer(many=True)
    loadout = _counts()

    class Meta:
        model = Design
        fields = [
            "key",
            "name",
            "mobility",
            "mass",
            "npv",
            "crew",
            "systems",
            "loadout",
            "completed",
        ]
        read_only_fields = fields

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["class"] = serializers.ChoiceField(  # a Python keyword, so named here
            CraftClass.choices, source="craft_class", read_only=True
        )
        return fields


class CraftSerializer(serializers.ModelSerializer[Craft]):
    """R-10.0: one craft, in exactly one of a group, a static or orbit with a builder."""

    design = serializers.CharField(source="design.key")
    group = serializers.CharField(source="group.key", allow_null=True, default=None)
    static = serializers.CharField(source="static.key", allow_null=True, default=None)
    orbit = serializers.CharField(source="orbit.key", allow_null=True, default=None)
    gantry = serializers.CharField(allow_null=True)
    destroyed = _counts()
    disabled = _counts()
    consumables = _counts()
    workshop = _counts()

    class Meta:
        model = Craft
        fields = [
            "key",
            "design",
            "group",
            "static",
            "orbit",
            "crew",
            "fatigue",
            "destroyed",
            "disabled",
            "consumables",
            "workshop",
            "captured",
            "gantry",
        ]
        read_only_fields = fields


class GroupSerializer(serializers.ModelSerializer[FleetGroup]):
    """A fleet group (R-2) with its craft; points, troop space and EP storage are derived from
    its craft (R-10.7); ``ep_storage`` null: not limited (a group given without craft)."""

    hex = serializers.CharField(source="hex_code")
    engages = serializers.ListField(child=serializers.CharField())
    craft: serializers.SlugRelatedField[Craft] = serializers.SlugRelatedField(
        slug_field="key", many=True, read_only=True
    )

    class Meta:
        model = FleetGroup
        fields = [
            "key",
            "hex",
            "kind",
            "order",
            "status",
            "points",
            "ep",
            "ep_storage",
            "out_of_supply",
            "troops",
            "troop_space",
            "diplomat",
            "engages",
            "defending",
            "craft",
        ]
        read_only_fields = fields


class BuildSerializer(serializers.ModelSerializer[Build]):
    """R-10.1, R-10.3: work in progress at its builders (in listed order); ``paid`` the Ore put
    into a build so far, ``worked`` the NPV an unbuild has worked through; ``hex`` where an
    external build stands (null inside its builder)."""

    design = serializers.CharField(source="design.key")
    craft = serializers.CharField(source="craft.key", allow_null=True, default=None)
    builders = serializers.SerializerMethodField()
    hex = serializers.CharField(source="hex_code", allow_null=True)

    class Meta:
        model = Build
        fields = [
            "key",
            "kind",
            "design",
            "craft",
            "builders",
            "inside",
            "hex",
            "cost",
            "surcharge",
            "started",
            "paid",
            "worked",
        ]
        read_only_fields = fields

    def get_builders(self, build: Build) -> list[str]:
        return [w.craft.key for w in build.workers.all()]


_M = TypeVar("_M", bound=Model)


class _PowerList(generics.ListAPIView[_M]):
    pagination_class = None

    def power(self) -> Power:
        return power_of_user_in_campaign(
            user=self.request.user, campaign_id=self.kwargs["campaign_id"]
        )


class MyDesigns(_PowerList[Design]):
    """The designs of the user's power, with their systems."""

    serializer_class = DesignSerializer

    def get_queryset(self) -> QuerySet[Design]:
        return Design.objects.filter(power=self.power()).prefetch_related("systems").order_by("key")


class MyCraft(_PowerList[Craft]):
    """The craft of the user's power."""

    serializer_class = CraftSerializer

    def get_queryset(self) -> QuerySet[Craft]:
        return (
            Craft.objects.filter(power=self.power())
            .select_related("design", "group", "static", "orbit")
            .order_by("key")
        )


class MyGroups(_PowerList[FleetGroup]):
    """The fleet groups of the user's power, with their craft."""

    serializer_class = GroupSerializer

    def get_queryset(self) -> QuerySet[FleetGroup]:
        craft = Prefetch("craft", queryset=Craft.objects.order_by("key"))
        return FleetGroup.objects.filter(power=self.power()).prefetch_related(craft).order_by("key")


class MyBuilds(_PowerList[Build]):
    """The work in progress of the user's power (builds and unbuilds)."""

    serializer_class = BuildSerializer

    def get_queryset(self) -> QuerySet[Build]:
        workers = Prefetch(
            "workers", queryset=BuildBuilder.objects.select_related("craft").order_by("position")
        )
        return (
            Build.objects.filter(power=self.power())
            .select_related("design", "craft")
            .prefetch_related(workers)
            .order_by("key")
        )
