"""The one translation point between the database and the engine's contract shape.

``export_state`` reads a campaign into the ``ftcamp-case/1`` state object (contracts §1) in a
fixed number of queries; ``write_state`` writes such an object back, diffing by each object's
campaign-scoped ``key`` so only what changed is touched (bulk updates, creates and deletes).
The engine's codec turns the object into dataclasses and back, so the shell never duplicates it.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import models

from powers.db import bulk_update, hex_code
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    Campaign,
    CommandBubble,
    FleetGroup,
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


def _xy(code: str) -> tuple[int, int]:
    return int(code[:2]), int(code[2:])


def _decimal(value: Decimal) -> str:
    return format(value.normalize(), "f") if value == value.to_integral() else str(value)


def export_state(campaign: Campaign) -> dict[str, Any]:
    """The campaign's current state as a contract §1 object (20 queries, whatever its size)."""
    cid = campaign.pk
    powers = dict(Power.objects.filter(campaign_id=cid).values_list("id", "key"))
    hubs = dict(TradeHub.objects.filter(campaign_id=cid).values_list("id", "key"))
    systems = list(
        StarSystem.objects.filter(campaign_id=cid)
        .select_related("hex")
        .order_by("key")
        .only(
            "key",
            "name",
            "system_type",
            "holder_id",
            "loyalty",
            *(f"rate_{r}" for r in ("ore", "gal", "bio", "pl")),
            *(f"stock_{r}" for r in RES3),
            "project_source",
            "project_target",
            "project_pct",
            "free_ep",
            "hex__col",
            "hex__row",
        )
    )
    nodes: dict[int, list[HubNode]] = {}
    for n in HubNode.objects.filter(campaign_id=cid).order_by("col", "row"):
        nodes.setdefault(n.hub_id, []).append(n)
    node_code = {n.pk: n.code for ns in nodes.values() for n in ns}
    links: dict[int, list[list[str]]] = {}
    for hub_id, a, b in HubLink.objects.filter(hub__campaign_id=cid).values_list(
        "hub_id", "a_id", "b_id"
    ):
        links.setdefault(hub_id, []).append(sorted([node_code[a], node_code[b]]))
    outposts: dict[int, list[dict[str, Any]]] = {}
    for o in BubbleOutpost.objects.filter(bubble__campaign_id=cid).order_by("col", "row"):
        outposts.setdefault(o.bubble_id, []).append({"hex": str(o), "radius": o.radius})
    sensors: dict[int, list[str]] = {}
    for s in BubbleSensor.objects.filter(bubble__campaign_id=cid).order_by("col", "row"):
        sensors.setdefault(s.bubble_id, []).append(str(s))
    edges = {e.edge: e for e in MarketEdge.objects.filter(campaign_id=cid)}
    power_tax: dict[str, dict[str, str]] = {}
    for power_id, edge, tax in PowerTax.objects.filter(campaign_id=cid).values_list(
        "power_id", "edge", "tax"
    ):
        power_tax.setdefault(powers[power_id], {})[edge] = _decimal(tax)
    banned = sorted(
        powers[p]
        for p in MarketBan.objects.filter(campaign_id=cid).values_list("power_id", flat=True)
    )
    return {
        "round": campaign.current_round,
        "seed": campaign.seed,
        "map": {
            "hexes": [
                {"hex": h.code, "type": h.hex_type}
                for h in MapHex.objects.filter(campaign_id=cid).order_by("col", "row")
            ],
            **(
                {"size": {"cols": campaign.map_cols, "rows": campaign.map_rows}}
                if campaign.map_cols and campaign.map_rows
                else {}
            ),
        },
        "powers": [
            {"id": p.key, "gal": p.gal, "tp": p.tp, "un_member": p.un_member}
            for p in Power.objects.filter(campaign_id=cid).order_by("key")
        ],
        "systems": [
            {
                "id": s.key,
                "name": s.name,
                "hex": s.hex.code,
                "type": s.system_type,
                "holder": powers.get(s.holder_id),
                "loyalty": s.loyalty,
                "rates": {r: getattr(s, f"rate_{r}") for r in ("ore", "gal", "bio", "pl")},
                "stock": {r: getattr(s, f"stock_{r}") for r in RES3},
                "project": (
                    {"source": s.project_source, "target": s.project_target, "pct": s.project_pct}
                    if s.project_source
                    else None
                ),
                "free_ep": s.free_ep,
            }
            for s in systems
        ],
        "hubs": [
            {
                "id": h.key,
                "power": powers[h.power_id],
                "centre": next((n.code for n in nodes.get(h.pk, []) if n.is_centre), None),
                "nodes": [n.code for n in nodes.get(h.pk, []) if not n.is_centre],
                "links": sorted(links.get(h.pk, [])),
                "guild": h.guild,
                "pool": {r: getattr(h, f"pool_{r}") for r in RES3},
                **({"lost": sorted(h.lost)} if h.lost else {}),
            }
            for h in TradeHub.objects.filter(campaign_id=cid).order_by("key")
        ],
        "groups": [
            {
                "id": g.key,
                "power": powers[g.power_id],
                "hex": g.hex_code,
                "order": g.order,
                "points": g.points,
                "ep": g.ep,
                "troops": g.troops,
                "troop_space": g.troop_space,
                "diplomat": g.diplomat,
                "status": g.status,
                "kind": g.kind,
                **({"engages": sorted(g.engages)} if g.engages else {}),
                **({"defending": True} if g.defending else {}),
            }
            for g in FleetGroup.objects.filter(campaign_id=cid).order_by("key")
        ],
        "statics": [
            {
                "id": s.key,
                "power": powers[s.power_id],
                "hex": s.hex_code,
                "civilian": s.civilian,
                "passenger_space": s.passenger_space,
                "passengers": s.passengers,
                "troop_space": s.troop_space,
                "troops": s.troops,
            }
            for s in Static.objects.filter(campaign_id=cid).order_by("key")
        ],
        "invasions": [
            {"system": system, "power": powers[power], "troops": troops}
            for system, power, troops in Invasion.objects.filter(campaign_id=cid)
            .order_by("system__key", "power__key")
            .values_list("system__key", "power_id", "troops")
        ],
        "market": {
            "rates": {e: _decimal(edges[e].rate) for e in sorted(edges)},
            "tax": {e: _decimal(edges[e].tax) for e in sorted(edges)},
            "volume": {e: edges[e].volume for e in sorted(edges)},
            **({"power_tax": power_tax} if power_tax else {}),
            **({"banned": banned} if banned else {}),
        },
        "shipments": [
            {
                "id": s.key,
                "power": powers[s.power_id],
                "sender": powers[s.sender_id],
                "from_hub": hubs.get(s.from_hub_id),
                "to_hub": hubs.get(s.to_hub_id),
                "resource": s.resource,
                "amount": s.amount,
                "arrives": s.arrives,
                **({"waiting": True} if s.waiting else {}),
                **({"waiting_for": s.waiting_for} if s.waiting_for else {}),
            }
            for s in Shipment.objects.filter(campaign_id=cid).order_by("key")
        ],
        "bubbles": [
            {
                "id": b.key,
                "power": powers[b.power_id],
                "hq": b.hq,
                "radius": b.radius,
                "outposts": outposts.get(b.pk, []),
                "sensors": sensors.get(b.pk, []),
            }
            for b in CommandBubble.objects.filter(campaign_id=cid).order_by("key")
        ],
        "agreements": _export_agreements(cid, powers, hubs),
        "un": {"motions": _export_motions(cid, powers)},
    }


def _export_agreements(cid: int, powers: dict[int, str], hubs: dict[int, str]) -> list[Any]:
    """R-5.5: the accepted agreements still running, with each party's private hubs."""
    out = []
    for ag in Agreement.objects.filter(campaign_id=cid, status=Agreement.Status.ACCEPTED).order_by(
        "key"
    ):
        legs = []
        for side in ("a", "b"):
            if getattr(ag, f"{side}_amount") > 0:
                leg = {
                    "from": powers[getattr(ag, "proposer_id" if side == "a" else "partner_id")],
                    "resource": getattr(ag, f"{side}_resource"),
                    "amount": getattr(ag, f"{side}_amount"),
                    "status": getattr(ag, f"{side}_status"),
                }
                if getattr(ag, f"{side}_shipment"):
                    leg["shipment"] = getattr(ag, f"{side}_shipment")
                if getattr(ag, f"{side}_note"):
                    leg["note"] = getattr(ag, f"{side}_note")
                legs.append(leg)
        out.append(
            {
                "id": ag.key,
                "a": powers[ag.proposer_id],
                "b": powers[ag.partner_id],
                "deposit": ag.deposit,
                "delivery": ag.delivery,
                "legs": legs,
                "hubs": {
                    powers[ag.proposer_id]: {
                        "send": hubs.get(ag.a_send_hub_id),
                        "receive": hubs.get(ag.a_receive_hub_id),
                    },
                    powers[ag.partner_id]: {
                        "send": hubs.get(ag.b_send_hub_id),
                        "receive": hubs.get(ag.b_receive_hub_id),
                    },
                },
            }
        )
    return out


def _export_motions(cid: int, powers: dict[int, str]) -> list[Any]:
    """R-6.4: the motions before the committee this round, with the votes cast so far."""
    votes: dict[int, dict[str, str]] = {}
    for motion_id, member_id, choice in Vote.objects.filter(
        motion__campaign_id=cid, motion__status=Motion.Status.SUBMITTED
    ).values_list("motion_id", "member_id", "choice"):
        votes.setdefault(motion_id, {})[powers[member_id]] = choice
    out = []
    for m in Motion.objects.filter(campaign_id=cid, status=Motion.Status.SUBMITTED).order_by("key"):
        item: dict[str, Any] = {"id": m.key, "by": powers[m.proposer_id], "kind": m.kind}
        if m.edge:
            item["edge"] = m.edge
        if m.target_id:
            item["power"] = powers[m.target_id]
        if m.value is not None:
            item["rate" if m.kind == "rate" else "tax"] = _decimal(m.value)
        item["votes"] = dict(sorted(votes.get(m.pk, {}).items()))
        out.append(item)
    return out


# --- writing -----------------------------------------------------------------------------


def _sync(
    model: type[models.Model],
    campaign: Campaign,
    desired: dict[Any, dict[str, Any]],
    existing: dict[Any, models.Model],
    *,
    delete: bool = True,
) -> dict[Any, models.Model]:
    """Make the campaign's rows of ``model`` equal ``desired`` (by identity); returns all rows
    by identity. Deletes first, so unique positions can move between rows."""
    stale = [obj.pk for ident, obj in existing.items() if ident not in desired]
    if stale and delete:
        model.objects.filter(pk__in=stale).delete()
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
        model.objects.bulk_create(created, batch_size=1000)
    return out


def _by_key(qs: Iterable[Any]) -> dict[str, Any]:
    return {obj.key: obj for obj in qs}


def write_state(campaign: Campaign, state: dict[str, Any]) -> None:
    """Write a contract §1 state (as produced by the engine's codec) into the campaign.

    Call inside a transaction. Names and colours of powers, and UWP statistics of systems, are
    not part of the contract and are kept; new powers are named after their id.
    """
    cid = campaign.pk
    campaign.current_round = state["round"]
    campaign.seed = state.get("seed", 0)
    size = state.get("map", {}).get("size") or {}
    campaign.map_cols, campaign.map_rows = size.get("cols"), size.get("rows")
    campaign.save(update_fields=["current_round", "seed", "map_cols", "map_rows"])

    power_rows = _sync(
        Power,
        campaign,
        {
            p["id"]: {
                "key": p["id"],
                "gal": p.get("gal", 0),
                "tp": p.get("tp", 0),
                "un_member": p.get("un_member", True),
            }
            for p in state.get("powers", [])
        },
        _by_key(Power.objects.filter(campaign_id=cid)),
    )
    for key, power in power_rows.items():
        if not power.name:
            power.name = key
            power.save(update_fields=["name"])
    pid = {key: p.pk for key, p in power_rows.items()}

    # Shipments and invasions go first: they point at hubs and systems that may be removed.
    shipments = state.get("shipments", [])
    kept_shipments = {s["id"] for s in shipments}
    Shipment.objects.filter(campaign_id=cid).exclude(key__in=kept_shipments).delete()

    hex_types = {_xy(h["hex"]): h["type"] for h in state.get("map", {}).get("hexes", [])}
    for s in state.get("systems", []):
        hex_types.setdefault(_xy(s["hex"]), "system")
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
        {
            s["id"]: {
                "key": s["id"],
                "name": s.get("name", s["id"]),
                "hex_id": hex_rows[_xy(s["hex"])].pk,
                "system_type": s["type"],
                "holder_id": pid[s["holder"]] if s.get("holder") else None,
                "loyalty": s.get("loyalty", 0),
                **{f"rate_{r}": s["rates"][r] for r in ("ore", "gal", "bio", "pl")},
                **{f"stock_{r}": s.get("stock", {}).get(r, 0) for r in RES3},
                "project_source": (s.get("project") or {}).get("source", ""),
                "project_target": (s.get("project") or {}).get("target", ""),
                "project_pct": (s.get("project") or {}).get("pct", 0),
                "free_ep": s.get("free_ep", 0),
            }
            for s in state.get("systems", [])
        },
        _by_key(StarSystem.objects.filter(campaign_id=cid)),
    )
    MapHex.objects.filter(campaign_id=cid).exclude(
        pk__in=[h.pk for h in hex_rows.values()]
    ).delete()
    Invasion.objects.bulk_create(
        Invasion(
            campaign=campaign,
            system_id=system_rows[i["system"]].pk,
            power_id=pid[i["power"]],
            troops=i["troops"],
        )
        for i in state.get("invasions", [])
    )

    hub_rows = _write_hubs(campaign, state.get("hubs", []), pid)

    _sync(
        Shipment,
        campaign,
        {
            s["id"]: {
                "key": s["id"],
                "power_id": pid[s["power"]],
                "sender_id": pid[s.get("sender") or s["power"]],
                "from_hub_id": hub_rows[s["from_hub"]].pk
                if s.get("from_hub") in hub_rows
                else None,
                "to_hub_id": hub_rows[s["to_hub"]].pk if s.get("to_hub") in hub_rows else None,
                "resource": s["resource"],
                "amount": s["amount"],
                "arrives": s["arrives"],
                "waiting": bool(s.get("waiting", False)),
                "waiting_for": list(s.get("waiting_for", [])),
            }
            for s in shipments
        },
        _by_key(Shipment.objects.filter(campaign_id=cid)),
    )

    _sync(
        FleetGroup,
        campaign,
        {
            g["id"]: {
                "key": g["id"],
                "power_id": pid[g["power"]],
                "col": _xy(g["hex"])[0],
                "row": _xy(g["hex"])[1],
                "kind": g.get("kind", "standard"),
                "order": g.get("order", "none"),
                "status": g.get("status", "none"),
                "points": g.get("points", 0),
                "ep": g.get("ep", 0),
                "troops": g.get("troops", 0),
                "troop_space": g.get("troop_space", 0),
                "diplomat": g.get("diplomat", False),
                "engages": sorted(g.get("engages", [])),
                "defending": bool(g.get("defending", False)),
            }
            for g in state.get("groups", [])
        },
        _by_key(FleetGroup.objects.filter(campaign_id=cid)),
    )
    _sync(
        Static,
        campaign,
        {
            s["id"]: {
                "key": s["id"],
                "power_id": pid[s["power"]],
                "col": _xy(s["hex"])[0],
                "row": _xy(s["hex"])[1],
                "civilian": s.get("civilian", True),
                "passenger_space": s.get("passenger_space", 0),
                "passengers": s.get("passengers", 0),
                "troop_space": s.get("troop_space", 0),
                "troops": s.get("troops", 0),
            }
            for s in state.get("statics", [])
        },
        _by_key(Static.objects.filter(campaign_id=cid)),
    )

    market = state.get("market", {})
    _sync(
        MarketEdge,
        campaign,
        {
            edge: {
                "edge": edge,
                "rate": Decimal(market.get("rates", {}).get(edge, "1")),
                "tax": Decimal(market.get("tax", {}).get(edge, "0")),
                "volume": market.get("volume", {}).get(edge, 0),
            }
            for edge, _ in MarketEdge.EDGES
        },
        {e.edge: e for e in MarketEdge.objects.filter(campaign_id=cid)},
    )
    _sync(
        PowerTax,
        campaign,
        {
            (power, edge): {"power_id": pid[power], "edge": edge, "tax": Decimal(tax)}
            for power, taxes in market.get("power_tax", {}).items()
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
        {power: {"power_id": pid[power]} for power in market.get("banned", [])},
        {b.power.key: b for b in MarketBan.objects.filter(campaign_id=cid).select_related("power")},
    )
    _write_bubbles(campaign, state.get("bubbles", []), pid)
    _write_agreements(campaign, state.get("agreements", []), pid, hub_rows)
    _write_motions(campaign, state.get("un", {}).get("motions", []), pid, state["round"])


def _write_agreements(
    campaign: Campaign, agreements: list[dict[str, Any]], pid: dict[str, int], hubs: dict[str, Any]
) -> None:
    """R-5.5: agreements in the state are accepted ones (created if new, e.g. from a case);
    an accepted agreement no longer in the state has been delivered and is closed."""
    cid = campaign.pk
    existing = _by_key(Agreement.objects.filter(campaign_id=cid))

    def hub_id(key: str | None) -> int | None:
        return hubs[key].pk if key in hubs else None

    desired: dict[str, dict[str, Any]] = {}
    for ag in agreements:
        legs = {leg["from"]: leg for leg in ag.get("legs", [])}
        values: dict[str, Any] = {
            "key": ag["id"],
            "proposer_id": pid[ag["a"]],
            "partner_id": pid[ag["b"]],
            "status": Agreement.Status.ACCEPTED,
            "deposit_col": _xy(ag["deposit"])[0],
            "deposit_row": _xy(ag["deposit"])[1],
            "delivery": ag["delivery"],
        }
        for side, who in (("a", ag["a"]), ("b", ag["b"])):
            leg = legs.get(who, {})
            choice = ag.get("hubs", {}).get(who, {})
            values.update(
                {
                    f"{side}_resource": leg.get("resource", ""),
                    f"{side}_amount": leg.get("amount", 0),
                    f"{side}_status": leg.get("status", "pending"),
                    f"{side}_shipment": leg.get("shipment") or "",
                    f"{side}_note": (leg.get("note") or "")[:300],
                    f"{side}_send_hub_id": hub_id(choice.get("send")),
                    f"{side}_receive_hub_id": hub_id(choice.get("receive")),
                }
            )
        desired[ag["id"]] = values
    for key, obj in existing.items():
        if obj.status == Agreement.Status.ACCEPTED and key not in desired:
            desired[key] = {"status": Agreement.Status.CLOSED}
    fields = sorted({f for values in desired.values() for f in values})
    changed, created = [], []
    for key, values in desired.items():
        obj = existing.get(key)
        if obj is None:
            created.append(
                Agreement(campaign=campaign, created_round=state_round(values), **values)
            )
        elif any(getattr(obj, f) != v for f, v in values.items()):
            for f, v in values.items():
                setattr(obj, f, v)
            changed.append(obj)
    if changed:
        Agreement.objects.bulk_update(changed, fields)
    if created:
        Agreement.objects.bulk_create(created)


def state_round(values: dict[str, Any]) -> int:
    """A created agreement's round: one before its delivery at the latest."""
    return max(1, int(values.get("delivery", 2)) - 1)


def _write_motions(
    campaign: Campaign, motions: list[dict[str, Any]], pid: dict[str, int], round_number: int
) -> None:
    """R-6.4: the motions in the state are before the committee this round, with their votes;
    motions decided earlier are history and are left as they are."""
    cid = campaign.pk
    rows = _sync(
        Motion,
        campaign,
        {
            m["id"]: {
                "key": m["id"],
                "round_number": round_number,
                "proposer_id": pid[m["by"]],
                "kind": m["kind"],
                "edge": m.get("edge") or "",
                "target_id": pid[m["power"]] if m.get("power") else None,
                "value": Decimal(m["rate"] if m["kind"] == "rate" else m["tax"])
                if ("rate" in m or "tax" in m)
                else None,
                "status": Motion.Status.SUBMITTED,
            }
            for m in motions
        },
        _by_key(Motion.objects.filter(campaign_id=cid, key__in=[m["id"] for m in motions])),
        delete=False,
    )
    ids = [r.pk for r in rows.values()]
    if not ids:
        return
    Vote.objects.filter(motion_id__in=ids).delete()
    Vote.objects.bulk_create(
        Vote(motion=rows[m["id"]], member_id=pid[who], choice=choice)
        for m in motions
        for who, choice in m.get("votes", {}).items()
    )


def _write_hubs(
    campaign: Campaign, hubs: list[dict[str, Any]], pid: dict[str, int]
) -> dict[str, TradeHub]:
    """Hubs by key; a hub whose centre, nodes or links changed gets its structure rebuilt."""
    cid = campaign.pk
    existing = _by_key(TradeHub.objects.filter(campaign_id=cid))
    current: dict[int, tuple[Any, ...]] = {}
    node_code: dict[int, str] = {}
    structure: dict[int, dict[str, Any]] = {}
    for n in HubNode.objects.filter(campaign_id=cid):
        node_code[n.pk] = n.code
        entry = structure.setdefault(n.hub_id, {"centre": None, "nodes": set(), "links": set()})
        if n.is_centre:
            entry["centre"] = n.code
        else:
            entry["nodes"].add(n.code)
    for hub_id, a, b in HubLink.objects.filter(hub__campaign_id=cid).values_list(
        "hub_id", "a_id", "b_id"
    ):
        pair = frozenset((node_code[a], node_code[b]))
        structure.setdefault(hub_id, {"centre": None, "nodes": set(), "links": set()})["links"].add(
            pair
        )
    for hub_id, entry in structure.items():
        current[hub_id] = (entry["centre"], frozenset(entry["nodes"]), frozenset(entry["links"]))

    def wanted(h: dict[str, Any]) -> tuple[Any, ...]:
        return (
            h.get("centre"),
            frozenset(h.get("nodes", [])),
            frozenset(frozenset(link) for link in h.get("links", [])),
        )

    rebuild = [
        h for h in hubs if h["id"] not in existing or current.get(existing[h["id"]].pk) != wanted(h)
    ]
    # Structures go before hubs are synced, so a hex can pass from one hub to another.
    HubNode.objects.filter(
        hub_id__in=[existing[h["id"]].pk for h in rebuild if h["id"] in existing]
    ).delete()
    keep = {h["id"] for h in hubs}
    HubNode.objects.filter(campaign_id=cid).exclude(hub__key__in=keep).delete()
    rows = _sync(
        TradeHub,
        campaign,
        {
            h["id"]: {
                "key": h["id"],
                "power_id": pid[h["power"]],
                "guild": h.get("guild", False),
                **{f"pool_{r}": h.get("pool", {}).get(r, 0) for r in RES3},
                "lost": sorted(h.get("lost", [])),
            }
            for h in hubs
        },
        existing,
    )
    new_nodes: list[HubNode] = []
    for h in rebuild:
        hub = rows[h["id"]]
        if h.get("centre"):
            col, row = _xy(h["centre"])
            new_nodes.append(HubNode(campaign=campaign, hub=hub, col=col, row=row, is_centre=True))
        for code in h.get("nodes", []):
            col, row = _xy(code)
            new_nodes.append(HubNode(campaign=campaign, hub=hub, col=col, row=row))
    HubNode.objects.bulk_create(new_nodes, batch_size=1000)
    by_hex = {(n.hub_id, hex_code(n.col, n.row)): n for n in new_nodes}
    HubLink.objects.bulk_create(
        (
            HubLink(
                hub=rows[h["id"]], a=by_hex[(rows[h["id"]].pk, a)], b=by_hex[(rows[h["id"]].pk, b)]
            )
            for h in rebuild
            for a, b in h.get("links", [])
        ),
        batch_size=1000,
    )
    return rows


def _write_bubbles(campaign: Campaign, bubbles: list[dict[str, Any]], pid: dict[str, int]) -> None:
    rows = _sync(
        CommandBubble,
        campaign,
        {
            b["id"]: {
                "key": b["id"],
                "power_id": pid[b["power"]],
                "hq_col": _xy(b["hq"])[0],
                "hq_row": _xy(b["hq"])[1],
                "radius": b.get("radius", 0),
            }
            for b in bubbles
        },
        _by_key(CommandBubble.objects.filter(campaign_id=campaign.pk)),
    )
    ids = [r.pk for r in rows.values()]
    BubbleOutpost.objects.filter(bubble_id__in=ids).delete()
    BubbleSensor.objects.filter(bubble_id__in=ids).delete()
    BubbleOutpost.objects.bulk_create(
        BubbleOutpost(
            bubble=rows[b["id"]], col=_xy(o["hex"])[0], row=_xy(o["hex"])[1], radius=o["radius"]
        )
        for b in bubbles
        for o in b.get("outposts", [])
    )
    BubbleSensor.objects.bulk_create(
        BubbleSensor(bubble=rows[b["id"]], col=_xy(s)[0], row=_xy(s)[1])
        for b in bubbles
        for s in b.get("sensors", [])
    )
