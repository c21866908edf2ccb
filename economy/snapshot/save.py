"""Saving: the engine's ``State`` written into the database, inside the caller's transaction
(a round's resolution, a case, a rollback). ``save_state`` diffs by each object's
campaign-scoped ``key``, so only what changed is touched, in bulk (``rows.py``); what is
referenced is written before what refers to it. ``write_state`` does the same from contract
JSON (the codec's ``parse_state``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import Q

from economy.engine.codec import parse_state
from economy.engine.state import (
    CAPACITIES,
    EDGES,
    Bubble,
    Fleet,
    Group,
    Hub,
    Market,
    State,
    System,
)
from economy.engine.state import Agreement as AgreementState
from economy.engine.state import Craft as CraftState
from economy.engine.state import Design as DesignState
from economy.engine.state import Motion as MotionState
from economy.snapshot.command import save_command
from economy.snapshot.load import RATES, RES3, design_systems
from economy.snapshot.pacts import save_pacts
from economy.snapshot.rows import by_key, delete_rows, drop, sync, xy
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


def write_state(campaign: Campaign, state: dict[str, Any]) -> None:
    """Write a contract §1 object into the campaign (cases, rollback). Raises ``CaseError``."""
    save_state(campaign, parse_state(state))


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

    power_rows = sync(
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
        by_key(Power.objects.filter(campaign_id=cid)),
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

    hex_types = {xy(h): t for h, t in state.hexes.items()}
    for s in state.systems:
        hex_types.setdefault(xy(s.hex), "system")
    hex_rows = sync(
        MapHex,
        campaign,
        {xy: {"col": xy[0], "row": xy[1], "hex_type": t} for xy, t in hex_types.items()},
        {(h.col, h.row): h for h in MapHex.objects.filter(campaign_id=cid)},
        delete=False,  # after the systems, which protect their hexes
    )
    Invasion.objects.filter(campaign_id=cid).delete()
    system_rows = sync(
        StarSystem,
        campaign,
        {s.id: _system_values(s, pid, hex_rows[xy(s.hex)].pk) for s in state.systems},
        by_key(StarSystem.objects.filter(campaign_id=cid)),
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
    sync(
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
        by_key(Shipment.objects.filter(campaign_id=cid)),
    )
    # Groups and statics lose their stale rows only once no craft is in them (after the fleet).
    groups_now = by_key(FleetGroup.objects.filter(campaign_id=cid))
    statics_now = by_key(Static.objects.filter(campaign_id=cid))
    group_rows = sync(
        FleetGroup,
        campaign,
        {g.id: _group_values(g, pid) for g in state.groups},
        groups_now,
        delete=False,
    )
    static_rows = sync(
        Static,
        campaign,
        {
            s.id: {
                "key": s.id,
                "power_id": pid[s.power],
                "col": xy(s.hex)[0],
                "row": xy(s.hex)[1],
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
    drop(FleetGroup, [g for key, g in groups_now.items() if key not in group_rows])
    drop(Static, [s for key, s in statics_now.items() if key not in static_rows])
    _save_market(campaign, state.market, pid)
    _save_bubbles(campaign, state.bubbles, pid)
    _save_agreements(campaign, state.agreements, pid, hub_rows)
    _save_motions(campaign, state.motions, pid, state.round)
    save_command(campaign, state, pid)  # last: officers and posts point at craft and outposts


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


def _group_values(g: Group, pid: dict[str, int]) -> dict[str, Any]:
    col, row = xy(g.hex)
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
    sync(
        Consumable,
        campaign,
        {k: {"kind": k, "mass": c.mass, "ore": c.ore} for k, c in fleet.catalogue.items()},
        {c.kind: c for c in Consumable.objects.filter(campaign_id=cid)},
    )
    sync(
        GroupLimit,
        campaign,
        {
            k: {"kind": k, "points": lim.points, "officers": lim.officers}
            for k, lim in fleet.group_limits.items()
        },
        {g.kind: g for g in GroupLimit.objects.filter(campaign_id=cid)},
    )
    designs = _save_designs(campaign, fleet.designs, pid)
    existing: dict[str, Craft] = by_key(Craft.objects.filter(campaign_id=cid))

    def values(c: CraftState, rows: dict[str, Craft]) -> dict[str, Any]:
        gantry = xy(c.gantry) if c.gantry else (None, None)
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
    rows = sync(
        Craft,
        campaign,
        {c.id: values(c, {}) for c in fleet.craft if c.orbit is None},
        existing,
        delete=False,
    )
    rows.update(
        sync(
            Craft,
            campaign,
            {c.id: values(c, {**existing, **rows}) for c in fleet.craft if c.orbit is not None},
            existing,
            delete=False,
        )
    )
    build_rows = sync(
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
                "col": xy(b.hex)[0] if b.hex else None,
                "row": xy(b.hex)[1] if b.hex else None,
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
        by_key(Build.objects.filter(campaign_id=cid)),
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
    drop(Craft, [c for c in stale if c.orbit_id is not None])
    drop(Craft, [c for c in stale if c.orbit_id is None])
    Design.objects.filter(campaign_id=cid).exclude(pk__in=[d.pk for d in designs.values()]).delete()


def _save_designs(
    campaign: Campaign, designs: list[DesignState], pid: dict[str, int]
) -> dict[str, Design]:
    """R-10.0: designs by key; a design whose systems changed gets them written anew."""
    rows: dict[str, Design] = sync(
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
        by_key(Design.objects.filter(campaign_id=campaign.pk)),
        delete=False,
    )
    now = design_systems(design__campaign_id=campaign.pk)
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
    sync(
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
    sync(
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
    sync(
        MarketBan,
        campaign,
        {power: {"power_id": pid[power]} for power in market.banned},
        {b.power.key: b for b in MarketBan.objects.filter(campaign_id=cid).select_related("power")},
    )


def _save_hubs(campaign: Campaign, hubs: list[Hub], pid: dict[str, int]) -> dict[str, TradeHub]:
    """Hubs by key; a hub whose centre, nodes or links changed gets its structure rebuilt."""
    cid = campaign.pk
    existing: dict[str, TradeHub] = by_key(TradeHub.objects.filter(campaign_id=cid))
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
    delete_rows(
        HubNode, list(HubNode.objects.filter(gone, campaign_id=cid).values_list("pk", flat=True))
    )
    rows: dict[str, TradeHub] = sync(
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
            col, row = xy(code)
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
    rows = sync(
        CommandBubble,
        campaign,
        {
            b.id: {
                "key": b.id,
                "power_id": pid[b.power],
                "hq_col": xy(b.hq)[0],
                "hq_row": xy(b.hq)[1],
                "radius": b.radius,
            }
            for b in bubbles
        },
        by_key(CommandBubble.objects.filter(campaign_id=campaign.pk)),
    )
    ids = [r.pk for r in rows.values()]
    BubbleOutpost.objects.filter(bubble_id__in=ids).delete()
    BubbleSensor.objects.filter(bubble_id__in=ids).delete()
    BubbleOutpost.objects.bulk_create(
        BubbleOutpost(bubble=rows[b.id], col=xy(o.hex)[0], row=xy(o.hex)[1], radius=o.radius)
        for b in bubbles
        for o in b.outposts
    )
    BubbleSensor.objects.bulk_create(
        BubbleSensor(bubble=rows[b.id], col=xy(s)[0], row=xy(s)[1])
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
    existing = by_key(Agreement.objects.filter(campaign_id=cid))

    def hub_id(key: str | None) -> int | None:
        return hubs[key].pk if key in hubs else None

    desired: dict[str, dict[str, Any]] = {}
    for ag in agreements:
        legs = {leg.sender: leg for leg in ag.legs}
        col, row = xy(ag.deposit)
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
    rows = sync(
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
        by_key(Motion.objects.filter(campaign_id=campaign.pk, key__in=[m.id for m in motions])),
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
