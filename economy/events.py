"""Round events in words, with names (the engine gives ``kind`` + ``data``; see
``economy/engine/events.py``). ``WORDS`` has one line per kind; ids in the data become names by
the role their key names (``ROLES``). An event of a kind without words (an old round record)
falls back to its contract ``text``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from economy.engine.events import Data, fill
from powers.models import EngageStatus, StandingOrder


def _reverted(d: Data) -> str:
    lowered = f": loyalty {d['before']} → {d['after']}" if d["before"] != d["after"] else ""
    return f"{d['system']} reverts to {d['type']} ({d['why']}){lowered}"


def _build_started(d: Data) -> str:
    where = f"at {d['hex']}" if d["hex"] else "inside its builder"
    extra = f", {d['surcharge']} of it for a new design" if d["surcharge"] else ""
    return f"Build {d['build']} of {d['design_name']} started {where}: {d['cost']} Ore{extra}"


def _unbuilt(d: Data) -> str:
    got = f"{d['ore']} Ore reclaimed" if d["where"] else f"{d['ore']} Ore lost (nowhere to keep it)"
    return f"{d['craft']} unbuilt at {d['builder']}: {got}"


def _restocked(d: Data) -> str:
    items = ", ".join(f"{n} {k}" for k, n in d["items"].items())
    text = f"{d['from_craft']} restocks {d['craft']} with {items}"
    return text + (": those systems begin the battle disabled" if d["unready"] else "")


_REASONS = (
    (re.compile(r"^\+1 maintain orbit$"), "+1: your fleet on Maintain Orbit"),
    (re.compile(r"^\+(\d+) from (\d+) troops$"), r"+\1: \2 troops landed"),
    (re.compile(r"^-1 abandoned$"), "−1: no group or static of yours there"),
    (re.compile(r"^-1 (.+) maintain orbit$"), r"−1: \1 on Maintain Orbit"),
)


def _changed(d: Data) -> str:
    """R-3.4: each part of the change in words (the engine's ``why`` lists them)."""
    parts = []
    for part in str(d["why"]).split(", "):
        for pattern, words in _REASONS:
            if pattern.match(part):
                part = pattern.sub(words, part)
                break
        parts.append(part)
    return f"{d['system']} loyalty {d['before']} → {d['after']} ({'; '.join(parts)})"


def _motion(d: Data) -> str:
    outcome = f"passed — {d['effect']}" if d["passed"] else "failed"
    return f"UN motion {d['motion']} ({d['motion_kind']}): {outcome}; {d['reason']}"


#: kind -> what a player reads: a template over the event's data (ids already turned into
#: names), or a function of it.
WORDS: dict[str, str | Callable[[Data], str]] = {
    "fleet.declared": "{group} declared at {hex}: {order}, {status}",
    "fleet.no_maintain_orbit": (
        "{group} may not hold Maintain Orbit (no troops or diplomat aboard): it has no effect"
    ),
    "loyalty.changed": _changed,
    "loyalty.lost": "{system} is lost by {holder}: it is neutral now",
    "loyalty.claimed": "{power} claims {system}: loyalty {after}",
    "loyalty.contested": (
        "{system} stays neutral: {acting!j} all acted there, so nobody gains and troops sent"
        " there are spent"
    ),
    "loyalty.converted": "{power} converts {system} with {troops} troops: loyalty {after}",
    "troops.landed": "{power} lands {troops} troops on {system}",
    "troops.invaders_destroyed": "{power}'s troops destroy {troops} invading troops on {system}",
    "troops.home_defence": "{power}'s home defence destroys {troops} invading troops on {system}",
    "troops.partly_recruited": "{carrier} had troop space for {made}: {rest} PL not converted",
    "hub.node_lost": "Hub {hub} loses {hex}: {ore} Ore and {bio} Bio captured by {captor!n}",
    "hub.back_in_hand": "Hub {hub}: {members!j} back in hand, holding shares again",
    "hub.distributed": "Hub {hub}'s pool distributed by hand",
    "hub.set_up": "Hub {hub} set up at {centre} with {nodes} nodes",
    "hub.extended": "Hub {hub} extended: {nodes} nodes and {links} links added",
    "hub.dropped": "Hub {hub} drops {dropped!j} and keeps {links} links",
    "hub.gone": "Hub {hub} is gone: {why}",
    "guild.fee_unpaid": "Hub {hub}: the guild fee was not paid, so its membership ends",
    "guild.left": "Hub {hub} leaves the guild after paying this round's fee",
    "guild.joined": "Hub {hub} joins the guild; the fee is due from round {from_round}",
    "production.conscripted": "{system} conscripts: loyalty {before} → {after}",
    "shipment.sent": "{amount} {resource} sent from {source} to {dest}, arriving round {arrives}",
    "shipment.waits": "Shipment {shipment} waits for the centre of hub {hub}",
    "shipment.stranded": "Shipment {shipment} waits for a guild hub holding {members!j}",
    "shipment.lost": "Shipment {shipment} is lost: {why}",
    "market.sold": "{power} sells {amount} {resource} for {gain} {bought}",
    "agreement.leg_dispatched": (
        "Agreement {agreement}: {sender} dispatches {amount} {resource} to {receiver},"
        " arriving in round {arrives}"
    ),
    "agreement.leg_failed": (
        "Agreement {agreement}: {sender}'s {amount} {resource} to {receiver} failed: {why}"
    ),
    "primary.reverted": _reverted,
    "primary.designated": "{system} becomes a Primary of {power} from next round",
    "primary.homeworld": "{system} is now the Homeworld of {power}",
    "project.started": "{system} shifts {pct}% of its {source} to {target} from next round",
    "project.stopped": "{system}'s planetary project stops",
    "un.market_report": "Common Market Report of round {round}",
    "un.motion": _motion,
    "design.registered": "Design {design_name} registered",
    "build.started": _build_started,
    "build.idle": "Build {build} takes no Ore this round",
    "build.completed": "{craft} ({design_name}) is finished, in orbit with {builder}",
    "build.cancelled": "Build {build} cancelled: the {ore} Ore paid is lost",
    "gantry.set_up": "{craft} sets up its gantry at {hex}",
    "gantry.lost": "{craft} moved: its gantry at {hex} is lost",
    "unbuild.done": _unbuilt,
    "unbuild.gone": "Unbuild {build}: {craft} is gone, nothing to unbuild",
    "unbuild.waits": "Unbuild {build} waits: its builder cannot work on {craft} this round",
    "fleet.formed": "{carrier} formed at {hex} from {craft!j}",
    "crew.short": "Only {made} of the {wanted} CF asked for could be crewed",
    "supply.out": (
        "{carrier} at {hex} is out of supply: it needed {need} EP, had {free} free and"
        " {stored} stored; its Hold-Special order is not carried out"
    ),
    "supply.full": "{carrier} can store {storage} EP: {rest} EP were not taken",
    # Fleets II (issue 15): the engine's events; pages and forms come later
    "battle.fought": "A battle was fought at {hex}",
    "battle.entry_skipped": "Battle record {battle}: {craft} was not changed: {why}",
    "battle.destroyed": "Battle record {battle}: {craft} was destroyed",
    "battle.damaged": (
        "Battle record {battle}: {craft} has {destroyed} system units destroyed and {disabled}"
        " disabled, and lost {cf_lost} CF"
    ),
    "battle.captured": "Battle record {battle}: {craft} was captured by {captor} into {carrier}",
    "work.ended": "Work {build} on {craft} ends: {why}; the Ore paid is lost",
    "work.started": "{work} {build} of {craft} started: {cost} Ore",
    "work.waits": "{build} waits: its repairer or builder cannot work on {craft} this round",
    "work.completed": "{work} {build} of {craft} done: fatigue {fatigue_before}% → {fatigue}%",
    "work.refitted": "{craft} refitted as {design_name}",
    "restock.done": _restocked,
    "loan.started": "Loan {loan}: {groups!j} lent by {owner} to {borrower} until round {last}",
    "loan.failed": "Loan {loan} was not made: {why}",
    "loan.ended": "Loan {loan} ended: {groups!j} back with {owner}",
    "transfer.done": "Transfer {transfer}: {carrier} given to {receiver}; its crew goes home",
    "transfer.failed": "Transfer {transfer} was not made: {why}",
    "design.studied": "Design {design_name} studied from {craft}: registered free",
}
# Support §4.3.2, §4.4, §5: command and intelligence (shown to their power only).
WORDS.update(
    {
        "officer.commissioned": "Officer {officer} commissioned at rank {rank}, grade {grade}",
        "officer.promoted": "Officer {officer} promoted to rank {rank}, grade {grade}",
        "officer.demoted": (
            "Officer {officer} demoted to rank {rank}: {rolls} to officer rolls for {rounds} rounds"
        ),
        "officer.unpaid": "Officer {officer} could not be paid: demoted to rank {rank}",
        "officer.dismissed": "Officer {officer} dismissed",
        "officer.reserve": "Officer {officer} leaves {left} for the reserve",
        "officer.assigned": lambda d: (
            f"Officer {d['officer']} goes aboard {d['craft']}"
            if d.get("craft")
            else f"Officer {d['officer']} takes command of {d['group']}"
            if d.get("group")
            else f"Officer {d['officer']} goes to the reserve"
        ),
        "officer.posted": "Officer {officer} commands {hex} of bubble {bubble}",
        "bubble.set_up": "Command bubble {bubble}: HQ set up at {hex}",
        "bubble.outpost": "Command bubble {bubble}: outpost set up at {hex}",
        "sensor.placed": "Command bubble {bubble}: sensor placed at {hex}",
        "sensor.removed": "Command bubble {bubble}: sensor at {hex} removed ({why})",
        "post.removed": "Command bubble {bubble}: the post at {hex} is given up",
        "patrol.assigned": "{group} patrols from {hex}",
        "patrol.released": "{group} no longer patrols from {hex}",
        "research.mission": "{craft} researches at {hex}: {tp} TP (factor {factor})",
        "special_interest.announced": (
            "An Area of Special Interest is announced at {hex}, active in rounds {starts}–{ends}"
        ),
        "special_interest.ended": "The Area of Special Interest at {hex} has ended",
        "diplomat.appointed": "Diplomat {diplomat} appointed aboard {craft}",
        "diplomat.recalled": "Diplomat {diplomat} recalled",
        "mission.declared": "Mission {mission} ({mission_kind}) declared against {target}",
        # the target reads these three too: the mission by its sender and kind, never by the
        # id the sender chose
        "mission.resolved": "{sender}'s diplomatic mission ({mission_kind}) against {target}: "
        "{outcome}",
        "mission.revealed": "Mission {mission} reveals: {facts!j}",
        "mission.moved": "By the diplomatic mission: {amount} {resource} moved",
        "mission.loyalty": "By the diplomatic mission: {system} loyalty {before} → {after}",
    }
)

#: data key -> which names an id in it is looked up in.
ROLES: dict[str, str] = {
    "system": "systems",
    "power": "powers",
    "holder": "powers",
    "captor": "powers",
    "sender": "powers",
    "receiver": "powers",
    "owner": "powers",
    "borrower": "powers",
    "target": "powers",
    "acting": "powers",
    "hub": "hubs",
    "group": "groups",
    "carrier": "carriers",
    "craft": "craft",
    "builder": "craft",
    "from_craft": "craft",
    "build": "builds",
    "design": "designs",
    "source": "places",
    "dest": "places",
    "order": "orders",
    "status": "statuses",
    "resource": "resources",
    "bought": "resources",
    "shipment": "shipments",
    "agreement": "numbered",
    "motion": "numbered",
    "mission": "missions",
    "officer": "officers",
    "diplomat": "diplomats",
    "bubble": "bubbles",
    "mission_kind": "mission_kinds",
}

#: Standing orders and engage outcomes in words (issue 17: "Hold – Restock", never
#: ``hold_restock``); the model's labels are the admin's.
ORDERS = {value: label.replace("Hold-", "Hold – ") for value, label in StandingOrder.choices} | {
    "none": "no standing order"
}
STATUSES = dict(EngageStatus.choices) | {"none": "not engaged"}

#: Support §4.4.3-§4.4.10 in words
MISSION_WORDS = {
    "reveal_hub": "reveal a trade hub",
    "reveal_bubble": "reveal a command bubble",
    "reveal_loyalty": "reveal loyalty and projects",
    "bribe_guild": "bribe the guild",
    "negotiate_guild": "negotiate with the guild",
    "terror_cells": "terror cells",
    "summit": "summit",
    "turn_diplomat": "turn a diplomat",
}

#: Market edges in words (R-6.1): ``ore>bio`` reads "Ore → Bio".
RESOURCES = {"ore": "Ore", "bio": "Bio", "gal": "Gal", "pl": "PL", "tp": "TP", "lr": "LR"}
RESOURCES |= {"ep": "EP", "cf": "CF", "troops": "troops"}
EDGES = {
    f"{a}>{b}": f"{RESOURCES[a]} → {RESOURCES[b]}"
    for a, b in (("ore", "bio"), ("bio", "gal"), ("gal", "ore"))
}

_PLACE_KINDS = {
    "bank": "Bank",
    "hub": "hub",
    "system": "",
    "group": "",
    "static": "",
    "craft": "craft",
    "build": "work",
    "workshop": "workshop of",
    "shipment": "in transit",
}


def resource_word(resource: str) -> str:
    """``ore`` -> "Ore"; a consumable kind stays as it is."""
    return RESOURCES.get(resource, resource)


@dataclass
class Names:
    """Names for the ids a reader may meet in its events, orders, ledger and statements: systems
    with their hex, powers by name, hubs by the name their power gave them, and the ids a player
    typed without the ``<power>-`` prefix the shell stored them with (economy.entry)."""

    systems: dict[str, str] = field(default_factory=dict)
    powers: dict[str, str] = field(default_factory=dict)
    hubs: dict[str, str] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    statics: dict[str, str] = field(default_factory=dict)
    craft: dict[str, str] = field(default_factory=dict)
    designs: dict[str, str] = field(default_factory=dict)
    builds: dict[str, str] = field(default_factory=dict)
    officers: dict[str, str] = field(default_factory=dict)
    diplomats: dict[str, str] = field(default_factory=dict)
    bubbles: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of_state(
        cls,
        state: Mapping[str, Any],
        powers: Mapping[str, str],
        hub_names: Mapping[str, str] | None = None,
    ) -> Names:
        """From a contract state (systems' names and hexes), the powers' names and the hubs'
        names (kept by the shell, not in the state)."""
        keys = set(powers) | {p["id"] for p in state.get("powers", [])}
        named = {k: hub_name(k, n, keys) for k, n in (hub_names or {}).items()}
        designs = {d["id"]: d.get("name") or own(d["id"], keys) for d in state.get("designs", [])}
        return cls(
            systems={s["id"]: f"{s['name']} ({s['hex']})" for s in state.get("systems", [])},
            powers=dict(powers),
            hubs=named
            | {h["id"]: hub_name(h["id"], "", keys) for h in state.get("hubs", [])}
            | named,
            groups={g["id"]: f"Group {own(g['id'], keys)}" for g in state.get("groups", [])},
            statics={s["id"]: f"Static {own(s['id'], keys)}" for s in state.get("statics", [])},
            craft={
                c["id"]: f"{own(c['id'], keys)} ({designs.get(c['design'], c['design'])})"
                for c in state.get("craft", [])
            },
            designs=designs,
            builds={b["id"]: own(b["id"], keys) for b in state.get("builds", [])},
            # Support §4.4, §5: characters by their names (their power's events only name them)
            officers={
                o["id"]: o.get("name") or own(o["id"], keys) for o in state.get("officers", [])
            },
            diplomats={
                d["id"]: d.get("name") or own(d["id"], keys) for d in state.get("diplomats", [])
            },
            bubbles={b["id"]: own(b["id"], keys) for b in state.get("bubbles", [])},
        )

    @cached_property
    def tables(self) -> dict[str, Mapping[str, str]]:
        hubs = {k: f"hub {v}" for k, v in self.hubs.items()}
        return {
            "systems": self.systems,
            "powers": self.powers,
            "hubs": self.hubs,
            "groups": self.groups,
            "statics": self.statics,
            "carriers": {**self.statics, **self.groups},
            "craft": self.craft,
            "designs": self.designs,
            "builds": self.builds,
            "officers": self.officers,
            "diplomats": self.diplomats,
            "bubbles": self.bubbles,
            "places": {**self.systems, **hubs},
            "orders": ORDERS,
            "statuses": STATUSES,
            "mission_kinds": MISSION_WORDS,
            "resources": RESOURCES,
        }

    def name(self, table: str, value: Any) -> Any:
        """One id (or a list of them) looked up in one table; an unknown id stays as it is."""
        if isinstance(value, list):
            return [self.name(table, v) for v in value]
        if not isinstance(value, str):
            return value
        found = self.tables.get(table, {}).get(value)
        if found is not None:
            return found
        # an id the round made (not in its starting state) or one never named
        if table == "shipments":
            return shipment_name(value)
        if table == "numbered":
            return numbered(value)
        mine = self._own(value)
        made = {"hubs": hub_name(value, "", self.powers), "groups": f"Group {mine}"}
        made |= {"statics": f"Static {mine}", "carriers": mine, "craft": mine, "builds": mine}
        made |= {"designs": mine, "missions": mine, "officers": mine, "diplomats": mine}
        made |= {"bubbles": mine}
        return made.get(table, value)

    def render(self, key: str, value: Any) -> Any:
        if key in ("why", "reason", "effect") and isinstance(value, str):  # free words
            return self.words(value)
        role = ROLES.get(key)
        if role is None or value is None:
            return value
        return self.name(role, value)

    def place(self, where: str) -> str:
        """A ledger place (``hub:nac-core``, ``system:avalon``, ``bank``) in words."""
        kind, _, key = where.partition(":")
        table = {"system": "systems", "hub": "hubs", "group": "groups", "static": "statics"}
        table |= {"craft": "craft", "build": "builds", "workshop": "craft"}
        named = self.name(table.get(kind, ""), key) if key else ""
        if named == key:  # made this round: not in the round's starting state
            named = self._own(key)
        prefix = _PLACE_KINDS.get(kind, kind)
        return " ".join(p for p in (prefix, named) if p) or where

    def words(self, text: str) -> str:
        """Free text from the engine (a ledger line's reason, a rejection) with its ids as
        names: ledger places (``hub:nac-core``), every whole word that is a known id, and
        market edges (``ore>bio``)."""

        def swap(match: re.Match[str]) -> str:
            word = match.group(0)
            if ":" in word:
                return self.place(word)
            if word in EDGES:
                return EDGES[word]
            for table in ("systems", "powers", "hubs", "groups", "statics", "craft", "builds"):
                found = self.tables[table].get(word)
                if found is not None:
                    said = match.string[max(0, match.start() - 4) : match.start()].lower()
                    return f"hub {found}" if table == "hubs" and said != "hub " else found
            return self._own(word)

        return _WORD.sub(swap, text)

    def _own(self, key: str) -> str:
        return own(key, set(self.powers))


_WORD = re.compile(
    r"\b(?:system|hub|group|static|craft|build|workshop|shipment):[\w-]+"  # a ledger place
    r"|[a-z]+>[a-z]+|[A-Za-z0-9][\w-]*"
)


def own(key: str, powers: Iterable[str]) -> str:
    """An id as its power typed it: ``nac-f9`` reads ``f9`` (the shell stores typed ids with
    their power's key in front, economy.entry)."""
    for power in powers:
        if key.startswith(f"{power}-") and len(key) > len(power) + 1:
            return key[len(power) + 1 :]
    return key


_SHIPMENT = re.compile(r"r([0-9]+)-.+-([0-9]+)")


def shipment_name(key: str) -> str:
    """A shipment by what a reader can place: ``r3-nac-1`` reads "1 of round 3" (contracts §1
    gives it its round, sender and number)."""
    match = _SHIPMENT.fullmatch(key)
    return f"{match[2]} of round {match[1]}" if match else key


def numbered(key: str) -> str:
    """A generated key (``agreement.7``, ``motion.3``) by its number: "7"."""
    return key.rpartition(".")[2] or key


def hub_name(key: str, name: str, powers: Iterable[str]) -> str:
    """A hub by the name its power gave it, else its id made a name: ``nac-core`` -> "Core"."""
    return name or own(key, powers).replace("-", " ").capitalize()


def describe(event: Mapping[str, Any], names: Names) -> str:
    """An event in words (``text`` for a record written before events had a kind)."""
    kind = event.get("kind")
    if kind not in WORDS:
        return str(event.get("text", ""))
    data = {k: names.render(k, v) for k, v in event.get("data", {}).items()}
    return fill(WORDS[kind], data)


def in_words(events: Iterable[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    """Each event with its ``words`` added."""
    return [{**e, "words": describe(e, names)} for e in events]
