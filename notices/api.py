"""Whose turn it is, over the API (issue 29): everything waiting on the user — orders to
submit, battle records to confirm or amend, UN votes, agreement, loan and transfer offers,
invitations — each with the page and the API resource to act on, and what each campaign's
round waits for. The same reader as the pages and the feed (``notices.selectors.turns``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from notices import selectors
from powers.access import power_of_user_in_campaign


@extend_schema_field({"type": "string", "description": "An absolute URL, or empty."})
class Link(serializers.CharField):
    """A path made absolute with the request's host ("" stays "")."""

    def to_representation(self, value: Any) -> str:
        path = str(value or "")
        return self.context["request"].build_absolute_uri(path) if path else ""


class LineSerializer(serializers.Serializer[selectors.Line]):
    """One thing the round waits for, in words, and where to see it (often empty)."""

    text = serializers.CharField(source="__str__")
    url = Link()


class ItemSerializer(serializers.Serializer[selectors.Item]):
    """One thing waiting on the user: ``url`` the page to act on, ``api`` the API resource
    (empty for an invitation), ``key`` the object's id there (empty for orders)."""

    kind = serializers.ChoiceField(choices=selectors.KINDS)
    campaign = serializers.IntegerField(source="campaign_id")
    campaign_name = serializers.CharField(source="campaign")
    power = serializers.CharField(help_text="The user's power's id; empty for an invitation.")
    text = serializers.CharField()
    url = Link()
    api = Link()
    key = serializers.CharField()
    since = serializers.DateTimeField(allow_null=True)


class TurnSerializer(serializers.Serializer[selectors.Turn]):
    """One campaign of the user: its live round (null fields when none), whether the user's
    sheet is submitted, what the round waits for and what waits on the user there."""

    campaign = serializers.IntegerField(source="membership.campaign_id")
    campaign_name = serializers.CharField(source="membership.campaign.name")
    power = serializers.CharField(source="power.key")
    round = serializers.IntegerField(source="round.number", allow_null=True)
    round_status = serializers.CharField(source="round.status", allow_null=True)
    paused = serializers.BooleanField(source="round.paused", allow_null=True)
    deadline = serializers.DateTimeField(source="round.deadline", allow_null=True)
    state = serializers.CharField()
    submitted = serializers.BooleanField(source="mine_submitted")
    waits = LineSerializer(many=True)
    items = ItemSerializer(many=True)


class TurnsSerializer(serializers.Serializer[selectors.Turns]):
    count = serializers.IntegerField(help_text="How many things wait on the user.")
    items = ItemSerializer(many=True, help_text="Everything waiting on the user.")
    campaigns = TurnSerializer(many=True)


class MyTurn(APIView):
    """Whose turn it is, in every campaign the user plays and for every invitation the user
    holds."""

    @extend_schema(responses=TurnsSerializer)
    def get(self, request: Request) -> Response:
        turns = selectors.turns(user=request.user)
        return Response(TurnsSerializer(turns, context={"request": request}).data)


class CampaignTurn(APIView):
    """Whose turn it is in one campaign the user plays."""

    @extend_schema(responses=TurnsSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        power_of_user_in_campaign(user=request.user, campaign_id=campaign_id)  # else 404
        turns = selectors.turns(user=request.user, campaign_id=campaign_id)
        return Response(TurnsSerializer(turns, context={"request": request}).data)
