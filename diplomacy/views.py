"""The Messages pages (issue 31): a power's conversations, a thread with its poll (htmx every
few seconds, answered 304 while the thread's ETag is unchanged) and its forms: write, start a
conversation, propose a deal to a member (then on to the agreement or Fleet page, prefilled).
Thin: the gates (``player_view``, ``diplomacy.access``), then a service or a selector."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User as AuthenticatedUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from diplomacy import access, limits, selectors, services
from diplomacy.models import Deal, Member
from economy.texts import plain_all
from ftcamp.errors import DomainError, Forbidden, Refused
from ftcamp.http import HtmxHttpRequest
from ftcamp.pagewrites import page_write
from powers.access import AuthenticatedHttpRequest, player_view
from powers.models import Power

POLL_SECONDS = 5
LABELS = {"text": "Message", "powers": "Powers", "other": "Power", "kind": "Deal"}


def _list_page(
    request: HttpRequest, power: Power, *, errors: list[str] | None = None, status: int = 200
) -> HttpResponse:
    services.ensure_public(power.campaign_id)
    press = services.press_of(power.campaign_id)
    others = Power.objects.filter(campaign_id=power.campaign_id).exclude(pk=power.pk)
    return render(
        request,
        "diplomacy/messages.html",
        {
            "power": power,
            "conversations": selectors.conversations_of(power),
            "others": list(others.order_by("name").values_list("key", "name")),
            "press": press,
            "errors": plain_all(errors or [], LABELS),
            "typed": request.POST.get("text", "") if request.method == "POST" else "",
            "chosen": request.POST.getlist("powers") if request.method == "POST" else [],
            "max_chars": limits.MAX_CHARS,
        },
        status=status,
    )


@require_GET
@player_view
def messages_page(request: HttpRequest, power: Power) -> HttpResponse:
    """The power's conversations, latest activity first, with unread counts."""
    return _list_page(request, power)


def _thread_context(member: Member, power: Power) -> dict[str, object]:
    view = selectors.thread(member)
    return {
        "power": power,
        "thread": view,
        "poll_headers": json.dumps({"If-None-Match": view.etag}),
        "poll_seconds": POLL_SECONDS,
        "max_chars": limits.MAX_CHARS,
        "deal_kinds": Deal.Kind.choices,
    }


def _thread_page(
    request: HttpRequest,
    power: Power,
    member: Member,
    *,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = _thread_context(member, power)
    view = context["thread"]
    assert isinstance(view, selectors.Thread)
    services.read(member, view.last_id)
    context |= {
        "errors": plain_all(errors or [], LABELS),
        "typed": request.POST.get("text", "") if errors else "",
    }
    response = render(request, "diplomacy/thread.html", context, status=status)
    return response


@require_GET
@player_view
def thread(request: HttpRequest, power: Power, conversation_id: int) -> HttpResponse:
    """One conversation, its latest messages, and the form to write."""
    member = access.member_of(power=power, conversation_id=conversation_id)
    return _thread_page(request, power, member)


@require_GET
@player_view
def poll(request: HttpRequest, power: Power, conversation_id: int) -> HttpResponse:
    """The thread's messages again if anything changed since the ETag the page holds, else 304
    (two queries past the login: the power, then its membership with the conversation)."""
    member = access.member_of(power=power, conversation_id=conversation_id)
    tag = selectors.etag(member)
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
        response["ETag"] = tag
        return response
    context = _thread_context(member, power)
    view = context["thread"]
    assert isinstance(view, selectors.Thread)
    services.read(member, view.last_id)
    response = render(request, "diplomacy/_thread.html", context)
    response["ETag"] = view.etag
    return response


def _answer_post(request: HtmxHttpRequest, power: Power, outcome: object) -> HttpResponse:
    conversation_id = int(
        (request.resolver_match.kwargs if request.resolver_match else {})["conversation_id"]
    )
    if isinstance(outcome, DomainError):
        member = access.member_of(power=power, conversation_id=conversation_id)
        return _thread_page(request, power, member, errors=outcome.errors, status=outcome.status)
    if isinstance(outcome, str):  # a deal asked for: on to its form, prefilled
        return redirect(outcome)
    url = reverse("diplomacy-thread", args=[power.campaign_id, power.key, conversation_id])
    return redirect(url + "#end")


thread_write = page_write(_answer_post, shown=(Refused, Forbidden))


@thread_write
def post(request: HttpRequest, power: Power, conversation_id: int) -> None:
    member = access.member_of(power=power, conversation_id=conversation_id)
    assert isinstance(request.user, AuthenticatedUser)
    services.post_message(member=member, user=request.user, text=request.POST.get("text", ""))


@thread_write
def deal(request: HttpRequest, power: Power, conversation_id: int) -> str:
    """A thread's "propose": recorded, then on to the agreement page or the Fleet page's offer
    form with the other power (and the kind) chosen."""
    member = access.member_of(power=power, conversation_id=conversation_id)
    asked = services.ask_deal(
        member=member, kind=request.POST.get("kind", ""), other_key=request.POST.get("other", "")
    )
    if asked.kind == Deal.Kind.AGREEMENT:
        url = reverse("agreements", args=[power.campaign_id, power.key])
        return f"{url}?{urlencode({'partner': asked.other.key})}"
    url = reverse("fleet", args=[power.campaign_id, power.key])
    return f"{url}?{urlencode({'kind': asked.kind, 'other': asked.other.key})}#pacts"


def _answer_start(request: HtmxHttpRequest, power: Power, outcome: object) -> HttpResponse:
    if isinstance(outcome, DomainError):
        return _list_page(request, power, errors=outcome.errors, status=outcome.status)
    assert isinstance(outcome, int)
    return redirect(reverse("diplomacy-thread", args=[power.campaign_id, power.key, outcome]))


@page_write(_answer_start, shown=(Refused, Forbidden))
def start(request: HttpRequest, power: Power) -> int:
    """A new conversation with the chosen powers (or theirs, if it exists) and its first
    message."""
    assert isinstance(request.user, AuthenticatedUser)
    conversation = services.start_conversation(
        power=power,
        user=request.user,
        others=request.POST.getlist("powers"),
        text=request.POST.get("text", ""),
    )
    return conversation.pk


@login_required
@require_GET
def my_messages(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The navigation bar's count leads here: the Messages page of the power with unread
    messages (or the user's first), else "My campaigns"."""
    member = selectors.first_unread(request.user)
    if member is None:
        return redirect("my-campaigns")
    return redirect(
        reverse("diplomacy-messages", args=[member.power.campaign_id, member.power.key])
    )
