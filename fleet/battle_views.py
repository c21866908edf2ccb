"""The battle records page (R-10.6): a power's inbox — records to confirm, awaiting others,
confirmed and applied — and the forms to enter, confirm, decline, amend or withdraw one (htmx,
as the rest of the site). Only records the power is in ever reach it.

A record is entered by picking (issue 29): the hex, the powers in it by name, then a roster of
their craft at that hex (``fleet.selectors.battle_roster``, fetched with htmx as they are
picked), one row a craft by name with what the battle did to it. Rows left as they were are
not sent; the text lines (``fleet.battle_text``) stay as a shortcut, added to the rows. Either
way the services get the record in the contract's shape, as the API sends it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.views.decorators.http import require_GET

from economy import selectors
from economy.events import Names
from economy.rounds import RoundNotOpen
from fleet import battle_text
from fleet import battles as battle_records
from fleet import selectors as fleet_selectors
from fleet.selectors import BattleSite, Roster, RosterCraft, shown
from ftcamp.errors import Missing, Refused
from ftcamp.pagewrites import page_write, section
from powers.access import actor, player_view
from powers.models import Power

Data = Mapping[str, list[str]]  # a form's fields, each with its values (as a QueryDict's lists)


def _in_words(
    view: fleet_selectors.RecordView, names: Names, systems: dict[str, dict[str, str]]
) -> fleet_selectors.RecordView:
    """A record as its page shows it: powers, craft, systems and groups by name (issue 17);
    the keys stay beside the names for the forms, and in the API."""

    def damage(craft: str, counts: dict[str, int]) -> str:
        named = systems.get(craft, {})
        return ", ".join(f"{named.get(k, k)} ×{n}" for k, n in counts.items() if n)

    return replace(
        view,
        entered_by=names.name("powers", view.entered_by),
        parties=[{**p, "name": names.name("powers", p["power"])} for p in view.parties],
        craft=[
            {
                **c,
                "name": names.name("craft", c["craft"]),
                "captor": names.name("powers", c["captured_by"]) if c["captured_by"] else "",
                "into_name": names.name("groups", c["into"]) if c["into"] else "",
                "lost_words": damage(c["craft"], c["systems_destroyed"]),
                "disabled_words": damage(c["craft"], c["systems_disabled"]),
            }
            for c in view.craft
        ],
    )


# --- the record's form: hex, powers, roster ----------------------------------------------


def _data(query: QueryDict) -> dict[str, list[str]]:
    return {k: query.getlist(k) for k in query}


def _get(data: Data, name: str) -> str | None:
    """The field's value as posted (the last, as a QueryDict gives it), or None if absent."""
    values = data.get(name)
    return values[-1] if values else None


def _text(data: Data, name: str) -> str:
    return (_get(data, name) or "").strip()


def _hex(data: Data) -> str:
    """The hex typed, else the one picked."""
    return _text(data, "hex_other") or _text(data, "hex")


def _powers(data: Data) -> list[str]:
    """The powers ticked on the form (one value each); a value may also list several keys
    separated by spaces or commas, as the API's clients and older forms send them."""
    return [p for v in data.get("powers", []) for p in re.split(r"[\s,;]+", v) if p]


def _count(raw: str | None, start: int) -> Any:
    """A number input: absent is as it started, blank is 0; what is not a number is passed on
    as typed, for the service to name."""
    if raw is None:
        return start
    raw = raw.strip()
    if not raw:
        return 0
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 9 else raw[:20]


@dataclass(frozen=True)
class SystemInput:
    key: str
    name: str
    count: int
    lost: str
    disabled: str


@dataclass(frozen=True)
class RowInput:
    """One craft of the roster as its row shows it: the craft by name, and the values."""

    craft: RosterCraft
    destroyed: bool
    systems: list[SystemInput]
    cf: str
    captor: str
    into: str
    captors: list[tuple[str, str]]  # the other powers in the battle: key, name
    carriers: list[tuple[str, list[tuple[str, str]]]]  # a captor's name: its carriers there


@dataclass(frozen=True)
class RosterPart:
    """The roster section of a form: a prompt (no hex yet), why there is none, or its rows."""

    roster: Roster | None
    problems: list[str]
    rows: list[RowInput]


def _start(counts: dict[str, int] | None, key: str) -> int:
    value = (counts or {}).get(key, 0)
    return value if isinstance(value, int) else 0


def _row(roster: Roster, c: RosterCraft, data: Data) -> RowInput:
    k = c.key

    def shown_value(name: str, start: int) -> str:
        raw = _get(data, name)
        return str(start) if raw is None else raw.strip()[:20]

    captor = _text(data, f"captor:{k}")
    into = _text(data, f"into:{k}")
    others = [p for p in roster.powers if p.key != c.power]
    carriers = [
        (p.name, [(u.key, u.name) for u in p.carriers if u.static == c.static])
        for p in others
        if not captor or p.key == captor
    ]
    if captor and carriers:
        keys = [key for key, _ in carriers[0][1]]
        if into and into not in keys and into.startswith(f"{captor}-"):
            carriers[0][1].append((into, shown(captor, into)))  # a new id typed earlier
        elif into not in keys:
            into = keys[0]  # the captor changed: its first carrier there
    return RowInput(
        c,
        bool(_get(data, f"destroyed:{k}")),
        [
            SystemInput(
                s.key,
                s.name,
                s.count,
                shown_value(f"lost:{k}:{s.key}", _start(c.destroyed, s.key)),
                shown_value(f"disabled:{k}:{s.key}", _start(c.disabled, s.key)),
            )
            for s in c.systems
        ],
        shown_value(f"cf:{k}", 0),
        captor,
        into,
        [(p.key, p.name) for p in others],
        carriers,
    )


def _roster(power: Power, data: Data) -> RosterPart:
    hex_ = _hex(data)
    if not hex_:
        return RosterPart(None, [], [])
    try:
        roster = fleet_selectors.battle_roster(power, hex_, _powers(data))
    except Refused as refused:
        return RosterPart(None, refused.errors, [])
    return RosterPart(roster, [], [_row(roster, c, data) for c in roster.craft])


def _item(c: RosterCraft, data: Data) -> dict[str, Any] | None:
    """A row in the contract's shape (R-10.6), or None when it was left as it was."""
    k = c.key
    item: dict[str, Any] = {"craft": k}
    if _get(data, f"destroyed:{k}"):
        item["destroyed"] = True
    was: dict[str, dict[str, int]] = {}
    now: dict[str, dict[str, Any]] = {}
    for field, prefix, start in (
        ("systems_destroyed", "lost", c.destroyed),
        ("systems_disabled", "disabled", c.disabled),
    ):
        was[field] = {s.key: _start(start, s.key) for s in c.systems}
        now[field] = {
            s.key: _count(_get(data, f"{prefix}:{k}:{s.key}"), was[field][s.key]) for s in c.systems
        }
    if now != was:  # the craft's sheet at the end of the battle, both halves
        for field, counts in now.items():
            item[field] = {s: n for s, n in counts.items() if n != 0}
    cf = _count(_get(data, f"cf:{k}"), 0)
    if cf != 0:
        item["cf_lost"] = cf
    captor = _text(data, f"captor:{k}")
    if captor:
        item["captured_by"] = captor
        into = _text(data, f"into:{k}")
        if into:
            item["into"] = into
    return item if len(item) > 1 else None


def _record_fields(
    power: Power, data: Data, part: RosterPart | None = None
) -> tuple[dict[str, Any], list[str]]:
    """The record the form describes, for the services (the rows touched, then the lines
    typed), and the rows sent as the page names them."""
    part = _roster(power, data) if part is None else part
    picked = [(r.craft, item) for r in part.rows if (item := _item(r.craft, data))]
    typed = battle_text.craft_from_text(_get(data, "craft") or "")
    fields = {
        "hex": _hex(data),
        # the entering power first, as its record lists them (the form sends its own last)
        "powers": sorted(dict.fromkeys(_powers(data)), key=lambda k: k != power.key),
        "craft": [item for _, item in picked] + typed,
    }
    return fields, [_craft_name(c) for c, _ in picked]


def _craft_name(c: RosterCraft) -> str:
    return f"{c.name} ({c.design}, {c.power_name})"


FIELD_WORDS = {
    "systems_destroyed": "systems destroyed",
    "systems_disabled": "systems disabled",
    "cf_lost": "CF lost",
    "captured_by": "captured by",
}
_NUMBERED = re.compile(r"craft: #(\d+)(.*)")
_KEYED = re.compile(r"craft: ([^\s,:]+)([,:].*)")


def _named(errors: list[str], picked: list[str], craft: dict[str, str]) -> list[str]:
    """The services' messages with the craft by name: "craft: #2, cf_lost: …" or "craft:
    p1-g0-f1, cf_lost: …" reads "g0-f1 (Frigate, Power 1), CF lost: …"; a typed line keeps its
    number among those typed."""
    out = []
    for error in errors:
        if (numbered := _NUMBERED.fullmatch(error)) and picked:
            n = int(numbered[1])
            where = picked[n - 1] if n <= len(picked) else f"craft: typed line {n - len(picked)}"
            error = where + numbered[2]
        elif (keyed := _KEYED.fullmatch(error)) and keyed[1] in craft:
            error = craft[keyed[1]] + keyed[2]
        for field, words in FIELD_WORDS.items():
            error = error.replace(f", {field}", f", {words}")
        out.append(error)
    return out


@dataclass(frozen=True)
class PowerTick:
    key: str
    name: str
    ticked: bool
    own: bool


@dataclass(frozen=True)
class BattleForm:
    """The form that enters a record (``record`` "") or amends one, with what it holds."""

    record: str
    hex: str  # the hex picked
    hex_other: str  # a hex typed
    sites: list[BattleSite]
    powers: list[PowerTick]
    part: RosterPart
    text: str  # craft lines typed


def _form(
    power: Power,
    data: Data,
    sites: list[BattleSite],
    campaign_powers: list[tuple[str, str]],
    record: str = "",
    part: RosterPart | None = None,
) -> BattleForm:
    picked, typed = _text(data, "hex"), _text(data, "hex_other")
    if picked and picked not in {s.hex for s in sites}:
        picked, typed = "", typed or picked
    ticked = set(_powers(data))
    return BattleForm(
        record,
        picked,
        typed,
        sites,
        [
            PowerTick(key, name, key == power.key or key in ticked, key == power.key)
            for key, name in campaign_powers
        ],
        _roster(power, data) if part is None else part,
        _get(data, "craft") or "",
    )


def _record_data(
    power: Power, view: fleet_selectors.RecordView, sites: list[BattleSite]
) -> tuple[dict[str, list[str]], RosterPart]:
    """A record awaiting others as its amend form starts: its rows filled in, and the lines
    the roster cannot show (a craft not there now, a system its design lacks) typed."""
    where = "hex" if view.hex in {s.hex for s in sites} else "hex_other"
    data: dict[str, list[str]] = {where: [view.hex], "powers": [p["power"] for p in view.parties]}
    part = _roster(power, data)
    craft = {c.key: c for c in part.roster.craft} if part.roster else {}
    typed = []
    for line in view.craft:
        c = craft.get(line["craft"])
        systems = {s.key for s in c.systems} if c else set()
        if c is None or not {*line["systems_destroyed"], *line["systems_disabled"]} <= systems:
            typed.append(line)
            continue
        k = c.key
        if line["destroyed"]:
            data[f"destroyed:{k}"] = ["1"]
        if line["systems_destroyed"] or line["systems_disabled"]:
            for s in c.systems:
                data[f"lost:{k}:{s.key}"] = [str(line["systems_destroyed"].get(s.key, 0))]
                data[f"disabled:{k}:{s.key}"] = [str(line["systems_disabled"].get(s.key, 0))]
        if line["cf_lost"]:
            data[f"cf:{k}"] = [str(line["cf_lost"])]
        if line["captured_by"]:
            data[f"captor:{k}"] = [line["captured_by"]]
            data[f"into:{k}"] = [line["into"] or ""]
    if typed:
        data["craft"] = [battle_text.craft_text(typed)]
    if part.roster is not None:
        part = replace(part, rows=[_row(part.roster, c, data) for c in part.roster.craft])
    return data, part


# --- the page ------------------------------------------------------------------------------


def _context(
    power: Power,
    errors: list[str] | None = None,
    posted: tuple[str, Data] | None = None,
    opened: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """The page; ``posted``: the form (a record's key, "" for a new one) refused and what it
    held, shown again as it was; ``opened``: the record whose amend form is open. The other
    records' amend forms come when opened (``?part=amend``): each reads its roster, so
    building them all would cost queries per record (issue 30)."""
    names = selectors.names_for(power)
    keyed = fleet_selectors.records_of(power)
    systems = fleet_selectors.record_systems(power, keyed)
    views = [_in_words(v, names, systems) for v in keyed]
    sites = fleet_selectors.battle_sites(power)
    # every power of the campaign, by name, for the records' "powers in it" (R-10.6)
    campaign_powers = sorted(names.powers.items(), key=lambda kv: kv[1])
    amend: dict[str, BattleForm | None] = {}
    for v in keyed:
        if not (v.mine and v.status == "proposed"):
            continue
        if posted is not None and posted[0] == v.key:
            amend[v.key] = _form(power, posted[1], sites, campaign_powers, v.key)
        elif v.key == opened:
            data, part = _record_data(power, v, sites)
            amend[v.key] = _form(power, data, sites, campaign_powers, v.key, part)
        else:
            amend[v.key] = None  # fetched when opened
    entering = posted[1] if posted is not None and posted[0] == "" else {}
    return {
        "power": power,
        # the services' words with the ids they name as the page names them (issue 29)
        "errors": [names.words(e) for e in errors or []],
        "to_confirm": [v for v in views if v.status == "proposed" and v.my_answer != "confirmed"],
        "awaiting": [v for v in views if v.status == "proposed" and v.my_answer == "confirmed"],
        "settled": [v for v in views if v.status != "proposed"],
        "enter_form": _form(power, entering, sites, campaign_powers),
        "amend": amend,
        "craft_help": battle_text.CRAFT_HELP,
        **extra,
    }


@require_GET
@player_view
def battles(request: HttpRequest, power: Power) -> HttpResponse:
    """The records. ``?amend=<record>``: with that record's amend form open; with
    ``part=amend``, that form alone (htmx fetches it as its section is opened)."""
    opened = request.GET.get("amend", "")[:64]
    context = _context(power, opened=opened)
    if request.GET.get("part") == "amend":
        form = context["amend"].get(opened)
        if form is None:
            raise Http404("No such battle record of yours to amend.")
        return render(
            request, "economy/_battle_amend.html", {"power": power, "f": form, "key": opened}
        )
    return render(request, "economy/battles.html", context)


@require_GET
@player_view
def battle_roster(request: HttpRequest, power: Power) -> HttpResponse:
    """The roster of a record's form for the hex and powers picked (htmx, as they change),
    with the values its rows hold kept."""
    part = _roster(power, _data(request.GET))
    return render(request, "economy/_battle_roster.html", {"power": power, "r": part})


def _section(request: HttpRequest, power: Power, errors: list[str]) -> dict[str, Any]:
    if not errors:
        return _context(power)
    data = _data(request.POST)
    action = _get(data, "action")
    if action not in (None, "amend"):  # an answer refused: the forms start afresh
        return _context(power, errors)
    part = _roster(power, data)
    _, picked = _record_fields(power, data, part)
    craft = {r.craft.key: _craft_name(r.craft) for r in part.rows}
    record = _text(data, "record") if action == "amend" else ""
    return _context(power, _named(errors, picked, craft), posted=(record, data))


# A POST through the battle records service: the section again with the errors naming the
# field when it is refused (nothing written), 404 for a record the power is not in.
battle_write = page_write(
    section("economy/battles.html", "economy/_battles.html", "battles", _section),
    shown=(Refused, RoundNotOpen),
    missing=(Missing,),
    missing_text="No such battle record.",
)


@battle_write
def battle_enter(request: HttpRequest, power: Power) -> None:
    fields, _ = _record_fields(power, _data(request.POST))
    battle_records.propose(power=power, actor=actor(request), **fields)


@battle_write
def battle_act(request: HttpRequest, power: Power) -> None:
    """One answer to one record: confirm, decline (with a reason), or amend or withdraw (its
    entering power)."""
    key, action = request.POST.get("record", ""), request.POST.get("action", "")
    who = actor(request)
    if action == "amend":
        fields, _ = _record_fields(power, _data(request.POST))
        battle_records.amend(power=power, key=key, actor=who, **fields)
    elif action == "withdraw":
        battle_records.withdraw(power=power, key=key, actor=who)
    elif action in ("confirm", "decline"):
        battle_records.answer(
            power=power,
            key=key,
            confirm=action == "confirm",
            reason=request.POST.get("reason", ""),
            actor=who,
        )
    else:
        raise Refused(f"action: expected confirm, decline, amend or withdraw, got {action[:20]!r}")
