"""How each engine order type is entered in the browser: labels, input kinds and where a
field's choices come from. The engine's ``validate.FIELDS`` stays the authority on what an order
must contain (a test checks both name the same fields); this module only says how to ask."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from economy.engine.state import GROUP_ORDERS, GROUP_STATUSES


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    # "ref" (a select), "enum", "int", "bool", "text", "typed_id" (a new id the player
    # chooses, economy.entry), "hex", "hexes", "powers", "links", "shares"
    kind: str
    source: str = ""  # for refs: see Choices
    options: tuple[str, ...] = ()
    help: str = ""
    engine: bool = True  # False: kept by the shell only, never sent to the engine
    max_length: int = 0  # for "text": the column's length


@dataclass(frozen=True)
class OrderType:
    label: str
    cite: str
    fields: tuple[Field, ...]


def _ref(name: str, label: str, source: str, help: str = "") -> Field:
    return Field(name, label, "ref", source=source, help=help)


def _enum(name: str, label: str, *options: str) -> Field:
    return Field(name, label, "enum", options=options)


def _int(name: str, label: str, help: str = "") -> Field:
    return Field(name, label, "int", help=help)


ORDER_TYPES: dict[str, OrderType] = {
    "declare_group": OrderType(
        "Declare a fleet group",
        "R-2",
        (
            _ref("group", "Group", "groups"),
            Field("hex", "Hex", "hex", help="XXYY"),
            _enum("order", "Standing order", *GROUP_ORDERS),
            _enum("status", "Engage outcome", *GROUP_STATUSES),
            Field("engages", "Engages powers", "powers", help="power ids, e.g. vargr zhodani"),
            Field("defending", "Defending", "bool", help="it only answers an attack (R-2a)"),
        ),
    ),
    "send_troops": OrderType(
        "Send troops to the system below",
        "Resource 1.2",
        (_ref("group", "Troop transport group", "groups"), _int("troops", "Troops")),
    ),
    "recover_troops": OrderType(
        "Recover invading troops",
        "Resource 1.2",
        (
            _ref("group", "Transport group", "groups"),
            _ref("system", "System", "systems"),
            _int("troops", "Troops"),
        ),
    ),
    "convert_invasion": OrderType(
        "Convert invading troops into loyalty",
        "Resource 1.2, R-3.4",
        (_ref("system", "System", "systems"),),
    ),
    "conscript": OrderType(
        "Conscript (spend LR for PL)",
        "Resource 2.4, R-3.5",
        (_ref("system", "System", "held"), _int("loyalty", "LR to spend")),
    ),
    "market_sell": OrderType(
        "Sell on the Common Market",
        "Resource 4, R-6.1",
        (
            _enum("resource", "Resource sold", "ore", "bio", "gal"),
            _int("amount", "Amount"),
            _ref("from", "Sold from (Ore/Bio)", "places", help="omit for Gal"),
            _ref("to", "Ore bought arrives at (Gal sales)", "places", help="only for Gal"),
        ),
    ),
    "ship": OrderType(
        "Ship between own guild hubs",
        "Resource 5.2, R-5.4",
        (
            _ref("from_hub", "From hub", "hubs"),
            _ref("to_hub", "To hub", "hubs"),
            _enum("resource", "Resource", "ore", "bio", "pl"),
            _int("amount", "Amount"),
            _enum("payer", "Cost paid by", "sender", "receiver"),
        ),
    ),
    "gal_transfer": OrderType(
        "Transfer Gal to another power",
        "R-5.6",
        (_ref("to", "To power", "other_powers"), _int("amount", "Gal")),
    ),
    "hub_setup": OrderType(
        "Set up a trade hub",
        "Support 4.1.1, R-5.1",
        (
            Field(
                "id",
                "New hub id",
                "typed_id",
                help="1-24 lower-case letters, digits or '-', starting with a letter",
            ),
            Field("name", "Hub name", "text", help="optional", engine=False, max_length=60),
            Field("centre", "Centre hex", "hex", help="XXYY"),
            Field("nodes", "Node hexes", "hexes", help="e.g. 0203 0305"),
            Field("links", "Links", "links", help="e.g. 0101-0203 0203-0305"),
            _ref("pay_from", "Pay the Ore from", "places"),
        ),
    ),
    "hub_extend": OrderType(
        "Extend a trade hub",
        "Support 4.1.1, R-5.1a",
        (
            _ref("hub", "Hub", "hubs"),
            Field("nodes", "New node hexes", "hexes", help="e.g. 0406"),
            Field("links", "New links", "links", help="e.g. 0305-0406"),
        ),
    ),
    "hub_maintain": OrderType(
        "Maintain a hub (keep only some of it)",
        "Support 4.1.2, R-5.2",
        (
            _ref("hub", "Hub", "hubs"),
            Field("keep_nodes", "Nodes to keep", "hexes", help="empty keeps all"),
            Field("keep_links", "Links to keep", "links", help="empty keeps all"),
            Field("close", "Close the hub", "bool", help="shut it down this Support Phase"),
        ),
    ),
    "distribute": OrderType(
        "Distribute a hub's Ore and Bio by hand",
        "Resource 5.1.2, R-5.7",
        (
            _ref("hub", "Hub", "hubs"),
            Field("shares", "Shares", "shares", help="hex ore bio; e.g. 0101 10 5; 0203 20 0"),
        ),
    ),
    "embark": OrderType(
        "Embark PL into a static's passenger space",
        "Resource 2.4, Support 7.1",
        (
            _ref("at", "PL from", "places"),
            _int("pl", "PL"),
            _ref("into", "Into static", "statics"),
        ),
    ),
    "guild_join": OrderType("Join the guild", "Support 4.2, R-5.3", (_ref("hub", "Hub", "hubs"),)),
    "guild_leave": OrderType(
        "Leave the guild", "Support 4.2, R-5.3", (_ref("hub", "Hub", "hubs"),)
    ),
    "designate_primary": OrderType(
        "Designate a Primary system",
        "Resource 1.1, R-3.2",
        (_ref("system", "System", "held"),),
    ),
    "drop_primary": OrderType(
        "Drop Primary status", "Resource 1.1, R-3.2", (_ref("system", "System", "held"),)
    ),
    "nominate_homeworld": OrderType(
        "Nominate a Homeworld", "Resource 1.1", (_ref("system", "System", "held"),)
    ),
    "research_project": OrderType(
        "Fund a research project",
        "Support 4.3.1",
        (_int("gal", "Gal (2 Gal = 1 TP)"),),
    ),
    "recruit_troops": OrderType(
        "Recruit troops",
        "Support 3.1.1",
        (
            _ref("at", "PL from", "places"),
            _int("troops", "Troops"),
            _ref("into", "Into troop space of", "carriers"),
        ),
    ),
    "home_defense": OrderType(
        "Home defence against invaders",
        "Support 3.1.2, R-7.1",
        (
            _ref("system", "System", "held"),
            _int("troops", "Troops"),
            _ref("invader", "Invader", "other_powers"),
        ),
    ),
    "planetary_project": OrderType(
        "Planetary project",
        "Support 6, R-9.1",
        (
            _ref("system", "System", "held"),
            _enum("source", "Shift from", "ore", "gal", "bio"),
            _enum("target", "Shift to", "ore", "gal", "bio"),
            _int("pct", "Percent (0 stops)"),
        ),
    ),
}

_INT = re.compile(r"^-?\d+$")


def payload_from(kind: str, data: Any) -> dict[str, Any]:
    """The order object from submitted form data (a QueryDict or dict). Values that do not
    parse are passed on as typed, so the engine's validator names the field and the problem."""
    spec = ORDER_TYPES.get(kind)
    payload: dict[str, Any] = {"type": kind}
    if spec is None:
        return payload
    for f in spec.fields:
        raw = str(data.get(f.name, "") or "").strip()
        if raw == "":
            continue
        if f.kind == "int":
            payload[f.name] = int(raw) if _INT.match(raw) else raw
        elif f.kind in ("hexes", "powers"):
            payload[f.name] = [h for h in re.split(r"[\s,;]+", raw) if h]
        elif f.kind == "links":
            payload[f.name] = [
                [a for a in re.split(r"[-–/]", pair) if a]
                for pair in re.split(r"[\s,;]+", raw)
                if pair
            ]
        elif f.kind == "bool":
            payload[f.name] = raw.lower() in ("on", "true", "1", "yes")
        elif f.kind == "shares":
            payload[f.name] = [_share(part) for part in raw.split(";") if part.strip()]
        else:
            payload[f.name] = raw
    return payload


def _share(text: str) -> dict[str, Any]:
    hx, *amounts = text.split()
    share: dict[str, Any] = {"hex": hx}
    for res, amount in zip(("ore", "bio"), amounts, strict=False):
        share[res] = int(amount) if _INT.match(amount) else amount
    return share


def form_values(payload: dict[str, Any]) -> dict[str, str]:
    """The reverse of ``payload_from``: what to show in the form for a stored order."""
    spec = ORDER_TYPES.get(payload.get("type", ""))
    values: dict[str, str] = {}
    if spec is None:
        return values
    for f in spec.fields:
        v = payload.get(f.name)
        if v is None:
            continue
        if f.kind in ("hexes", "powers") and isinstance(v, list):
            values[f.name] = " ".join(map(str, v))
        elif f.kind == "links" and isinstance(v, list):
            values[f.name] = " ".join("-".join(map(str, p)) for p in v if isinstance(p, list))
        elif f.kind == "shares" and isinstance(v, list):
            values[f.name] = "; ".join(
                f"{s.get('hex')} {s.get('ore', 0)} {s.get('bio', 0)}"
                for s in v
                if isinstance(s, dict)
            )
        elif f.kind == "bool":
            values[f.name] = "on" if v is True else ""
        else:
            values[f.name] = str(v)
    return values


def summary(payload: Any) -> str:
    """A one-line reading of an order for lists and reports, its fields named by their labels
    (never their keys)."""
    if not isinstance(payload, dict):
        return repr(payload)
    spec = ORDER_TYPES.get(payload.get("type", ""))
    label = spec.label if spec else str(payload.get("type"))
    labels = {f.name: f.label for f in spec.fields} if spec else {}
    values = form_values(payload)
    # in the form's order (a stored order's keys come back in the database's order)
    keys = [k for k in labels if k in payload] + sorted(
        str(k) for k in payload if k != "type" and k not in labels
    )
    parts = [f"{labels.get(k, k)} {values.get(k, payload[k])}" for k in keys]
    return f"{label}: {', '.join(parts)}" if parts else label
