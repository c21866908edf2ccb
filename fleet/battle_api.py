"""Battle records in the player API (R-10.6): the records the user's power is in, a new one,
confirm / decline / amend / withdraw, and the roster of a battle (what the page's form offers,
issue 29). The same service as the pages; refusals name the field. A record's fields are
documented field by field in the schema and taken as sent: the service checks them."""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from fleet import battle_text, battles
from fleet import selectors as fleet_selectors
from powers.access import actor, player_power


class CraftLine(serializers.Serializer[dict[str, Any]]):
    craft = serializers.CharField(max_length=64)
    power = serializers.CharField(read_only=True, help_text="Its power when the battle was fought.")
    destroyed = serializers.BooleanField(required=False)
    systems_destroyed = serializers.DictField(child=serializers.IntegerField(), required=False)
    systems_disabled = serializers.DictField(child=serializers.IntegerField(), required=False)
    cf_lost = serializers.IntegerField(required=False)
    captured_by = serializers.CharField(max_length=64, required=False, allow_null=True)
    into = serializers.CharField(max_length=64, required=False, allow_null=True)


MAX_UNITS, MAX_CRAFT, KEY = battle_text.MAX_UNITS, battle_text.MAX_CRAFT, battle_text.KEY_LENGTH
ID = {"type": "string", "minLength": 1, "maxLength": KEY}
COUNTS = {
    "type": "object",
    "nullable": True,
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MAX_UNITS},
    "description": "Units by system id of the craft's design (the roster's `systems[].id`), "
    "each at most that system's `count`: the craft's sheet at the end of the battle, earlier "
    "damage included. Given either, both replace the craft's damage (a system not listed is "
    "whole); given neither, its damage is unchanged.",
}
CRAFT_LINE = {
    "type": "object",
    "description": "What the battle did to one craft (R-10.6).",
    "required": ["craft"],
    "additionalProperties": False,
    "properties": {
        "craft": {**ID, "description": "A craft of one of the powers at the hex (the roster's "
                  "`craft[].key`)."},
        "destroyed": {"type": "boolean", "default": False},
        "systems_destroyed": COUNTS,
        "systems_disabled": COUNTS,
        "cf_lost": {"type": "integer", "minimum": 0, "maximum": MAX_UNITS, "default": 0,
                    "description": "Crew factors lost, at most the CF aboard (`craft[].cf`)."},
        "captured_by": {**ID, "nullable": True, "description": "Another power in the battle; "
                        "not with `destroyed`."},
        "into": {**ID, "nullable": True, "description": "With `captured_by`: a group (mobile "
                 "craft) or static (static craft) of the captor at the hex, or a new id "
                 "(`powers[].carriers[]` of the roster, whose `new` ones are made for this)."},
    },
}  # fmt: skip


# The record's fields are documented by their JSON schema but taken as sent (JSON fields):
# the battle records service checks them and names the field it refuses.
@extend_schema_field(
    {"type": "string", "pattern": "^[0-9]{4}$", "example": "0606",
     "description": "The battle's hex, XXYY, on the map (R-0)."}
)  # fmt: skip
class HexField(serializers.JSONField):
    pass


@extend_schema_field(
    {"type": "array", "items": ID, "minItems": 2, "uniqueItems": True,
     "description": "The powers in the battle, by key, the caller's own among them."}
)  # fmt: skip
class PowersField(serializers.JSONField):
    pass


@extend_schema_field(
    {"type": "array", "items": CRAFT_LINE, "minItems": 1, "maxItems": MAX_CRAFT,
     "description": "One line per craft the battle changed, each craft once."}
)  # fmt: skip
class CraftField(serializers.JSONField):
    pass


class RecordInput(serializers.Serializer[dict[str, Any]]):
    """A record in the contract's shape (docs/rules.md, R-10.6), without its id."""

    hex = HexField()
    powers = PowersField()
    craft = CraftField()


class AnswerInput(serializers.Serializer[dict[str, Any]]):
    """An answer to a record; to amend it, the record anew (``hex``, ``powers``, ``craft``)."""

    action = serializers.ChoiceField(["confirm", "decline", "amend", "withdraw"])
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)
    hex = HexField(required=False)
    powers = PowersField(required=False)
    craft = CraftField(required=False)


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


class RosterSystemSerializer(serializers.Serializer[fleet_selectors.RosterSystem]):
    id = serializers.CharField(source="key")
    name = serializers.CharField()
    count = serializers.IntegerField(help_text="Units of it: the most destroyed or disabled.")


class RosterCraftSerializer(serializers.Serializer[fleet_selectors.RosterCraft]):
    key = serializers.CharField(help_text="The id a record's craft line names.")
    name = serializers.CharField()
    design = serializers.CharField(help_text="Its design's name.")
    power = serializers.CharField()
    power_name = serializers.CharField()
    static = serializers.BooleanField(help_text="A static design: captured into a static.")
    where = serializers.CharField(help_text="Its group or static (or builder), by name.")
    cf = serializers.IntegerField(help_text="CF aboard: the most it can lose.")
    systems = RosterSystemSerializer(many=True)
    destroyed = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Its damage as the round began: your own craft only (null for another's).",
    )
    disabled = serializers.DictField(child=serializers.IntegerField(), allow_null=True)


class RosterCarrierSerializer(serializers.Serializer[fleet_selectors.RosterCarrier]):
    key = serializers.CharField(help_text="A record's `into`.")
    name = serializers.CharField()
    static = serializers.BooleanField()
    new = serializers.BooleanField(help_text="Made when the record applies, at the hex.")


class RosterPowerSerializer(serializers.Serializer[fleet_selectors.RosterPower]):
    key = serializers.CharField()
    name = serializers.CharField()
    carriers = RosterCarrierSerializer(many=True)


class RosterSerializer(serializers.Serializer[fleet_selectors.Roster]):
    hex = serializers.CharField()
    powers = RosterPowerSerializer(many=True)
    craft = RosterCraftSerializer(many=True)


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


class BattleRoster(APIView):
    """The craft of the named powers at a hex as the open round began, by name with their
    designs' systems and the CF aboard, and the carriers each power could put a captured craft
    into there: what a record of a battle there may list (R-10.6, issue 29). Only a power in
    the battle asks (your own is among `powers`), at a hex where you have a group, a static or
    a system; another power's craft elsewhere are never shown."""

    @extend_schema(
        operation_id="campaigns_battles_roster",
        parameters=[
            OpenApiParameter(
                "hex", str, required=True, pattern="^[0-9]{4}$", description="XXYY, on the map."
            ),
            OpenApiParameter(
                "powers",
                str,
                required=True,
                description="The powers in the battle, keys separated by commas, yours among them.",
            ),
        ],
        responses={200: RosterSerializer, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        keys = [
            p for v in request.query_params.getlist("powers") for p in re.split(r"[\s,;]+", v) if p
        ]
        roster = fleet_selectors.battle_roster(power, request.query_params.get("hex"), keys)
        return Response(RosterSerializer(roster).data)


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
