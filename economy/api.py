"""Player API for rounds, order sheets, reports and the ledger. The same services as the
htmx views; invalid orders are refused with 400 naming the field (nothing written), writes
after resolution has started get 409."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from economy import selectors, services
from economy.models import LedgerLine, Order, Round
from powers.access import power_of_user_in_campaign
from powers.models import Power


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The round no longer takes orders."
    default_code = "round_not_open"


class OrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Order
        fields = ["position", "payload", "error"]
        read_only_fields = fields


class OrderInput(serializers.Serializer):
    """An order object as in contracts §1: ``{"type": ..., fields...}``."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ValidationError({"order": ["Expected a JSON object."]})
        if not isinstance(data.get("type"), str):
            raise ValidationError({"type": ["Required: the order type, a string."]})
        return data

    def to_representation(self, instance: Any) -> Any:
        return instance


class SheetSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    sheet_status = serializers.CharField()
    orders = OrderSerializer(many=True)


class MoveInput(serializers.Serializer):
    to = serializers.IntegerField(min_value=0, max_value=10_000)


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["number", "status", "paused", "deadline", "resolved_at"]
        read_only_fields = fields


class LedgerSerializer(serializers.ModelSerializer):
    class Meta:
        model = LedgerLine
        fields = ["round_number", "step", "where", "resource", "amount", "reason", "rule"]
        read_only_fields = fields


class StockSerializer(serializers.Serializer):
    where = serializers.CharField()
    label = serializers.CharField()
    resource = serializers.CharField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    change = serializers.IntegerField()


class StatementSerializer(serializers.Serializer):
    power = serializers.CharField()
    stocks = StockSerializer(many=True)
    rejected = serializers.ListField(child=serializers.DictField())
    events = serializers.ListField(child=serializers.DictField())
    ledger = serializers.SerializerMethodField()

    def get_ledger(self, statement: selectors.Statement) -> list[dict[str, Any]]:
        return [line for _, lines in statement.steps for line in lines]


def _power(request: Request, campaign_id: int) -> Power:
    return power_of_user_in_campaign(user=request.user, campaign_id=campaign_id)


def _actor(request: Request) -> str:
    return request.user.get_username()


def _sheet_data(power: Power) -> dict[str, Any]:
    rnd = selectors.live_round(power.campaign_id)
    if rnd is None:
        raise Http404("No open round.")
    sheet, orders = selectors.sheet_of(rnd, power)
    return {
        "round": rnd.number,
        "round_status": rnd.status,
        "sheet_status": sheet.status if sheet else "draft",
        "orders": OrderSerializer(orders, many=True).data,
    }


class Rounds(generics.ListAPIView):
    """Every round of the campaign (public facts only)."""

    serializer_class = RoundSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Round]:
        power = _power(self.request, self.kwargs["campaign_id"])
        return Round.objects.filter(campaign_id=power.campaign_id).order_by("number")


class Sheet(APIView):
    """The user's order sheet for the open round."""

    @extend_schema(responses=SheetSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(_sheet_data(_power(request, campaign_id)))


class Orders(APIView):
    @extend_schema(responses=OrderSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(_sheet_data(_power(request, campaign_id))["orders"])

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: OrderSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """Append an order. Invalid orders are refused with the engine's messages."""
        power = _power(request, campaign_id)
        payload = OrderInput(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            order = services.add_order(
                power=power, payload=payload.validated_data, actor=_actor(request), strict=True
            )
        except services.OrderInvalid as exc:
            raise ValidationError(_field_errors(exc.errors)) from None
        except services.RoundNotOpen as exc:
            raise Conflict(str(exc)) from None
        return Response(OrderSerializer(order).data, status=status.HTTP_201_CREATED)


def _field_errors(errors: list[str]) -> dict[str, list[str]]:
    """'amount: expected a positive integer' -> {"amount": ["expected a positive integer"]}."""
    out: dict[str, list[str]] = {}
    for error in errors:
        name, _, text = error.partition(": ")
        out.setdefault(name if text else "order", []).append(text or error)
    return out


class OrderDetail(APIView):
    def _get(self, power: Power, position: int) -> Order:
        order = selectors.order_at(power, position)
        if order is None:
            raise Http404("No order at that position.")
        return order

    @extend_schema(responses=OrderSerializer)
    def get(self, request: Request, campaign_id: int, position: int) -> Response:
        return Response(OrderSerializer(self._get(_power(request, campaign_id), position)).data)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OrderSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def put(self, request: Request, campaign_id: int, position: int) -> Response:
        power = _power(request, campaign_id)
        payload = OrderInput(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            order = services.update_order(
                power=power,
                position=position,
                payload=payload.validated_data,
                actor=_actor(request),
                strict=True,
            )
        except services.OrderInvalid as exc:
            raise ValidationError(_field_errors(exc.errors)) from None
        except services.OrderNotFound:
            raise Http404("No order at that position.") from None
        except services.RoundNotOpen as exc:
            raise Conflict(str(exc)) from None
        return Response(OrderSerializer(order).data)

    @extend_schema(responses={204: None, 409: OpenApiTypes.OBJECT})
    def delete(self, request: Request, campaign_id: int, position: int) -> Response:
        power = _power(request, campaign_id)
        try:
            services.remove_order(power=power, position=position, actor=_actor(request))
        except services.OrderNotFound:
            raise Http404("No order at that position.") from None
        except services.RoundNotOpen as exc:
            raise Conflict(str(exc)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class MoveOrder(APIView):
    @extend_schema(request=MoveInput, responses=SheetSerializer)
    def post(self, request: Request, campaign_id: int, position: int) -> Response:
        power = _power(request, campaign_id)
        move = MoveInput(data=request.data)
        move.is_valid(raise_exception=True)
        try:
            services.move_order(
                power=power, position=position, to=move.validated_data["to"], actor=_actor(request)
            )
        except services.OrderNotFound:
            raise Http404("No order at that position.") from None
        except services.RoundNotOpen as exc:
            raise Conflict(str(exc)) from None
        return Response(_sheet_data(power))


class SubmitSheet(APIView):
    """Mark the sheet ready; the last submission starts resolution."""

    withdraw = False

    @extend_schema(request=None, responses={200: SheetSerializer, 409: OpenApiTypes.OBJECT})
    def post(self, request: Request, campaign_id: int) -> Response:
        power = _power(request, campaign_id)
        try:
            if self.withdraw:
                services.withdraw_sheet(power=power, actor=_actor(request))
            else:
                services.submit_sheet(power=power, actor=_actor(request))
        except services.RoundNotOpen as exc:
            raise Conflict(str(exc)) from None
        return Response(_sheet_data(power))


class Projection(APIView):
    """The projected statement: the engine run now with only this power's orders."""

    @extend_schema(responses=StatementSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        statement = selectors.projected_statement(_power(request, campaign_id))
        return Response(StatementSerializer(statement).data)


class Report(APIView):
    """The user's statement for a resolved round."""

    @extend_schema(responses=StatementSerializer)
    def get(self, request: Request, campaign_id: int, number: int) -> Response:
        statement = selectors.round_statement(_power(request, campaign_id), number)
        if statement is None:
            raise Http404("That round has not been resolved.")
        return Response(StatementSerializer(statement).data)


class Ledger(generics.ListAPIView):
    """The user's power's ledger, filterable by round, step and resource."""

    serializer_class = LedgerSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("round", int),
            OpenApiParameter("step", str),
            OpenApiParameter("resource", str),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[LedgerLine]:
        power = _power(self.request, self.kwargs["campaign_id"])
        params = self.request.query_params
        number = params.get("round", "")
        if number and not number.isdigit():
            raise ValidationError({"round": ["Expected a round number."]})
        return selectors.power_ledger(
            power,
            round_number=int(number) if number else None,
            step=params.get("step", ""),
            resource=params.get("resource", ""),
        )
