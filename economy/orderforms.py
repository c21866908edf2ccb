"""How each engine order type is entered in the browser: labels, input kinds and where a
field's choices come from. The engine's ``validate.FIELDS`` stays the authority on what an order
must contain (a test checks both name the same fields); this module only says how to ask."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from economy.engine.command_state import MISSION_KINDS
from economy.engine.state import (
    CAPACITIES,
    CRAFT_CLASSES,
    GROUP_KINDS,
    GROUP_ORDERS,
    GROUP_STATUSES,
    MOBILITIES,
)


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    # "ref" (a select), "enum", "int", "bool", "text", "typed_id" (a new id the player
    # chooses, economy.entry), "hex", "hexes", "powers", "links", "shares", and for the fleet
    # "ids" (several refs), "counts" ({kind: n}) and "systems" (a design's systems, R-10.0)
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
    pays: str = ""  # what it costs, where that is paid from and when, in words (issue 14)


def _ref(name: str, label: str, source: str, help: str = "") -> Field:
    return Field(name, label, "ref", source=source, help=help)


def _enum(name: str, label: str, *options: str) -> Field:
    return Field(name, label, "enum", options=options)


def _int(name: str, label: str, help: str = "") -> Field:
    return Field(name, label, "int", help=help)


def _new_id(label: str) -> Field:
    return Field("id", label, "typed_id", help=TYPED_ID_HELP)


TYPED_ID_HELP = "1-24 lower-case letters, digits or '-', starting with a letter"
SYSTEMS_HELP = (
    "one system a line: name: points per unit, xcount, then any capacities, e.g. "
    "'Class 1 beam: 3 x2', 'Hull box: 1 x10', 'Construction yard: 40, construction 30, "
    "workshop 50'. Capacities: " + ", ".join(c.replace("_", " ") for c in CAPACITIES)
)


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
            _new_id("New hub id"),
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
    "register_design": OrderType(
        "Register a design",
        "Support 1.1, R-10.0",
        (
            _new_id("New design id"),
            Field("name", "Design name", "text", help="optional", max_length=60),
            _enum("class", "Class", *CRAFT_CLASSES),
            _enum("mobility", "Mobility", *MOBILITIES),
            _int("mass", "Mass"),
            _int("npv", "NPV (Ore to build)", help="at least its systems' points"),
            _int("crew", "Crew factors needed", help="optional, default 0"),
            Field("systems", "Systems", "systems", help=SYSTEMS_HELP),
            Field(
                "loadout",
                "Built with consumables",
                "counts",
                source="kinds",
                help="optional, e.g. fighter 6, missile 2",
            ),
        ),
        "Costs the campaign's TP per design from your bank at the start of the Support Phase "
        "(§1); you can build it in the same round.",
    ),
    "build": OrderType(
        "Build a craft",
        "Support 1.1, R-10.1",
        (
            _new_id("New craft id"),
            _ref("design", "Design", "designs"),
            Field(
                "builders",
                "Builders",
                "ids",
                source="builders",
                help="one, or several in one hex pooling on an external build",
            ),
            _int("ore", "Ore this round", help="optional: default all the builders can take"),
        ),
        "Costs the design's NPV in Ore (+10 %, rounded up, while no craft of it is finished; its "
        "consumables at the catalogue's cost), paid each Support Phase up to the builders' "
        "construction rating from the hub pool covering their hex, else your system's stockpile "
        "there. The craft is finished in orbit with its builder once it is paid in full.",
    ),
    "adjust_build": OrderType(
        "Change or cancel work in progress",
        "R-10.7",
        (
            _ref("build", "Work in progress", "work"),
            _int("ore", "Ore this round", help="exactly this much this round"),
            Field("builders", "New builders", "ids", source="builders", help="external only"),
            Field("cancel", "Cancel it", "bool", help="the Ore paid so far is lost"),
        ),
        "Costs nothing itself; Ore this round is paid as for a build. Cancelling loses the Ore "
        "paid so far.",
    ),
    "unbuild": OrderType(
        "Unbuild a craft",
        "Support 1.3, R-10.3",
        (
            _new_id("New work id"),
            _ref("craft", "Craft to unbuild", "own_craft"),
            _ref("builder", "At builder", "builders"),
        ),
        "Works through the craft's NPV at the builder's construction rating (it builds nothing "
        "else that round). On completion you reclaim the NPV less the fatigue cost (half for a "
        "captured craft) in Ore, and its crew as PL, where the hex keeps its goods.",
    ),
    "repair": OrderType(
        "Repair a craft",
        "R-10.2",
        (
            _new_id("New work id"),
            _ref("craft", "Damaged craft", "own_craft"),
            _ref("repairer", "Repairer or builder", "repairers", help="in the craft's hex"),
            _int("ore", "Ore this round", help="optional: default all its rating can take"),
        ),
        "Destroyed systems cost their point cost in Ore, paid each Support Phase up to the "
        "repairer's rating (carried over between rounds) from the hub pool covering the hex, "
        "else your system's stockpile there; fatigue is added when it completes. Disabled "
        "systems are fixed free. Lost CF are not replaced (crew again).",
    ),
    "rebuild": OrderType(
        "Rebuild a craft",
        "R-10.2",
        (
            _new_id("New work id"),
            _ref("craft", "Damaged craft", "own_craft"),
            _ref("builder", "Builder", "builders", help="in the craft's hex"),
            Field("remove_fatigue", "Remove fatigue", "bool", help="costs extra Ore"),
            _int("ore", "Ore this round", help="optional: default all its rating can take"),
        ),
        "As a repair, at the builder's construction rating, but adds no fatigue; removing the "
        "craft's fatigue costs ceil(½ × fatigue/100 × NPV) Ore more. Lost CF are not replaced.",
    ),
    "refit": OrderType(
        "Refit a craft into a variant design",
        "Support 1.5, R-10.5a",
        (
            _new_id("New work id"),
            _ref("craft", "Craft", "own_craft"),
            _ref("builder", "Builder", "builders", help="in the craft's hex"),
            _ref("design", "Variant design", "designs", help="of the same mobility"),
            _int("ore", "Ore this round", help="optional: default all its rating can take"),
        ),
        "Systems removed are unbuilt without reclaiming their Ore; new systems cost their point "
        "cost in Ore at the builder's construction rating. The craft becomes the variant.",
    ),
    "restock": OrderType(
        "Restock consumables",
        "Support 2, 2.0",
        (
            _ref("source", "From builder or cargo craft", "own_craft"),
            _ref("target", "Craft to restock", "own_craft", help="in the same hex"),
            Field("items", "Items", "counts", help="optional: kind count, e.g. fighter 6"),
            _enum("if_engaged", "If engaged", "abandon", "disabled"),
        ),
        "Free: the consumables come from the builder's workshop or the source's cargo. The "
        "source holds (Hold-Build or Hold-Restock), the target Hold-Maintain; a retreat of "
        "either fails it.",
    ),
    "study_design": OrderType(
        "Study a received craft's design",
        "Support 1.6.3",
        (
            _new_id("New design id"),
            _ref("craft", "Received craft", "own_craft"),
            _ref("builder", "At builder", "builders", help="kept there this round"),
        ),
        "Free: registers the craft's design as yours from the next round. Captured craft can "
        "never be studied.",
    ),
    "make": OrderType(
        "Make consumables",
        "Support 1.4, R-10.1a",
        (
            _ref("builder", "Builder or repairer", "builders"),
            _ref("kind", "Consumable", "kinds"),
            _int("count", "How many"),
        ),
        "Costs the catalogue's Ore for each, within the builder's rating, from the hub pool "
        "covering its hex, else your system's stockpile there; stored in its workshop.",
    ),
    "form_group": OrderType(
        "Form a group from craft in orbit",
        "Support 1.1, R-2b",
        (
            _new_id("New group id"),
            Field("craft", "Craft", "ids", source="orbiting", help="craft in orbit, one hex"),
            _enum("kind", "Group kind", *GROUP_KINDS),
        ),
        "Free. Mobile craft form a group, static craft a static, after all building this round.",
    ),
    "crew": OrderType(
        "Crew a group or craft",
        "Support 3.2, R-7.2",
        (
            _ref("group", "Group", "crewed"),
            _ref("craft", "Or one craft", "craft"),
            _int("cf", "Crew factors", help="optional: default as many as the PL pays for"),
        ),
        "Costs 5 PL per military CF, 2 PL per civilian CF, from PL reaching the hex (its hub "
        "pool, else your system's stockpile there), after recruiting troops.",
    ),
    "supply_ep": OrderType(
        "Supply EP",
        "Support 3.4, R-7.4",
        (
            _ref("into", "Into group or static", "supplied"),
            _int("ep", "EP"),
        ),
        "Costs 1 Bio per EP, from Bio reaching the hex (its hub pool, else your system's "
        "stockpile there), up to its free EP storage.",
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

# --- command and intelligence (Support §3.3, §4.4, §5; R-8; issue 16) ---------------------

_OFFICER = _ref("officer", "Officer", "officers")
_BUBBLE = _ref("bubble", "Bubble", "bubbles")
_POST = Field("post", "Post (the HQ's or an outpost's hex)", "hex", help="XXYY")
_NAME = Field("name", "Name", "text", help="optional", max_length=100)

COMMAND_TYPES: dict[str, OrderType] = {
    "commission": OrderType(
        "Commission an officer",
        "Support 5.1, R-8.2",
        (_new_id("New officer id"), _int("rank", "Rank"), _int("grade", "Grade (1-10)"), _NAME),
        "Costs TP by rank and grade from your bank in the Support Phase; paid each round from "
        "the round after.",
    ),
    "promote": OrderType(
        "Promote an officer",
        "Support 5.1, R-8.2",
        (
            _OFFICER,
            _int("rank", "New rank", help="optional"),
            _int("grade", "New grade", help="optional"),
            Field("tp", "Pay in TP", "bool", help="instead of a roll"),
        ),
    ),
    "demote": OrderType(
        "Demote an officer",
        "Support 5.1, R-8.2",
        (_OFFICER, _int("rank", "New rank")),
        "Free; a demotion by choice costs the officer's rolls a penalty for a while.",
    ),
    "dismiss": OrderType("Dismiss an officer", "Support 5.1, R-8.2", (_OFFICER,)),
    "assign_officer": OrderType(
        "Put an officer aboard a craft or in command of a group",
        "Support 5.1, R-8.2",
        (
            _OFFICER,
            _ref("craft", "Aboard craft", "own_craft", help="or a group"),
            _ref("group", "Or command group", "crewed"),
        ),
    ),
    "bubble_hq": OrderType(
        "Set up a command bubble's HQ",
        "Support 5.2, R-8.3",
        (_new_id("New bubble id"), Field("hex", "HQ hex", "hex", help="XXYY"), _OFFICER),
        "Costs Ore to set up (R-8.3); its radius is its officer's grade.",
    ),
    "bubble_outpost": OrderType(
        "Add an outpost to a bubble",
        "Support 5.2.1, R-8.3",
        (_BUBBLE, Field("hex", "Outpost hex", "hex", help="XXYY"), _OFFICER),
    ),
    "bubble_sensor": OrderType(
        "Place a sensor",
        "Support 5.2.2, R-8.3",
        (_BUBBLE, _POST, Field("hex", "Sensor hex", "hex", help="XXYY")),
        "Costs Ore to place and Ore each round to keep (R-8.3).",
    ),
    "post_officer": OrderType(
        "Post an officer to a bubble's HQ or outpost",
        "Support 5.2, R-8.3a",
        (_BUBBLE, _POST, _OFFICER),
    ),
    "patrol": OrderType(
        "Patrol from a bubble's post",
        "Support 5.2.4, R-8.3",
        (_ref("group", "Group", "groups"), _BUBBLE, _POST),
    ),
    "researchers": OrderType(
        "Embark researchers",
        "Support 4.3.2, R-8.1",
        (_ref("craft", "Aboard craft", "own_craft"), _int("pl", "PL")),
    ),
    "appoint_diplomat": OrderType(
        "Appoint a diplomat",
        "Support 4.4.1, R-8.4",
        (_new_id("New diplomat id"), _ref("craft", "Aboard craft", "own_craft"), _NAME),
    ),
    "recall_diplomat": OrderType(
        "Recall a diplomat", "Support 4.4.1, R-8.4", (_ref("diplomat", "Diplomat", "diplomats"),)
    ),
    "diplomatic_mission": OrderType(
        "Send a diplomat on a mission",
        "Support 4.4, R-8.4",
        (
            _new_id("New mission id"),
            _ref("diplomat", "Diplomat", "diplomats"),
            _ref("target", "Target power", "other_powers"),
            _enum("kind", "Mission", *MISSION_KINDS),
            _ref("system", "System", "systems", help="optional"),
            _int("gal", "Gal spent", help="optional"),
            _int("tp", "TP spent", help="optional"),
            _int("pl", "PL spent", help="optional"),
        ),
        "Spends the Gal, TP and PL given from your bank and stockpiles; the admin decides the "
        "outcome, applied at the start of the next resolution.",
    ),
}
ORDER_TYPES.update(COMMAND_TYPES)


_INT = re.compile(r"^-?\d+$")


def payload_from(kind: str, data: Any) -> dict[str, Any]:
    """The order object from submitted form data (a QueryDict or dict). Values that do not
    parse are passed on as typed, so the engine's validator names the field and the problem."""
    spec = ORDER_TYPES.get(kind)
    payload: dict[str, Any] = {"type": kind}
    if spec is None:
        return payload
    for f in spec.fields:
        if f.kind == "ids":
            ids = _ids(data, f.name)
            if ids:
                payload[f.name] = ids
            continue
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
        elif f.kind == "counts":
            payload[f.name] = _counts(raw)
        elif f.kind == "systems":
            lines = [line for line in re.split(r"[\n;]+", raw) if line.strip()]
            payload[f.name] = [_system(line, i) for i, line in enumerate(lines)]
        else:
            payload[f.name] = raw
    return payload


def _ids(data: Any, name: str) -> list[str]:
    """Several refs: a multiple select (a QueryDict's list), a list, or ids in one text."""
    values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
    if isinstance(values, str):
        values = [values]
    return [v for value in values for v in re.split(r"[\s,;]+", str(value)) if v]


def _number(text: str) -> int | str:
    return int(text) if _INT.match(text) else text


def _counts(text: str) -> dict[str, Any]:
    """``fighter 6, missile 2`` -> ``{"fighter": 6, "missile": 2}`` (R-10.1a)."""
    out: dict[str, Any] = {}
    for part in re.split(r"[,;]+", text):
        words = part.split()
        if words:
            out[words[0]] = _number(words[1]) if len(words) > 1 else ""
    return out


_SYSTEM = re.compile(r"^(?P<name>.+?)\s*:\s*(?P<points>[^\s,]+)(?:\s*[x×]\s*(?P<count>[^\s,]+))?")


def _system(line: str, index: int) -> dict[str, Any]:
    """R-10.0: ``Construction yard: 40 x1, construction 30`` -> a design system. Its id is its
    place in the list (``s1``, ``s2``, …); what does not parse is passed on for the engine to
    name."""
    head, *capacities = line.split(",")
    system: dict[str, Any] = {"id": f"s{index + 1}"}
    match = _SYSTEM.match(head.strip())
    if match is None:
        return {**system, "name": head.strip(), "points": head.strip()}
    system.update(name=match["name"], points=_number(match["points"]))
    if match["count"] is not None:
        system["count"] = _number(match["count"])
    for part in capacities:
        *words, amount = part.split() or [""]
        key = "_".join(words).lower()
        system[key or part.strip()] = _number(amount)
    return system


def _system_text(system: Any) -> str:
    if not isinstance(system, dict):
        return str(system)
    text = f"{system.get('name', system.get('id', ''))}: {system.get('points', '')}"
    if system.get("count", 1) != 1:
        text += f" x{system['count']}"
    extra = [k for k in system if k not in ("id", "name", "points", "count")]
    return text + "".join(f", {k.replace('_', ' ')} {system[k]}" for k in extra)


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
        elif f.kind == "ids" and isinstance(v, list):
            values[f.name] = " ".join(map(str, v))
        elif f.kind == "counts" and isinstance(v, dict):
            values[f.name] = ", ".join(f"{k} {n}" for k, n in v.items())
        elif f.kind == "systems" and isinstance(v, list):
            values[f.name] = "\n".join(_system_text(x) for x in v)
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
    values = {k: v.replace("\n", "; ") for k, v in values.items()}  # systems, one per line
    parts = [f"{labels.get(k, k)} {values.get(k, payload[k])}" for k in keys]
    return f"{label}: {', '.join(parts)}" if parts else label


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
        system["points"] = _number(row["points"].strip())
        if row["count"].strip():
            system["count"] = _number(row["count"].strip())
        for cap, amount in ((row["cap1"], row["amount1"]), (row["cap2"], row["amount2"])):
            if cap.strip() and amount.strip():
                system[cap.strip()] = _number(amount.strip())
        systems.append(system)
    if systems:
        payload["systems"] = systems
    return payload
