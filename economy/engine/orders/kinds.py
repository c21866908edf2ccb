"""The kinds of field an order may have (issue 28): each knows how to read a form's text, check
its shape (what can be stored and resolved at all), give its JSON Schema, read as words and
show as text again, what it refers to (the choices a page offers and the names table its ids
are read in), and the engine's entry rule for it (contracts §1 order table).

A kind is declared once here and used by every order field of that kind
(``economy.engine.orders``); the shell maps each kind's ``widget`` to a form input once.

The shape limits are the storage's: the columns an order's values end in (issue 11).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..codec import CaseError, is_hex, parse_design_systems
from ..command_state import MAX_GRADE
from ..hexgrid import on_map
from ..rules import hex_of
from ..state import CAPACITIES

if TYPE_CHECKING:
    from ..catalog import Catalog

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
TYPED_ID_HELP = "1-24 lower-case letters, digits or '-', starting with a letter"
# issue 30: a new thing's short name may be left blank (the shell chooses a readable one)
NEW_ID_HELP = "optional: left blank, one is chosen from what it is (e.g. frigate-2)"
HEX = re.compile(r"(0[1-9]|[1-9][0-9])(0[1-9]|[1-9][0-9])")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_INT = re.compile(r"^-?\d+$")

# (minimum, maximum) of an integer field by its name, from the column the value ends in. The
# minimum is the rules' (checked by the engine, so in the browser a 0 is kept marked); the
# maximum is the storage limit (refused everywhere).
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

Rule = Callable[["Catalog", str, Any], "str | None"]  # (catalog, power, value) -> problem


class Words(Protocol):
    """How the shell reads ids and choices as words (``economy.events.Names`` and friends)."""

    def name(self, table: str, value: Any) -> Any: ...

    def choice(self, wording: str, value: str) -> str: ...


# --- the engine's entry rules (contracts §1 order table) -----------------------------------


def positive(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        return f"expected a positive integer, got {v!r}"
    return None


def at_least_zero(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        return f"expected an integer >= 0, got {v!r}"
    return None


def percent(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
        return f"expected an integer 0..100, got {v!r}"
    return None


def grade(_: Catalog, __: str, v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_GRADE:
        return f"expected an integer 1..{MAX_GRADE} (Support §5.1.3), got {v!r}"
    return None


def hex_problem(value: Any, bounds: tuple[int, int] | None) -> str | None:
    """R-0.5, contracts §1 ``map.size``: why ``value`` is not a hex on the map, or ``None``.

    ``bounds`` is (cols, rows) as ``rules.map_bounds`` gives it; the shell may call this for
    any hex a player types."""
    if not is_hex(value):
        return f"expected hex XXYY, got {value!r}"
    if bounds is not None and not on_map(hex_of(value), bounds):
        return f"hex {value} is outside the map ({bounds[0]} × {bounds[1]})"
    return None


def _first_off_map(cat: Catalog, hexes: Iterable[str]) -> str | None:
    return next((p for hx in hexes if (p := hex_problem(hx, cat.bounds))), None)


def owned(kind: str, table: str) -> Rule:
    # Another power's object and no object at all get the same answer: a refusal must not
    # tell a player what others hold (issue 11).
    def check(cat: Catalog, power: str, v: Any) -> str | None:
        owners: dict[str, Any] = getattr(cat, table)
        if not isinstance(v, str) or owners.get(v, power + "?") != power:
            return f"no such {kind} of yours: {v!r}"
        return None

    return check


def any_of(*checks: Rule, kinds: str) -> Rule:
    def check(cat: Catalog, power: str, v: Any) -> str | None:
        if any(c(cat, power, v) is None for c in checks):
            return None
        return f"no such {kinds} of yours: {v!r}"

    return check


def any_system(cat: Catalog, _: str, v: Any) -> str | None:
    return None if isinstance(v, str) and v in cat.system_holder else f"unknown system {v!r}"


def any_power(cat: Catalog, _: str, v: Any) -> str | None:
    return None if isinstance(v, str) and v in cat.powers else f"unknown power {v!r}"


def other_power(cat: Catalog, power: str, v: Any) -> str | None:
    if not isinstance(v, str) or v not in cat.powers:
        return f"unknown power {v!r}"
    return "cannot transfer to yourself" if v == power else None


def mission_target(cat: Catalog, power: str, v: Any) -> str | None:
    if not isinstance(v, str) or v not in cat.powers:
        return f"unknown power {v!r}"
    return "a diplomat's mission targets another power" if v == power else None


def consumable(cat: Catalog, _: str, v: Any) -> str | None:
    known = isinstance(v, str) and v in cat.fleet.kinds
    return None if known else f"no consumable {v!r} in the catalogue (R-10.1a)"


def fleet_id(
    kind: str,
    *tables: Callable[[Catalog], dict[str, str]],
    promise: str = "",
    given: bool = False,
) -> Rule:
    """An id of ``kind`` the power owns; with ``promise``, also one its sheet (or its work in
    progress) creates this round (R-10.1a); with ``given``, also a carrier or craft a transfer
    gives it (Support 1.6.2: §1.6 comes before the order's step)."""

    def check(cat: Catalog, power: str, v: Any) -> str | None:
        owner = None
        if isinstance(v, str):
            owner = next((t(cat)[v] for t in tables if v in t(cat)), None)
            made = cat.fleet.promised.get(v)
            if owner is None and made is not None and made[0] == promise:
                owner = made[1]
            if given and v in cat.fleet.given:
                owner = cat.fleet.given[v]
        # Another power's and none at all get the same answer (issue 11: no leak).
        return None if owner == power else f"no such {kind} of yours: {v!r}"

    return check


def command_id(kind: str) -> Rule:
    """Support §4.4, §5: an officer, bubble or diplomat of the power's, or one its sheet
    creates this round."""
    return fleet_id(kind, lambda cat: cat.command.get(kind, {}), promise=kind)


def _craft_owner(cat: Catalog) -> dict[str, str]:
    return cat.fleet.craft_owner


def _group_owner(cat: Catalog) -> dict[str, str]:
    return cat.group_owner


def _static_owner(cat: Catalog) -> dict[str, str]:
    return cat.static_owner


# --- reading form text --------------------------------------------------------------------


def number(text: str) -> int | str:
    """A whole number typed, or the text as typed for the engine to name."""
    return int(text) if _INT.match(text) else text


def _split(text: str) -> list[str]:
    return [v for v in re.split(r"[\s,;]+", text) if v]


def parse_counts(text: str) -> dict[str, Any]:
    """``fighter 6, missile 2`` -> ``{"fighter": 6, "missile": 2}`` (R-10.1a)."""
    out: dict[str, Any] = {}
    for part in re.split(r"[,;]+", text):
        words = part.split()
        if words:
            out[words[0]] = number(words[1]) if len(words) > 1 else ""
    return out


_SYSTEM = re.compile(r"^(?P<name>.+?)\s*:\s*(?P<points>[^\s,]+)(?:\s*[x×]\s*(?P<count>[^\s,]+))?")


def parse_system(line: str, index: int) -> dict[str, Any]:
    """R-10.0: ``Construction yard: 40 x1, construction 30`` -> a design system. Its id is its
    place in the list (``s1``, ``s2``, …); what does not parse is passed on for the engine to
    name."""
    head, *capacities = line.split(",")
    system: dict[str, Any] = {"id": f"s{index + 1}"}
    match = _SYSTEM.match(head.strip())
    if match is None:
        return {**system, "name": head.strip(), "points": head.strip()}
    system.update(name=match["name"], points=number(match["points"]))
    if match["count"] is not None:
        system["count"] = number(match["count"])
    for part in capacities:
        *words, amount = part.split() or [""]
        key = "_".join(words).lower()
        system[key or part.strip()] = number(amount)
    return system


def system_text(system: Any) -> str:
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


# --- storage limits (layer 1 of the entry check) ------------------------------------------


def text_problem(v: Any, limit: int = KEY_LENGTH) -> str | None:
    if not isinstance(v, str):  # a number where text belongs is the engine's to name
        return None if isinstance(v, int | float) or v is None else "expected text"
    if len(v) > limit:
        return f"at most {limit} characters"
    if CONTROL.search(v) or any(0xD800 <= ord(c) <= 0xDFFF for c in v):
        return "contains characters that are not allowed"
    return None


def int_problem(v: Any, low: int, high: int) -> str | None:
    if isinstance(v, str):  # the browser's typing, kept for the engine to name
        return text_problem(v, 40)
    if isinstance(v, bool) or not isinstance(v, int):
        return None if isinstance(v, float) or v is None else "expected a whole number"
    if not -high <= v <= high:
        return f"expected a whole number from {low} to {high:,}"
    return None


def _bad_hex(v: Any) -> bool:
    return not (isinstance(v, str) and HEX.fullmatch(v))


def _key_list(v: Any, limit: int, what: str) -> str | None:
    if len(v) > limit:
        return f"at most {limit} {what}"
    return next((p for p in map(text_problem, v) if p), None)


_HEX_SCHEMA: dict[str, Any] = {"type": "string", "pattern": f"^{HEX.pattern}$"}
_KEY_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": KEY_LENGTH}


# --- the kinds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """A kind of field. ``widget`` is what the shell maps to a form input; ``source`` where a
    page's choices come from; ``table`` the names table its ids are read in."""

    rule: Rule
    widget: str = ""
    source: str = ""
    table: str = ""
    fleet: bool = False  # names a design, craft, work, group or static (validate.after_pacts)
    promised: bool = False  # may name what the power's sheet creates this round (R-10.1a)
    on_map: bool = False  # its hexes are checked against the map's bounds
    options: tuple[str, ...] = ()
    noun: str = ""  # what it names, in the plural: "you have no <noun>" when there is none
    defaulted: bool = False  # the shell fills it when left out, so the API need not send it

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        """The storage limits of one value (layer 1). ``None``: leave the rest to the engine.
        In the contract's form only what could not be stored counts (contracts §1)."""
        return text_problem(v)

    def schema(self, field: Field) -> dict[str, Any]:
        return {**_KEY_SCHEMA, "description": field.label}

    def parse(self, data: Any, name: str) -> Any:
        """The value of a submitted form's field (a QueryDict or dict), or ``None`` when it was
        left empty. What does not parse is passed on as typed, for the engine to name."""
        raw = str(data.get(name, "") or "").strip()
        return self.read(raw) if raw else None

    def read(self, text: str) -> Any:
        return text

    def text(self, v: Any) -> str:
        """The reverse of ``parse``: a stored value as the form shows it."""
        return str(v)

    def words(self, v: Any, words: Words) -> str:
        """The value as players read it: ids as names, choices in words, lists joined."""
        if self.table:
            named = words.name(self.table, v)
            return ", ".join(map(str, named)) if isinstance(named, list) else str(named)
        return self.text(v).replace("\n", "; ")


REQUIRED = True
OPTIONAL = False

BANKED = frozenset({"gal", "tp"})  # Gal and TP lie in the bank; goods at places


@dataclass(frozen=True)
class Draw:
    """What an amount field takes from a stockpile (issue 30), so that entry can warn of an
    amount beyond what the power holds: ``resource`` (else the value of the field ``of``),
    from the bank for Gal and TP (R-1.1), else from what the field ``place`` names (a hub, a
    system, a group, a static) or, with ``reach``, from what may reach its hex (R-1.4).
    ``unit``: the field's own unit when it is not the resource (troops recruited from PL)."""

    resource: str = ""
    of: str = ""
    place: str = ""
    reach: bool = False
    unit: str = ""


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    kind: Kind
    required: bool = OPTIONAL
    help: str = ""
    engine: bool = True  # False: kept by the shell only (a hub's display name), never checked
    draws: Draw | None = None  # the stockpile its amount spends or moves (issue 30)

    @property
    def widget(self) -> str:
        return self.kind.widget

    @property
    def source(self) -> str:
        return self.kind.source

    @property
    def options(self) -> tuple[str, ...]:
        return self.kind.options


@dataclass(frozen=True)
class Ref(Kind):
    """One thing by its id: a group, craft, hub, system, power, officer..."""

    widget: str = "ref"


@dataclass(frozen=True)
class Refs(Kind):
    """Several things of one kind (a multiple select)."""

    widget: str = "ids"

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if not isinstance(v, list):
            return None if contract else "expected a list of ids"
        return _key_list(v, MAX_IDS, "ids")

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "array", "items": _KEY_SCHEMA, "minItems": 1, "maxItems": MAX_IDS}

    def parse(self, data: Any, name: str) -> Any:
        values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
        if isinstance(values, str):
            values = [values]
        return [v for value in values for v in _split(str(value))] or None

    def text(self, v: Any) -> str:
        return " ".join(map(str, v)) if isinstance(v, list) else str(v)


@dataclass(frozen=True)
class Choice(Kind):
    """One of a fixed set of values; ``wording`` names the words they read as."""

    widget: str = "enum"
    wording: str = "choices"

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.options)}

    def words(self, v: Any, words: Words) -> str:
        return words.choice(self.wording, v) if isinstance(v, str) else self.text(v)


@dataclass(frozen=True)
class Int(Kind):
    widget: str = "int"
    bounds: tuple[int, int] | None = None  # else INT_RANGES by the field's name

    def range(self, field: Field) -> tuple[int, int]:
        return self.bounds or INT_RANGES.get(field.name, (1, MAX_AMOUNT))

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        return int_problem(v, *self.range(field))

    def schema(self, field: Field) -> dict[str, Any]:
        low, high = self.range(field)
        return {"type": "integer", "minimum": low, "maximum": high}

    def read(self, text: str) -> Any:
        return number(text)


@dataclass(frozen=True)
class Flag(Kind):
    widget: str = "bool"

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if contract:
            return None if isinstance(v, bool | int | float) or v is None else text_problem(v)
        return None if isinstance(v, bool) else "expected true or false"

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "boolean"}

    def read(self, text: str) -> Any:
        return text.lower() in ("on", "true", "1", "yes")

    def text(self, v: Any) -> str:
        return "on" if v is True else ""


@dataclass(frozen=True)
class Text(Kind):
    widget: str = "text"
    max_length: int = KEY_LENGTH

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        return text_problem(v, self.max_length)

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^[^\\u0000-\\u001f\\u007f]{{0,{self.max_length}}}$"}


@dataclass(frozen=True)
class NewId(Kind):
    """An id the player chooses for a thing the order creates, typed short and stored as
    ``<power>-<typed id>`` (``economy.entry``). Left out, the shell chooses a readable one from
    ``word`` (issue 30: ``economy.entry.with_default_ids``), so the schema does not require it;
    the engine does (a case file's orders carry their ids)."""

    widget: str = "typed_id"
    word: str = ""  # the default's stem: what the order creates ("hub", "craft", "group")
    defaulted: bool = True

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if contract:
            return None if isinstance(v, bool | int | float) or v is None else text_problem(v)
        if not isinstance(v, str) or not TYPED_ID.fullmatch(v):
            shown = repr(v) if isinstance(v, str) and len(v) <= KEY_LENGTH else "that"
            return f"{shown} is not a valid id: use {TYPED_ID_HELP}"
        return None

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^{TYPED_ID.pattern}$", "description": field.help}


@dataclass(frozen=True)
class Hex(Kind):
    widget: str = "hex"
    on_map: bool = True

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if contract:
            return None if isinstance(v, bool | int | float) or v is None else text_problem(v)
        if isinstance(v, list | dict):
            return "expected a hex XXYY"
        problem = text_problem(v, 8)
        if problem is None and isinstance(v, str) and _bad_hex(v):
            return f"expected a hex XXYY (two digits for the column, two for the row), got {v!r}"
        return problem

    def schema(self, field: Field) -> dict[str, Any]:
        return _HEX_SCHEMA


def _contract_list(v: Any, limit: int, what: str) -> str | None:
    """A list in the contract's form: bounded, and short enough to store; its hexes are the
    engine's to name."""
    if isinstance(v, list) and len(v) > limit:
        return f"at most {limit} {what}"
    return None if len(repr(v)) <= 40 * (limit + 1) else "too long"


@dataclass(frozen=True)
class Hexes(Kind):
    widget: str = "hexes"
    on_map: bool = True

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if contract:
            return _contract_list(v, MAX_HEXES, "hexes")
        if not isinstance(v, list):
            return "expected a list of hexes"
        if len(v) > MAX_HEXES:
            return f"at most {MAX_HEXES} hexes"
        return next((f"expected hexes XXYY, got {h!r}" for h in v if _bad_hex(h)), None)

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "array", "items": _HEX_SCHEMA, "maxItems": MAX_HEXES}

    def read(self, text: str) -> Any:
        return _split(text)

    def text(self, v: Any) -> str:
        return " ".join(map(str, v)) if isinstance(v, list) else str(v)

    def words(self, v: Any, words: Words) -> str:
        return ", ".join(map(str, v)) if isinstance(v, list) else self.text(v)


@dataclass(frozen=True)
class Links(Kind):
    widget: str = "links"
    on_map: bool = True

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if contract:
            return _contract_list(v, MAX_LINKS, "links")
        if not isinstance(v, list):
            return "expected a list of links"
        if len(v) > MAX_LINKS:
            return f"at most {MAX_LINKS} links"
        for pair in v:
            if not isinstance(pair, list) or len(pair) != 2 or any(_bad_hex(h) for h in pair):
                return "expected links as pairs of hexes XXYY"
        return None

    def schema(self, field: Field) -> dict[str, Any]:
        pair = {"type": "array", "items": _HEX_SCHEMA, "minItems": 2, "maxItems": 2}
        return {"type": "array", "items": pair, "maxItems": MAX_LINKS}

    def read(self, text: str) -> Any:
        return [[a for a in re.split(r"[-–/]", pair) if a] for pair in _split(text)]

    def text(self, v: Any) -> str:
        if not isinstance(v, list):
            return str(v)
        return " ".join("-".join(map(str, p)) for p in v if isinstance(p, list))

    def words(self, v: Any, words: Words) -> str:
        if not isinstance(v, list):
            return self.text(v)
        return ", ".join("–".join(map(str, p)) for p in v if isinstance(p, list))


@dataclass(frozen=True)
class Shares(Kind):
    """Resource 5.1.2: a hub's pool split by hand, ``[{hex, ore, bio}]``."""

    widget: str = "shares"
    on_map: bool = True

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
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

    def schema(self, field: Field) -> dict[str, Any]:
        amount = {"type": "integer", "minimum": 0, "maximum": MAX_AMOUNT}
        share = {
            "type": "object",
            "properties": {"hex": _HEX_SCHEMA, "ore": amount, "bio": amount},
            "required": ["hex"],
            "additionalProperties": False,
        }
        return {"type": "array", "items": share, "maxItems": MAX_SHARES}

    def read(self, text: str) -> Any:
        return [_share(part) for part in text.split(";") if part.strip()]

    def text(self, v: Any) -> str:
        if not isinstance(v, list):
            return str(v)
        return "; ".join(
            f"{s.get('hex')} {s.get('ore', 0)} {s.get('bio', 0)}" for s in v if isinstance(s, dict)
        )


@dataclass(frozen=True)
class Powers(Kind):
    """Several powers (R-2a: those a group engages)."""

    widget: str = "powers"
    table: str = "powers"

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if not isinstance(v, list):
            return "expected a list of powers"
        return _key_list(v, MAX_POWERS, "powers")

    def schema(self, field: Field) -> dict[str, Any]:
        return {"type": "array", "items": _KEY_SCHEMA, "maxItems": MAX_POWERS}

    def read(self, text: str) -> Any:
        return _split(text)

    def text(self, v: Any) -> str:
        return " ".join(map(str, v)) if isinstance(v, list) else str(v)

    def words(self, v: Any, words: Words) -> str:
        if not isinstance(v, list):
            return self.text(v)
        return ", ".join(str(words.name("powers", p)) for p in v)


@dataclass(frozen=True)
class Counts(Kind):
    """R-10.1a: ``{consumable kind: n}``."""

    widget: str = "counts"

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        if not isinstance(v, dict):
            return None if contract else "expected an object of consumable kind -> count"
        if len(v) > MAX_KINDS:
            return f"at most {MAX_KINDS} kinds"
        for kind, n in v.items():
            problem = text_problem(kind, KIND_LENGTH) or int_problem(n, 1, DESIGN_LIMIT)
            if problem:
                return f"{str(kind)[:KIND_LENGTH]}: {problem}"
        return None

    def schema(self, field: Field) -> dict[str, Any]:
        # kinds of at most KIND_LENGTH characters (OpenAPI 3.0 cannot say)
        return {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": DESIGN_LIMIT},
            "maxProperties": MAX_KINDS,
        }

    def read(self, text: str) -> Any:
        return parse_counts(text)

    def text(self, v: Any) -> str:
        return ", ".join(f"{k} {n}" for k, n in v.items()) if isinstance(v, dict) else str(v)


SYSTEM_KEYS = ("id", "name", "points", "count", *CAPACITIES)


@dataclass(frozen=True)
class Systems(Kind):
    """R-10.0: a design's systems, each ``{id, name, points, count, <capacity>: n}``, as
    ``powers.DesignSystem`` stores them."""

    widget: str = "systems"

    def shape(self, v: Any, field: Field, *, contract: bool = False) -> str | None:
        # In the contract's form, keys it does not know are ignored and a malformed entry is
        # the engine's to name; only what cannot be stored counts.
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
            problem = text_problem(system.get("name", ident), SYSTEM_NAME_LENGTH)
            for key in ("points", "count", *CAPACITIES):
                if problem is None and key in system:
                    problem = int_problem(system[key], 0, DESIGN_LIMIT)
            if problem:
                return f"system {i}: {problem}"
        return _design_totals(v)

    def schema(self, field: Field) -> dict[str, Any]:
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

    def read(self, text: str) -> Any:
        lines = [line for line in re.split(r"[\n;]+", text) if line.strip()]
        return [parse_system(line, i) for i, line in enumerate(lines)]

    def text(self, v: Any) -> str:
        return "\n".join(system_text(x) for x in v) if isinstance(v, list) else str(v)


def _design_totals(systems: list[Any]) -> str | None:
    """A design's points and each capacity, summed over its units, within ``DESIGN_LIMIT``."""
    totals: dict[str, int] = {}
    for system in systems:
        if not isinstance(system, dict):  # the contract's form: the engine names it
            continue
        count = system.get("count", 1)
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


# --- the rules of the non-reference kinds -------------------------------------------------


def _hex(cat: Catalog, __: str, v: Any) -> str | None:
    return hex_problem(v, cat.bounds)


def _hexes(cat: Catalog, __: str, v: Any) -> str | None:
    if not isinstance(v, list) or not all(is_hex(h) for h in v):
        return f"expected a list of hexes XXYY, got {v!r}"
    return _first_off_map(cat, v)


def _links(cat: Catalog, __: str, v: Any) -> str | None:
    ok = isinstance(v, list) and all(
        isinstance(p, list) and len(p) == 2 and all(is_hex(h) for h in p) for p in v
    )
    if not ok:
        return f"expected a list of hex pairs, got {v!r}"
    return _first_off_map(cat, (h for pair in v for h in pair))


def _bool(_: Catalog, __: str, v: Any) -> str | None:
    return None if isinstance(v, bool) else f"expected true or false, got {v!r}"


def _shares(cat: Catalog, __: str, v: Any) -> str | None:
    ok = isinstance(v, list) and all(
        isinstance(s, dict)
        and is_hex(s.get("hex"))
        and all(
            isinstance(s.get(r, 0), int) and not isinstance(s.get(r, 0), bool) and s.get(r, 0) >= 0
            for r in ("ore", "bio")
        )
        for s in v
    )
    if not ok:
        return f"expected a list of {{hex, ore, bio}} with amounts >= 0, got {v!r}"
    return _first_off_map(cat, (s["hex"] for s in v))


def _engages(cat: Catalog, power: str, v: Any) -> str | None:
    """R-2a: the powers a group engages, other than its own."""
    if not isinstance(v, list) or not all(isinstance(p, str) for p in v):
        return f"expected a list of power ids, got {v!r}"
    unknown = [p for p in v if p not in cat.powers]
    if unknown:
        return f"unknown power {unknown[0]!r}"
    return f"a group cannot engage its own power {power}" if power in v else None


def _new_id(cat: Catalog, _: str, v: Any) -> str | None:
    if not isinstance(v, str) or not v:
        return f"expected a new id, got {v!r}"
    return f"id {v!r} is already used" if v in cat.ids else None


def _text(_: Catalog, __: str, v: Any) -> str | None:
    return None if isinstance(v, str) and v else f"expected a non-empty string, got {v!r}"


def _systems(_: Catalog, __: str, v: Any) -> str | None:
    try:
        parse_design_systems(v)
    except CaseError as exc:
        return str(exc)
    return None


def _loadout(cat: Catalog, power: str, v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"expected an object of consumable kind -> count, got {v!r}"
    return next(
        (
            f"{k}: {p}"
            for k, n in v.items()
            if (p := consumable(cat, power, k) or positive(cat, power, n))
        ),
        None,
    )


def _id_list(check: Rule) -> Rule:
    def many(cat: Catalog, power: str, v: Any) -> str | None:
        if not isinstance(v, list) or not v or len(set(map(str, v))) != len(v):
            return f"expected a non-empty list of distinct ids, got {v!r}"
        return next((p for item in v if (p := check(cat, power, item))), None)

    return many


def _choice(options: tuple[str, ...]) -> Rule:
    def check(_: Catalog, __: str, v: Any) -> str | None:
        return None if v in options else f"expected one of {', '.join(options)}, got {v!r}"

    return check


# --- the set of kinds the order table uses ------------------------------------------------

_group = owned("group", "group_owner")
_hub = owned("hub", "hub_owner")
_static = owned("static", "static_owner")
_held = owned("system", "system_holder")
_craft = fleet_id("craft", _craft_owner)
_finished = fleet_id("craft", _craft_owner, promise="craft")
_finished_or_given = fleet_id("craft", _craft_owner, promise="craft", given=True)
_design = fleet_id("design", lambda cat: cat.fleet.design_owner, promise="design")

GROUP = Ref(_group, source="groups", table="groups", fleet=True, noun="fleet groups")
CREWED_GROUP = Ref(
    fleet_id("group", _group_owner, promise="carrier", given=True),
    source="crewed",
    table="groups",
    fleet=True,
    promised=True,
    noun="groups",
)
STATIC = Ref(_static, source="statics", table="statics", fleet=True, noun="statics")
CARRIER = Ref(
    any_of(_group, _static, kinds="group or static"),
    source="carriers",
    table="carriers",
    fleet=True,
    noun="groups or statics",
)
SUPPLIED = Ref(
    fleet_id("group or static", _group_owner, _static_owner, promise="carrier", given=True),
    source="supplied",
    table="carriers",
    fleet=True,
    promised=True,
    noun="groups or statics",
)
HUB = Ref(_hub, source="hubs", table="places", noun="trade hubs")
HELD_SYSTEM = Ref(_held, source="held", table="systems", noun="systems")
SYSTEM = Ref(any_system, source="systems", table="systems")
PLACE = Ref(
    any_of(_hub, _held, kinds="hub or system"),
    source="places",
    table="places",
    noun="hubs or systems",
)
OTHER_POWER = Ref(other_power, source="other_powers", table="powers")
ANY_POWER = Ref(any_power, source="other_powers", table="powers")
TARGET_POWER = Ref(mission_target, source="other_powers", table="powers")
CRAFT = Ref(_craft, source="own_craft", table="craft", fleet=True, noun="craft")
FINISHED_CRAFT = Ref(
    _finished_or_given, source="own_craft", table="craft", fleet=True, promised=True, noun="craft"
)
CREWED_CRAFT = Ref(
    _finished_or_given, source="craft", table="craft", fleet=True, promised=True, noun="craft"
)
BUILDER = Ref(_craft, source="builders", table="craft", fleet=True, noun="builders")
REPAIRER = Ref(_craft, source="repairers", table="craft", fleet=True, noun="repairers")
BUILDERS = Refs(_id_list(_craft), source="builders", table="craft", fleet=True, noun="builders")
ORBITING = Refs(
    _id_list(_finished),
    source="orbiting",
    table="craft",
    fleet=True,
    promised=True,
    noun="finished craft in orbit",
)
DESIGN = Ref(_design, source="designs", table="designs", fleet=True, promised=True, noun="designs")
WORK = Ref(
    fleet_id("build", lambda cat: cat.fleet.build_owner),
    source="work",
    table="builds",
    fleet=True,
    noun="work in progress",
)
CONSUMABLE = Ref(consumable, source="kinds", noun="consumables")
OFFICER = Ref(
    command_id("officer"), source="officers", table="officers", promised=True, noun="officers"
)
BUBBLE = Ref(
    command_id("bubble"), source="bubbles", table="bubbles", promised=True, noun="command bubbles"
)
DIPLOMAT = Ref(
    command_id("diplomat"), source="diplomats", table="diplomats", promised=True, noun="diplomats"
)

POSITIVE = Int(positive)
AT_LEAST_ZERO = Int(at_least_zero)
PERCENT = Int(percent)
GRADE = Int(grade)
FLAG = Flag(_bool)


def new_id(word: str) -> Field:
    """The ``id`` field of an order that creates a thing: a short name the player may leave
    blank (issue 30), the default's stem ``word``."""
    return Field("id", "Short name", NewId(_new_id, word=word), REQUIRED, NEW_ID_HELP)


HEX_ = Hex(_hex)
HEXES = Hexes(_hexes)
LINKS = Links(_links)
SHARES = Shares(_shares)
ENGAGES = Powers(_engages)
LOADOUT = Counts(_loadout, source="kinds")
ITEMS = Counts(_loadout)
SYSTEMS = Systems(_systems)


def choice(*options: str, wording: str = "choices") -> Choice:
    return Choice(_choice(options), options=options, wording=wording)


def text(max_length: int) -> Text:
    return Text(_text, max_length=max_length)


def amount(bounds: tuple[int, int]) -> Int:
    """A positive amount stored in a column narrower than a resource's (a shipment's)."""
    return Int(positive, bounds=bounds)
