"""``{% whose_turn %}``, ``{% turn_count %}`` and ``{% notices_of power %}``: what is pending and
what happened, for "My campaigns", a power's dashboard and the navigation bar (issues 18 and
29), each a one-line include. The whose-turn reader runs once per request, whichever of them
asks first."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html

from notices import selectors
from powers.models import Power

register = template.Library()

_MEMO = "_ftcamp_turns"


def _turns(context: template.Context) -> selectors.Turns:
    """The viewer's turns, read once per request."""
    request = context.get("request")
    if request is None:
        return selectors.Turns([], [])
    found: selectors.Turns | None = getattr(request, _MEMO, None)
    if found is None:
        found = selectors.turns(user=request.user)
        setattr(request, _MEMO, found)
    return found


@register.inclusion_tag("notices/_whose_turn.html", takes_context=True)
def whose_turn(context: template.Context, power: Power | None = None) -> dict[str, Any]:
    """Every campaign of the viewer (or only ``power``'s): the round, what it waits for, what
    waits on the viewer; on "My campaigns" the invitations too."""
    turns = _turns(context)
    if power is None:
        return {"turns": turns.campaigns, "invitations": turns.invitations, "one": False}
    mine = [t for t in turns.campaigns if t.membership.campaign_id == power.campaign_id]
    return {"turns": mine, "invitations": [], "one": True}


@register.simple_tag(takes_context=True)
def turn_count(context: template.Context) -> str:
    """The navigation bar's count of what waits on the viewer, linking to the list (nothing
    when nothing waits)."""
    n = _turns(context).count
    if not n:
        return ""
    said = "1 thing waits for you" if n == 1 else f"{n} things wait for you"
    return format_html(
        '<a class="turn-count" href="{}#whose-turn" title="{}" aria-label="{}">'
        'Your turn <span class="badge">{}</span></a>',
        reverse("my-campaigns"),
        said,
        said,
        n,
    )


@register.inclusion_tag("notices/_notices.html", takes_context=True)
def notices_of(context: template.Context, power: Power) -> dict[str, Any]:
    """The viewer's latest notices in ``power``'s campaign."""
    user = context["request"].user
    rows = selectors.recent_notices(user=user, campaign_id=power.campaign_id)
    return {"notices": list(rows[: selectors.RECENT])}
