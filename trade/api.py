"""Player API for the player's own trade hubs (nodes, centre and links are private), trade
agreements and goods in transit (R-5.5), the public Common Market and the UN Monetary
Committee (R-6.3, R-6.4). The same services as the pages; refused requests get 400 naming the
field, writes after resolution has started 409, a non-member on the committee 403."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from powers.access import actor, player_power, power_of_user_in_campaign
from powers.models import Campaign, Power
from trade import selectors, services
from trade.inputs import motion_fields
from trade.models import HubLink, HubNode, Motion, PowerTax, RateHistory, Shipment, TradeHub, Vote


class HubSerializer(serializers.ModelSerializer[TradeHub]):
    centre = serializers.SerializerMethodField()
    nodes = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta:
        model = TradeHub
        fields = [
            "key",
            "name",
            "centre",
            "nodes",
            "links",
            "guild",
            "pool_ore",
            "pool_bio",
            "pool_pl",
        ]
        read_only_fields = fields

    def get_centre(self, hub: TradeHub) -> str | None:
        return next((n.code for n in hub.nodes.all() if n.is_centre), None)

    def get_nodes(self, hub: TradeHub) -> list[str]:
        return [n.code for n in hub.nodes.all() if not n.is_centre]

    def get_links(self, hub: TradeHub) -> list[list[str]]:
        return [sorted([link.a.code, link.b.code]) for link in hub.links.all()]


class MyHubs(generics.ListAPIView[TradeHub]):
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


# --- agreements (R-5.5) ---------------------------------------------------------------------


class LegSerializer(serializers.Serializer[dict[str, Any]]):
    resource = serializers.CharField()
    amount = serializers.IntegerField()
    status = serializers.CharField()
    note = serializers.CharField()


class AgreementSerializer(serializers.Serializer[selectors.AgreementView]):
    """An agreement as one party sees it: its own private hub choices only."""

    key = serializers.CharField(source="agreement.key")
    status = serializers.CharField(source="agreement.status")
    partner = serializers.CharField(source="partner.key")
    proposed_by_me = serializers.SerializerMethodField()
    my_turn = serializers.BooleanField()
    deposit = serializers.CharField(source="agreement.deposit")
    delivery = serializers.IntegerField(source="agreement.delivery")
    i_send = serializers.SerializerMethodField()
    they_send = serializers.SerializerMethodField()
    my_send_hub = serializers.CharField()
    my_receive_hub = serializers.CharField()
    my_dispatch = serializers.CharField()

    def get_proposed_by_me(self, view: selectors.AgreementView) -> bool:
        return view.side == "a"

    @staticmethod
    def _leg(leg: tuple[str, int, str, str]) -> dict[str, Any]:
        return {"resource": leg[0], "amount": leg[1], "status": leg[2], "note": leg[3]}

    @extend_schema_field(LegSerializer)
    def get_i_send(self, view: selectors.AgreementView) -> dict[str, Any]:
        return self._leg(view.i_send)

    @extend_schema_field(LegSerializer)
    def get_they_send(self, view: selectors.AgreementView) -> dict[str, Any]:
        return self._leg(view.they_send)


class TermsInput(serializers.Serializer[dict[str, Any]]):
    """Terms from the acting party's side: what it sends and what it receives."""

    deposit = serializers.RegexField(r"^[0-9]{4}$")
    delivery = serializers.IntegerField(min_value=1, max_value=100_000)
    send_resource = serializers.CharField(max_length=3, required=False, default="ore")
    send_amount = serializers.IntegerField(min_value=0, max_value=10**12, default=0)
    receive_resource = serializers.CharField(max_length=3, required=False, default="ore")
    receive_amount = serializers.IntegerField(min_value=0, max_value=10**12, default=0)

    def terms(self, side: str) -> services.Terms:
        d = self.validated_data
        send = (d["send_resource"], d["send_amount"])
        receive = (d["receive_resource"], d["receive_amount"])
        a, b = (send, receive) if side == "a" else (receive, send)
        return services.Terms(d["deposit"], d["delivery"], a[0], a[1], b[0], b[1])


class ProposeInput(TermsInput):
    partner = serializers.CharField(max_length=64)


class RespondInput(serializers.Serializer[dict[str, Any]]):
    agreement = serializers.CharField(max_length=64)
    action = serializers.ChoiceField(["accept", "decline", "counter", "withdraw"])
    deposit = serializers.RegexField(r"^[0-9]{4}$", required=False)
    delivery = serializers.IntegerField(min_value=1, max_value=100_000, required=False)
    send_resource = serializers.CharField(max_length=3, required=False)
    send_amount = serializers.IntegerField(min_value=0, max_value=10**12, required=False)
    receive_resource = serializers.CharField(max_length=3, required=False)
    receive_amount = serializers.IntegerField(min_value=0, max_value=10**12, required=False)


class HubsInput(serializers.Serializer[dict[str, Any]]):
    agreement = serializers.CharField(max_length=64)
    send_hub = serializers.CharField(max_length=64, required=False, allow_blank=True)
    receive_hub = serializers.CharField(max_length=64, required=False, allow_blank=True)


def _agreement_data(power: Power, key: str) -> dict[str, Any]:
    view = next(v for v in selectors.agreement_views(power) if v.agreement.key == key)
    return dict(AgreementSerializer(view).data)


class Agreements(APIView):
    """The user's power's agreements (GET) and a new proposal (POST)."""

    @extend_schema(responses=AgreementSerializer(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        views = selectors.agreement_views(power)
        # many=True takes a list; the stubs type the instance as one object
        return Response(AgreementSerializer(views, many=True).data)  # type: ignore[arg-type]

    @extend_schema(
        request=ProposeInput,
        responses={201: AgreementSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = ProposeInput(data=request.data)
        data.is_valid(raise_exception=True)
        agreement = services.propose_agreement(
            power=power,
            partner_key=data.validated_data["partner"],
            terms=data.terms("a"),
            actor=actor(request),
        )
        return Response(_agreement_data(power, agreement.key), status=status.HTTP_201_CREATED)


class RespondAgreement(APIView):
    """Accept, decline, or counter (with new terms, from your side) an agreement; or withdraw
    your own offer while it awaits the other party."""

    @extend_schema(
        request=RespondInput,
        responses={200: AgreementSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = RespondInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        agreement = selectors.access_agreement(power=power, key=d["agreement"])
        who = actor(request)
        if d["action"] == "counter":
            terms = TermsInput(
                data={k: v for k, v in d.items() if k not in ("agreement", "action")}
            )
            terms.is_valid(raise_exception=True)
            side = agreement.party(power)
            services.counter_agreement(
                power=power, key=agreement.key, terms=terms.terms(side), actor=who
            )
        elif d["action"] == "withdraw":
            services.withdraw_agreement(power=power, key=agreement.key, actor=who)
        else:
            services.answer_agreement(
                power=power, key=agreement.key, accept=d["action"] == "accept", actor=who
            )
        return Response(_agreement_data(power, agreement.key))


class AgreementHubs(APIView):
    """Name, privately, your sending and receiving hubs for an agreement (R-5.5)."""

    @extend_schema(
        request=HubsInput,
        responses={200: AgreementSerializer, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = HubsInput(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        agreement = selectors.access_agreement(power=power, key=d["agreement"])
        services.name_hubs(
            power=power,
            key=agreement.key,
            send_hub=d.get("send_hub") or None,
            receive_hub=d.get("receive_hub") or None,
            actor=actor(request),
        )
        return Response(_agreement_data(power, agreement.key))


class ShipmentSerializer(serializers.ModelSerializer[Shipment]):
    """Goods in transit: the sender sees its sending hub, the receiver its receiving hub."""

    sender = serializers.CharField(source="sender.key")
    receiver = serializers.CharField(source="power.key")
    my_hub = serializers.SerializerMethodField()

    class Meta:
        model = Shipment
        fields = ["key", "sender", "receiver", "resource", "amount", "arrives", "waiting", "my_hub"]
        read_only_fields = fields

    def get_my_hub(self, shipment: Shipment) -> str | None:
        power = self.context["power"]
        if shipment.power_id == power.pk:
            # None once the receiving hub is gone (the shipment waits, R-5.4a)
            return shipment.to_hub.key if shipment.to_hub else None
        return shipment.from_hub.key if shipment.from_hub else None


class MyShipments(generics.ListAPIView[Shipment]):
    """Goods in transit that the user's power sends or receives."""

    serializer_class = ShipmentSerializer
    pagination_class = None

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "power": self._me()}

    def _me(self) -> Power:
        return player_power(self.request, self.kwargs["campaign_id"])

    def get_queryset(self) -> QuerySet[Shipment]:
        return selectors.shipments_of(self._me())


# --- the Common Market (public) and the UN committee ---------------------------------------


class VoteSerializer(serializers.ModelSerializer[Vote]):
    member = serializers.CharField(source="member.key")

    class Meta:
        model = Vote
        fields = ["member", "choice"]
        read_only_fields = fields


class MotionEdgeField(serializers.ChoiceField):
    """A motion's edge, or null for a motion without one (a ban): never ``""``, which is
    outside the edge enum the schema states (issue 32)."""

    def to_representation(self, value: Any) -> Any:
        return super().to_representation(value) if value else None


class MotionSerializer(serializers.ModelSerializer[Motion]):
    proposer = serializers.CharField(source="proposer.key")
    target = serializers.CharField(source="target.key", allow_null=True, default=None)
    edge = MotionEdgeField(Motion.EDGE_CHOICES, allow_null=True, read_only=True)
    votes = VoteSerializer(many=True, read_only=True)

    class Meta:
        model = Motion
        fields = [
            "key",
            "round_number",
            "proposer",
            "kind",
            "edge",
            "target",
            "value",
            "status",
            "yes",
            "no",
            "abstain",
            "reason",
            "effect",
            "votes",
        ]
        read_only_fields = fields


class EdgeSerializer(serializers.Serializer[selectors.EdgeNow]):
    edge = serializers.CharField()
    rate = serializers.DecimalField(max_digits=12, decimal_places=4)
    tax = serializers.DecimalField(max_digits=5, decimal_places=4)
    volume = serializers.IntegerField()


class PowerTaxSerializer(serializers.Serializer[PowerTax]):
    power = serializers.CharField(source="power.key")
    edge = serializers.CharField()
    tax = serializers.DecimalField(max_digits=5, decimal_places=4)


class HistorySerializer(serializers.Serializer[RateHistory]):
    round_number = serializers.IntegerField()
    edge = serializers.CharField()
    rate = serializers.DecimalField(max_digits=12, decimal_places=4)
    tax = serializers.DecimalField(max_digits=5, decimal_places=4)
    volume = serializers.IntegerField()
    report = serializers.BooleanField()
    report_volume = serializers.IntegerField(allow_null=True)
    suggested = serializers.DecimalField(max_digits=12, decimal_places=4, allow_null=True)
    production = serializers.IntegerField(allow_null=True)


class MarketSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    next_report = serializers.IntegerField()
    edges = EdgeSerializer(many=True)
    power_taxes = PowerTaxSerializer(many=True)
    banned = serializers.ListField(child=serializers.CharField())
    history = HistorySerializer(many=True)
    motions = MotionSerializer(many=True)


class Market(APIView):
    """Public: rates, taxes and bans now, the history per round and edge, and the committee's
    decided motions with every vote (R-6.3, R-6.4)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=MarketSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise Http404("No such campaign.")
        now = selectors.market_now(campaign)
        data = {
            "round": campaign.current_round,
            "next_report": now["next_report"],
            "edges": now["edges"],
            "power_taxes": now["power_taxes"],
            "banned": [p.key for p in now["banned"]],
            "history": selectors.rate_history(campaign),
            "motions": selectors.decided_motions(campaign),
        }
        return Response(MarketSerializer(data).data)


class SuggestionSerializer(serializers.Serializer[dict[str, Any]]):
    edge = serializers.CharField()
    rate = serializers.DecimalField(max_digits=12, decimal_places=4)
    volume = serializers.IntegerField()
    production = serializers.IntegerField()
    suggested = serializers.DecimalField(max_digits=12, decimal_places=4)


class CommitteeSerializer(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    report_round = serializers.BooleanField()
    member = serializers.BooleanField()
    members = serializers.ListField(child=serializers.CharField())
    suggestions = SuggestionSerializer(many=True)
    motions = MotionSerializer(many=True)
    drafts = MotionSerializer(many=True)


class Committee(APIView):
    """The committee as a member sees it: live suggested rates (R-6.3), the motions before
    it with the votes so far, and the power's own drafts. Non-members see the members only."""

    @extend_schema(responses=CommitteeSerializer)
    def get(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        campaign = power.campaign
        live = selectors.live_suggestions(campaign) if power.un_member else None
        data = {
            "round": campaign.current_round,
            "report_round": bool(live and live["report_round"]),
            "member": power.un_member,
            "members": [p.key for p in selectors.members(campaign)],
            "suggestions": live["edges"] if live else [],
            "motions": selectors.open_motions(campaign) if power.un_member else [],
            "drafts": selectors.drafts_of(power),
        }
        return Response(CommitteeSerializer(data).data)


class MotionInput(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField([k for k, _ in Motion.Kind.choices])
    edge = serializers.ChoiceField([e for e, _ in Motion.EDGE_CHOICES], required=False)
    power = serializers.CharField(max_length=64, required=False)
    value = serializers.CharField(max_length=20, required=False)


class Motions(APIView):
    """Draft a motion (members only; private until submitted)."""

    @extend_schema(
        request=MotionInput,
        responses={201: MotionSerializer, 400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = MotionInput(data=request.data)
        data.is_valid(raise_exception=True)
        motion = services.draft_motion(
            power=power, fields=motion_fields(data.validated_data), actor=actor(request)
        )
        return Response(MotionSerializer(motion).data, status=status.HTTP_201_CREATED)


class MotionKeyInput(serializers.Serializer[dict[str, Any]]):
    motion = serializers.CharField(max_length=64)


class SubmitMotion(APIView):
    """Put one of your drafts before the committee for this round's UN Meeting."""

    @extend_schema(
        request=MotionKeyInput,
        responses={200: MotionSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = MotionKeyInput(data=request.data)
        data.is_valid(raise_exception=True)
        motion = services.submit_motion(
            power=power, key=data.validated_data["motion"], actor=actor(request)
        )
        return Response(MotionSerializer(motion).data)


class VoteInput(serializers.Serializer[dict[str, Any]]):
    motion = serializers.CharField(max_length=64)
    choice = serializers.ChoiceField(Vote.Choice.values)


class CastVote(APIView):
    """Vote yes, no or abstain on a motion before the committee; voting again replaces your
    vote (one per member, R-6.4). Non-members get 403."""

    @extend_schema(
        request=VoteInput,
        responses={200: VoteSerializer, 403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = VoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.vote(
            power=power,
            key=data.validated_data["motion"],
            choice=data.validated_data["choice"],
            actor=actor(request),
        )
        return Response(VoteSerializer(row).data)
