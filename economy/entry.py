"""The one entry check for orders (issue 11), used by the pages and the API alike.

Two layers, in this order:

1. ``shape_errors``: what can be stored and resolved at all. Every field an order may carry is
   checked against the column it ends in (length, characters, range), unknown fields are
   refused, lists are bounded. An order failing here is refused by both front doors and nothing
   is written.
2. The engine's own rules (``economy.engine.validate.check_order``): ownership, existence,
   fields that depend on each other. In the browser such an order is kept on the sheet marked
   with its error; the API refuses it (docs/decisions.md, "Invalid orders").

The field table is ``economy.orderforms.ORDER_TYPES`` (how each field is asked for) with the
engine's ``FIELDS`` (which are required); ``order_schemas`` turns the same table into the JSON
Schema the API documents, so the schema and the check cannot drift apart.

Ids the player chooses (``hub_setup``'s ``id``) are typed short, ``[a-z][a-z0-9-]{0,23}``, and
stored in the campaign as ``<power>-<typed id>`` (``stored_order``), so they are unique in the
campaign (contracts §1) and never meet another power's, nor a generated key (which contain no
``-``: ``agreement.7``, ``motion.12``) nor the engine's shipment ids (``r<round>-<power>-<n>``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from django.db.models import CharField, F, Model, Q, QuerySet, Value

from economy.engine.command_entry import CHECKED as CHAIN_CHECKED
from economy.engine.command_entry import Desk, entry_problem
from economy.engine.command_state import Officer as OfficerState
from economy.engine.navy import Navy
from economy.engine.state import CAPACITIES
from economy.engine.validate import COMMAND_FIELDS, FIELDS, PROMISES, Catalog, FleetCatalog
from economy.models import Order, RoundStatus
from economy.orderforms import ORDER_TYPES, Field
from economy.snapshot import load_bubbles, load_power_fleet
from powers.db import Param, Prepared
from powers.models import (
    Build,
    CommandBubble,
    Consumable,
    Craft,
    Design,
    FleetGroup,
    Power,
    StarSystem,
    Static,
    WorkKind,
)
from powers.models.command import Diplomat, Officer
from trade.models import Agreement, Motion, Shipment, TradeHub

MAX_AMOUNT = 10**12  # any amount of a resource (issue 11); bank and pools are 64-bit
INT32 = 2**31 - 1  # PositiveIntegerField columns: troops, PL in passenger space, shipments
SMALLINT = 2**15 - 1  # loyalty (PositiveSmallIntegerField)
KEY_LENGTH = 64  # every campaign-scoped ``key`` column
NAME_LENGTH = 60  # TradeHub.name
MAX_HEXES = 60  # nodes of one hub order
MAX_LINKS = 120  # links of one hub order
MAX_SHARES = 60  # rows of one manual distribution
MAX_POWERS = 40  # powers a group declares it engages
DESIGN_LIMIT = 10**6  # any figure of a design: mass, NPV, CF, Σ points, Σ of each capacity
MAX_IDS = 60  # craft named by one fleet order (builders, a group formed)
MAX_SYSTEMS = 60  # systems of one design
MAX_KINDS = 20  # consumable kinds in one loadout
KIND_LENGTH = 24  # powers.Consumable.kind
SYSTEM_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}")  # powers.DesignSystem.key
SYSTEM_NAME_LENGTH = 60  # powers.DesignSystem.name

TYPED_ID = re.compile(r"[a-z][a-z0-9-]{0,23}")
HEX = re.compile(r"(0[1-9]|[1-9][0-9])(0[1-9]|[1-9][0-9])")
SHIPMENT_ID = re.compile(r"r[0-9]+-.+-[0-9]+")  # contracts §1: the engine's shipment ids
CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# (minimum, maximum) of each integer field, from the column the value ends in. The minimum is
# the rules' (checked by the engine, so in the browser a 0 is kept marked); the maximum is the
# storage limit (refused everywhere).
INT_RANGES: dict[str, tuple[int, int]] = {
    "amount": (1, MAX_AMOUNT),
    "gal": (1, MAX_AMOUNT),
    "troops": (1, INT32),
    "pl": (1, INT32),
    "loyalty": (1, SMALLINT),
    "pct": (0, 100),
    # the fleet (issue 14): 32-bit columns of craft, groups and statics; a design's figures
    # within DESIGN_LIMIT, so the sums over a group's craft stay far inside their columns
    "ore": (0, INT32),
    "mass": (1, DESIGN_LIMIT),
    "npv": (1, DESIGN_LIMIT),
    "crew": (0, DESIGN_LIMIT),
    "count": (1, INT32),
    "cf": (1, INT32),
    "ep": (1, INT32),
}
# A shipment's amount is a 32-bit column (trade.Shipment.amount).
INT_RANGES_BY_TYPE: dict[tuple[str, str], tuple[int, int]] = {("ship", "amount"): (1, INT32)}

# Orders per sheet: enough for three orders per thing a power has, plus room for the rest.
BASE_ORDERS = 200
ORDERS_PER_ASSET = 3

TYPED_ID_HELP = "1-24 lower-case letters, digits or '-', starting with a letter"


def int_range(kind: str, name: str) -> tuple[int, int]:
    return INT_RANGES_BY_TYPE.get((kind, name)) or INT_RANGES.get(name, (1, MAX_AMOUNT))


def max_orders(assets: int) -> int:
    """Orders one sheet may hold: 200 + 3 per fleet group, static, held system and hub."""
    return BASE_ORDERS + ORDERS_PER_ASSET * assets


# --- layer 1: shape -------------------------------------------------------------------------


def _text(v: Any, limit: int = KEY_LENGTH) -> str | None:
    if not isinstance(v, str):  # a number where text belongs is the engine's to name
        return None if isinstance(v, int | float) or v is None else "expected text"
    if len(v) > limit:
        return f"at most {limit} characters"
    if CONTROL.search(v) or any(0xD800 <= ord(c) <= 0xDFFF for c in v):
        return "contains characters that are not allowed"
    return None


def _int(v: Any, low: int, high: int) -> str | None:
    if isinstance(v, str):  # the browser's typing, kept for the engine to name
        return _text(v, 40)
    if isinstance(v, bool) or not isinstance(v, int):
        return None if isinstance(v, float) or v is None else "expected a whole number"
    if not -high <= v <= high:
        return f"expected a whole number from {low} to {high:,}"
    return None


def _hex_list(v: Any, limit: int) -> str | None:
    if not isinstance(v, list):
        return "expected a list of hexes"
    if len(v) > limit:
        return f"at most {limit} hexes"
    return next((f"expected hexes XXYY, got {h!r}" for h in v if _bad_hex(h)), None)


def _bad_hex(v: Any) -> bool:
    return not (isinstance(v, str) and HEX.fullmatch(v))


def _field_shape(kind: str, spec: Field, v: Any, *, contract: bool = False) -> str | None:
    """The storage limits of one field (layer 1). ``None``: leave the rest to the engine. In
    the contract's form only what could not be stored counts: a wrong hex or a word where a
    boolean belongs is the engine's to reject by name (contracts §1)."""
    if contract and spec.kind in ("hex", "bool", "typed_id"):
        return None if isinstance(v, bool | int | float) or v is None else _text(v)
    if contract and spec.kind in ("hexes", "links"):
        limit = MAX_HEXES if spec.kind == "hexes" else MAX_LINKS
        if isinstance(v, list) and len(v) > limit:
            return f"at most {limit} {spec.kind}"
        return None if len(repr(v)) <= 40 * (limit + 1) else "too long"
    if spec.kind in ("ref", "enum"):
        return _text(v)
    if spec.kind == "text":
        return _text(v, spec.max_length or KEY_LENGTH)
    if spec.kind == "typed_id":
        if not isinstance(v, str) or not TYPED_ID.fullmatch(v):
            shown = repr(v) if isinstance(v, str) and len(v) <= KEY_LENGTH else "that"
            return f"{shown} is not a valid id: use {TYPED_ID_HELP}"
        return None
    if spec.kind == "int":
        return _int(v, *int_range(kind, spec.name))
    if spec.kind == "bool":
        return None if isinstance(v, bool) else "expected true or false"
    if spec.kind == "hex":
        if isinstance(v, list | dict):
            return "expected a hex XXYY"
        problem = _text(v, 8)
        if problem is None and isinstance(v, str) and _bad_hex(v):
            return f"expected a hex XXYY (two digits for the column, two for the row), got {v!r}"
        return problem
    if spec.kind == "hexes":
        return _hex_list(v, MAX_HEXES)
    if spec.kind == "powers":
        if not isinstance(v, list):
            return "expected a list of powers"
        if len(v) > MAX_POWERS:
            return f"at most {MAX_POWERS} powers"
        return next((p for p in map(_text, v) if p), None)
    if spec.kind == "links":
        if not isinstance(v, list):
            return "expected a list of links"
        if len(v) > MAX_LINKS:
            return f"at most {MAX_LINKS} links"
        for pair in v:
            if not isinstance(pair, list) or len(pair) != 2 or any(_bad_hex(h) for h in pair):
                return "expected links as pairs of hexes XXYY"
        return None
    if spec.kind == "shares":
        return _shares(v)
    if spec.kind == "ids":
        if not isinstance(v, list):
            return None if contract else "expected a list of ids"
        if len(v) > MAX_IDS:
            return f"at most {MAX_IDS} ids"
        return next((p for p in map(_text, v) if p), None)
    if spec.kind == "counts":
        return None if contract and not isinstance(v, dict) else _counts(v)
    if spec.kind == "systems":
        return _systems(v, contract=contract)
    raise ValueError(f"no storage limits known for field kind {spec.kind!r}")


def _counts(v: Any) -> str | None:
    """R-10.1a: ``{kind: n}``."""
    if not isinstance(v, dict):
        return "expected an object of consumable kind -> count"
    if len(v) > MAX_KINDS:
        return f"at most {MAX_KINDS} kinds"
    for kind, n in v.items():
        problem = _text(kind, KIND_LENGTH) or _int(n, 1, DESIGN_LIMIT)
        if problem:
            return f"{str(kind)[:KIND_LENGTH]}: {problem}"
    return None


SYSTEM_KEYS = ("id", "name", "points", "count", *CAPACITIES)


def _systems(v: Any, *, contract: bool = False) -> str | None:
    """R-10.0: a design's systems, each ``{id, name, points, count, <capacity>: n}``, as
    ``powers.DesignSystem`` stores them. In the contract's form, keys it does not know are
    ignored and a malformed entry is the engine's to name; only what cannot be stored counts."""
    if not isinstance(v, list):
        return None if contract else "expected a list of systems"
    if len(v) > MAX_SYSTEMS:
        return f"at most {MAX_SYSTEMS} systems"
    for i, system in enumerate(v, start=1):
        if not isinstance(system, dict):
            if contract:
                continue
            return f"system {i}: expected an object"
        unknown = sorted(str(k)[:40] for k in system if k not in SYSTEM_KEYS)
        if unknown and not contract:
            return f"system {i}: {unknown[0]!r} is not a capacity (use {', '.join(CAPACITIES)})"
        ident = system.get("id")
        if contract and not isinstance(ident, str):
            continue
        if not isinstance(ident, str) or not SYSTEM_ID.fullmatch(ident):
            return f"system {i}: its id is 1-32 letters, digits, '_', '.' or '-'"
        problem = _text(system.get("name", ident), SYSTEM_NAME_LENGTH)
        for key in ("points", "count", *CAPACITIES):
            if problem is None and key in system:
                problem = _int(system[key], 0, DESIGN_LIMIT)
        if problem:
            return f"system {i}: {problem}"
    return _design_totals(v)


def _design_totals(systems: list[Any]) -> str | None:
    """A design's points and each capacity, summed over its units, within ``DESIGN_LIMIT``."""
    totals: dict[str, int] = {}
    for system in systems:
        count = system.get("count", 1) if isinstance(system, dict) else 0
        if not isinstance(count, int) or isinstance(count, bool):
            continue
        for key in ("points", *CAPACITIES):
            per_unit = system.get(key, 0)
            if isinstance(per_unit, int) and not isinstance(per_unit, bool):
                totals[key] = totals.get(key, 0) + abs(per_unit * count)
    over = [key for key, total in totals.items() if total > DESIGN_LIMIT]
    if over:
        return f"{over[0].replace('_', ' ')}: at most {DESIGN_LIMIT:,} for the whole design"
    return None


def _shares(v: Any) -> str | None:
    if not isinstance(v, list):
        return "expected a list of shares"
    if len(v) > MAX_SHARES:
        return f"at most {MAX_SHARES} shares"
    for share in v:
        if not isinstance(share, dict) or set(share) - {"hex", "ore", "bio"}:
            return "expected shares of a hex, Ore and Bio"
        if _bad_hex(share.get("hex")):
            return "expected shares of a hex XXYY, Ore and Bio"
        for res in ("ore", "bio"):
            amount = share.get(res, 0)
            if isinstance(amount, bool) or not isinstance(amount, int):
                return f"expected whole numbers of {res}"
            if not 0 <= amount <= MAX_AMOUNT:
                return f"expected {res} from 0 to {MAX_AMOUNT:,}"
    return None


def shape_errors(payload: Any, *, contract: bool = False) -> list[str]:
    """Layer 1 of the entry check: ``field: problem`` for each field that cannot be stored or
    resolved as it is, and each field the order type does not have. Empty: the engine's rules
    come next. With ``contract`` the order is in the contract's own form (a case file, or an
    order as stored): its ids are keys already, and fields it does not know are ignored, as
    the adjudicator ignores them (contracts §1)."""
    if not isinstance(payload, dict):
        return [] if contract else ["order: expected an object"]
    kind = payload.get("type")
    spec = ORDER_TYPES.get(kind) if isinstance(kind, str) else None
    if spec is None or not isinstance(kind, str):
        if contract:  # the engine rejects it by name
            return []
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 40 else "that"
        return [f"type: {shown} is not an order type"]
    known = {f.name: f for f in spec.fields}
    errors = []
    if not contract:
        errors = [
            f"{name}: not a field of a {kind} order"
            for name in sorted(str(k)[:40] for k in payload)
            if name != "type" and name not in known
        ]
    for name, field in known.items():
        if name in payload:
            problem = _field_shape(kind, field, payload[name], contract=contract)
            if problem:
                errors.append(f"{name}: {problem}")
    return errors


# --- stored keys --------------------------------------------------------------------------


def stored_key(power_key: str, typed_id: str) -> str:
    """The campaign-wide key of an id a power typed (contracts §1: unique in the campaign)."""
    return f"{power_key}-{typed_id}"


def _typed_fields(payload: dict[str, Any]) -> list[Field]:
    return [f for f in ORDER_TYPES[payload["type"]].fields if f.kind == "typed_id"]


def key_errors(power_key: str, payload: dict[str, Any]) -> list[str]:
    """A typed id whose stored key would not fit its column or could meet an engine id."""
    for field in _typed_fields(payload):
        if isinstance(payload.get(field.name), str):
            key = stored_key(power_key, payload[field.name])
            if len(key) > KEY_LENGTH or SHIPMENT_ID.fullmatch(key):
                return [f"{field.name}: choose another id"]
    return []


def stored_order(power_key: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The order as it is stored and resolved (the contract's form): typed ids become stored
    keys. Fields the engine does not read (a hub's display name) stay; it ignores them."""
    out = dict(payload)
    for field in _typed_fields(payload):
        if isinstance(out.get(field.name), str):
            out[field.name] = stored_key(power_key, out[field.name])
    return out


def player_order(power_key: str, payload: Any) -> Any:
    """The reverse of ``stored_order``: what the player typed, for forms and the API."""
    if not isinstance(payload, dict) or payload.get("type") not in ORDER_TYPES:
        return payload
    out = dict(payload)
    prefix = stored_key(power_key, "")
    for field in _typed_fields(payload):
        value = out.get(field.name)
        if isinstance(value, str) and value.startswith(prefix):
            out[field.name] = value[len(prefix) :]
    return out


def resolvable(payloads: Iterable[Any]) -> tuple[list[tuple[int, Any]], list[tuple[int, str]]]:
    """A stored sheet for the engine: ``(index, order)`` for each order that can be resolved,
    ``(index, error)`` for any that cannot (stored before this check existed), which resolution
    lists as rejected rather than let it break the round."""
    accepted: list[tuple[int, Any]] = []
    refused: list[tuple[int, str]] = []
    for i, payload in enumerate(payloads):
        errors = shape_errors(payload, contract=True)
        if errors:
            refused.append((i, "; ".join(errors)))
        else:
            accepted.append((i, payload))
    return accepted, refused


# --- layer 2's catalogue: only what the order names (issue 13) ------------------------------
#
# The engine's entry rules look up each id an order names (owner, holder, taken or not) and,
# for hexes, the map's bounds: nothing else of the campaign. So the catalogue holds just those
# ids, read in one query over the campaign-scoped keys (an index lookup each), plus the map's
# bounds (one aggregate) when the order has hexes, plus the ids the power's sheet creates when
# a fleet order may name them (R-10.1a). The cost is the same at any campaign size and it reads
# the rows as they are now, so there is nothing to go stale.

HEX_KINDS = ("hex", "hexes", "links", "shares")  # fields checked against the map's bounds
# Fleet orders whose ids may be created by earlier orders of the same sheet (validate.py).
PROMISED_TO = ("build", "crew", "supply_ep", "form_group", *COMMAND_FIELDS)
FLEET_KINDS = ("design", "craft", *WorkKind.values, "consumable")  # in _catalog_sql
COMMAND_PARTS = ((Officer, "officer"), (CommandBubble, "bubble"), (Diplomat, "diplomat"))
COMMAND_KINDS = tuple(k for _, k in COMMAND_PARTS)
OWNED_KINDS = ("group", "static", "hub", "system", *FLEET_KINDS, *COMMAND_KINDS)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)


def named(stored: dict[str, Any]) -> list[str]:
    """Every string an order carries (ids, keys, kinds; hexes too, which match nothing), but
    its type: the only keys the engine's entry rules may look up."""
    return sorted({s for k, v in stored.items() if k != "type" for s in _strings(v)})


def catalog_for(power: Power, stored: dict[str, Any]) -> Catalog:
    """Who owns what of the ids ``stored`` names, for the engine's entry rules (the facts
    ``Catalog.of`` reads from the state, narrowed to them; its ids are every key of the
    campaign, a superset of the state's, so entry is never laxer than resolution)."""
    owned: dict[str, dict[str, Any]] = {k: {} for k in OWNED_KINDS}
    powers: set[str] = set()
    ids: set[str] = set()
    names = [n for n in named(stored) if len(n) <= KEY_LENGTH]
    if names:
        size = 1 << (len(names) - 1).bit_length()  # a few prepared queries, not one per length
        keys = {f"k{i}": names[min(i, len(names) - 1)] for i in range(size)}
        for kind, key, owner in _catalog(size).rows(campaign=power.campaign_id, **keys):
            if kind != "consumable":  # a catalogue kind is not an id
                ids.add(key)
            if kind == "power":
                powers.add(key)
            elif kind in owned:
                owned[kind][key] = owner
    spec = ORDER_TYPES.get(str(stored.get("type")))
    has_hexes = spec is not None and any(f.kind in HEX_KINDS for f in spec.fields)
    fleet = FleetCatalog(
        owned["design"],
        owned["craft"],
        {k: v for kind in WorkKind.values for k, v in owned[kind].items()},
        set(owned["consumable"]),
        {key: ("craft", owner) for key, owner in owned["build"].items()},
    )
    if stored.get("type") in PROMISED_TO:  # R-10.1a: it may name what the sheet creates
        fleet.promised.update(sheet_promises(power))
    return Catalog(
        powers,
        owned["group"],
        owned["static"],
        owned["hub"],
        owned["system"],
        ids,
        power.campaign.map_bounds() if has_hexes else None,
        fleet,
        {k: owned[k] for k in COMMAND_KINDS},  # Support §4.4, §5 (validate.command_owners)
    )


def sheet_promises(power: Power) -> dict[str, tuple[str, str]]:
    """What the power's sheet for the open round creates (R-10.1a): designs registered, craft
    built, groups formed, by id -> (what, power); as ``validate.FleetCatalog.of`` reads a
    sheet (one query)."""
    out: dict[str, tuple[str, str]] = {}
    for payload in Order.objects.filter(
        sheet__power=power,
        sheet__round__status=RoundStatus.OPEN,
        payload__type__in=list(PROMISES),
    ).values_list("payload", flat=True):
        if isinstance(payload.get("id"), str):
            out.setdefault(payload["id"], (PROMISES[payload["type"]], power.key))
    return out


@cache
def _catalog(size: int) -> Prepared[Any]:
    """The kind, key and owner's key of each of ``size`` named keys in the campaign: one UNION
    ALL, prepared once per size (compiling its 14 parts cost the ORM more than running them)."""

    def part(
        model: type[Model], kind: str, owner: str | None = None, key: str = "key"
    ) -> QuerySet[Any, Any]:
        rows = model._default_manager.filter(
            campaign_id=Param("campaign"),
            **{f"{key}__in": [Param(f"k{i}", CharField()) for i in range(size)]},
        )
        label = F("kind") if kind == "x.kind" else Value(kind)  # a build's: build or unbuild
        return rows.order_by().values_list(
            label, key, F(f"{owner}__key") if owner else Value(None, CharField())
        )

    def build() -> QuerySet[Any, Any]:
        first, *rest = [
            part(Power, "power"),
            part(FleetGroup, "group", "power"),
            part(Static, "static", "power"),
            part(TradeHub, "hub", "power"),
            part(StarSystem, "system", "holder"),
            *(part(m, "other") for m in (Shipment, Agreement, Motion)),
            *(part(m, k, "power") for m, k in COMMAND_PARTS),  # issue 16
            part(Design, "design", "power"),
            part(Craft, "craft", "power"),
            part(Build, "x.kind", "power"),
            part(Consumable, "consumable", key="kind"),
        ]
        return first.union(*rest, all=True)

    return Prepared(build)


# --- the chain of command at entry (R-2b, R-8.2, R-8.3; issue 16) ----------------------------


def command_errors(power: Power, stored: dict[str, Any]) -> list[str]:
    """The chain of command of an officer's assignment or a bubble's post as things stand,
    judged by the engine's own rules (``economy.engine.command_entry``); [] for other orders.
    Every power's bubbles are read to judge an overlap, and never shown: the refusal says only
    "overlaps another bubble" (R-8.3a)."""
    kind = stored.get("type")
    if kind not in CHAIN_CHECKED:
        return []
    problem = entry_problem(command_desk(power, str(kind)), power.key, str(kind), stored)
    return [problem] if problem else []


def command_desk(power: Power, kind: str) -> Desk:
    """The officers (the power's, those commissioned on its sheet, and every power's posted
    ones, whose grades are their posts' radii), every bubble with its posts, and for an
    assignment the power's fleet and the campaign's group limits."""
    cid = power.campaign_id
    officers = {
        o.key: OfficerState(
            o.key,
            o.power.key,
            o.name,
            o.rank,
            o.grade,
            o.craft.key if o.craft else None,
            o.group.key if o.group else None,
        )
        for o in Officer.objects.filter(campaign_id=cid)
        .filter(Q(power=power) | Q(post__isnull=False))
        .select_related("power", "craft", "group")
    }
    for payload in Order.objects.filter(
        sheet__power=power, sheet__round__status=RoundStatus.OPEN, payload__type="commission"
    ).values_list("payload", flat=True):
        rank, grade, key = payload.get("rank"), payload.get("grade"), payload.get("id")
        if isinstance(key, str) and isinstance(rank, int) and isinstance(grade, int):
            officers.setdefault(key, OfficerState(key, power.key, key, rank, grade))
    desk = Desk(officers, load_bubbles(cid) if kind != "assign_officer" else [])
    if kind in ("assign_officer", "promote", "demote"):
        state = load_power_fleet(power)
        desk.groups = {g.id: g for g in state.groups}
        desk.navy = Navy(state, desk.groups, {s.id: s for s in state.statics})
        desk.limits = state.fleet.group_limits
    return desk


# --- the API's schema ---------------------------------------------------------------------


def _field_schema(kind: str, spec: Field) -> dict[str, Any]:
    hex_ = {"type": "string", "pattern": f"^{HEX.pattern}$"}
    if spec.kind == "ref":
        return {
            "type": "string",
            "minLength": 1,
            "maxLength": KEY_LENGTH,
            "description": spec.label,
        }
    if spec.kind == "enum":
        return {"type": "string", "enum": list(spec.options)}
    if spec.kind == "typed_id":
        return {"type": "string", "pattern": f"^{TYPED_ID.pattern}$", "description": spec.help}
    if spec.kind == "text":
        limit = spec.max_length or KEY_LENGTH
        return {"type": "string", "pattern": f"^[^\\u0000-\\u001f\\u007f]{{0,{limit}}}$"}
    if spec.kind == "int":
        low, high = int_range(kind, spec.name)
        return {"type": "integer", "minimum": low, "maximum": high}
    if spec.kind == "bool":
        return {"type": "boolean"}
    if spec.kind == "hex":
        return hex_
    if spec.kind == "hexes":
        return {"type": "array", "items": hex_, "maxItems": MAX_HEXES}
    if spec.kind == "powers":
        key = {"type": "string", "minLength": 1, "maxLength": KEY_LENGTH}
        return {"type": "array", "items": key, "maxItems": MAX_POWERS}
    if spec.kind == "links":
        pair = {"type": "array", "items": hex_, "minItems": 2, "maxItems": 2}
        return {"type": "array", "items": pair, "maxItems": MAX_LINKS}
    if spec.kind == "ids":
        key = {"type": "string", "minLength": 1, "maxLength": KEY_LENGTH}
        return {"type": "array", "items": key, "minItems": 1, "maxItems": MAX_IDS}
    if spec.kind == "counts":  # kinds of at most KIND_LENGTH characters (OpenAPI 3.0 cannot say)
        return {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": DESIGN_LIMIT},
            "maxProperties": MAX_KINDS,
        }
    if spec.kind == "systems":
        units = {"type": "integer", "minimum": 0, "maximum": DESIGN_LIMIT}
        system = {
            "type": "object",
            "properties": {
                "id": {"type": "string", "pattern": f"^{SYSTEM_ID.pattern}$"},
                "name": {
                    "type": "string",
                    "pattern": f"^[^\\u0000-\\u001f\\u007f]{{1,{SYSTEM_NAME_LENGTH}}}$",
                },
                "points": units,
                "count": {**units, "minimum": 1},
                **{kind: units for kind in CAPACITIES},
            },
            "required": ["id", "points"],
            "additionalProperties": False,
        }
        return {"type": "array", "items": system, "maxItems": MAX_SYSTEMS}
    if spec.kind == "shares":
        amount = {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT}
        share = {
            "type": "object",
            "properties": {"hex": hex_, "ore": amount, "bio": amount},
            "required": ["hex"],
            "additionalProperties": False,
        }
        return {"type": "array", "items": share, "maxItems": MAX_SHARES}
    raise ValueError(f"no schema known for field kind {spec.kind!r}")


def order_schemas() -> dict[str, dict[str, Any]]:
    """One JSON Schema per order type (the API's ``oneOf``, discriminated by ``type``)."""
    out: dict[str, dict[str, Any]] = {}
    for kind, spec in ORDER_TYPES.items():
        required = FIELDS.get(kind, {})
        out[kind] = {
            "type": "object",
            "title": spec.label,
            "description": f"{spec.label} ({spec.cite}).",
            "properties": {
                "type": {"type": "string", "enum": [kind]},
                **{f.name: _field_schema(kind, f) for f in spec.fields},
            },
            "required": ["type", *(f.name for f in spec.fields if required.get(f.name, (0, 0))[1])],
            "additionalProperties": False,
        }
    return out
