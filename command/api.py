"""Command and intelligence in the player API (issue 16; Support §4.3.2, §4.4, §5): the
user's power's officers, command bubbles, diplomats and missions, research craft, and the
campaign's Area of Special Interest. Everything is the power's own (``player_power``: anyone
else gets a 404): bubbles are secret (Support §5.2.6), and a mission against the power shows
only once the admin has resolved it (R-8.4). Orders for them go through ``/orders/``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from command import selectors as cmd
from powers.access import player_power


class PostRefSerializer(serializers.Serializer[dict[str, Any]]):
    bubble = serializers.CharField()
    hex = serializers.CharField()


class OfficerSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    grade = serializers.IntegerField()
    flag_officer = serializers.BooleanField(help_text="rank 14 or more (Support §5.1.1)")
    craft = serializers.CharField(allow_null=True, help_text="the craft it is aboard")
    group = serializers.CharField(allow_null=True, help_text="the group it commands")
    post = PostRefSerializer(allow_null=True, help_text="the HQ or outpost it commands")
    max_points = serializers.IntegerField(help_text="largest craft it may be aboard: rank × 50")
    value = serializers.IntegerField(help_text="Gal + TP cost, against group limits (R-2b)")
    commissioned = serializers.IntegerField(help_text="round commissioned (first paid after)")
    penalties = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="demotions by choice: {rolls, until} (R-8.2)",
    )


class PostSerializer(serializers.Serializer[dict[str, Any]]):
    hex = serializers.CharField()
    officer = serializers.CharField(allow_null=True)
    radius = serializers.IntegerField(help_text="the officer's grade (R-8.3a)")
    sensors = serializers.ListField(child=serializers.CharField())
    sensor_limit = serializers.IntegerField(
        allow_null=True, help_text="rank + grade, beyond the free array (R-8.3)"
    )
    patrols = serializers.ListField(child=serializers.CharField(), help_text="groups on patrol")
    patrol_limit = serializers.IntegerField(allow_null=True, help_text="the officer's rank")


class BubbleSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField()
    hq = PostSerializer()
    outposts = PostSerializer(many=True)


class DiplomatSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField()
    name = serializers.CharField()
    craft = serializers.CharField()


class MissionSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField(allow_null=True, help_text="the sender's only (its own id)")
    mine = serializers.BooleanField(help_text="false: a resolved mission against this power")
    sender = serializers.CharField()
    target = serializers.CharField()
    kind = serializers.CharField()
    declared = serializers.IntegerField()
    system = serializers.CharField(allow_null=True)
    diplomat = serializers.CharField(allow_null=True, help_text="the sender's only")
    spent = serializers.DictField(child=serializers.IntegerField(), help_text="gal, tp, pl")
    resolved = serializers.BooleanField()
    outcome = serializers.JSONField(
        allow_null=True,
        help_text="R-8.4a: text, reveal, moves, loyalty (the target sees the text only)",
    )


class ResearchCraftSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField()
    design = serializers.CharField()
    group = serializers.CharField(allow_null=True)
    group_order = serializers.CharField(allow_null=True)
    hex = serializers.CharField(allow_null=True)
    hex_type = serializers.CharField()
    research = serializers.IntegerField()
    passenger = serializers.IntegerField()
    researchers = serializers.IntegerField(help_text="PL aboard (Support §3.3)")
    tp_per_round = serializers.IntegerField(
        help_text="on Hold-Research, not interrupted: ⌊research/10⌋ × ⌊researchers/25⌋ × factor"
    )


class SpecialInterestSerializer(serializers.Serializer[dict[str, Any]]):
    hex = serializers.CharField()
    announced = serializers.IntegerField()
    starts = serializers.IntegerField()
    ends = serializers.IntegerField()
    active = serializers.BooleanField()


class MyOfficers(APIView):
    """The power's officers (Support §5.1)."""

    @extend_schema(responses=OfficerSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(cmd.officers_of(player_power(request, campaign_id)))


class MyBubbles(APIView):
    """The power's own command bubbles with their posts (Support §5.2; secret)."""

    @extend_schema(responses=BubbleSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(cmd.bubbles_of(player_power(request, campaign_id)))


class MyDiplomats(APIView):
    """The power's diplomats (Support §4.4.1)."""

    @extend_schema(responses=DiplomatSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(cmd.diplomats_of(player_power(request, campaign_id)))


class MyMissions(APIView):
    """The power's missions, and the resolved ones against it (R-8.4)."""

    @extend_schema(responses=MissionSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(cmd.missions_of(player_power(request, campaign_id)))


class MyResearchCraft(APIView):
    """The power's craft able to fly research missions (Support §4.3.2)."""

    @extend_schema(responses=ResearchCraftSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(cmd.research_craft_of(player_power(request, campaign_id)))


class SpecialInterest(APIView):
    """The campaign's Area of Special Interest once announced, public to its players
    (R-8.1a): a list of none or one (at most one is announced or active at a time)."""

    @extend_schema(responses=SpecialInterestSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        area = cmd.special_interest(player_power(request, campaign_id).campaign)
        return Response([area] if area else [])
