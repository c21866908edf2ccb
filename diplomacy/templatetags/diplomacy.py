"""``{% unread_messages %}``: the navigation bar's count of unread messages (issue 31), one
query, beside the whose-turn count; nothing when there is none."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

from diplomacy import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_messages(context: template.Context) -> str:
    request = context.get("request")
    if request is None:
        return ""
    n = selectors.unread_total(request.user)
    if not n:
        return ""
    said = "1 unread message" if n == 1 else f"{n} unread messages"
    return format_html(
        '<a class="unread-count" href="{}" title="{}" aria-label="{}">'
        'Messages <span class="badge">{}</span></a>',
        reverse("my-messages"),
        said,
        said,
        n,
    )
