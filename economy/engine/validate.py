"""Order entry validation (contracts §1 order table): field types, ids and ownership.

``check_order`` returns a list of errors, each naming the field; the web forms and the API reuse
it. Checks that depend on how the round unfolds (holdings, loyalty after the Resource Phase, hubs
set up earlier in the same round) are made again by the step that applies the order (R-0.2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from .catalog import BANK
from .catalog import Catalog as Catalog
from .catalog import Holdings as Holdings
from .catalog import after_pacts as after_pacts
from .catalog import state_ids as state_ids
from .orders import NAMES_FLEET as NAMES_FLEET
from .orders import PROMISES, SPECS
from .orders.kinds import BANKED, Draw, NewId
from .orders.kinds import hex_problem as hex_problem
from .state import Order, State


def promised_by(sheets: Iterable[tuple[str, int, Any]]) -> dict[str, tuple[str, str]]:
    """What the sheets (power, index, raw order) create this round, id -> (what, power): a
    design registered, a craft built, a group formed... (R-10.1a); the first claim stands."""
    out: dict[str, tuple[str, str]] = {}
    for power, _, raw in sheets:
        kind = PROMISES.get(str(raw.get("type"))) if isinstance(raw, dict) else None
        if kind and isinstance(raw.get("id"), str):
            out.setdefault(raw["id"], (kind, power))
    return out


def catalog_of(state: State, sheets: Iterable[tuple[str, int, Any]] = ()) -> Catalog:
    """The catalogue of a whole state, with the ids ``sheets`` create (R-10.1a)."""
    return Catalog.of(state, promised_by(sheets))


def check_order(catalog: Catalog, power: str, raw: Any) -> list[str]:
    """Entry errors of one order of ``power``; an empty list means it may go to resolution."""
    if not isinstance(raw, dict):
        return ["order: expected an object"]
    kind = raw.get("type")
    spec = SPECS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        return [f"type: unknown order type {kind!r}"]
    errors = []
    for f in spec.fields:
        if not f.engine:
            continue
        if f.name not in raw:
            if f.required:
                errors.append(f"{f.name}: missing")
            continue
        problem = f.kind.rule(catalog, power, raw[f.name])
        if problem:
            errors.append(f"{f.name}: {problem}")
    if not errors and spec.checks is not None:
        errors.extend(spec.checks(catalog, power, raw))
    return errors


# how the warnings name what is drawn (issue 30); a resource missing here reads as it is
UNITS = {"gal": "Gal", "tp": "TP", "ore": "Ore", "bio": "Bio", "pl": "PL", "ep": "EP"}


def drawn(raw: Any) -> Iterator[tuple[str, Draw, str, str, int]]:
    """What each amount of an order takes where its field draws (``Field.draws``): (field,
    draw, place, resource, amount), the place ``bank`` for Gal and TP (R-1.1)."""
    spec = SPECS.get(str(raw.get("type"))) if isinstance(raw, dict) else None
    if spec is None:
        return
    for f in spec.fields:
        amount, draw = raw.get(f.name), f.draws
        if draw is None or isinstance(amount, bool) or not isinstance(amount, int):
            continue
        res = draw.resource or raw.get(draw.of)
        if not isinstance(res, str):
            continue
        place = BANK if res in BANKED else raw.get(draw.place)
        if isinstance(place, list) and place:  # builders pooling share one hex (R-10.1a)
            place = place[0]
        if isinstance(place, str):
            yield f.name, draw, place, res, amount


def draw_warnings(catalog: Catalog, raw: Any, others: Iterable[Any] = ()) -> list[str]:
    """Issue 30: ``field: ...`` for each amount of an order beyond what its power holds now
    where the field draws (``Field.draws``), by the catalogue's ``holdings`` of that power,
    with what the power's ``others`` orders (the rest of its sheet) take from the same place
    added. Warnings, not errors: goods may arrive during the round, and the step that spends
    them judges (R-0.2). Only the power's own places are in the holdings, so a warning never
    tells of another power's stock."""
    held = catalog.holdings
    before: Counter[tuple[str, str]] = Counter()
    for other in others:
        for _, _, place, res, amount in drawn(other):
            before[(place, res)] += max(amount, 0)
    out = []
    for name, draw, place, res, amount in drawn(raw):
        have = (held.reach if draw.reach and place != BANK else held.stock).get((place, res))
        taken = before[(place, res)]
        if have is None or amount + taken <= have:  # not the power's, or enough
            continue
        unit = UNITS.get(res, res)
        said = (
            f"{amount:,} {draw.unit} need {amount:,} {unit},"
            if draw.unit
            else f"{amount:,} {unit} is"
        )
        if taken:
            said = f"with the {taken:,} {unit} your other orders take, {said}"
        if place == BANK:
            where = "your treasury holds"
        elif draw.reach:
            where = f"that can reach the hex of {held.where.get(place, place)}"
        else:
            where = f"{held.where.get(place, place)} holds"
        out.append(f"{name}: {said} more than the {have:,} {unit} {where}")
    return out


def created_id(raw: Any) -> str | None:
    """The new id an order creates (its ``id`` field of the new-id kind), or ``None``."""
    if not isinstance(raw, dict):
        return None
    spec = SPECS.get(str(raw.get("type")))
    field = spec.field("id") if spec is not None else None
    new = raw.get("id")
    if field is None or not isinstance(field.kind, NewId) or not isinstance(new, str):
        return None
    return new


def check_orders(
    state: State, sheets: Iterable[tuple[str, int, Any]]
) -> tuple[list[Order], list[tuple[str, int, str]]]:
    """Split (power, index, raw order) into accepted ``Order``s and (power, index, error).

    Contracts §1: ids are unique across the state, so two orders of a round creating the same
    id (a hub and a design, say) cannot both stand: the first by (power, index) keeps it."""
    sheets = list(sheets)
    catalog = catalog_of(state, sheets)
    checked = [
        (power, index, raw, check_order(catalog, power, raw)) for power, index, raw in sheets
    ]
    claims: dict[str, tuple[str, int]] = {}
    for power, index, raw, errors in sorted(checked, key=lambda c: (c[0], c[1])):
        new = created_id(raw)
        if new is not None and not errors:
            claims.setdefault(new, (power, index))
    accepted: list[Order] = []
    refused: list[tuple[str, int, str]] = []
    for power, index, raw, errors in checked:
        new = created_id(raw)
        if not errors and new is not None and claims[new] != (power, index):
            errors = [f"id: id {new!r} is already used"]
        if errors:
            refused.append((power, index, "; ".join(errors)))
            continue
        fields = {k: v for k, v in raw.items() if k != "type"}
        accepted.append(Order(power, index, raw["type"], fields))
    return accepted, refused
