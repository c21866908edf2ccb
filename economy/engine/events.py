"""What happened in a round, as data: each event is a ``kind`` and the ids and numbers it
concerns (contracts §1 result ``events[]``: ``kind``, ``data``, and ``text`` for compatibility).

The engine never words an event for players: the shell renders ``kind`` + ``data`` with names
(``economy/events.py``). ``TEXTS`` gives each kind its plain contract ``text``, made from the same
data. Adding a kind is one line here and one line in the shell's table.

Data keys name what they hold, so the shell knows which ids to turn into names: ``system``,
``power`` (and ``holder``, ``captor``, ``sender``, ``receiver``, ``acting``), ``hub``, ``group``,
``carrier``, ``source``/``dest`` (a hub or a system), ``shipment``, ``agreement``, ``motion``;
hexes are ``hex``/``centre``/``members``/``dropped``; everything else is a number or a word.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

Data = Mapping[str, Any]


class EventFormatter(string.Formatter):
    """``{x!j}`` joins a list with commas; ``{x!n}`` writes ``None`` as "nobody"."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "j":
            return ", ".join(str(v) for v in value)
        if conversion == "n":
            return "nobody" if value is None else value
        return super().convert_field(value, conversion)


FORMAT = EventFormatter()


def _declared(d: Data) -> str:
    text = f"{d['group']} declared at {d['hex']}: {d['order']}, {d['status']}"
    if d.get("engages"):
        text += f", engages {', '.join(d['engages'])}"
    return text + (", defending" if d.get("defending") else "")


def _reverted(d: Data) -> str:
    text = f"{d['system']} reverts to {d['type']} ({d['why']})"
    return text + (f": LR {d['before']} -> {d['after']}" if d["before"] != d["after"] else "")


def _motion(d: Data) -> str:
    verdict = f"passed: {d['effect']}" if d["passed"] else "failed"
    return f"motion {d['motion']} ({d['motion_kind']}) {verdict}; {d['reason']}"


def _started(d: Data) -> str:
    where = f"at {d['hex']}" if d["hex"] else "inside"
    return (
        f"{d['build']}: {d['design_name']} started {where}, cost {d['cost']} ore"
        f" ({d['surcharge']} for a new design)"
    )


def _unbuilt(d: Data) -> str:
    got = (
        f"{d['ore']} ore to {d['where']}"
        if d["where"]
        else f"no hub or held system at {d['hex']}: {d['ore']} ore lost"
    )
    return f"{d['craft']} unbuilt at {d['builder']}: {got}"


def _restocked(d: Data) -> str:
    items = ", ".join(f"{n} {k}" for k, n in d["items"].items())
    text = f"{d['from_craft']} restocks {d['craft']}: {items}"
    return text + (" (engaged: those systems begin the battle disabled)" if d["unready"] else "")


def _distributed(d: Data) -> str:
    shares = ", ".join(f"{s['hex']} {s['ore']} ore {s['bio']} bio" for s in d["shares"])
    return f"hub {d['hub']} distributed by hand: {shares}"


#: kind -> the contract's plain ``text``: a template over the event's data, or a function of it.
TEXTS: dict[str, str | Callable[[Data], str]] = {
    "fleet.declared": _declared,
    "fleet.no_maintain_orbit": (
        "{group} ({group_kind}, no troops or diplomat) may not hold Maintain Orbit:"
        " no effect (R-3.4)"
    ),
    "loyalty.changed": "{system} loyalty {before} -> {after} ({why})",
    "loyalty.lost": "{system} lost by {holder}: now neutral",
    "loyalty.claimed": "{system} loyalty 0 -> {after} towards {power} (R-3.4c claim)",
    "loyalty.contested": (
        "{system} stays neutral: {acting!j} all act there, so nobody gains"
        " and troops sent there are spent (R-3.4c)"
    ),
    "loyalty.converted": "{system} converted by {power} with {troops} troops: LR {after}",
    "troops.landed": "{power} lands {troops} troops on {system}",
    "troops.invaders_destroyed": "{power} troops destroy {troops} invading troops on {system}",
    "troops.home_defence": "{power} destroys {troops} invading troops on {system}",
    "troops.partly_recruited": "{carrier} has troop space for {made}: {rest} PL not converted",
    "hub.node_lost": (
        "hub {hub} loses node {hex}: {ore} ore, {bio} bio captured by {captor!n} -> {where}"
    ),
    "hub.back_in_hand": "hub {hub}: {members!j} back in hand, holding shares again (R-4.6a)",
    "hub.distributed": _distributed,
    "hub.set_up": "{power} sets up hub {hub} at {centre} ({nodes} nodes)",
    "hub.extended": "{power} extends hub {hub}: {nodes} nodes, {links} links",
    "hub.dropped": "hub {hub} drops nodes {dropped}; keeps {links} links",
    "hub.gone": "hub {hub} is gone: {why}",
    "guild.fee_unpaid": "hub {hub}: guild fee unpaid, membership ends (R-5.3)",
    "guild.left": "hub {hub} leaves the guild after paying this round's fee (R-5.3a)",
    "guild.joined": "hub {hub} joins the guild: fee due from round {from_round}",
    "production.conscripted": "{system} conscripts: LR {before} -> {after}",
    "shipment.sent": "{shipment}: {amount} {resource} {source} -> {dest}, arrives {arrives}",
    "shipment.waits": "shipment {shipment} waits for the centre of {hub}",
    "shipment.stranded": (
        "shipment {shipment} waits for a guild hub holding one of {members!j} (R-5.4a)"
    ),
    "shipment.lost": "shipment {shipment} lost: {why}",
    "market.sold": "{power} sells {amount} {resource} for {gain} {bought} (round {round})",
    "agreement.leg_dispatched": (
        "agreement {agreement}: {shipment} {amount} {resource} {sender} -> {receiver},"
        " arrives {arrives}"
    ),
    "agreement.leg_failed": (
        "agreement {agreement}: leg {sender} -> {receiver} ({amount} {resource}) failed: {why}"
    ),
    "primary.reverted": _reverted,
    "primary.designated": "{system} becomes a Primary of {power} from next round",
    "primary.homeworld": "{system} nominated Homeworld of {power}",
    "project.started": "{system} shifts {pct}% of {source} to {target} from next round",
    "project.stopped": "{system} planetary project stopped",
    "un.market_report": "Common Market Report of round {round}",
    "un.motion": _motion,
    "design.registered": "design {design} ({design_name}) registered",
    "build.started": _started,
    "build.idle": "{build} takes no Ore this round",
    "build.completed": "{craft} ({design_name}) completed in orbit with {builder}",
    "build.cancelled": "{build} cancelled: {ore} ore lost",
    "gantry.set_up": "{craft} sets up its gantry at {hex}",
    "gantry.lost": "{craft} moved: its gantry at {hex} is lost",
    "unbuild.done": _unbuilt,
    "unbuild.gone": "{build}: {craft} is gone, nothing to unbuild",
    "unbuild.waits": "{build} waits: its builder cannot unbuild {craft}",
    "fleet.formed": "{carrier} formed at {hex} from {craft!j}",
    "crew.short": "only {made} of {wanted} CF needed: the rest not made",
    "supply.out": (
        "{carrier} at {hex} is out of supply: {need} EP needed, {free} free, {stored} stored"
        " (R-7.4a)"
    ),
    "supply.full": "{carrier} stores {storage} EP: {rest} EP not taken (R-10.7)",
    # Fleets II (issue 15): battle records, repair, refit, restock, loans, transfers, study
    "battle.fought": "a battle was fought at {hex}",
    "battle.entry_skipped": "battle {battle}: {craft} not changed: {why}",
    "battle.destroyed": "battle {battle}: {craft} destroyed",
    "battle.damaged": (
        "battle {battle}: {craft} has {destroyed} system units destroyed, {disabled} disabled,"
        " lost {cf_lost} CF"
    ),
    "battle.captured": "battle {battle}: {craft} captured by {captor} into {carrier}",
    "work.ended": "{build} on {craft} ended: {why}",
    "work.started": "{build}: {work} of {craft} started, cost {cost} ore",
    "work.waits": "{build} waits: its repairer or builder cannot work on {craft} this round",
    "work.completed": (
        "{build}: {work} of {craft} completed, fatigue {fatigue_before}% -> {fatigue}%"
    ),
    "work.refitted": "{build}: {craft} refitted as {design_name}",
    "restock.done": _restocked,
    "loan.started": "loan {loan}: {groups!j} lent by {owner} to {borrower} until round {last}",
    "loan.failed": "loan {loan} not made: {why}",
    "loan.ended": "loan {loan} ended: {groups!j} back with {owner}",
    "transfer.done": "transfer {transfer}: {carrier} given to {receiver}; crew home to {system!n}",
    "transfer.failed": "transfer {transfer} not made: {why}",
    "design.studied": "design {design} ({design_name}) studied from {craft}: registered free",
}


# Support §4.3.2, §4.4, §5: command and intelligence.
TEXTS.update(
    {
        "officer.commissioned": "{officer} commissioned: rank {rank}, grade {grade}",
        "officer.promoted": "{officer} promoted: rank {rank}, grade {grade}",
        "officer.demoted": (
            "{officer} demoted to rank {rank}: {rolls} to officer rolls for {rounds} rounds"
        ),
        "officer.unpaid": "{officer} unpaid: demoted to rank {rank} (R-8.2a)",
        "officer.dismissed": "{officer} dismissed",
        "officer.reserve": "{officer} leaves {left} for the reserve",
        "officer.assigned": "{officer} assigned: craft {craft!n}, group {group!n}",
        "officer.posted": "{officer} commands {hex} of bubble {bubble}",
        "bubble.set_up": "bubble {bubble}: HQ at {hex}",
        "bubble.outpost": "bubble {bubble}: outpost at {hex}",
        "sensor.placed": "bubble {bubble}: sensor at {hex}",
        "sensor.removed": "bubble {bubble}: sensor at {hex} removed ({why})",
        "post.removed": "bubble {bubble}: post at {hex} removed",
        "patrol.assigned": "{group} patrols from {hex}",
        "patrol.released": "{group} no longer patrols from {hex}",
        "research.mission": (
            "{craft} at {hex}: {capacity}/10 x {researchers}/25 x {factor} = {tp} TP (R-8.1)"
        ),
        "special_interest.announced": (
            "Area of Special Interest announced at {hex}: active rounds {starts}-{ends}"
        ),
        "special_interest.ended": "Area of Special Interest at {hex} ended in round {round}",
        "diplomat.appointed": "diplomat {diplomat} appointed aboard {craft}",
        "diplomat.recalled": "diplomat {diplomat} recalled",
        "mission.declared": "mission {mission} ({mission_kind}) declared against {target}",
        "mission.resolved": (
            "mission {mission} ({mission_kind}) of {sender} against {target}: {outcome}"
        ),
        "mission.revealed": "mission {mission} reveals: {facts!j}",
        "mission.moved": "mission {mission}: {amount} of {wanted} {resource} moved",
        "mission.loyalty": "mission {mission}: {system} loyalty {before} -> {after}",
    }
)


def fill(template: str | Callable[[Data], str], data: Data) -> str:
    """A template (or a function) of an event's data, in words."""
    return template(data) if callable(template) else FORMAT.vformat(template, (), data)


def text_of(kind: str, data: Data) -> str:
    """The contract's plain text of an event (contracts §1 ``events[].text``)."""
    return fill(TEXTS[kind], data)
