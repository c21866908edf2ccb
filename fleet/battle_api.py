"""Battle records in the player API (R-10.6): the records the user's power is in, a new one,
and confirm / decline / amend. The same service as the pages; refusals name the field."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from fleet import battles
from fleet import selectors as fleet_selectors
from powers.access import actor, player_power


class CraftLine(serializers.Serializer[dict[str, Any]]):
    craft = serializers.CharField(max_length=64)
    destroyed = serializers.BooleanField(required=False)
    systems_destroyed = serializers.DictField(child=serializers.IntegerField(), required=False)
    systems_disabled = serializers.DictField(child=serializers.IntegerField(), required=False)
    cf_lost = serializers.IntegerField(required=False)
    captured_by = serializers.CharField(max_length=64, required=False, allow_null=True)
    into = serializers.CharField(max_length=64, required=False, allow_null=True)


class RecordInput(serializers.Serializer[dict[str, Any]]):
    """A record in the contract's shape (docs/rules.md, R-10.6), without its id."""

    hex = serializers.JSONField()
    powers = serializers.JSONField()
    craft = serializers.JSONField(help_text="A list of craft lines (see CraftLine).")


class AnswerInput(serializers.Serializer[dict[str, Any]]):
    action = serializers.ChoiceField(["confirm", "decline", "amend", "withdraw"])
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)
    hex = serializers.JSONField(required=False)
    powers = serializers.JSONField(required=False)
    craft = serializers.JSONField(required=False)


class PartySerializer(serializers.Serializer[dict[str, str]]):
    power = serializers.CharField()
    answer = serializers.CharField()
    reason = serializers.CharField()


class RecordSerializer(serializers.Serializer[fleet_selectors.RecordView]):
    key = serializers.CharField()
    hex = serializers.CharField()
    status = serializers.CharField()
    entered_by = serializers.CharField()
    round = serializers.IntegerField()
    mine = serializers.BooleanField()
    my_answer = serializers.CharField()
    parties = PartySerializer(many=True)
    craft = CraftLine(many=True)


def _record(power: Any, key: str) -> dict[str, Any]:
    view = next(v for v in fleet_selectors.records_of(power) if v.key == key)
    return asdict(view)


class Battles(APIView):
    """The battle records the user's power is in (GET) and a new one (POST)."""

    @extend_schema(responses=RecordSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        return Response([asdict(v) for v in fleet_selectors.records_of(power)])

    @extend_schema(
        request=RecordInput,
        responses={201: RecordSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = request.data if isinstance(request.data, dict) else {}
        record = battles.propose(
            power=power,
            hex=data.get("hex"),
            powers=data.get("powers"),
            craft=data.get("craft"),
            actor=actor(request),
        )
        return Response(_record(power, record.key), status=status.HTTP_201_CREATED)


class BattleAnswer(APIView):
    """Confirm, decline (with a reason) or, as the power that entered it, amend a record."""

    @extend_schema(
        operation_id="campaigns_battles_answer",
        request=AnswerInput,
        responses={200: RecordSerializer, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int, key: str) -> Response:
        power = player_power(request, campaign_id)
        data = AnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        who = actor(request)
        if d["action"] == "amend":
            battles.amend(
                power=power,
                key=key,
                hex=d.get("hex"),
                powers=d.get("powers"),
                craft=d.get("craft"),
                actor=who,
            )
        elif d["action"] == "withdraw":
            battles.withdraw(power=power, key=key, actor=who)
        else:
            battles.answer(
                power=power,
                key=key,
                confirm=d["action"] == "confirm",
                reason=d.get("reason", ""),
                actor=who,
            )
        return Response(_record(power, key))
