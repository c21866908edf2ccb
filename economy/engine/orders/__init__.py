"""Every order type in one table (issue 28): ``SPECS`` by type, each one declaration
(``spec.OrderSpec``) in the module of its part of the rules. ``docs/engine.md`` walks through
adding one."""

from __future__ import annotations

from typing import Any

from . import command, economic, fleet
from .kinds import Field
from .spec import OrderSpec

SPECS: dict[str, OrderSpec] = {s.type: s for s in (*economic.SPECS, *fleet.SPECS, *command.SPECS)}

#: what a new id of each type names, for orders later on the same sheet (R-10.1a)
PROMISES: dict[str, str] = {t: s.creates for t, s in SPECS.items() if s.creates}

#: the types that name a design, craft, work, group or static: who owns those changes with
#: battle records, loans and transfers (``validate.after_pacts``); no other order reads them
NAMES_FLEET = frozenset(t for t, s in SPECS.items() if any(f.kind.fleet for f in s.fields))

#: the types that may name what the power's sheet creates this round (R-10.1a)
NAMES_PROMISED = frozenset(t for t, s in SPECS.items() if any(f.kind.promised for f in s.fields))
# the types with an amount that draws on a stockpile (issue 30: warned of at entry)
DRAWING = frozenset(t for t, s in SPECS.items() if any(f.draws for f in s.fields))


def order_schemas() -> dict[str, dict[str, Any]]:
    """One JSON Schema per order type (the API's ``oneOf``, discriminated by ``type``)."""
    return {t: s.schema() for t, s in SPECS.items()}


__all__ = [
    "DRAWING",
    "NAMES_FLEET",
    "NAMES_PROMISED",
    "PROMISES",
    "SPECS",
    "Field",
    "OrderSpec",
    "order_schemas",
]
