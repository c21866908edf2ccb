"""What the engine's entry rules read of the campaign for one order (issues 13, 16): the
catalogue of only the ids the order names, what the power's sheet creates this round, and the
chain of command an officer's or a bubble's order is judged against."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from django.db.models import BigIntegerField, CharField, F, IntegerField, Model, Q, QuerySet, Value
from django.db.models.functions import Coalesce

from economy.engine.catalog import BANK, GOODS, Catalog, FleetCatalog, Holdings
from economy.engine.command_entry import CHECKED as CHAIN_CHECKED
from economy.engine.command_entry import Desk, entry_problem
from economy.engine.command_state import Officer as OfficerState
from economy.engine.navy import Navy
from economy.engine.orders import DRAWING, NAMES_PROMISED, PROMISES, SPECS
from economy.engine.orders.kinds import KEY_LENGTH
from economy.models import Order, RoundStatus
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
from trade.models import Agreement, HubNode, Motion, Shipment, TradeHub

# --- layer 2's catalogue: only what the order names (issue 13) ------------------------------
#
# The engine's entry rules look up each id an order names (owner, holder, taken or not) and,
# for hexes, the map's bounds: nothing else of the campaign. So the catalogue holds just those
# ids, read in one query over the campaign-scoped keys (an index lookup each), plus the map's
# bounds (one aggregate) when the order has hexes, plus the ids the power's sheet creates when
# a fleet order may name them (R-10.1a). The cost is the same at any campaign size and it reads
# the rows as they are now, so there is nothing to go stale.

FLEET_KINDS = ("design", "craft", *WorkKind.values, "consumable")  # in _catalog
# issue 30: what each place holds, read in the same query as its owner (its amount columns);
# the bank is the power's row, read by the access gate
STOCKS: dict[str, tuple[tuple[str, str], ...]] = {
    "system": (("ore", "stock_ore"), ("bio", "stock_bio"), ("pl", "stock_pl")),
    "hub": (("ore", "pool_ore"), ("bio", "pool_bio"), ("pl", "pool_pl")),
    "group": (("troops", "troops"), ("ep", "ep")),
    "static": (("pl", "passengers"), ("troops", "troops"), ("ep", "ep")),
}
CARRIERS = ("group", "static")  # what a fleet order draws at the hex of
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
    holdings = Holdings(stock={(BANK, "gal"): power.gal, (BANK, "tp"): power.tp})
    hexes: dict[str, tuple[int, int]] = {}  # the power's named carriers' hexes (R-1.4)
    names = [n for n in named(stored) if len(n) <= KEY_LENGTH]
    if names:
        size = 1 << (len(names) - 1).bit_length()  # a few prepared queries, not one per length
        keys = {f"k{i}": names[min(i, len(names) - 1)] for i in range(size)}
        for kind, key, owner, *amounts, col, row in _catalog(size).rows(
            campaign=power.campaign_id, **keys
        ):
            if kind != "consumable":  # a catalogue kind is not an id
                ids.add(key)
            if kind == "power":
                powers.add(key)
            elif kind in owned:
                owned[kind][key] = owner
            if owner == power.key and kind in STOCKS:  # only the power's own (issue 30)
                holdings.add(
                    kind, key, {r: n for (r, _), n in zip(STOCKS[kind], amounts, strict=False)}
                )
                if kind in CARRIERS:
                    hexes[key] = (col, row)
            elif owner == power.key and kind == "craft" and col is not None:
                hexes[key] = (col, row)  # what its work draws may reach
                holdings.where[key] = f"craft:{key}"
    spec = SPECS.get(str(stored.get("type")))
    if hexes and spec is not None and any(f.draws and f.draws.reach for f in spec.fields):
        _reach(power, hexes, holdings)
    has_hexes = spec is not None and any(f.kind.on_map for f in spec.fields)
    fleet = FleetCatalog(
        owned["design"],
        owned["craft"],
        {k: v for kind in WorkKind.values for k, v in owned[kind].items()},
        set(owned["consumable"]),
        {key: ("craft", owner) for key, owner in owned["build"].items()},
    )
    if stored.get("type") in NAMES_PROMISED:  # R-10.1a: it may name what the sheet creates
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
        holdings,
    )


def _reach(power: Power, hexes: dict[str, tuple[int, int]], holdings: Holdings) -> None:
    """Issue 30: what may reach each named carrier's hex (R-1.4), from the power's hubs with
    a node there and its system there: two queries, for an order drawing at a hex only."""
    nodes, systems = Q(), Q()
    for col, row in set(hexes.values()):
        nodes |= Q(col=col, row=row)
        systems |= Q(hex__col=col, hex__row=row)
    hubs = HubNode.objects.filter(nodes, hub__power=power).values_list(
        "col", "row", "hub__pool_ore", "hub__pool_bio", "hub__pool_pl"
    )
    held = StarSystem.objects.filter(
        systems, campaign_id=power.campaign_id, holder=power
    ).values_list("hex__col", "hex__row", "stock_ore", "stock_bio", "stock_pl")
    near: dict[tuple[int, int], list[dict[str, int]]] = {}
    for col, row, *goods in (*hubs, *held):
        near.setdefault((col, row), []).append(dict(zip(GOODS, goods, strict=True)))
    for carrier, hx in hexes.items():
        holdings.add_reach(carrier, near.get(hx, ()))


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


def sheet_draws(power: Power, position: int | None = None) -> list[Any]:
    """The orders on the power's open sheet that draw on a stockpile, but the one at
    ``position`` (being replaced): what an order's warning adds its own amount to (issue 30;
    one query)."""
    orders = Order.objects.filter(
        sheet__power=power, sheet__round__status=RoundStatus.OPEN, payload__type__in=list(DRAWING)
    )
    if position is not None:
        orders = orders.exclude(position=position)
    return list(orders.order_by("position").values_list("payload", flat=True))


def taken(power: Power, keys: list[str]) -> set[str]:
    """Of ``keys``, those a thing of the campaign has, or an order on the power's open sheet
    creates (issue 30: a default short name must be free): two queries."""
    size = 1 << (len(keys) - 1).bit_length()
    params = {f"k{i}": keys[min(i, len(keys) - 1)] for i in range(size)}
    used = {row[1] for row in _catalog(size).rows(campaign=power.campaign_id, **params)}
    used.update(
        Order.objects.filter(
            sheet__power=power, sheet__round__status=RoundStatus.OPEN, payload__id__in=keys
        ).values_list("payload__id", flat=True)
    )
    return used & set(keys)


@cache
def _catalog(size: int) -> Prepared[Any]:
    """The kind, key and owner's key of each of ``size`` named keys in the campaign, with what a
    place holds (``STOCKS``, three amounts) and a carrier's column and row (issue 30): one
    UNION ALL, prepared once per size (compiling its 14 parts cost the ORM more than running
    them)."""

    def part(
        model: type[Model], kind: str, owner: str | None = None, key: str = "key"
    ) -> QuerySet[Any, Any]:
        rows = model._default_manager.filter(
            campaign_id=Param("campaign"),
            **{f"{key}__in": [Param(f"k{i}", CharField()) for i in range(size)]},
        )
        label = F("kind") if kind == "x.kind" else Value(kind)  # a build's: build or unbuild
        stocks: list[F | Value] = [F(column) for _, column in STOCKS.get(kind, ())]
        stocks += [Value(0, BigIntegerField())] * (3 - len(stocks))
        at: tuple[Any, Any] = (Value(None, IntegerField()),) * 2
        if kind in CARRIERS:
            at = (F("col"), F("row"))
        elif kind == "craft":  # a builder's or repairer's hex, its group's or static's
            at = (
                Coalesce(F("group__col"), F("static__col")),
                Coalesce(F("group__row"), F("static__row")),
            )
        return rows.order_by().values_list(
            label, key, F(f"{owner}__key") if owner else Value(None, CharField()), *stocks, *at
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
