"""The one entry check for orders (issues 11, 28), used by the pages, the API and
``load_case`` alike: ``check(power, payload) -> Entry``, then ``admit`` under the round lock.

Two layers, in this order:

1. The shape (``shape_errors``): what can be stored and resolved at all. Every field an order
   may carry is checked by its kind (``economy.engine.orders.kinds``) against the column it
   ends in (length, characters, range), unknown fields are refused, lists are bounded. An
   order failing here is refused by both front doors and nothing is written.
2. The engine's own rules (``economy.engine.validate.check_order``): ownership, existence,
   fields that depend on each other, on a catalogue of only what the order names
   (``economy.catalogue``). In the browser such an order is kept on the sheet marked with its
   error; the API refuses it (docs/decisions.md, "Invalid orders").

Both come from the order table (``economy.engine.orders.SPECS``), as does the JSON Schema the
API documents, so the schema and the check cannot drift apart. With them come the warnings
(issue 30, ``validate.draw_warnings``): an amount beyond what the power holds now where its
field draws (``Field.draws``), read in the same catalogue. A warning never refuses an order,
on the API either (goods may arrive in the round); it is stored as the order's mark, like a
rule error (docs/decisions/entry-warnings.md).

Ids the player chooses (``hub_setup``'s ``id``) are typed short, ``[a-z][a-z0-9-]{0,23}``, and
stored in the campaign as ``<power>-<typed id>`` (``stored_order``), so they are unique in the
campaign (contracts §1) and never meet another power's, nor a generated key (which contain no
``-``: ``agreement.7``, ``motion.12``) nor the engine's shipment ids (``r<round>-<power>-<n>``).
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from economy import catalogue
from economy.engine.orders import DRAWING, NAMES_FLEET, SPECS
from economy.engine.orders.kinds import KEY_LENGTH, TYPED_ID, Field, NewId
from economy.engine.validate import Catalog, after_pacts, check_order, draw_warnings
from economy.snapshot import pact_fleet
from ftcamp.errors import Refused
from powers.models import FleetGroup, Power, StarSystem, Static
from trade.models import TradeHub

SHIPMENT_ID = re.compile(r"r[0-9]+-.+-[0-9]+")  # contracts §1: the engine's shipment ids

# Orders per sheet: enough for three orders per thing a power has, plus room for the rest.
BASE_ORDERS = 200
ORDERS_PER_ASSET = 3


class OrderInvalid(Refused):
    """The entry check refused an order; nothing was written: HTTP 400. ``errors`` are
    ``field: problem`` strings."""


@dataclass(frozen=True)
class Entry:
    """An order through the entry check, before any lock (issue 13): as it will be stored, its
    rule errors, or why it cannot be stored at all (raised only under the round lock, so a
    closed round is named first)."""

    stored: dict[str, Any]
    errors: list[str]
    refused: OrderInvalid | None = None
    # issue 30: amounts beyond what the power holds; they never refuse the order
    warnings: list[str] = dataclasses.field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Every problem, as the as-you-type validators show them, warnings last."""
        return self.refused.errors if self.refused is not None else self.errors + self.warnings


def check(
    power: Power, payload: Any, *, contract: bool = False, position: int | None = None
) -> Entry:
    """The one entry check for both front doors, reading only what the order names: the
    storage limits, then the engine's rules. ``contract``: an order from a case file, whose
    ids are keys already (contracts §1). ``position``: the order it replaces on the sheet,
    whose amounts its warnings do not add (issue 30)."""
    if contract:
        errors = shape_errors(payload, contract=True)
        stored: dict[str, Any] = payload
    else:
        payload = with_default_ids(power, payload)
        errors = shape_errors(payload) or key_errors(power.key, payload)
        stored = {} if errors else stored_order(power.key, payload)
    if errors:
        return Entry({}, [], OrderInvalid(errors))
    catalog = catalogue.catalog_for(power, stored)
    return Entry(
        stored,
        _rule_errors(power, stored, catalog),
        warnings=_warnings(power, stored, catalog, position),
    )


def _warnings(
    power: Power, stored: dict[str, Any], catalog: Catalog, position: int | None
) -> list[str]:
    """Amounts beyond what the power holds, with what the rest of its sheet takes from the
    same places (issue 30; one query, for an order that draws only)."""
    if stored.get("type") not in DRAWING:
        return []
    return draw_warnings(catalog, stored, catalogue.sheet_draws(power, position))


def _rule_errors(power: Power, stored: dict[str, Any], catalog: Catalog) -> list[str]:
    """Layer 2: the engine's entry rules, on a catalogue of only what the order names, read
    without any lock, with what battle records, loans, transfers and captures change of who
    owns what (R-10.5, R-10.6; a few rows)."""
    if str(stored.get("type")) in NAMES_FLEET:
        after_pacts(catalog, pact_fleet(power.campaign_id))
    return check_order(catalog, power.key, stored) or catalogue.command_errors(power, stored)


def admit(
    power: Power, entry: Entry, *, strict: bool, on_sheet: int | None = None
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Under the round lock: ``OrderInvalid`` for an order that cannot be stored, for a new one
    on a sheet already holding ``on_sheet`` orders when that is the cap, and for rule errors
    when ``strict`` (the API); else the order to store, its rule errors and its warnings
    (issue 30), which never refuse it, on the API either (goods may arrive in the round)."""
    if entry.refused is not None:
        raise entry.refused
    if on_sheet is not None and on_sheet >= BASE_ORDERS:
        limit = max_orders(_assets(power))
        if on_sheet >= limit:
            raise OrderInvalid(
                [
                    f"order: a sheet holds at most {limit} orders (200, and 3 more for each "
                    "fleet group, static, system and hub you have)"
                ]
            )
    if strict and entry.errors:
        raise OrderInvalid(entry.errors)
    return entry.stored, entry.errors, entry.warnings


def max_orders(assets: int) -> int:
    """Orders one sheet may hold: 200 + 3 per fleet group, static, held system and hub."""
    return BASE_ORDERS + ORDERS_PER_ASSET * assets


def _assets(power: Power) -> int:
    """What the sheet cap scales with: the power's groups, statics, held systems and hubs."""
    return (
        FleetGroup.objects.filter(power=power).count()
        + Static.objects.filter(power=power).count()
        + StarSystem.objects.filter(holder=power).count()
        + TradeHub.objects.filter(power=power).count()
    )


# --- layer 1: shape -------------------------------------------------------------------------


def shape_errors(payload: Any, *, contract: bool = False) -> list[str]:
    """Layer 1 of the entry check: ``field: problem`` for each field that cannot be stored or
    resolved as it is, and each field the order type does not have. Empty: the engine's rules
    come next. With ``contract`` the order is in the contract's own form (a case file, or an
    order as stored): its ids are keys already, and fields it does not know are ignored, as
    the adjudicator ignores them (contracts §1)."""
    if not isinstance(payload, dict):
        return [] if contract else ["order: expected an object"]
    kind = payload.get("type")
    spec = SPECS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        if contract:  # the engine rejects it by name
            return []
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 40 else "that"
        return [f"type: {shown} is not an order type"]
    errors = []
    if not contract:
        known = {f.name for f in spec.fields}
        errors = [
            f"{name}: not a field of a {kind} order"
            for name in sorted(str(k)[:40] for k in payload)
            if name != "type" and name not in known
        ]
    for field in spec.fields:
        if field.name in payload:
            problem = field.kind.shape(payload[field.name], field, contract=contract)
            if problem:
                errors.append(f"{field.name}: {problem}")
    return errors


# --- stored keys --------------------------------------------------------------------------


def stored_key(power_key: str, typed_id: str) -> str:
    """The campaign-wide key of an id a power typed (contracts §1: unique in the campaign)."""
    return f"{power_key}-{typed_id}"


def _typed_fields(payload: dict[str, Any]) -> list[Field]:
    return [f for f in SPECS[payload["type"]].fields if isinstance(f.kind, NewId)]


def key_errors(power_key: str, payload: dict[str, Any]) -> list[str]:
    """A typed id whose stored key would not fit its column or could meet an engine id."""
    for field in _typed_fields(payload):
        if isinstance(payload.get(field.name), str):
            key = stored_key(power_key, payload[field.name])
            if len(key) > KEY_LENGTH or SHIPMENT_ID.fullmatch(key):
                return [f"{field.name}: choose another id"]
    return []


# --- short names (issue 30) ----------------------------------------------------------------

NOT_SHORT = re.compile(r"[^a-z0-9]+")
TRIES = 16  # candidates checked in one query
NUMBERED = 999  # a default's number goes no higher (a stem of 20 letters and "-999" fit)


def short_name(text: str) -> str:
    """A name as a player writes it ("Terra Hub", "Frégate 2") as a short name ("terra-hub",
    "fregate-2"); not always a valid one (it may start with a digit)."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return NOT_SHORT.sub("-", plain.lower()).strip("-")


def with_default_ids(power: Power, payload: Any) -> Any:
    """Issue 30: a new thing's short name, left out or blank, chosen readable and free (from
    the name typed for it, the design a build builds, else what it is: ``terra-hub``,
    ``frigate-2``, ``group-1``); one typed as a name ("Terra Hub") written short. Nothing
    else of the order changes; what still does not fit is left for the shape check to name."""
    if not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
        return payload
    if payload["type"] not in SPECS:
        return payload
    out = dict(payload)
    for field in _typed_fields(out):
        value = out.get(field.name)
        if isinstance(value, str) and value.strip():
            short = short_name(value)
            if not TYPED_ID.fullmatch(value) and TYPED_ID.fullmatch(short):
                out[field.name] = short
        elif value is None or isinstance(value, str):
            out[field.name] = _free(power, *_stem(power.key, field, out))
    return out


def _stem(power_key: str, field: Field, payload: dict[str, Any]) -> tuple[str, bool]:
    """What a default is made from, and whether it is a name (tried bare first) rather than a
    kind of thing (always numbered)."""
    assert isinstance(field.kind, NewId)
    named = payload.get("name")
    if isinstance(named, str) and TYPED_ID.fullmatch(short_name(named)):
        return short_name(named), True
    design = payload.get("design")
    if field.kind.word == "craft" and isinstance(design, str):
        stem = short_name(design.removeprefix(stored_key(power_key, "")))
        if TYPED_ID.fullmatch(stem):
            return stem, False
    return field.kind.word, False


def _free(power: Power, stem: str, bare: bool) -> str:
    """The first of ``stem``, ``stem-1``, ``stem-2``... (``stem`` only when ``bare``) that no
    thing of the campaign and no order on the sheet has, a query per 16 tried."""
    room = min(24, KEY_LENGTH - len(stored_key(power.key, ""))) - len(f"-{NUMBERED}")
    stem = stem[:room].rstrip("-")
    names = ([stem] if bare else []) + [f"{stem}-{n}" for n in range(1, NUMBERED + 1)]
    for start in range(0, len(names), TRIES):
        batch = names[start : start + TRIES]
        used = catalogue.taken(power, [stored_key(power.key, n) for n in batch])
        free = [n for n in batch if stored_key(power.key, n) not in used]
        if free:
            return free[0]
    return stem  # all taken: the engine's rule names the clash


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
    if not isinstance(payload, dict) or not isinstance(payload.get("type"), str):
        return payload
    if payload["type"] not in SPECS:
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
