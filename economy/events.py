"""Round events in words, with names (the engine gives ``kind`` + ``data``; see
``economy/engine/events.py``). ``WORDS`` has one line per kind; ids in the data become names by
the role their key names (``ROLES``). An event of a kind without words (an old round record)
falls back to its contract ``text``.
"""

from __future__ import annotations

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
    "loyalty.changed": "{system} loyalty {before} → {after} ({why})",
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
        "officer.assigned": "Officer {officer} assigned (craft {craft!n}, group {group!n})",
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
        "mission.resolved": (
            "Mission {mission} ({mission_kind}) of {sender} against {target}: {outcome}"
        ),
        "mission.revealed": "Mission {mission} reveals: {facts!j}",
        "mission.moved": "Mission {mission}: {amount} {resource} moved",
        "mission.loyalty": "Mission {mission}: {system} loyalty {before} → {after}",
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
    "source": "places",
    "dest": "places",
    "order": "orders",
    "status": "statuses",
}

ORDERS = dict(StandingOrder.choices)
STATUSES = dict(EngageStatus.choices)


@dataclass
class Names:
    """Names for the ids a reader may meet in its events."""

    systems: dict[str, str] = field(default_factory=dict)
    powers: dict[str, str] = field(default_factory=dict)
    hubs: dict[str, str] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    statics: dict[str, str] = field(default_factory=dict)
    craft: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of_state(cls, state: Mapping[str, Any], powers: Mapping[str, str]) -> Names:
        """From a contract state (systems' names and hexes) and the powers' names."""
        designs = {d["id"]: d.get("name", d["id"]) for d in state.get("designs", [])}
        return cls(
            systems={s["id"]: f"{s['name']} ({s['hex']})" for s in state.get("systems", [])},
            powers=dict(powers),
            hubs={h["id"]: h["id"] for h in state.get("hubs", [])},
            groups={g["id"]: g["id"] for g in state.get("groups", [])},
            statics={s["id"]: s["id"] for s in state.get("statics", [])},
            craft={
                c["id"]: f"{c['id']} ({designs.get(c['design'], c['design'])})"
                for c in state.get("craft", [])
            },
        )

    def render(self, key: str, value: Any) -> Any:
        role = ROLES.get(key)
        if role is None or value is None:
            return value
        if isinstance(value, list):
            return [self.render(key, v) for v in value]
        return self._table(role).get(value, value)

    def _table(self, role: str) -> Mapping[str, str]:
        """The names of one role; the two merged tables once per ``Names`` (a statement's
        hundreds of events would otherwise copy every system's name for each)."""
        if role == "carriers":
            return self._carriers
        if role == "places":
            return self._places
        tables: dict[str, Mapping[str, str]] = {
            "systems": self.systems,
            "powers": self.powers,
            "hubs": self.hubs,
            "groups": self.groups,
            "craft": self.craft,
            "orders": ORDERS,
            "statuses": STATUSES,
        }
        return tables[role]

    @cached_property
    def _carriers(self) -> dict[str, str]:
        return {**self.statics, **self.groups}

    @cached_property
    def _places(self) -> dict[str, str]:
        return {**self.systems, **{k: f"hub {v}" for k, v in self.hubs.items()}}


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
