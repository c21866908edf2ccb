"""Loans and transfers in the player API (Support 1.6.1, 1.6.2): the ones the user's power is
a party to, a new proposal, and accept / decline / withdraw. Refusals name the field."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from fleet import pacts
from fleet import selectors as fleet_selectors
from powers.access import actor, player_power
from powers.models import Power


class PactInput(serializers.Serializer[dict[str, Any]]):
    """A loan (``borrower``, ``groups``, ``last``) or a transfer (``receiver``, ``carriers``,
    optional ``crew_to``)."""

    kind = serializers.ChoiceField(["loan", "transfer"])
    borrower = serializers.JSONField(required=False)
    groups = serializers.JSONField(required=False)
    last = serializers.JSONField(required=False)
    receiver = serializers.JSONField(required=False)
    carriers = serializers.JSONField(required=False)
    crew_to = serializers.JSONField(required=False)


class PactAnswerInput(serializers.Serializer[dict[str, Any]]):
    action = serializers.ChoiceField(["accept", "decline", "withdraw", "extend"])
    last = serializers.JSONField(required=False, help_text="extend: the new last round")


class PactSerializer(serializers.Serializer[fleet_selectors.PactView]):
    key = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.CharField()
    owner = serializers.CharField()
    other = serializers.CharField()
    carriers = serializers.ListField(child=serializers.CharField())
    last = serializers.IntegerField(allow_null=True)
    active = serializers.BooleanField()
    crew_to = serializers.CharField(allow_null=True)
    mine = serializers.BooleanField()
    extends_to = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="a loan: the new last round asked by the owner and by the borrower",
    )


def _pact(power: Power, key: str) -> dict[str, Any]:
    return asdict(next(v for v in fleet_selectors.pacts_of(power) if v.key == key))


class Pacts(APIView):
    """The loans and transfers the user's power is a party to (GET) and a proposal (POST)."""

    @extend_schema(responses=PactSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        return Response([asdict(v) for v in fleet_selectors.pacts_of(power)])

    @extend_schema(
        request=PactInput,
        responses={201: PactSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = PactInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        who = actor(request)
        if d["kind"] == "loan":
            made: Any = pacts.propose_loan(
                power=power, borrower=d.get("borrower"), groups=d.get("groups"),
                last=d.get("last"), actor=who,
            )  # fmt: skip
        else:
            made = pacts.propose_transfer(
                power=power, receiver=d.get("receiver"), carriers=d.get("carriers"),
                crew_to=d.get("crew_to"), actor=who,
            )  # fmt: skip
        return Response(_pact(power, made.key), status=status.HTTP_201_CREATED)


class PactAnswer(APIView):
    """Accept or decline (the borrower or receiver) or withdraw (the owner) one; either party
    asks to extend an accepted loan to a new last round (both must ask the same)."""

    @extend_schema(
        operation_id="campaigns_pacts_answer",
        request=PactAnswerInput,
        responses={200: PactSerializer, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int, key: str) -> Response:
        power = player_power(request, campaign_id)
        data = PactAnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        action = data.validated_data["action"]
        if action == "extend":
            last = data.validated_data.get("last")
            pacts.extend_loan(power=power, key=key, last=last, actor=actor(request))
        elif action == "withdraw":
            pacts.withdraw(power=power, key=key, actor=actor(request))
        else:
            pacts.answer(power=power, key=key, accept=action == "accept", actor=actor(request))
        return Response(_pact(power, key))
