"""What a trade form or an API body says, read into what the trade services take: an
agreement's terms from the acting party's side, a motion's fields. Shared by the pages
(``trade.views``) and the API (``trade.api``)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from trade import services


def _int(value: str | None, field: str) -> int:
    try:
        return int(value or "0")
    except ValueError:
        shown = repr(value[:20]) if value else "nothing"
        raise services.TradeError([f"{field}: expected a whole number, got {shown}"]) from None


def terms_from(data: QueryDict | dict[str, Any], side: str) -> services.Terms:
    """Terms from a form or API body written from the acting party's side: what it sends and
    what it receives. ``side`` is ``a`` (proposer) or ``b`` (partner)."""
    send = (str(data.get("send_resource") or ""), _int(data.get("send_amount"), "send_amount"))
    receive = (
        str(data.get("receive_resource") or ""),
        _int(data.get("receive_amount"), "receive_amount"),
    )
    a, b = (send, receive) if side == "a" else (receive, send)
    return services.Terms(
        deposit=str(data.get("deposit") or ""),
        delivery=_int(data.get("delivery"), "delivery"),
        a_resource=a[0],
        a_amount=a[1],
        b_resource=b[0],
        b_amount=b[1],
    )


def motion_fields(data: QueryDict | dict[str, Any]) -> dict[str, Any]:
    """A motion's fields from a form or API body, only those its kind uses (R-6.4)."""
    kind = data.get("kind") or ""
    fields: dict[str, Any] = {"kind": kind}
    if kind in ("rate", "tax", "lift_tax"):
        fields["edge"] = data.get("edge") or ""
    if kind in ("tax", "lift_tax", "ban", "unban") and data.get("power"):
        fields["power"] = data.get("power")
    if kind in ("rate", "tax"):
        fields[kind] = str(data.get("value") or "")
    return fields
