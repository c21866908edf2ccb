"""Reads for the round pages and the API: order sheets, who has submitted, statements with
before/after per stockpile, the projected statement, round history. Every function that shows
power data takes the power and returns only that power's part."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import QuerySet, Value

from command.selectors import command_choices
from economy.engine.codec import dump_state
from economy.engine.focus import focus, ids_of, named
from economy.engine.loyalty import abandoned
from economy.engine.orders import SPECS
from economy.engine.resolve import resolve, round_rng
from economy.engine.state import State
from economy.events import Names, describe, hub_name, hub_table, in_words, resource_word
from economy.guide import step_of
from economy.models import LedgerLine, Order, OrderSheet, Round, RoundRecord, RoundStatus
from economy.snapshot import export_state, load_state, round_state
from economy.texts import plain
from fleet.selectors import fleet_choices, sheet_payloads, shown
from powers.models import (
    Build,
    Campaign,
    Craft,
    Design,
    Diplomat,
    FleetGroup,
    Officer,
    Power,
    StarSystem,
    Static,
)
from trade.models import TradeHub


def power_names(campaign_id: int) -> dict[str, str]:
    """Power id (key) -> name, for events in words."""
    return dict(Power.objects.filter(campaign_id=campaign_id).values_list("key", "name"))


def hub_names(power: Power) -> dict[str, str]:
    """The names this power gave its hubs (private: only its own)."""
    return dict(TradeHub.objects.filter(power=power).values_list("key", "name"))


#: Orders whose new id has a name typed with it: the table the name goes to.
MADE_NAMED = {"register_design": "designs", "commission": "officers"}
MADE_NAMED |= {"appoint_diplomat": "diplomats"}


def names_for(power: Power) -> Names:
    """Names for what one power's pages mention, from the campaign as it is now: every
    system, every power, and this power's own hubs, groups, statics, craft, designs and work
    (a fixed number of queries whatever the campaign's size)."""
    systems = StarSystem.objects.filter(campaign_id=power.campaign_id)
    mine = {"power": power}
    # what this round's sheet creates, by the names typed (one query)
    made: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in sheet_payloads(power, *MADE_NAMED):
        if isinstance(p.get("id"), str):
            made[MADE_NAMED[p["type"]]].append({"id": p["id"], "name": p.get("name") or ""})
    state: dict[str, Any] = {
        "systems": [
            {"id": k, "name": n, "hex": f"{c:02d}{r:02d}"}
            for k, n, c, r in systems.values_list("key", "name", "hex__col", "hex__row")
        ],
        "hubs": [{"id": k} for k in TradeHub.objects.filter(**mine).values_list("key", flat=True)],
        "groups": [
            {"id": k} for k in FleetGroup.objects.filter(**mine).values_list("key", flat=True)
        ],
        "statics": [{"id": k} for k in Static.objects.filter(**mine).values_list("key", flat=True)],
        "designs": [
            {"id": k, "name": n}
            for k, n in Design.objects.filter(**mine).values_list("key", "name")
        ]
        + made["designs"],
        "craft": [
            {"id": k, "design": d}
            for k, d in Craft.objects.filter(**mine).values_list("key", "design__key")
        ],
        "builds": [{"id": k} for k in Build.objects.filter(**mine).values_list("key", flat=True)],
        "officers": made["officers"],
        "diplomats": made["diplomats"],
    }
    # its officers and diplomats by their names (an order assigns one, the ledger pays one):
    # both in one query (no ORDER BY: SQLite refuses one inside a UNION)
    officers = Officer.objects.filter(**mine).order_by().values_list("key", "name")
    diplomats = Diplomat.objects.filter(**mine).order_by().values_list("key", "name")
    both = officers.annotate(t=Value("o")).union(diplomats.annotate(t=Value("d")), all=True)
    for key, name, table in both:
        state["officers" if table == "o" else "diplomats"].append({"id": key, "name": name})
    return Names.of_state(state, power_names(power.campaign_id), hub_names(power), power.key)


def live_round(campaign_id: int) -> Round | None:
    return (
        Round.objects.filter(
            campaign_id=campaign_id, status__in=[RoundStatus.OPEN, RoundStatus.RESOLVING]
        )
        .order_by("-number")
        .first()
    )


@dataclass(frozen=True)
class Submission:
    name: str
    colour: str
    submitted: bool


def submissions(rnd: Round) -> list[Submission]:
    """Public: which powers have submitted this round (never what)."""
    done = set(
        OrderSheet.objects.filter(round=rnd, status="submitted").values_list("power_id", flat=True)
    )
    return [
        Submission(p.name, p.colour, p.pk in done)
        for p in Power.objects.filter(campaign_id=rnd.campaign_id).order_by("name")
    ]


def sheet_of(rnd: Round, power: Power) -> tuple[OrderSheet | None, list[Order]]:
    sheet = OrderSheet.objects.filter(round=rnd, power=power).first()
    orders = list(sheet.orders.order_by("position")) if sheet else []
    return sheet, orders


def order_at(power: Power, position: int) -> Order | None:
    """The order at ``position`` on the power's sheet for the live round."""
    rnd = live_round(power.campaign_id)
    return Order.objects.filter(sheet__round=rnd, sheet__power=power, position=position).first()


# --- choices for the order forms ----------------------------------------------------------


@dataclass
class Choices:
    """Keys and labels the order forms may offer a power: its own groups, hubs and systems."""

    groups: list[tuple[str, str]]
    hubs: list[tuple[str, str]]
    held: list[tuple[str, str]]
    systems: list[tuple[str, str]]
    statics: list[tuple[str, str]]
    other_powers: list[tuple[str, str]]
    fleet: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # fleet_selectors

    def get(self, source: str) -> list[tuple[str, str]]:
        if source == "places":
            return self.hubs + self.held
        if source == "carriers":
            return self.groups + self.statics
        if source in self.fleet:
            return self.fleet[source]
        named: list[tuple[str, str]] = getattr(self, source, [])
        return named


def choices_for(power: Power) -> Choices:
    def pos(kind: str, obj: FleetGroup | Static) -> str:
        return f"{kind} {shown(power, obj.key)} at {obj.hex_code}"

    systems = list(StarSystem.objects.filter(campaign_id=power.campaign_id).select_related("hex"))
    return Choices(
        groups=[
            (g.key, pos("Group", g)) for g in FleetGroup.objects.filter(power=power).order_by("key")
        ],
        hubs=[
            (h.key, f"hub {hub_name(h.key, h.name, [power.key])}")
            for h in TradeHub.objects.filter(power=power).order_by("key")
        ],
        held=sorted(
            (s.key, f"{s.name} ({s.hex.code})") for s in systems if s.holder_id == power.pk
        ),
        systems=sorted((s.key, f"{s.name} ({s.hex.code})") for s in systems),
        statics=[
            (s.key, pos("Static", s)) for s in Static.objects.filter(power=power).order_by("key")
        ],
        other_powers=[
            (p.key, p.name)
            for p in Power.objects.filter(campaign_id=power.campaign_id)
            .exclude(pk=power.pk)
            .order_by("name")
        ],
        fleet={**fleet_choices(power), **command_choices(power)},  # issue 16: its sources
    )


def unavailable(power: Power, choices: Choices | None = None) -> dict[str, str]:
    """Order types this power cannot use now, each with the reason in words (issue 17: the
    form offers them greyed, never as a trap). Entry still checks every order."""
    c = choices or choices_for(power)
    held = dict(
        StarSystem.objects.filter(holder=power).values_list("key", "system_type").order_by()
    )
    hubs = dict(TradeHub.objects.filter(power=power).values_list("key", "guild").order_by())
    types = set(held.values())
    why: dict[str, str] = {}

    def unless(ok: object, reason: str, *kinds: str) -> None:
        if not ok:
            why.update(dict.fromkeys((k for k in kinds if k not in why), reason))

    unless(c.groups, "you have no fleet groups", "declare_group", "send_troops", "recover_troops")
    unless(held, "you hold no systems", "conscript", "designate_primary", "home_defense")
    unless(held, "you hold no systems", "drop_primary", "nominate_homeworld")
    unless(held, "you hold no systems", "planetary_project", "convert_invasion")
    unless("primary" in types, "none of your systems is a Primary", "drop_primary")
    unless("homeworld" not in types, "you have a Homeworld already", "nominate_homeworld")
    unless("primary" in types, "a Homeworld is named from your Primaries", "nominate_homeworld")
    unless("homeworld" in types, "research needs your Homeworld held", "research_project")
    unless(hubs, "you have no trade hubs", "hub_extend", "hub_maintain", "distribute")
    unless(hubs, "you have no trade hubs", "guild_join", "guild_leave", "ship")
    unless(sum(hubs.values()) >= 2, "you need two hubs in the guild", "ship")
    unless(not all(hubs.values()), "all your hubs are in the guild", "guild_join")
    unless(any(hubs.values()), "none of your hubs is in the guild", "guild_leave")
    unless(c.other_powers, "there is no other power", "gal_transfer")
    unless(c.statics, "you have no statics", "embark")
    unless(c.get("carriers"), "you have no groups or statics", "recruit_troops")
    unless(c.get("builders"), "you have no builders", "build", "unbuild", "make")
    unless(c.get("designs"), "you have no designs", "build")
    unless(c.get("own_craft"), "you have no craft", "unbuild")
    unless(c.get("kinds"), "the campaign has no consumables", "make")
    unless(c.get("work"), "you have no work in progress", "adjust_build")
    unless(c.get("orbiting"), "no finished craft waits in orbit", "form_group")
    unless(c.get("crewed") or c.get("craft"), "you have no groups or craft", "crew")
    unless(c.get("supplied"), "you have no groups or statics", "supply_ep")
    _command_unavailable(c, bool(held), unless)  # issue 16
    for kind, spec in SPECS.items():  # any other type naming a thing the power has none of
        for f in spec.fields:
            if f.required and f.kind.noun and kind not in why and not c.get(f.source):
                why[kind] = f"you have no {f.kind.noun}"
    return why


def _command_unavailable(c: Choices, held: bool, unless: Callable[..., None]) -> None:
    """The command order types a power cannot use now (Support §3.3, §4.4, §5; R-8): an
    officer commissioned on this round's sheet counts, as the engine lets it serve at once."""
    officers = ("promote", "demote", "dismiss", "assign_officer", "post_officer")
    unless(c.get("officers"), "you have no officers: commission one first", *officers)
    unless(c.get("officers"), "an HQ needs an officer: commission one first", "bubble_hq")
    unless(held or c.statics, "an HQ needs a system you hold or a static", "bubble_hq")
    posts = ("bubble_outpost", "bubble_sensor", "post_officer", "patrol")
    unless(c.get("bubbles"), "you have no command bubbles: set up an HQ first", *posts)
    unless(c.get("officers"), "an outpost needs an officer", "bubble_outpost")
    unless(c.groups, "you have no fleet groups", "patrol")
    unless(c.get("own_craft"), "you have no craft", "researchers", "appoint_diplomat")
    unless(c.get("diplomats"), "you have no diplomats", "recall_diplomat", "diplomatic_mission")
    unless(c.other_powers, "there is no other power", "diplomatic_mission")


def loyalty_drains(power: Power) -> list[str]:
    """The power's systems that lose 1 loyalty this round as things stand (R-3.4: abandoned),
    with the groups where this round's sheet declares them; names, for the dashboard."""
    declared = {
        p["group"]: p["hex"]
        for p in sheet_payloads(power, "declare_group")
        if isinstance(p.get("group"), str) and isinstance(p.get("hex"), str)
    }
    rnd = live_round(power.campaign_id)
    state = round_state(power.campaign, rnd).state if rnd else load_state(power.campaign)
    return [f"{s.name} ({s.hex})" for s in abandoned(state, power.key, declared)]


# --- statements ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StockRow:
    where: str
    label: str
    resource: str
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before

    @property
    def resource_words(self) -> str:
        return resource_word(self.resource.lower())


@dataclass
class Statement:
    """A power's ledger for one round grouped by phase step, with before/after per stockpile."""

    power: str
    steps: list[tuple[str, list[dict[str, Any]]]]
    stocks: list[StockRow]
    rejected: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    names: Names = field(default_factory=Names)

    def rejected_in_words(self) -> list[tuple[int, str]]:
        """(order number, why) for each rejected order, with names, never keys."""
        return [(r["index"] + 1, self.names.words(plain(r["error"]))) for r in self.rejected]

    def ledger_in_words(self) -> list[dict[str, Any]]:
        """The ledger by step for players (issue 17): each step by its title with its place in
        the rules guide, places and reasons with names; the API keeps the keys."""
        out: list[dict[str, Any]] = []
        for key, lines in self.steps:
            step = step_of(key)
            if out and out[-1]["step"] is step:  # parts of one step read as one
                target = out[-1]["lines"]
            else:
                target = []
                out.append({"step": step, "lines": target})
            target += [
                {
                    **line,
                    "where": self.names.place(line["where"]),
                    "resource": resource_word(line["resource"]),
                    "reason": self.names.words(line["reason"]),
                }
                for line in lines
            ]
        return out


def _holdings(state: dict[str, Any], power: str) -> dict[tuple[str, str], int]:
    """(where, resource) -> amount at the start of the round (places are named by
    ``Names.place``)."""
    amounts: dict[tuple[str, str], int] = {}
    for p in state["powers"]:
        if p["id"] == power:
            amounts[("bank", "gal")] = p["gal"]
            amounts[("bank", "tp")] = p["tp"]
    for s in state["systems"]:
        if s["holder"] == power:  # a system's stockpile is its holder's
            for res, n in s["stock"].items():
                amounts[(f"system:{s['id']}", res)] = n
    for h in state["hubs"]:
        if h["power"] == power:
            for res, n in h["pool"].items():
                amounts[(f"hub:{h['id']}", res)] = n
    for sh in state["shipments"]:
        if sh["power"] == power:  # goods in transit belong to the receiver
            amounts[(f"shipment:{sh['id']}", sh["resource"])] = sh["amount"]
    for g in state["groups"]:
        if g["power"] == power:
            amounts[(f"group:{g['id']}", "troops")] = g["troops"]
            amounts[(f"group:{g['id']}", "ep")] = g.get("ep", 0)
    for s in state["statics"]:
        if s["power"] == power:
            amounts[(f"static:{s['id']}", "pl")] = s["passengers"]
            amounts[(f"static:{s['id']}", "troops")] = s["troops"]
            amounts[(f"static:{s['id']}", "ep")] = s.get("ep", 0)
    _fleet_holdings(state, power, amounts)
    return amounts


def _fleet_holdings(state: dict[str, Any], power: str, amounts: dict[tuple[str, str], int]) -> None:
    """R-0.4, issue 14: crew and consumables aboard craft, consumables in their workshops, and
    the Ore paid into work in progress are the power's stockpiles too."""
    for c in state.get("craft", []):
        if c["power"] == power:
            amounts[(f"craft:{c['id']}", "cf")] = c.get("crew", 0)
            for kind, n in c.get("consumables", {}).items():
                amounts[(f"craft:{c['id']}", kind)] = n
            for kind, n in c.get("workshop", {}).items():
                amounts[(f"workshop:{c['id']}", kind)] = n
    for b in state.get("builds", []):
        if b["power"] == power:
            amounts[(f"build:{b['id']}", "ore")] = b.get("paid", 0)


def build_statement(
    start: dict[str, Any],
    end: dict[str, Any] | None,
    power: str,
    lines: list[dict[str, Any]],
    rejected: list[dict[str, Any]],
    events: Sequence[dict[str, Any]] = (),
    names: Names | None = None,
) -> Statement:
    """Group ``lines`` (this power's ledger) by step and add before/after for every stockpile
    they touch, from the round's starting ``start`` state (contracts §1 shape); the power's
    events come in words, with ``names``."""
    names = names or Names.of_state(start, {})
    amounts = _holdings(start, power)
    steps: dict[str, list[dict[str, Any]]] = defaultdict(list)
    totals: dict[tuple[str, str], int] = defaultdict(int)
    for line in lines:
        steps[line["step"]].append(line)
        if line["resource"] != "lr":  # LR lost: shown with the loyalty rows below
            totals[(line["where"], line["resource"])] += line["amount"]
    stocks = [
        StockRow(
            where,
            names.place(where),
            res,
            amounts.get((where, res), 0),
            amounts.get((where, res), 0) + delta,
        )
        for (where, res), delta in sorted(totals.items())
    ]
    if end is not None:
        after = {s["id"]: s for s in end["systems"]}
        for s in start["systems"]:
            now = after.get(s["id"])
            if now is None:
                continue
            was_mine = s["holder"] == power
            is_mine = now["holder"] == power
            before, after_lr = s["loyalty"] if was_mine else 0, now["loyalty"] if is_mine else 0
            if (was_mine or is_mine) and before != after_lr:
                where = f"system:{s['id']}"
                stocks.append(StockRow(where, names.place(where), "LR", before, after_lr))
    return Statement(
        power=power,
        steps=list(steps.items()),
        stocks=stocks,
        rejected=[r for r in rejected if r["power"] == power],
        events=in_words(
            [e for e in events if power in e.get("powers", ()) or e.get("public")], names
        ),
        names=names,
    )


def projected_statement(power: Power, *, focused: bool = True) -> Statement:
    """What this power's books and loyalty would be if the round resolved now with its current
    orders — the engine run on a copy; other powers' orders are not used (nor shown). The
    parsed state is the live round's, cached per process and state version (issue 13). The
    engine runs on this power's part of the campaign only (``engine.focus``: what can change
    its books), which gives exactly the statement the whole campaign gives; ``focused=False``
    runs the whole campaign (the reference ``tests/web/test_projection_focus.py`` compares
    with)."""
    rnd = live_round(power.campaign_id)
    powers = power_names(power.campaign_id)
    if rnd is None:
        state = load_state(power.campaign)
        start = dump_state(state)
        names = Names.of_state(start, powers, hub_names(power), power.key)
        return _projection(power, state, start, [], state, names)
    cached = round_state(power.campaign, rnd)
    state, start = cached.state, cached.start
    _, rows = sheet_of(rnd, power)
    orders = [o.payload for o in rows]
    base = cached.remember(("names", tuple(sorted(powers.items()))), lambda: _names(start, powers))
    hubs = hub_table(start, powers, hub_names(power), power.key)
    names = replace(base, hubs=hubs, viewer=power.key)
    if not focused:
        return _projection(power, state, start, orders, state, names)
    # the part is the same for every sheet naming the same things of the campaign
    universe = cached.remember("ids", lambda: ids_of(state))
    said = frozenset(named(orders) & universe)
    part = cached.remember(("part", power.key, said), lambda: focus(state, power.key, said))
    return _projection(power, state, start, orders, part, names)


def _names(start: dict[str, Any], powers: dict[str, str]) -> Names:
    return Names.of_state(start, powers)


def _projection(
    power: Power,
    state: State,
    start: dict[str, Any],
    orders: list[Any],
    part: State,
    names: Names,
) -> Statement:
    """The engine on ``part`` (of ``state``) with the power's ``orders``; its statement."""
    result = resolve(
        part,
        [(power.key, i, o) for i, o in enumerate(orders)],
        round_rng(state.seed, state.round),
    )
    lines = [line.as_json() for line in result.ledger if line.power == power.key]
    # only holders and loyalty of the end state are read: no need to dump all of it
    end = {
        "systems": [
            {"id": s.id, "holder": s.holder, "loyalty": s.loyalty} for s in result.state.systems
        ]
    }
    return build_statement(
        start,
        end,
        power.key,
        lines,
        [r.as_json() for r in result.rejected if r.power == power.key],
        # this power's only (public ones come at resolution): no words for the others'
        [e.as_json() for e in result.events if not e.public and power.key in e.powers],
        names,
    )


def round_statement(power: Power, number: int) -> Statement | None:
    """The statement of a resolved round for one power, from the stored record and ledger."""
    record = (
        RoundRecord.objects.filter(round__campaign_id=power.campaign_id, round__number=number)
        .select_related("round")
        .first()
    )
    if record is None:
        return None
    nxt = RoundRecord.objects.filter(
        round__campaign_id=power.campaign_id, round__number=number + 1
    ).first()
    end = nxt.state if nxt else _live_state(power.campaign)
    lines: list[dict[str, Any]] = [
        dict(row)
        for row in LedgerLine.objects.filter(power=power, round_number=number)
        .order_by("seq")
        .values("step", "where", "resource", "amount", "reason", "rule")
    ]
    names = Names.of_state(
        record.state, power_names(power.campaign_id), hub_names(power), power.key
    )
    return build_statement(
        record.state, end, power.key, lines, record.rejected, record.events, names
    )


def _live_state(campaign: Campaign) -> dict[str, Any]:
    """The campaign's state as it is now, as the contract's JSON: the live round's, parsed once
    per process and state version, so every power's statement of one round reads it once (the
    round-resolved notices build one per power), else read afresh. Shared: not to be changed."""
    rnd = live_round(campaign.pk)
    return round_state(campaign, rnd).start if rnd else export_state(campaign)


def power_ledger(
    power: Power, *, round_number: int | None = None, step: str = "", resource: str = ""
) -> QuerySet[LedgerLine]:
    qs = LedgerLine.objects.filter(power=power).order_by("round_number", "seq")
    if round_number is not None:
        qs = qs.filter(round_number=round_number)
    if step:
        qs = qs.filter(step=step)
    if resource:
        qs = qs.filter(resource=resource)
    return qs


#: The ledger download's columns (CSV and JSON): keys for programs (``step``, ``where``,
#: ``resource``, ``rule``), words for people (``place``, ``reason``; issue 30).
EXPORT_FIELDS = ["round_number", "step", "where", "place", "resource", "amount", "reason", "rule"]


def ledger_export(power: Power) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    """A power's whole ledger as rows of ``EXPORT_FIELDS``, its places and reasons in names
    (``names_for``: the names as they are now, a fixed number of queries)."""
    names = names_for(power)
    lines = power_ledger(power).values_list(
        "round_number", "step", "where", "resource", "amount", "reason", "rule"
    )

    def rows() -> Iterator[tuple[Any, ...]]:
        for number, step, where, resource, amount, reason, rule in lines.iterator():
            place, words = names.place(where), names.words(reason)
            yield number, step, where, place, resource, amount, words, rule

    return EXPORT_FIELDS, rows()


# --- public round summary -----------------------------------------------------------------


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    rates: dict[str, str]
    submitted: list[str]
    nmr: list[str]
    events: list[str]


def round_history(campaign: Campaign) -> list[tuple[Round, RoundSummary | None]]:
    """Every round, newest first, with the public summary of those resolved."""
    summaries = round_summaries(campaign)
    rounds = Round.objects.filter(campaign=campaign).order_by("-number")
    return [(r, summaries.get(r.number)) for r in rounds]


def round_summary(campaign: Campaign, number: int) -> RoundSummary | None:
    return round_summaries(campaign, number).get(number)


def round_summaries(campaign: Campaign, number: int | None = None) -> dict[int, RoundSummary]:
    """Public facts about resolved rounds: rates in force, who submitted and who did not,
    changes of holder (visible on the public map anyway) and public events. Nothing private.
    A fixed number of queries however many rounds: only the public parts of the stored states
    are read."""
    records = RoundRecord.objects.filter(round__campaign=campaign)
    if number is not None:
        records = records.filter(round__number__in=[number, number + 1])
    rows = list(
        records.order_by("round__number").values(
            "round_id",
            "round__number",
            "orders",
            "nmr",
            "events",
            "state__systems",
            "state__market__rates",
        )
    )
    if not rows:
        return {}
    powers = list(Power.objects.filter(campaign=campaign).values_list("pk", "key", "name"))
    names = {key: name for _, key, name in powers}
    holder_key = {pk: key for pk, key, _ in powers}
    now = {
        key: holder_key.get(holder)
        for key, holder in StarSystem.objects.filter(campaign=campaign).values_list(
            "key", "holder_id"
        )
    }
    rounds = {r.pk: r for r in Round.objects.filter(pk__in=[row["round_id"] for row in rows])}
    holders_at = {row["round__number"]: row["state__systems"] for row in rows}
    out: dict[int, RoundSummary] = {}
    for row in rows:
        n = row["round__number"]
        if number is not None and n != number:
            continue
        after = holders_at.get(n + 1)
        end = {s["id"]: s["holder"] for s in after} if after is not None else now
        events = []
        for s in row["state__systems"]:
            new = end.get(s["id"], s["holder"])
            if new != s["holder"]:
                was = names.get(s["holder"], "neutral") if s["holder"] else "neutral"
                became = names.get(new, "neutral") if new else "neutral"
                events.append(f"{s['name']} ({s['hex']}) passed from {was} to {became}.")
        words = Names.of_state({"systems": row["state__systems"]}, names)
        events += [describe(e, words) for e in row["events"] if e.get("public")]
        out[n] = RoundSummary(
            round=rounds[row["round_id"]],
            rates=row["state__market__rates"],
            submitted=sorted(names[k] for k in row["orders"] if k in names),
            nmr=sorted(names[k] for k in row["nmr"] if k in names),
            events=events,
        )
    return out
