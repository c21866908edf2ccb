"""The one mapping between the database and the engine's ``State`` (contracts §1).

``load_state`` reads a campaign into the engine's dataclasses in a fixed number of queries;
``save_state`` writes a ``State`` back, diffing by each object's campaign-scoped ``key`` so only
what changed is touched (bulk creates, updates and deletes). JSON is the codec's business
(``economy.engine.codec``): ``export_state`` / ``write_state`` only compose the two mappings, for
round records, exports and cases. A new contract field is added here once (load and save side by
side, per object) and once in the codec.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeVar

from django.db import connection, models
from django.db.models import Q, signals
from django.db.models.deletion import Collector
from django.db.models.fields.reverse_related import ManyToOneRel

from economy.engine.codec import dump_state, parse_state
from economy.engine.navy import Navy
from economy.engine.rules import derived_type
from economy.engine.state import (
    CAPACITIES,
    EDGES,
    Bubble,
    Fleet,
    Group,
    Hub,
    Leg,
    Market,
    Outpost,
    Project,
    State,
    System,
    Workshop,
)
from economy.engine.state import (
    Agreement as AgreementState,
)
from economy.engine.state import Build as BuildState
from economy.engine.state import Consumable as ConsumableState
from economy.engine.state import Craft as CraftState
from economy.engine.state import Design as DesignState
from economy.engine.state import DesignSystem as DesignSystemState
from economy.engine.state import GroupLimit as GroupLimitState
from economy.engine.state import (
    Invasion as InvasionState,
)
from economy.engine.state import (
    Motion as MotionState,
)
from economy.engine.state import (
    Power as PowerState,
)
from economy.engine.state import (
    Shipment as ShipmentState,
)
from economy.engine.state import (
    Static as StaticState,
)
from economy.models import Round
from economy.snapshot.command import load_command, load_posts, save_command
from economy.snapshot.fleet2 import load_pacts, save_pacts
from powers.db import bulk_update, hex_code
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    Build,
    BuildBuilder,
    Campaign,
    CommandBubble,
    Consumable,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    GroupLimit,
    Invasion,
    MapHex,
    Power,
    StarSystem,
    Static,
)
from trade.models import (
    Agreement,
    HubLink,
    HubNode,
    MarketBan,
    MarketEdge,
    Motion,
    PowerTax,
    Shipment,
    TradeHub,
    Vote,
)

RES3 = ("ore", "bio", "pl")
RATES = ("ore", "gal", "bio", "pl")
M = TypeVar("M", bound=models.Model)
T = TypeVar("T")


def _xy(code: str) -> tuple[int, int]:
    return int(code[:2]), int(code[2:])


def export_state(campaign: Campaign) -> dict[str, Any]:
    """The campaign's state as a contract §1 object (for round records and exports)."""
    return dump_state(load_state(campaign))


def write_state(campaign: Campaign, state: dict[str, Any]) -> None:
    """Write a contract §1 object into the campaign (cases, rollback). Raises ``CaseError``."""
    save_state(campaign, parse_state(state))


# --- loading -----------------------------------------------------------------------------


def load_state(campaign: Campaign) -> State:
    """The campaign's current state (40 queries, whatever its size)."""
    cid = campaign.pk
    power_key = dict(Power.objects.filter(campaign_id=cid).values_list("id", "key"))
    # looked up by nullable foreign keys too: no hub, no key
    hub_key: dict[int | None, str] = dict(
        TradeHub.objects.filter(campaign_id=cid).values_list("id", "key")
    )
    state = State(
        round=campaign.current_round,
        seed=campaign.seed,
        hexes={
            hex_code(col, row): kind
            for col, row, kind in MapHex.objects.filter(campaign_id=cid)
            .order_by("col", "row")
            .values_list("col", "row", "hex_type")
        },
        map_size=(campaign.map_cols, campaign.map_rows)
        if campaign.map_cols and campaign.map_rows
        else None,
        powers=[
            PowerState(p.key, {"gal": p.gal, "tp": p.tp}, p.un_member)
            for p in Power.objects.filter(campaign_id=cid).order_by("key")
        ],
        systems=[
            _system(s, power_key)
            for s in StarSystem.objects.filter(campaign_id=cid)
            .select_related("hex")
            .order_by("key")
            .only(*SYSTEM_FIELDS, "hex__col", "hex__row")
        ],
        hubs=_load_hubs(cid, power_key),
        groups=[
            _group(g, power_key) for g in FleetGroup.objects.filter(campaign_id=cid).order_by("key")
        ],
        statics=[
            _static(s, power_key) for s in Static.objects.filter(campaign_id=cid).order_by("key")
        ],
        invasions=[
            InvasionState(system, power_key[power], {"troops": troops})
            for system, power, troops in Invasion.objects.filter(campaign_id=cid, troops__gt=0)
            .order_by("system__key", "power__key")
            .values_list("system__key", "power_id", "troops")
        ],
        market=_load_market(cid, power_key),
        shipments=[
            ShipmentState(
                s.key,
                power_key[s.power_id],
                power_key[s.sender_id],
                hub_key.get(s.from_hub_id),
                hub_key.get(s.to_hub_id),
                s.resource,
                {s.resource: s.amount},
                s.arrives,
                s.waiting,
                list(s.waiting_for),
            )
            for s in Shipment.objects.filter(campaign_id=cid).order_by("key")
        ],
        bubbles=_load_bubbles(cid, power_key),
        agreements=_load_agreements(cid, power_key, hub_key),
        motions=_load_motions(cid, power_key),
        fleet=_load_fleet(campaign, power_key),
    )
    # groups' and statics' figures follow from their craft, as when a state is parsed
    groups = {g.id: g for g in state.groups}
    Navy(state, groups, {s.id: s for s in state.statics}).refresh_all()
    load_command(campaign.pk, power_key, state)  # Support §4.4, §5: after the groups' figures
    return state


@dataclass(frozen=True)
class RoundState:
    """A live round's parsed state and its contract JSON, shared by the requests of one
    process: never mutate it (the engine works on a copy, ``resolve``)."""

    state: State
    start: dict[str, Any]
    # what the requests derive from it, by key (a power's part of it, the names): as the state
    # itself, never mutated once stored; ``remember`` keeps the newest MEMO of them
    memo: OrderedDict[Any, Any] = field(default_factory=OrderedDict)

    def remember(self, key: Any, make: Callable[[], T]) -> T:
        """``make()``, computed once per key while the state is cached."""
        with _round_states_lock:
            if key in self.memo:
                self.memo.move_to_end(key)
                found: T = self.memo[key]
                return found
        value = make()
        with _round_states_lock:
            self.memo[key] = value
            while len(self.memo) > MEMO:
                self.memo.popitem(last=False)
        return value


MEMO = 64  # per cached state: a part and names for each power, with room to spare


ROUND_STATES = 2  # entries kept per process: the live rounds of the campaigns in play
_round_states: OrderedDict[tuple[int, int], RoundState] = OrderedDict()
_round_states_lock = threading.Lock()


def round_state(campaign: Campaign, rnd: Round) -> RoundState:
    """The campaign's state while ``rnd`` is live, parsed once per process and state version
    (issue 13). ``rnd`` as just read: every write to a table of the state bumps its
    ``state_version`` in the writer's transaction (PostgreSQL triggers, economy migration
    0004), and the version is read before the state, so what is cached under a version is
    never older than it. Without PostgreSQL (the SQLite demo) there are no triggers and the
    state is loaded every time."""
    if connection.vendor != "postgresql":
        state = load_state(campaign)
        return RoundState(state, dump_state(state))
    key = (rnd.pk, rnd.state_version)
    with _round_states_lock:
        hit = _round_states.get(key)
        if hit is not None:
            _round_states.move_to_end(key)
            return hit
    state = load_state(campaign)
    out = RoundState(state, dump_state(state))
    # Out of the garbage collector's sight from now on: at 5,000 systems the parsed state is
    # millions of objects, and each full collection walked them all, ~0.1 s at a time, on any
    # later request of the process (issue 13). Its objects hold no reference cycles; they are
    # freed by reference counting when the entry is dropped.
    gc.freeze()
    with _round_states_lock:
        _round_states[key] = out
        while len(_round_states) > ROUND_STATES:
            _round_states.popitem(last=False)
    return out


def forget_round_states() -> None:
    """Empty this process's cache (tests: a new database reuses round ids)."""
    with _round_states_lock:
        _round_states.clear()


def load_power_fleet(power: Power) -> State:
    """One power's fleet as the engine sees it, for its fleet pages: its groups and statics
    (figures derived from their craft, R-10.7), designs, craft and work in progress, with the
    campaign's catalogue and settings; everything else is left empty (10 queries)."""
    campaign = power.campaign
    power_key = {power.pk: power.key}
    groups = [_group(g, power_key) for g in FleetGroup.objects.filter(power=power).order_by("key")]
    statics = [_static(s, power_key) for s in Static.objects.filter(power=power).order_by("key")]
    state = State(
        round=campaign.current_round,
        seed=campaign.seed,
        hexes={},
        powers=[PowerState(power.key, {"gal": power.gal, "tp": power.tp}, power.un_member)],
        systems=[],
        hubs=[],
        groups=groups,
        statics=statics,
        invasions=[],
        market=Market({}, {}),
        shipments=[],
        bubbles=[],
        fleet=_load_fleet(campaign, power_key, power),
    )
    Navy(state, {g.id: g for g in groups}, {s.id: s for s in statics}).refresh_all()
    return state


SYSTEM_FIELDS = (
    "key",
    "name",
    "system_type",
    "holder_id",
    "loyalty",
    *(f"rate_{r}" for r in RATES),
    *(f"stock_{r}" for r in RES3),
    "project_source",
    "project_target",
    "project_pct",
    "free_ep",
)


def _system(s: StarSystem, power_key: dict[int, str]) -> System:
    rates = {r: getattr(s, f"rate_{r}") for r in RATES}
    return System(
        s.key,
        s.name,
        s.hex.code,
        derived_type(s.system_type, rates["pl"]),  # as the codec reads a state
        power_key.get(s.holder_id) if s.holder_id else None,
        s.loyalty if s.holder_id else 0,
        rates,
        {r: getattr(s, f"stock_{r}") for r in RES3},
        Project(s.project_source, s.project_target, s.project_pct)
        if s.project_source and s.project_pct
        else None,
        s.free_ep,
    )


def _system_values(s: System, pid: dict[str, int], hex_id: int) -> dict[str, Any]:
    return {
        "key": s.id,
        "name": s.name,
        "hex_id": hex_id,
        "system_type": s.type,
        "holder_id": pid[s.holder] if s.holder else None,
        "loyalty": s.loyalty,
        **{f"rate_{r}": s.rates[r] for r in RATES},
        **{f"stock_{r}": s.store.get(r, 0) for r in RES3},
        "project_source": s.project.source if s.project else "",
        "project_target": s.project.target if s.project else "",
        "project_pct": s.project.pct if s.project else 0,
        "free_ep": s.free_ep,
    }


def _group(g: FleetGroup, power_key: dict[int, str]) -> Group:
    return Group(
        g.key,
        power_key[g.power_id],
        g.hex_code,
        g.order,
        g.points,
        {"troops": g.troops, "ep": g.ep},
        g.troop_space,
        g.diplomat,
        g.status,
        g.kind,
        tuple(sorted(g.engages)),
        g.defending,
        g.ep_storage,
        g.out_of_supply,
    )


def _static(s: Static, power_key: dict[int, str]) -> StaticState:
    return StaticState(
        s.key,
        power_key[s.power_id],
        s.hex_code,
        s.civilian,
        s.passenger_space,
        s.troop_space,
        {"pl": s.passengers, "troops": s.troops, "ep": s.ep},
        s.out_of_supply,
    )


def _group_values(g: Group, pid: dict[str, int]) -> dict[str, Any]:
    col, row = _xy(g.hex)
    return {
        "key": g.id,
        "power_id": pid[g.power],
        "col": col,
        "row": row,
        "kind": g.kind,
        "order": g.order,
        "status": g.status,
        "points": g.points,
        "ep": g.ep,
        "troops": g.troops,
        "troop_space": g.troop_space,
        "diplomat": g.diplomat,
        "engages": sorted(g.engages),
        "defending": g.defending,
        "ep_storage": g.ep_storage,
        "out_of_supply": g.out_of_supply,
    }


def _load_fleet(campaign: Campaign, power_key: dict[int, str], power: Power | None = None) -> Fleet:
    """R-10: the catalogue, the settings, designs with their systems, craft, and work in
    progress with its builders in order (7 queries), and the campaign's pacts (5,
    ``economy.snapshot.fleet2``); with ``power``, only that power's, without pacts."""
    cid = campaign.pk
    scope = {"campaign_id": cid} if power is None else {"power_id": power.pk}
    rows = Design.objects.filter(campaign_id=cid)
    if power is not None:  # its designs, and those of craft it holds on loan or given (R-10.5a)
        rows = rows.filter(models.Q(power=power) | models.Q(craft__power=power)).distinct()
    rows = rows.annotate(owner=models.F("power__key")).order_by("key")
    systems = _design_systems(design__in=rows.values("pk"))
    designs = [
        DesignState(
            d.key,
            d.owner,
            d.name,
            d.craft_class,
            d.mobility,
            d.mass,
            d.npv,
            d.crew,
            tuple(systems[d.pk]),
            dict(d.loadout),
            d.completed,
            d.studied_from or None,
        )
        for d in rows
    ]
    craft = [
        CraftState(
            key,
            power_key[power_id],
            design,
            group,
            static,
            orbit,
            {"cf": crew, **consumables},
            fatigue,
            dict(destroyed),
            dict(disabled),
            captured,
            hex_code(gcol, grow) or None,
            Workshop(key, dict(workshop)),
            dict(unready),
        )
        for (
            key,
            power_id,
            design,
            group,
            static,
            orbit,
            crew,
            consumables,
            fatigue,
            destroyed,
            disabled,
            captured,
            gcol,
            grow,
            workshop,
            unready,
        ) in Craft.objects.filter(**scope).order_by("key").values_list(*CRAFT_FIELDS)
    ]
    builders: dict[int, list[str]] = defaultdict(list)
    for build_id, key in (
        BuildBuilder.objects.filter(**{f"build__{k}": v for k, v in scope.items()})
        .order_by("build_id", "position")
        .values_list("build_id", "craft__key")
    ):
        builders[build_id].append(key)
    builds = [
        BuildState(
            b["key"],
            power_key[b["power_id"]],
            b["kind"],
            b["design__key"],
            builders[b["id"]],
            b["inside"],
            hex_code(b["col"], b["row"]) or None,
            b["cost"],
            b["surcharge"],
            b["started"],
            {"ore": b["paid"]},
            b["craft__key"],
            b["worked"],
            dict(b["systems"]),
            b["fatigue"],
        )
        for b in Build.objects.filter(**scope).order_by("key").values(*BUILD_FIELDS)
    ]
    return Fleet(
        designs,
        craft,
        builds,
        {
            c.kind: ConsumableState(c.kind, c.mass, c.ore)
            for c in Consumable.objects.filter(campaign_id=cid).order_by("kind")
        },
        campaign.design_tp,
        {
            g.kind: GroupLimitState(g.points, g.officers)
            for g in GroupLimit.objects.filter(campaign_id=cid).order_by("kind")
        },
        # a power's own fleet pages read its pacts through their selectors (issue 15)
        *(load_pacts(cid, power_key) if power is None else ()),
    )


def _design_systems(**scope: Any) -> dict[int, list[DesignSystemState]]:
    """R-10.0: each design's systems in their order, by the design's primary key."""
    out: dict[int, list[DesignSystemState]] = defaultdict(list)
    rows = DesignSystem.objects.filter(**scope).order_by("design_id", "position")
    for row in rows:
        out[row.design_id].append(
            DesignSystemState(row.key, row.name, row.points, row.count, row.capacity())
        )
    return out


CRAFT_FIELDS = (
    "key",
    "power_id",
    "design__key",
    "group__key",
    "static__key",
    "orbit__key",
    "crew",
    "consumables",
    "fatigue",
    "destroyed",
    "disabled",
    "captured",
    "gantry_col",
    "gantry_row",
    "workshop",
    "unready",
)
BUILD_FIELDS = (
    "id",
    "key",
    "power_id",
    "kind",
    "design__key",
    "craft__key",
    "inside",
    "col",
    "row",
    "cost",
    "surcharge",
    "started",
    "paid",
    "worked",
    "systems",
    "fatigue",
)


def _load_hubs(cid: int, power_key: dict[int, str]) -> list[Hub]:
    centre: dict[int, str] = {}
    nodes: dict[int, list[str]] = defaultdict(list)
    node_code: dict[int, str] = {}
    for pk, hub_id, col, row, is_centre in (
        HubNode.objects.filter(campaign_id=cid)
        .order_by("col", "row")
        .values_list("id", "hub_id", "col", "row", "is_centre")
    ):
        node_code[pk] = hex_code(col, row)
        if is_centre:
            centre[hub_id] = node_code[pk]
        else:
            nodes[hub_id].append(node_code[pk])
    links: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for hub_id, a, b in HubLink.objects.filter(hub__campaign_id=cid).values_list(
        "hub_id", "a_id", "b_id"
    ):
        first, second = sorted((node_code[a], node_code[b]))
        links[hub_id].append((first, second))
    return [
        Hub(
            h.key,
            power_key[h.power_id],
            centre[h.pk],
            nodes[h.pk],
            sorted(links[h.pk]),
            h.guild,
            {r: getattr(h, f"pool_{r}") for r in RES3},
            sorted(h.lost),
        )
        for h in TradeHub.objects.filter(campaign_id=cid).order_by("key")
    ]


def _load_market(cid: int, power_key: dict[int, str]) -> Market:
    edges = {e.edge: e for e in MarketEdge.objects.filter(campaign_id=cid)}
    power_tax: dict[str, dict[str, Decimal]] = {}
    for power_id, edge, tax in (
        PowerTax.objects.filter(campaign_id=cid)
        .order_by("power__key", "edge")
        .values_list("power_id", "edge", "tax")
    ):
        power_tax.setdefault(power_key[power_id], {})[edge] = tax
    return Market(
        rates={e: edges[e].rate if e in edges else Decimal(1) for e in EDGES},
        tax={e: edges[e].tax if e in edges else Decimal(0) for e in EDGES},
        power_tax=power_tax,
        volume={e: edges[e].volume if e in edges else 0 for e in EDGES},
        banned=sorted(
            power_key[p]
            for p in MarketBan.objects.filter(campaign_id=cid).values_list("power_id", flat=True)
        ),
    )


def load_bubbles(cid: int) -> list[Bubble]:
    """Every power's command bubbles with their posts (R-8.3a), radii as saved: the chart the
    entry check judges overlaps on (Support §5.2.6: never shown, only judged; 5 queries)."""
    power_key = dict(Power.objects.filter(campaign_id=cid).values_list("pk", "key"))
    bubbles = _load_bubbles(cid, power_key)
    load_posts(cid, bubbles)
    return bubbles


def _load_bubbles(cid: int, power_key: dict[int, str]) -> list[Bubble]:
    # in the state's order: outposts and sensors are written anew, in order, on each save
    outposts: dict[int, list[Outpost]] = defaultdict(list)
    for o in BubbleOutpost.objects.filter(bubble__campaign_id=cid).order_by("id"):
        outposts[o.bubble_id].append(Outpost(str(o), o.radius))
    sensors: dict[int, list[str]] = defaultdict(list)
    for s in BubbleSensor.objects.filter(bubble__campaign_id=cid).order_by("id"):
        sensors[s.bubble_id].append(str(s))
    return [
        Bubble(
            b.key,
            power_key[b.power_id],
            b.hq,
            b.radius,
            tuple(outposts[b.pk]),
            tuple(sensors[b.pk]),
        )
        for b in CommandBubble.objects.filter(campaign_id=cid).order_by("key")
    ]


def _load_agreements(
    cid: int, power_key: dict[int, str], hub_key: dict[int | None, str]
) -> list[AgreementState]:
    """R-5.5: the accepted agreements still running, with each party's private hubs."""
    out = []
    for ag in Agreement.objects.filter(campaign_id=cid, status=Agreement.Status.ACCEPTED).order_by(
        "key"
    ):
        parties = {"a": power_key[ag.proposer_id], "b": power_key[ag.partner_id]}
        out.append(
            AgreementState(
                ag.key,
                parties["a"],
                parties["b"],
                ag.deposit,
                ag.delivery,
                [
                    Leg(
                        parties[side],
                        getattr(ag, f"{side}_resource"),
                        getattr(ag, f"{side}_amount"),
                        getattr(ag, f"{side}_status"),
                        getattr(ag, f"{side}_shipment") or None,
                        getattr(ag, f"{side}_note"),
                    )
                    for side in ("a", "b")
                    if getattr(ag, f"{side}_amount") > 0
                ],
                {
                    parties[side]: {
                        "send": hub_key.get(getattr(ag, f"{side}_send_hub_id")),
                        "receive": hub_key.get(getattr(ag, f"{side}_receive_hub_id")),
                    }
                    for side in ("a", "b")
                },
            )
        )
    return out


def _load_motions(cid: int, power_key: dict[int, str]) -> list[MotionState]:
    """R-6.4: the motions before the committee this round, with the votes cast so far."""
    votes: dict[int, dict[str, str]] = defaultdict(dict)
    for motion_id, member_id, choice in (
        Vote.objects.filter(motion__campaign_id=cid, motion__status=Motion.Status.SUBMITTED)
        .order_by("member__key")
        .values_list("motion_id", "member_id", "choice")
    ):
        votes[motion_id][power_key[member_id]] = choice
    return [
        MotionState(
            m.key,
            power_key[m.proposer_id],
            m.kind,
            m.edge or None,
            power_key[m.target_id] if m.target_id else None,
            m.value,
            votes[m.pk],
        )
        for m in Motion.objects.filter(campaign_id=cid, status=Motion.Status.SUBMITTED).order_by(
            "key"
        )
    ]


# --- saving ------------------------------------------------------------------------------


def _sync(
    model: type[M],
    campaign: Campaign,
    desired: dict[Any, dict[str, Any]],
    existing: dict[Any, M],
    *,
    delete: bool = True,
) -> dict[Any, M]:
    """Make the campaign's rows of ``model`` equal ``desired`` (by identity); returns all rows
    by identity. Deletes first, so unique positions can move between rows."""
    stale = [obj.pk for ident, obj in existing.items() if ident not in desired]
    if delete:
        _delete(model, stale)
    fields = sorted({f for values in desired.values() for f in values})
    changed, created, out = [], [], {}
    for ident, values in desired.items():
        obj = existing.get(ident)
        if obj is None:
            obj = model(campaign=campaign, **values)
            created.append(obj)
        elif any(getattr(obj, f) != v for f, v in values.items()):
            for f, v in values.items():
                setattr(obj, f, v)
            changed.append(obj)
        out[ident] = obj
    if changed:
        bulk_update(model, changed, fields)
    if created:
        model._default_manager.bulk_create(created, batch_size=1000)
    return out


def _drop(model: type[models.Model], stale: list[Any]) -> None:
    """Delete these rows (no query when there are none)."""
    _delete(model, [obj.pk for obj in stale])


def _delete(model: type[models.Model], pks: list[Any]) -> None:
    """Delete these rows by primary key, in a number of statements that does not grow with
    them (none when there are none). Django's ``delete()`` collects rows that other rows
    reference and deletes them 100 keys per statement, so a large round took more queries to
    save than a small one (issue 13). Where every reference is a cascade from rows that nothing
    references in turn (a hub's links, a build's builders), those go first, one statement
    each, then the rows in one; anything else (PROTECT, SET_NULL, deeper cascades, delete
    signals, inheritance) keeps Django's ``delete()``, as do rows that nothing references (one
    statement already)."""
    if not pks:
        return
    rows = model._default_manager.filter(pk__in=pks)
    # every foreign key to the model, one-to-one included, hidden ones too (related_name="+")
    refs = [r for r in model._meta.get_fields(include_hidden=True) if isinstance(r, ManyToOneRel)]
    dependents = [
        r.related_model._base_manager.filter(**{f"{r.field.name}__in": pks})
        for r in refs
        if r.on_delete is models.CASCADE
    ]
    collector = Collector(rows.db)
    plain = (
        dependents
        and len(dependents) == len(refs)
        and all(r.field_name == model._meta.pk.name for r in refs)  # keys are primary keys
        and all(collector.can_fast_delete(d) for d in dependents)
        and not (model._meta.parents or model._meta.private_fields)
        and not signals.pre_delete.has_listeners(model)
        and not signals.post_delete.has_listeners(model)
    )
    if not plain:
        rows.delete()
        return
    for dependent in dependents:
        dependent.delete()  # one statement: nothing references it, no signal
    rows._raw_delete(rows.db)


def _by_key(qs: Iterable[Any]) -> dict[str, Any]:
    return {obj.key: obj for obj in qs}


def save_state(campaign: Campaign, state: State) -> None:
    """Write ``state`` into the campaign. Call inside a transaction.

    Names and colours of powers, and UWP statistics of systems, are not part of the state and
    are kept; new powers are named after their id.
    """
    cid = campaign.pk
    campaign.current_round = state.round
    campaign.seed = state.seed
    campaign.map_cols, campaign.map_rows = state.map_size or (None, None)
    campaign.design_tp = state.fleet.design_tp
    campaign.save(update_fields=["current_round", "seed", "map_cols", "map_rows", "design_tp"])

    power_rows = _sync(
        Power,
        campaign,
        {
            p.id: {
                "key": p.id,
                "gal": p.store["gal"],
                "tp": p.store["tp"],
                "un_member": p.un_member,
            }
            for p in state.powers
        },
        _by_key(Power.objects.filter(campaign_id=cid)),
    )
    unnamed = [p for p in power_rows.values() if not p.name]
    for power in unnamed:
        power.name = power.key
    Power.objects.bulk_update(unnamed, ["name"])
    pid = {key: p.pk for key, p in power_rows.items()}

    # Shipments go first: they point at hubs that may be removed.
    Shipment.objects.filter(campaign_id=cid).exclude(
        key__in=[s.id for s in state.shipments]
    ).delete()

    hex_types = {_xy(h): t for h, t in state.hexes.items()}
    for s in state.systems:
        hex_types.setdefault(_xy(s.hex), "system")
    hex_rows = _sync(
        MapHex,
        campaign,
        {xy: {"col": xy[0], "row": xy[1], "hex_type": t} for xy, t in hex_types.items()},
        {(h.col, h.row): h for h in MapHex.objects.filter(campaign_id=cid)},
        delete=False,  # after the systems, which protect their hexes
    )
    Invasion.objects.filter(campaign_id=cid).delete()
    system_rows = _sync(
        StarSystem,
        campaign,
        {s.id: _system_values(s, pid, hex_rows[_xy(s.hex)].pk) for s in state.systems},
        _by_key(StarSystem.objects.filter(campaign_id=cid)),
    )
    MapHex.objects.filter(campaign_id=cid).exclude(
        pk__in=[h.pk for h in hex_rows.values()]
    ).delete()
    Invasion.objects.bulk_create(
        Invasion(
            campaign=campaign,
            system_id=system_rows[i.system].pk,
            power_id=pid[i.power],
            troops=i.troops,
        )
        for i in state.invasions
        if i.troops
    )

    hub_rows = _save_hubs(campaign, state.hubs, pid)
    _sync(
        Shipment,
        campaign,
        {
            s.id: {
                "key": s.id,
                "power_id": pid[s.power],
                "sender_id": pid[s.sender],
                "from_hub_id": hub_rows[s.from_hub].pk if s.from_hub in hub_rows else None,
                "to_hub_id": hub_rows[s.to_hub].pk if s.to_hub in hub_rows else None,
                "resource": s.resource,
                "amount": s.amount,
                "arrives": s.arrives,
                "waiting": s.waiting,
                "waiting_for": list(s.waiting_for),
            }
            for s in state.shipments
        },
        _by_key(Shipment.objects.filter(campaign_id=cid)),
    )
    # Groups and statics lose their stale rows only once no craft is in them (after the fleet).
    groups_now = _by_key(FleetGroup.objects.filter(campaign_id=cid))
    statics_now = _by_key(Static.objects.filter(campaign_id=cid))
    group_rows = _sync(
        FleetGroup,
        campaign,
        {g.id: _group_values(g, pid) for g in state.groups},
        groups_now,
        delete=False,
    )
    static_rows = _sync(
        Static,
        campaign,
        {
            s.id: {
                "key": s.id,
                "power_id": pid[s.power],
                "col": _xy(s.hex)[0],
                "row": _xy(s.hex)[1],
                "civilian": s.civilian,
                "passenger_space": s.passenger_space,
                "passengers": s.store.get("pl", 0),
                "troop_space": s.troop_space,
                "troops": s.store.get("troops", 0),
                "ep": s.store.get("ep", 0),
                "out_of_supply": s.out_of_supply,
            }
            for s in state.statics
        },
        statics_now,
        delete=False,
    )
    _save_fleet(campaign, state.fleet, pid, group_rows, static_rows)
    save_pacts(campaign, state.fleet, pid, state.round)
    _drop(FleetGroup, [g for key, g in groups_now.items() if key not in group_rows])
    _drop(Static, [s for key, s in statics_now.items() if key not in static_rows])
    _save_market(campaign, state.market, pid)
    _save_bubbles(campaign, state.bubbles, pid)
    _save_agreements(campaign, state.agreements, pid, hub_rows)
    _save_motions(campaign, state.motions, pid, state.round)
    save_command(campaign, state, pid)  # last: officers and posts point at craft and outposts


def _save_fleet(
    campaign: Campaign,
    fleet: Fleet,
    pid: dict[str, int],
    groups: dict[str, FleetGroup],
    statics: dict[str, Static],
) -> None:
    """R-10: the catalogue, designs, craft and work in progress. What is referenced is written
    before what refers to it (designs, builders, then craft in orbit with them, then builds),
    and stale rows go in the reverse order once nothing points at them."""
    cid = campaign.pk
    _sync(
        Consumable,
        campaign,
        {k: {"kind": k, "mass": c.mass, "ore": c.ore} for k, c in fleet.catalogue.items()},
        {c.kind: c for c in Consumable.objects.filter(campaign_id=cid)},
    )
    _sync(
        GroupLimit,
        campaign,
        {
            k: {"kind": k, "points": lim.points, "officers": lim.officers}
            for k, lim in fleet.group_limits.items()
        },
        {g.kind: g for g in GroupLimit.objects.filter(campaign_id=cid)},
    )
    designs = _save_designs(campaign, fleet.designs, pid)
    existing: dict[str, Craft] = _by_key(Craft.objects.filter(campaign_id=cid))

    def values(c: CraftState, rows: dict[str, Craft]) -> dict[str, Any]:
        gantry = _xy(c.gantry) if c.gantry else (None, None)
        return {
            "key": c.id,
            "power_id": pid[c.power],
            "design_id": designs[c.design].pk,
            "group_id": groups[c.group].pk if c.group else None,
            "static_id": statics[c.static].pk if c.static else None,
            "orbit_id": rows[c.orbit].pk if c.orbit else None,
            "crew": c.crew,
            "consumables": {k: n for k, n in sorted(c.store.items()) if k != "cf" and n},
            "workshop": {k: n for k, n in sorted(c.workshop.store.items()) if n},
            "fatigue": c.fatigue,
            "destroyed": dict(sorted(c.destroyed.items())),
            "disabled": dict(sorted(c.disabled.items())),
            "captured": c.captured,
            "unready": dict(sorted(c.unready.items())),
            "gantry_col": gantry[0],
            "gantry_row": gantry[1],
        }

    # Builders are never in orbit themselves (codec): they go first, then the craft orbiting.
    rows = _sync(
        Craft,
        campaign,
        {c.id: values(c, {}) for c in fleet.craft if c.orbit is None},
        existing,
        delete=False,
    )
    rows.update(
        _sync(
            Craft,
            campaign,
            {c.id: values(c, {**existing, **rows}) for c in fleet.craft if c.orbit is not None},
            existing,
            delete=False,
        )
    )
    build_rows = _sync(
        Build,
        campaign,
        {
            b.id: {
                "key": b.id,
                "power_id": pid[b.power],
                "kind": b.kind,
                "design_id": designs[b.design].pk,
                "craft_id": rows[b.craft].pk if b.craft else None,
                "inside": b.inside,
                "col": _xy(b.hex)[0] if b.hex else None,
                "row": _xy(b.hex)[1] if b.hex else None,
                "cost": b.cost,
                "surcharge": b.surcharge,
                "started": b.started,
                "paid": b.paid,
                "worked": b.worked,
                "systems": dict(sorted(b.systems.items())),
                "fatigue": b.fatigue,
            }
            for b in fleet.builds
        },
        _by_key(Build.objects.filter(campaign_id=cid)),
    )
    wanted = {build_rows[b.id].pk: [rows[c].pk for c in b.builders] for b in fleet.builds}
    now: dict[int, list[int]] = defaultdict(list)
    for build_id, craft_id in (
        BuildBuilder.objects.filter(build__campaign_id=cid)
        .order_by("build_id", "position")
        .values_list("build_id", "craft_id")
    ):
        now[build_id].append(craft_id)
    changed = [pk for pk, crafts in wanted.items() if now.get(pk) != crafts]
    if changed:
        BuildBuilder.objects.filter(build_id__in=changed).delete()
        BuildBuilder.objects.bulk_create(
            (
                BuildBuilder(build_id=pk, craft_id=craft_id, position=i)
                for pk in changed
                for i, craft_id in enumerate(wanted[pk])
            ),
            batch_size=1000,
        )
    stale = [c for key, c in existing.items() if key not in rows]
    # PROTECT: the craft in orbit go before the builders they orbit
    _drop(Craft, [c for c in stale if c.orbit_id is not None])
    _drop(Craft, [c for c in stale if c.orbit_id is None])
    Design.objects.filter(campaign_id=cid).exclude(pk__in=[d.pk for d in designs.values()]).delete()


def _save_designs(
    campaign: Campaign, designs: list[DesignState], pid: dict[str, int]
) -> dict[str, Design]:
    """R-10.0: designs by key; a design whose systems changed gets them written anew."""
    rows: dict[str, Design] = _sync(
        Design,
        campaign,
        {
            d.id: {
                "key": d.id,
                "power_id": pid[d.power],
                "name": d.name,
                "craft_class": d.cls,
                "mobility": d.mobility,
                "mass": d.mass,
                "npv": d.npv,
                "crew": d.crew,
                "loadout": dict(sorted(d.loadout.items())),
                "completed": d.completed,
                "studied_from": d.studied_from or "",
            }
            for d in designs
        },
        _by_key(Design.objects.filter(campaign_id=campaign.pk)),
        delete=False,
    )
    now = _design_systems(design__campaign_id=campaign.pk)
    changed = [d for d in designs if now.get(rows[d.id].pk, []) != list(d.systems)]
    if changed:
        DesignSystem.objects.filter(design_id__in=[rows[d.id].pk for d in changed]).delete()
        DesignSystem.objects.bulk_create(
            DesignSystem(
                design=rows[d.id],
                position=i,
                key=s.id,
                name=s.name,
                points=s.points,
                count=s.count,
                **{kind: s.capacity.get(kind, 0) for kind in CAPACITIES},
            )
            for d in changed
            for i, s in enumerate(d.systems)
        )
    return rows


def _save_market(campaign: Campaign, market: Market, pid: dict[str, int]) -> None:
    cid = campaign.pk
    _sync(
        MarketEdge,
        campaign,
        {
            edge: {
                "edge": edge,
                "rate": market.rates.get(edge, Decimal(1)),
                "tax": market.tax.get(edge, Decimal(0)),
                "volume": market.volume.get(edge, 0),
            }
            for edge in EDGES
        },
        {e.edge: e for e in MarketEdge.objects.filter(campaign_id=cid)},
    )
    _sync(
        PowerTax,
        campaign,
        {
            (power, edge): {"power_id": pid[power], "edge": edge, "tax": tax}
            for power, taxes in market.power_tax.items()
            for edge, tax in taxes.items()
        },
        {
            (t.power.key, t.edge): t
            for t in PowerTax.objects.filter(campaign_id=cid).select_related("power")
        },
    )
    _sync(
        MarketBan,
        campaign,
        {power: {"power_id": pid[power]} for power in market.banned},
        {b.power.key: b for b in MarketBan.objects.filter(campaign_id=cid).select_related("power")},
    )


def _save_hubs(campaign: Campaign, hubs: list[Hub], pid: dict[str, int]) -> dict[str, TradeHub]:
    """Hubs by key; a hub whose centre, nodes or links changed gets its structure rebuilt."""
    cid = campaign.pk
    existing: dict[str, TradeHub] = _by_key(TradeHub.objects.filter(campaign_id=cid))
    node_code: dict[int, str] = {}
    current: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"centre": None, "nodes": set(), "links": set()}
    )
    for n in HubNode.objects.filter(campaign_id=cid):
        node_code[n.pk] = n.code
        if n.is_centre:
            current[n.hub_id]["centre"] = n.code
        else:
            current[n.hub_id]["nodes"].add(n.code)
    for hub_id, a, b in HubLink.objects.filter(hub__campaign_id=cid).values_list(
        "hub_id", "a_id", "b_id"
    ):
        current[hub_id]["links"].add(frozenset((node_code[a], node_code[b])))

    def shape(
        centre: str | None, nodes: Iterable[str], links: Iterable[Iterable[str]]
    ) -> tuple[str | None, frozenset[str], frozenset[frozenset[str]]]:
        return (centre, frozenset(nodes), frozenset(frozenset(link) for link in links))

    def unchanged(h: Hub) -> bool:
        row = existing.get(h.id)
        if row is None or row.pk not in current:
            return False
        now = current[row.pk]
        return shape(now["centre"], now["nodes"], now["links"]) == shape(h.centre, h.nodes, h.links)

    rebuild = [h for h in hubs if not unchanged(h)]
    # Structures go before hubs are synced, so a hex can pass from one hub to another.
    rebuilt = [existing[h.id].pk for h in rebuild if h.id in existing]
    gone = Q(hub_id__in=rebuilt) | ~Q(hub__key__in=[h.id for h in hubs])
    _delete(
        HubNode, list(HubNode.objects.filter(gone, campaign_id=cid).values_list("pk", flat=True))
    )
    rows: dict[str, TradeHub] = _sync(
        TradeHub,
        campaign,
        {
            h.id: {
                "key": h.id,
                "power_id": pid[h.power],
                "guild": h.guild,
                **{f"pool_{r}": h.store.get(r, 0) for r in RES3},
                "lost": sorted(h.lost),
            }
            for h in hubs
        },
        existing,
    )
    new_nodes: list[HubNode] = []
    for h in rebuild:
        hub = rows[h.id]
        for code, is_centre in ((h.centre, True), *((n, False) for n in h.nodes)):
            col, row = _xy(code)
            new_nodes.append(
                HubNode(campaign=campaign, hub=hub, col=col, row=row, is_centre=is_centre)
            )
    HubNode.objects.bulk_create(new_nodes, batch_size=1000)
    by_hex = {(n.hub_id, n.code): n for n in new_nodes}
    HubLink.objects.bulk_create(
        (
            HubLink(hub=rows[h.id], a=by_hex[(rows[h.id].pk, a)], b=by_hex[(rows[h.id].pk, b)])
            for h in rebuild
            for a, b in h.links
        ),
        batch_size=1000,
    )
    return rows


def _save_bubbles(campaign: Campaign, bubbles: list[Bubble], pid: dict[str, int]) -> None:
    rows = _sync(
        CommandBubble,
        campaign,
        {
            b.id: {
                "key": b.id,
                "power_id": pid[b.power],
                "hq_col": _xy(b.hq)[0],
                "hq_row": _xy(b.hq)[1],
                "radius": b.radius,
            }
            for b in bubbles
        },
        _by_key(CommandBubble.objects.filter(campaign_id=campaign.pk)),
    )
    ids = [r.pk for r in rows.values()]
    BubbleOutpost.objects.filter(bubble_id__in=ids).delete()
    BubbleSensor.objects.filter(bubble_id__in=ids).delete()
    BubbleOutpost.objects.bulk_create(
        BubbleOutpost(bubble=rows[b.id], col=_xy(o.hex)[0], row=_xy(o.hex)[1], radius=o.radius)
        for b in bubbles
        for o in b.outposts
    )
    BubbleSensor.objects.bulk_create(
        BubbleSensor(bubble=rows[b.id], col=_xy(s)[0], row=_xy(s)[1])
        for b in bubbles
        for s in b.sensors
    )


def _save_agreements(
    campaign: Campaign,
    agreements: list[AgreementState],
    pid: dict[str, int],
    hubs: dict[str, TradeHub],
) -> None:
    """R-5.5: agreements in the state are accepted ones (created if new, e.g. from a case);
    an accepted agreement no longer in the state has been delivered and is closed."""
    cid = campaign.pk
    existing = _by_key(Agreement.objects.filter(campaign_id=cid))

    def hub_id(key: str | None) -> int | None:
        return hubs[key].pk if key in hubs else None

    desired: dict[str, dict[str, Any]] = {}
    for ag in agreements:
        legs = {leg.sender: leg for leg in ag.legs}
        col, row = _xy(ag.deposit)
        values: dict[str, Any] = {
            "key": ag.id,
            "proposer_id": pid[ag.a],
            "partner_id": pid[ag.b],
            "status": Agreement.Status.ACCEPTED,
            "deposit_col": col,
            "deposit_row": row,
            "delivery": ag.delivery,
        }
        for side, who in (("a", ag.a), ("b", ag.b)):
            leg = legs.get(who)
            choice = ag.hubs.get(who, {})
            values.update(
                {
                    f"{side}_resource": leg.resource if leg else "",
                    f"{side}_amount": leg.amount if leg else 0,
                    f"{side}_status": leg.status if leg else "pending",
                    f"{side}_shipment": (leg.shipment or "") if leg else "",
                    f"{side}_note": (leg.note if leg else "")[:300],
                    f"{side}_send_hub_id": hub_id(choice.get("send")),
                    f"{side}_receive_hub_id": hub_id(choice.get("receive")),
                }
            )
        desired[ag.id] = values
    for key, obj in existing.items():
        if obj.status == Agreement.Status.ACCEPTED and key not in desired:
            desired[key] = {"status": Agreement.Status.CLOSED}
    fields = sorted({f for values in desired.values() for f in values})
    changed, created = [], []
    for key, values in desired.items():
        obj = existing.get(key)
        if obj is None:
            # A created agreement's round: one before its delivery at the latest.
            first = max(1, values["delivery"] - 1)
            created.append(Agreement(campaign=campaign, created_round=first, **values))
        elif any(getattr(obj, f) != v for f, v in values.items()):
            for f, v in values.items():
                setattr(obj, f, v)
            changed.append(obj)
    if changed:
        Agreement.objects.bulk_update(changed, fields)
    if created:
        Agreement.objects.bulk_create(created)


def _save_motions(
    campaign: Campaign, motions: list[MotionState], pid: dict[str, int], round_number: int
) -> None:
    """R-6.4: the motions in the state are before the committee this round, with their votes;
    motions decided earlier are history and are left as they are."""
    rows = _sync(
        Motion,
        campaign,
        {
            m.id: {
                "key": m.id,
                "round_number": round_number,
                "proposer_id": pid[m.by],
                "kind": m.kind,
                "edge": m.edge or "",
                "target_id": pid[m.power] if m.power else None,
                "value": m.value,
                "status": Motion.Status.SUBMITTED,
            }
            for m in motions
        },
        _by_key(Motion.objects.filter(campaign_id=campaign.pk, key__in=[m.id for m in motions])),
        delete=False,
    )
    ids = [r.pk for r in rows.values()]
    if not ids:
        return
    Vote.objects.filter(motion_id__in=ids).delete()
    Vote.objects.bulk_create(
        Vote(motion=rows[m.id], member_id=pid[who], choice=choice)
        for m in motions
        for who, choice in m.votes.items()
    )
