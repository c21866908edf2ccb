"""What a fleet order costs and where it is paid from, as the order form shows it while the
player types (issue 14): from the power's own fleet and the engine's own rules."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from economy.engine.codec import CaseError, parse_design
from economy.engine.designs import (
    build_cost,
    capacity,
    fatigue_cost,
    pl_per_cf,
    reclaim,
)
from economy.engine.refit import refit_cost
from economy.engine.repair import WORK, destroyed_points, repair_fatigue
from economy.engine.rules import ceil_div
from economy.engine.state import Design, Group, Static
from economy.events import hub_name
from fleet.selectors import PowerFleet, sheet_payloads, shown
from powers.models import Power, StarSystem
from trade.models import HubNode

# --- what a fleet order costs, and where it is paid from ----------------------------------


def _place_words(power: Power, hexes: set[str], resource: str) -> dict[str, str]:
    """Where the power's goods at each hex come from (R-1.4): the pool of its hub with a member
    there, else its held system's stockpile there (two queries)."""
    label = {"ore": "Ore", "bio": "Bio", "pl": "PL"}[resource]
    at = Q(pk__in=[])
    for hx in hexes:
        at |= Q(col=int(hx[:2]), row=int(hx[2:]))
    out: dict[str, str] = {}
    for col, row, key, name, amount in HubNode.objects.filter(at, hub__power=power).values_list(
        "col", "row", "hub__key", "hub__name", f"hub__pool_{resource}"
    ):
        shown_name = hub_name(key, name, [power.key])
        out[f"{col:02d}{row:02d}"] = f"the pool of hub {shown_name} ({amount} {label} now)"
    systems = Q(pk__in=[])
    for hx in hexes - set(out):
        systems |= Q(hex__col=int(hx[:2]), hex__row=int(hx[2:]))
    for col, row, name, amount in StarSystem.objects.filter(systems, holder=power).values_list(
        "hex__col", "hex__row", "name", f"stock_{resource}"
    ):
        out[f"{col:02d}{row:02d}"] = f"the stockpile of {name} ({amount} {label} now)"
    for hx in hexes - set(out):
        out[hx] = f"nothing: no hub or system of yours at {hx} (the order would be refused)"
    return out


def _carrier(fleet: PowerFleet, key: Any) -> Group | Static | None:
    if not isinstance(key, str):
        return None
    return fleet.groups.get(key) or fleet.statics.get(key)


def order_cost(*, power: Power, payload: dict[str, Any]) -> list[str]:
    """What a fleet order would cost and where it is paid from, as the player fills the form
    (nothing for other orders, or while the fields needed are missing). The resolution decides;
    this reads the state as it is now."""
    kind = payload.get("type")
    if kind == "register_design":
        tp = power.campaign.design_tp
        if not tp:
            return ["Registering a design is free in this campaign."]
        return [f"{tp} TP from your bank (you have {power.tp} TP)."]
    if kind == "form_group":
        return ["Forming a group is free."]
    if kind not in ("build", "adjust_build", "unbuild", "make", "crew", "supply_ep", *WORK):
        return []
    fleet = PowerFleet.of(power)
    navy = fleet.navy
    if kind in WORK:
        return _work_cost(fleet, payload)
    if kind == "build":
        return _build_cost(fleet, payload)
    if kind == "adjust_build":
        build = navy.builds.get(str(payload.get("build")))
        if build is None:
            return []
        if payload.get("cancel") is True:
            return [f"Cancelling loses the {build.paid} Ore paid so far."]
        ore = payload.get("ore")
        hx = build.hex or (fleet.craft_hex(navy.craft[build.builders[0]]) or "")
        if isinstance(ore, int) and hx:
            return [f"{ore} Ore this round from {_place_words(power, {hx}, 'ore')[hx]}."]
        return []
    if kind == "unbuild":
        craft = navy.craft.get(str(payload.get("craft")))
        builder = navy.craft.get(str(payload.get("builder")))
        if craft is None:
            return []
        design = navy.design(craft)
        lines = [
            f"Reclaims {reclaim(design, craft)} Ore: NPV {design.npv}"
            + (
                ", half of it for a captured craft"
                if craft.captured
                else f" less {fatigue_cost(design.npv, craft.fatigue)} for {craft.fatigue}% fatigue"
            )
            + f", and {craft.crew * pl_per_cf(design)} PL of its crew, at its hex."
        ]
        if builder is not None:
            rating = navy.capacity(builder, "construction")
            rounds = ceil_div(design.npv, rating) if rating else None
            lines.append(
                f"At {shown(power, builder.id)}'s rating of {rating} Ore a round: "
                + (f"about {rounds} rounds." if rounds else "it has no construction rating.")
            )
        return lines
    if kind == "make":
        builder = navy.craft.get(str(payload.get("builder")))
        item = navy.fleet.catalogue.get(str(payload.get("kind")))
        count = payload.get("count")
        if builder is None or item is None or not isinstance(count, int) or count <= 0:
            return []
        hx = fleet.craft_hex(builder) or ""
        return [
            f"{count} × {item.ore} = {count * item.ore} Ore from "
            f"{_place_words(power, {hx}, 'ore')[hx]}; {count * item.mass} of workshop space."
        ]
    if kind == "crew":
        return _crew_cost(fleet, payload)
    # supply_ep
    ep = payload.get("ep")
    carrier = _carrier(fleet, payload.get("into"))
    if carrier is not None:
        hx, storage = carrier.hex, navy.ep_storage(carrier)
        room = None if storage is None else storage - carrier.store["ep"]
    else:  # a group formed this round (R-10.1a): its craft's EP storage, empty
        aboard = _aboard(fleet, payload.get("into"))
        hx = aboard[0][2] if aboard else ""
        room = sum(capacity(d, "ep_storage") for d, _, _ in aboard)
    if not hx or not isinstance(ep, int) or ep <= 0:
        return []
    more = "" if room is None else f"; it can take {max(0, room)} more"
    place = _place_words(power, {hx}, "bio")[hx]
    return [f"{ep} EP = {ep} Bio from {place}{more}."]


def _work_cost(fleet: PowerFleet, payload: dict[str, Any]) -> list[str]:
    """R-10.2, Support 1.5: a repair's, rebuild's or refit's Ore, the fatigue it adds or
    removes, and the rounds at the worker's rating, before it is ordered."""
    navy, power, kind = fleet.navy, fleet.power, payload["type"]
    craft = navy.craft.get(str(payload.get("craft")))
    worker = navy.craft.get(str(payload.get(WORK[kind][0])))
    if craft is None:
        return []
    design = navy.design(craft)
    points = destroyed_points(design, craft)
    if kind == "refit":
        variant = navy.designs.get(str(payload.get("design")))
        if variant is None:
            return []
        cost = refit_cost(design, variant)
        lines = [f"Costs {cost} Ore: the systems {variant.name} adds, at their point cost."]
    else:
        removed = craft.fatigue if kind == "rebuild" and payload.get("remove_fatigue") else 0
        cost = points + fatigue_cost(design.npv, removed)
        lines = [
            f"Costs {cost} Ore: {points} for destroyed systems at their point cost"
            + (f", {cost - points} to remove {removed}% fatigue" if removed else "")
            + "; disabled systems are fixed free."
        ]
        if kind == "repair" and points:
            added = repair_fatigue(points, design.npv)
            lines.append(f"Adds {added}% fatigue when it completes (now {craft.fatigue}%).")
        elif kind == "rebuild":
            lines.append(f"Adds no fatigue (now {craft.fatigue}%).")
    if worker is not None and cost:
        rating = navy.capacity(worker, "repair" if kind == "repair" else "construction")
        rating = rating or navy.capacity(worker, "construction")
        hx = fleet.craft_hex(worker) or ""
        lines.append(
            f"At {shown(power, worker.id)}'s rating of {rating} Ore a round: "
            + (f"about {ceil_div(cost, rating)} rounds" if rating else "it cannot work on it")
            + (f"; paid from {_place_words(power, {hx}, 'ore')[hx]}." if hx and rating else ".")
        )
    return lines


def _build_cost(fleet: PowerFleet, payload: dict[str, Any]) -> list[str]:
    navy = fleet.navy
    design: Design | None = navy.designs.get(str(payload.get("design")))
    ids = payload.get("builders")
    builders = [navy.craft[c] for c in ids if c in navy.craft] if isinstance(ids, list) else []
    if design is None:
        design = _registered(fleet, payload.get("design"))
    if design is None:
        return []
    cost, extra = build_cost(design, navy.fleet.catalogue, not design.completed)
    parts = [f"NPV {design.npv}"]
    if extra:
        parts.append(f"+{extra} while no craft of it is finished")
    if cost - design.npv - extra:
        parts.append(f"+{cost - design.npv - extra} for its consumables")
    lines = [f"Costs {cost} Ore ({', '.join(parts)})."]
    if builders:
        rating = sum(navy.capacity(c, "construction") for c in builders)
        hx = fleet.craft_hex(builders[0]) or ""
        rounds = ceil_div(cost, rating) if rating else None
        lines.append(
            f"Its builders convert {rating} Ore a round"
            + (f": about {rounds} rounds" if rounds else "")
            + f"; paid from {_place_words(fleet.power, {hx}, 'ore')[hx]}."
        )
        if len(builders) == 1 and design.mass <= capacity(navy.design(builders[0]), "workshop"):
            lines.append("It fits the builder's workshop space if that is free: built inside.")
        else:
            lines.append(f"Built outside, at {hx}.")
    return lines


def _registered(fleet: PowerFleet, key: Any) -> Design | None:
    """R-10.1a: a design the power's sheet registers this round, as the engine will read it."""
    for p in sheet_payloads(fleet.power, "register_design"):
        if p.get("id") == key:
            try:
                return parse_design(p, fleet.power.key, fleet.navy.fleet.catalogue)
            except CaseError:
                return None
    return None


Aboard = tuple[Design, int, str]  # a craft's design, crew aboard and hex


def _aboard(fleet: PowerFleet, key: Any) -> list[Aboard]:
    """The craft behind a key an order names (R-10.1a): a group's or a static's, one craft, a
    craft work in progress will finish, or those of a group the sheet forms this round."""
    navy = fleet.navy
    key = str(key)
    carrier = _carrier(fleet, key)
    if carrier is not None:
        return [(navy.design(c), c.crew, carrier.hex) for c in navy.members(carrier)]
    if key in navy.craft:
        c = navy.craft[key]
        return [(navy.design(c), c.crew, fleet.craft_hex(c) or "")]
    build = navy.builds.get(key)
    if build is not None and build.kind == "build" and build.builders[0] in navy.craft:
        return [
            (navy.designs[build.design], 0, fleet.craft_hex(navy.craft[build.builders[0]]) or "")
        ]
    for p in sheet_payloads(fleet.power, "form_group"):
        if p.get("id") == key and isinstance(p.get("craft"), list):
            return [a for c in p["craft"] if isinstance(c, str) for a in _aboard(fleet, c)]
    return []


def _crew_cost(fleet: PowerFleet, payload: dict[str, Any]) -> list[str]:
    craft = _aboard(fleet, payload.get("group") or payload.get("craft"))
    if not craft:
        return []
    hx = craft[0][2]
    short = [(d, d.crew - crew) for d, crew, _ in craft if d.crew > crew]
    need = sum(n for _, n in short)
    pl = sum(n * pl_per_cf(d) for d, n in short)
    cf = payload.get("cf")
    if isinstance(cf, int) and cf > 0 and short:
        pl, need = cf * pl_per_cf(short[0][0]), cf
    place = _place_words(fleet.power, {hx}, "pl")[hx]
    if not need:
        return ["Every craft has its crew: nothing to pay."]
    return [f"{need} CF for {pl} PL (5 per military CF, 2 per civilian) from {place}."]
