"""What happened in a round, as data, and the one table that words it. Each event is a ``kind``
and the ids and numbers it concerns (contracts §1 result ``events[]``: ``kind``, ``data``, and
``text``).

``WORDS`` words each kind once, as a player reads it: a template over the event's data, or a
function of it. The engine fills it with the data as it is, ids and all, for the contract's
plain ``text`` (``text_of``); the shell fills the same wording with names (``economy/events.py``:
``Names`` turns each id into a name by the role its key names). Adding a kind is one line here.

Data keys name what they hold, so the shell knows which ids to turn into names: ``system``,
``power`` (and ``holder``, ``captor``, ``sender``, ``receiver``, ``acting``), ``hub``, ``group``,
``carrier``, ``source``/``dest`` (a hub or a system), ``shipment``, ``agreement``, ``motion``;
hexes are ``hex``/``centre``/``members``/``dropped``; everything else is a number or a word.
"""

from __future__ import annotations

import re
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


#: kind -> what a player reads: a template over the event's data (its ids turned into names by
#: the shell, or left as they are for the contract's ``text``), or a function of it.
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
    "battle.not_applied": "Battle record {battle} at {hex} was not applied: {why}",
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


def fill(template: str | Callable[[Data], str], data: Data) -> str:
    """A template (or a function) of an event's data, in words."""
    return template(data) if callable(template) else FORMAT.vformat(template, (), data)


def text_of(kind: str, data: Data) -> str:
    """The contract's plain text of an event (contracts §1 ``events[].text``): its wording with
    the ids as they are."""
    return fill(WORDS[kind], data)
