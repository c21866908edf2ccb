"""Player API for rounds, order sheets, reports and the ledger. The same services as the
htmx views; invalid orders are refused with 400 naming the field (nothing written), writes
after resolution has started get 409."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from economy import selectors, services
from economy.engine.orders import order_schemas
from economy.entry import player_order
from economy.idempotency import HEADER, idempotent
from economy.models import LedgerLine, Order, Round
from ftcamp.http import ConflictSerializer
from powers.access import actor, player_power
from powers.models import Power


class OrderSerializer(serializers.ModelSerializer[Order]):
    """An order on the sheet: ``position`` counts from 0 (as in the URLs), ``number`` from 1
    (as the pages and statements number orders), the order as the player entered it, the
    rule it breaks, if any (kept from the pages; the API refuses such orders), and apart its
    warnings: an amount beyond what the power holds now, kept by both (issue 30)."""

    number = serializers.SerializerMethodField()
    payload = serializers.SerializerMethodField()

    class Meta:
        model = Order
        fields = ["position", "number", "payload", "error", "warning"]
        read_only_fields = fields

    def get_number(self, order: Order) -> int:
        return order.position + 1

    def get_payload(self, order: Order) -> dict[str, Any]:
        shown: dict[str, Any] = player_order(self.context["power"].key, order.payload)
        return shown


class OrderInput(serializers.Serializer[dict[str, Any]]):
    """An order object as in contracts §1: ``{"type": ..., fields...}``; the entry check
    (``economy.entry``, through the service) does the rest."""

    def to_internal_value(self, data: Any) -> Any:
        # a form-encoded body parses to a QueryDict, whose values are lists: not an order
        if not isinstance(data, dict) or hasattr(data, "getlist"):
            raise ValidationError({"order": ["Expected a JSON object."]})
        return data

    def to_representation(self, instance: Any) -> Any:
        return instance


def _component_name(kind: str) -> str:
    return "".join(part.title() for part in kind.split("_")) + "Order"


class OrderInputSchema(OpenApiSerializerExtension):
    """The API documents each order type (``economy.engine.orders.order_schemas``): one ``oneOf``
    discriminated by ``type``."""

    target_class = "economy.api.OrderInput"

    def get_name(self, auto_schema: Any, direction: Any) -> str:
        return "OrderEntry"

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        refs = {}
        for kind, schema in order_schemas().items():
            component = ResolvedComponent(
                name=_component_name(kind),
                type=ResolvedComponent.SCHEMA,
                object=_component_name(kind),
                schema=schema,
            )
            auto_schema.registry.register_on_missing(component)
            refs[kind] = component.ref
        return {
            "oneOf": list(refs.values()),
            "discriminator": {
                "propertyName": "type",
                "mapping": {k: r["$ref"] for k, r in refs.items()},
            },
        }


IF_MATCH = re.compile(r'^"round-([0-9]{1,9})"$')
IF_MATCH_PARAMETER = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description=(
        'Optional: `"round-N"`, the round this write is meant for (the sheet\'s ETag). If '
        "round N is over the write is refused with 409 and the open round's number."
    ),
    pattern=r'^(\*|"round-[0-9]{1,9}")$',
)


IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    description=(
        "Optional: a key of your choosing (1 to 255 printable ASCII characters), new for each "
        "new request. A retry with the same key gets the first answer again and changes "
        "nothing; the same key with a different request is refused with 422. Kept 24 hours."
    ),
    pattern=r"^[\x20-\x7e]{1,255}$",
)


def _expected_round(request: Request) -> int | None:
    """The round named by ``If-Match: "round-N"``, if the client sent one."""
    value = request.headers.get("If-Match")
    if value is None or value == "*":
        return None
    match = IF_MATCH.match(value)
    if match is None:
        raise ValidationError({"If-Match": ['Expected "round-N", the round the write is for.']})
    return int(match.group(1))


class SheetSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    sheet_status = serializers.CharField()
    orders = OrderSerializer(many=True)


class MoveInput(serializers.Serializer[dict[str, Any]]):
    to = serializers.IntegerField(min_value=0, max_value=10_000)


class RoundSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["number", "status", "paused", "deadline", "resolved_at"]
        read_only_fields = fields


class LedgerSerializer(serializers.ModelSerializer[LedgerLine]):
    class Meta:
        model = LedgerLine
        fields = ["round_number", "step", "where", "resource", "amount", "reason", "rule"]
        read_only_fields = fields


class StockSerializer(serializers.Serializer[selectors.StockRow]):
    where = serializers.CharField()
    # a declared field (DRF's metaclass takes it off the class); the stubs see Field.label
    label = serializers.CharField()  # type: ignore[assignment]
    resource = serializers.CharField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    change = serializers.IntegerField()


class RejectedSerializer(serializers.Serializer[dict[str, Any]]):
    """An order not applied: ``index`` from 0 (contracts §1), ``number`` from 1 (as the pages
    and the sheet number it), and why."""

    index = serializers.IntegerField()
    number = serializers.SerializerMethodField()
    error = serializers.CharField()

    def get_number(self, rejected: dict[str, Any]) -> int:
        return int(rejected["index"]) + 1


class StatementSerializer(serializers.Serializer[selectors.Statement]):
    power = serializers.CharField()
    stocks = StockSerializer(many=True)
    rejected = RejectedSerializer(many=True)
    events = serializers.ListField(child=serializers.DictField())
    ledger = serializers.SerializerMethodField()

    def get_ledger(self, statement: selectors.Statement) -> list[dict[str, Any]]:
        return [line for _, lines in statement.steps for line in lines]


def _sheet_data(power: Power) -> dict[str, Any]:
    rnd = selectors.live_round(power.campaign_id)
    if rnd is None:
        raise Http404("No open round.")
    sheet, orders = selectors.sheet_of(rnd, power)
    return {
        "round": rnd.number,
        "round_status": rnd.status,
        "sheet_status": sheet.status if sheet else "draft",
        "orders": OrderSerializer(orders, many=True, context={"power": power}).data,
    }


def _sheet_response(power: Power, **kwargs: Any) -> Response:
    """The sheet, with its round as the ETag a client may send back in If-Match."""
    data = _sheet_data(power)
    return Response(data, headers={"ETag": f'"round-{data["round"]}"'}, **kwargs)


def _order_response(power: Power, order: Order, **kwargs: Any) -> Response:
    return Response(OrderSerializer(order, context={"power": power}).data, **kwargs)


class Rounds(generics.ListAPIView[Round]):
    """Every round of the campaign (public facts only)."""

    serializer_class = RoundSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Round]:
        power = player_power(self.request, self.kwargs["campaign_id"])
        return Round.objects.filter(campaign_id=power.campaign_id).order_by("number")


class Sheet(APIView):
    """The user's order sheet for the open round; its ETag names the round."""

    @extend_schema(responses=SheetSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        return _sheet_response(player_power(request, campaign_id))


WRITE_ERRORS = {400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT, 409: ConflictSerializer}


class Orders(APIView):
    @extend_schema(responses=OrderSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(_sheet_data(player_power(request, campaign_id))["orders"])

    @extend_schema(
        request=OrderInput,
        parameters=[IF_MATCH_PARAMETER, IDEMPOTENCY_KEY_PARAMETER],
        responses={201: OrderSerializer, 422: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )
    @idempotent
    def post(self, request: Request, campaign_id: int) -> Response:
        """Append an order. An order that breaks the entry check or a rule is refused with
        400 naming the field, and nothing is written. With an ``Idempotency-Key`` a retry
        gets the first answer and appends nothing (economy/idempotency.py)."""
        power = player_power(request, campaign_id)
        payload = OrderInput(data=request.data)
        payload.is_valid(raise_exception=True)
        order = services.add_order(
            power=power,
            payload=payload.validated_data,
            actor=actor(request),
            strict=True,
            round_number=_expected_round(request),
        )
        return _order_response(power, order, status=status.HTTP_201_CREATED)


class OrderDetail(APIView):
    def _get(self, power: Power, position: int) -> Order:
        order = selectors.order_at(power, position)
        if order is None:
            raise Http404("No order at that position.")
        return order

    @extend_schema(responses=OrderSerializer)
    def get(self, request: Request, campaign_id: int, position: int) -> Response:
        power = player_power(request, campaign_id)
        return _order_response(power, self._get(power, position))

    @extend_schema(
        request=OrderInput,
        parameters=[IF_MATCH_PARAMETER],
        responses={200: OrderSerializer, **WRITE_ERRORS},
    )
    def put(self, request: Request, campaign_id: int, position: int) -> Response:
        """Replace the order at ``position`` (from 0), with the same checks as adding one."""
        power = player_power(request, campaign_id)
        payload = OrderInput(data=request.data)
        payload.is_valid(raise_exception=True)
        order = services.update_order(
            power=power,
            position=position,
            payload=payload.validated_data,
            actor=actor(request),
            strict=True,
            round_number=_expected_round(request),
        )
        return _order_response(power, order)

    @extend_schema(parameters=[IF_MATCH_PARAMETER], responses={204: None, **WRITE_ERRORS})
    def delete(self, request: Request, campaign_id: int, position: int) -> Response:
        power = player_power(request, campaign_id)
        services.remove_order(
            power=power,
            position=position,
            actor=actor(request),
            round_number=_expected_round(request),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class MoveOrder(APIView):
    @extend_schema(
        request=MoveInput,
        parameters=[IF_MATCH_PARAMETER],
        responses={200: SheetSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, campaign_id: int, position: int) -> Response:
        power = player_power(request, campaign_id)
        move = MoveInput(data=request.data)
        move.is_valid(raise_exception=True)
        services.move_order(
            power=power,
            position=position,
            to=move.validated_data["to"],
            actor=actor(request),
            round_number=_expected_round(request),
        )
        return _sheet_response(power)


class SubmitSheet(APIView):
    """Mark the sheet ready; the last submission starts resolution."""

    withdraw = False

    @extend_schema(
        request=None,
        parameters=[IF_MATCH_PARAMETER],
        responses={200: SheetSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        expected = _expected_round(request)
        if self.withdraw:
            services.withdraw_sheet(power=power, actor=actor(request), round_number=expected)
        else:
            services.submit_sheet(power=power, actor=actor(request), round_number=expected)
        return _sheet_response(power)


class Projection(APIView):
    """The projected statement: the engine run now with only this power's orders."""

    @extend_schema(responses=StatementSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        statement = selectors.projected_statement(player_power(request, campaign_id))
        return Response(StatementSerializer(statement).data)


class Report(APIView):
    """The user's statement for a resolved round."""

    @extend_schema(responses=StatementSerializer)
    def get(self, request: Request, campaign_id: int, number: int) -> Response:
        statement = selectors.round_statement(player_power(request, campaign_id), number)
        if statement is None:
            raise Http404("That round has not been resolved.")
        return Response(StatementSerializer(statement).data)


class StrictPages(PageNumberPagination):
    """Pages numbered 1, 2, ...: anything else named as a page (an empty one too) is not one."""

    def get_page_number(self, request: Any, paginator: Any) -> Any:
        value = request.query_params.get(self.page_query_param)
        if value is not None and not (value.isdigit() and len(value) < 10):
            raise NotFound("Invalid page.")
        return super().get_page_number(request, paginator)


class Ledger(generics.ListAPIView[LedgerLine]):
    """The user's power's ledger, filterable by round, step and resource."""

    serializer_class = LedgerSerializer
    pagination_class = StrictPages

    @extend_schema(
        parameters=[
            OpenApiParameter("round", {"type": "integer", "minimum": 1}),
            OpenApiParameter("step", str),
            OpenApiParameter("resource", str),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[LedgerLine]:
        power = player_power(self.request, self.kwargs["campaign_id"])
        params = self.request.query_params
        number = params.get("round")
        if number is not None and not (number.isdigit() and len(number) < 10 and int(number) > 0):
            raise ValidationError({"round": ["Expected a round number (1 or more)."]})
        return selectors.power_ledger(
            power,
            round_number=int(number) if number else None,
            step=params.get("step", ""),
            resource=params.get("resource", ""),
        )
