"""The shell's side of the order table (``economy.engine.orders.SPECS``, issue 28): a form's
fields read into an order and an order shown in its form again, each by its field's kind; an
order as a sentence with names; and the Fleet page's design form. The widget each kind is asked
with is chosen once, in ``templates/economy/_order_fields.html`` (by ``Field.widget``)."""

from __future__ import annotations

from typing import Any

from economy.engine.orders import SPECS
from economy.engine.orders.kinds import Choice, Field, number
from economy.events import MISSION_WORDS, ORDERS, RESOURCES, STATUSES, Names


def payload_from(kind: str, data: Any) -> dict[str, Any]:
    """The order object from submitted form data (a QueryDict or dict). Values that do not
    parse are passed on as typed, so the engine's validator names the field and the problem."""
    spec = SPECS.get(kind)
    payload: dict[str, Any] = {"type": kind}
    if spec is None:
        return payload
    for f in spec.fields:
        value = f.kind.parse(data, f.name)
        if value is not None:
            payload[f.name] = value
    return payload


def form_values(payload: dict[str, Any]) -> dict[str, str]:
    """The reverse of ``payload_from``: what to show in the form for a stored order."""
    spec = SPECS.get(payload.get("type", ""))
    if spec is None:
        return {}
    return {
        f.name: f.kind.text(payload[f.name]) for f in spec.fields if payload.get(f.name) is not None
    }


#: enum values in words (forms and sentences)
ENUM_WORDS: dict[str, str] = {
    **RESOURCES,
    **ORDERS,
    **MISSION_WORDS,  # "terror cells", never ``terror_cells`` (issue 30)
    "sender": "the sender",
    "receiver": "the receiver",
    "military": "Military",
    "civilian": "Civilian",
    "mobile": "Mobile",
    "static": "Static",
    "standard": "Standard",
    "reserve": "Reserve",
    "patrol": "Patrol",
}
STATUS_WORDS = STATUSES


def choice_word(wording: str, value: str) -> str:
    """A choice as players read it (``hold_restock`` -> "Hold – Restock")."""
    return (STATUS_WORDS if wording == "statuses" else ENUM_WORDS).get(value, value)


def enum_word(field: Field, value: str) -> str:
    """A choice field's value as players read it."""
    return choice_word(field.kind.wording if isinstance(field.kind, Choice) else "", value)


class _Words:
    """``Names`` with the choices' words: how an order's values read (``kinds.Words``)."""

    def __init__(self, names: Names) -> None:
        self.names = names

    def name(self, table: str, value: Any) -> Any:
        return self.names.name(table, value)

    def choice(self, wording: str, value: str) -> str:
        return choice_word(wording, value)


def summary(payload: Any, names: Names | None = None) -> str:
    """An order as a sentence, with names (``Sells 20 Ore from hub Core for Bio``): its ids
    looked up in ``names``, its choices in words, never its keys."""
    kind = payload.get("type") if isinstance(payload, dict) else None
    spec = SPECS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        return f"An order of an unknown type ({str(kind)[:40]})" if kind else "An unreadable order"
    return spec.words(payload, _Words(names or Names()))


# --- the Fleet page's design form: the systems as a table (R-10.0) ------------------------

DESIGN_ROWS = 8  # blank system rows offered
SYSTEM_COLUMNS: tuple[str, ...] = ("sys_name", "sys_points", "sys_count")
SYSTEM_COLUMNS += ("sys_cap1", "sys_amount1", "sys_cap2", "sys_amount2")


def system_rows(data: Any) -> list[dict[str, str]]:
    """The systems table as typed (``sys_<column>`` lists), padded with blank rows."""
    columns = {c: data.getlist(c) if hasattr(data, "getlist") else [] for c in SYSTEM_COLUMNS}
    count = max((len(v) for v in columns.values()), default=0)
    rows = [
        {c.removeprefix("sys_"): (columns[c][i] if i < len(columns[c]) else "") for c in columns}
        for i in range(count)
    ]
    typed = [r for r in rows if any(v.strip() for v in r.values())]
    return typed + [dict.fromkeys((c.removeprefix("sys_") for c in SYSTEM_COLUMNS), "")] * max(
        DESIGN_ROWS - len(typed), 2
    )


def design_payload(data: Any) -> dict[str, Any]:
    """A ``register_design`` order from the Fleet page's form: its fields, and its systems from
    the table's rows (one capacity or two per row); values that do not parse are passed on for
    the entry check to name."""
    payload = payload_from("register_design", data)
    systems: list[dict[str, Any]] = []
    for row in system_rows(data):
        if not row["name"].strip() and not row["points"].strip():
            continue
        system: dict[str, Any] = {"id": f"s{len(systems) + 1}"}
        if row["name"].strip():
            system["name"] = row["name"].strip()
        system["points"] = number(row["points"].strip())
        if row["count"].strip():
            system["count"] = number(row["count"].strip())
        for cap, amount in ((row["cap1"], row["amount1"]), (row["cap2"], row["amount2"])):
            if cap.strip() and amount.strip():
                system[cap.strip()] = number(amount.strip())
        systems.append(system)
    if systems:
        payload["systems"] = systems
    return payload
