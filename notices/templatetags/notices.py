"""``{% whose_turn %}`` and ``{% notices_of power %}``: what is pending and what happened, for
"My campaigns" and a power's dashboard (issue 18), each a one-line include in those pages."""

from __future__ import annotations

from typing import Any

from django import template

from notices import selectors
from powers.models import Power

register = template.Library()


@register.inclusion_tag("notices/_whose_turn.html", takes_context=True)
def whose_turn(context: template.Context, power: Power | None = None) -> dict[str, Any]:
    """Every campaign of the viewer (or only ``power``'s): round, deadline, submissions."""
    user = context["request"].user
    campaign_id = power.campaign_id if power is not None else None
    return {"turns": selectors.turns(user=user, campaign_id=campaign_id), "one": power is not None}


@register.inclusion_tag("notices/_notices.html", takes_context=True)
def notices_of(context: template.Context, power: Power) -> dict[str, Any]:
    """The viewer's latest notices in ``power``'s campaign."""
    user = context["request"].user
    rows = selectors.recent_notices(user=user, campaign_id=power.campaign_id)
    return {"notices": list(rows[: selectors.RECENT])}
