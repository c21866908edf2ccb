"""Conversations and messages in the player API (issue 31): a bot with its power's token lists,
reads and writes exactly what the power's player may on the pages, through the same services.
A conversation the power is not in is a 404 like one that does not exist. A thread's messages
carry an ETag: a poll sending it back in ``If-None-Match`` is answered 304 while nothing
changed."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from diplomacy import access, limits, selectors, services
from diplomacy.models import Member
from ftcamp.http import field_errors
from powers.access import player_power


class PowerName(serializers.Serializer[tuple[str, str]]):
    key = serializers.CharField()
    name = serializers.CharField()


class ConversationOut(serializers.Serializer[selectors.ConversationRow]):
    id = serializers.IntegerField()
    public = serializers.BooleanField(help_text="the campaign's press channel (every power)")
    title = serializers.CharField()
    others = PowerName(many=True, help_text="the other powers in it (none listed: public)")
    last_at = serializers.DateTimeField()
    unread = serializers.IntegerField()


class MessageOut(serializers.Serializer[selectors.MessageView]):
    id = serializers.IntegerField()
    power = serializers.CharField(help_text="the writer's power, by name")
    mine = serializers.BooleanField()
    html = serializers.CharField(help_text="sanitized HTML of the Markdown subset")
    text = serializers.CharField(allow_null=True, help_text="as written; null when hidden")
    system = serializers.BooleanField(help_text="a deal offered or answered, in words")
    hidden = serializers.BooleanField(help_text="hidden by the organiser")
    created_at = serializers.DateTimeField()


class StartInput(serializers.Serializer[dict[str, Any]]):
    # items are checked by the service (an unknown key is named there, whatever it is: a
    # null or an object too, never a nested error), so every refusal is one list of words
    # under its field, as the schema's error answers say
    powers = serializers.ListField(
        child=serializers.JSONField(allow_null=True),
        max_length=limits.MAX_MEMBERS,
        help_text="the other powers' keys (strings)",
    )
    text = serializers.CharField(
        max_length=limits.MAX_CHARS * 2, allow_blank=True, trim_whitespace=False
    )


class PostInput(serializers.Serializer[dict[str, Any]]):
    text = serializers.CharField(
        max_length=limits.MAX_CHARS * 2, allow_blank=True, trim_whitespace=False
    )


def _row(power_rows: list[selectors.ConversationRow], pk: int) -> dict[str, Any]:
    row = next(r for r in power_rows if r.id == pk)
    data = asdict(row)
    data["others"] = [{"key": k, "name": n} for k, n in row.others]
    return data


def _too_fast(exc: services.TooFast) -> Response:
    return Response(field_errors(exc.errors), status=status.HTTP_429_TOO_MANY_REQUESTS)


class Conversations(APIView):
    """The conversations of the user's power, latest activity first (GET), and a new one with
    its first message (POST; the conversation of exactly these powers if it exists)."""

    @extend_schema(responses=ConversationOut(many=True))
    def get(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        services.ensure_public(campaign_id)
        rows = selectors.conversations_of(power)
        return Response([_row(rows, r.id) for r in rows])

    @extend_schema(
        request=StartInput,
        responses={
            201: ConversationOut,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            429: OpenApiTypes.OBJECT,
        },
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        power = player_power(request, campaign_id)
        data = StartInput(data=request.data)
        data.is_valid(raise_exception=True)
        assert isinstance(request.user, User)
        try:
            made = services.start_conversation(
                power=power,
                user=request.user,
                others=data.validated_data["powers"],
                text=data.validated_data["text"],
            )
        except services.TooFast as exc:
            return _too_fast(exc)
        return Response(_row(selectors.conversations_of(power), made.pk), status=201)


def _member(request: Request, campaign_id: int, conversation_id: int) -> Member:
    power = player_power(request, campaign_id)
    return access.member_of(power=power, conversation_id=conversation_id)


class ConversationMessages(APIView):
    """A conversation's messages after ``after`` (GET, up to 100, oldest first; with the ETag)
    and a new message (POST)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="only messages after this id"),
            OpenApiParameter(
                "If-None-Match", str, OpenApiParameter.HEADER, description="the ETag of a poll"
            ),
        ],
        responses={200: MessageOut(many=True), 304: None, 404: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, campaign_id: int, conversation_id: int) -> Response:
        member = _member(request, campaign_id, conversation_id)
        after = request.query_params.get("after", "0")
        after_id = int(after) if after.isdigit() and len(after) < 19 else 0
        tag = selectors.etag(member)[:-1] + f'.{after_id}"'
        if request.headers.get("If-None-Match") == tag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})
        views = selectors.messages_after(member, after_id)
        if views:
            services.read(member, views[-1].id)
        return Response([asdict(v) for v in views], headers={"ETag": tag})

    @extend_schema(
        request=PostInput,
        responses={
            201: MessageOut,
            400: OpenApiTypes.OBJECT,
            403: OpenApiTypes.OBJECT,
            404: OpenApiTypes.OBJECT,
            429: OpenApiTypes.OBJECT,
        },
    )
    def post(self, request: Request, campaign_id: int, conversation_id: int) -> Response:
        member = _member(request, campaign_id, conversation_id)
        data = PostInput(data=request.data)
        data.is_valid(raise_exception=True)
        assert isinstance(request.user, User)
        try:
            made = services.post_message(
                member=member, user=request.user, text=data.validated_data["text"]
            )
        except services.TooFast as exc:
            return _too_fast(exc)
        view = next(v for v in selectors.messages_after(member, made.pk - 1) if v.id == made.pk)
        return Response(asdict(view), status=201)
