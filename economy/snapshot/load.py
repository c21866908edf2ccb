"""Loading: the database read into the engine's ``State`` (contracts §1), in a fixed number of
queries whatever the campaign's size. ``load_state`` reads a whole campaign (for a round and
its records), ``load_power_fleet`` one power's fleet (its fleet pages), ``load_bubbles`` every
command bubble (the entry check); ``export_state`` gives the campaign as contract JSON (the
codec's ``dump_state``). A new contract field is read here, written in ``save.py`` and parsed
and dumped by the codec."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db import models

from economy.engine.codec import dump_state
from economy.engine.navy import Navy
from economy.engine.rules import derived_type
from economy.engine.state import (
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
from economy.engine.state import Agreement as AgreementState
from economy.engine.state import Build as BuildState
from economy.engine.state import Consumable as ConsumableState
from economy.engine.state import Craft as CraftState
from economy.engine.state import Design as DesignState
from economy.engine.state import DesignSystem as DesignSystemState
from economy.engine.state import GroupLimit as GroupLimitState
from economy.engine.state import Invasion as InvasionState
from economy.engine.state import Motion as MotionState
from economy.engine.state import Power as PowerState
from economy.engine.state import Shipment as ShipmentState
from economy.engine.state import Static as StaticState
from economy.snapshot.command import load_command, load_posts
from economy.snapshot.pacts import load_pacts
from powers.db import hex_code
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

#: the resources a system stocks and a hub pools; those a system produces (its rates)
RES3 = ("ore", "bio", "pl")
RATES = ("ore", "gal", "bio", "pl")


def export_state(campaign: Campaign) -> dict[str, Any]:
    """The campaign's state as a contract §1 object (for round records and exports)."""
    return dump_state(load_state(campaign))


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


def _load_fleet(campaign: Campaign, power_key: dict[int, str], power: Power | None = None) -> Fleet:
    """R-10: the catalogue, the settings, designs with their systems, craft, and work in
    progress with its builders in order (7 queries), and the campaign's pacts (5,
    ``pacts.py``); with ``power``, only that power's, without pacts."""
    cid = campaign.pk
    scope = {"campaign_id": cid} if power is None else {"power_id": power.pk}
    rows = Design.objects.filter(campaign_id=cid)
    if power is not None:  # its designs, and those of craft it holds on loan or given (R-10.5a)
        rows = rows.filter(models.Q(power=power) | models.Q(craft__power=power)).distinct()
    rows = rows.annotate(owner=models.F("power__key")).order_by("key")
    systems = design_systems(design__in=rows.values("pk"))
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


def design_systems(**scope: Any) -> dict[int, list[DesignSystemState]]:
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
