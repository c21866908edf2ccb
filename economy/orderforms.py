"""How each engine order type is entered in the browser: labels, input kinds and where a
field's choices come from. The engine's ``validate.FIELDS`` stays the authority on what an order
must contain (a test checks both name the same fields); this module only says how to ask."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from economy.engine.command_state import MISSION_KINDS
from economy.engine.state import (
    CAPACITIES,
    CRAFT_CLASSES,
    GROUP_KINDS,
    GROUP_ORDERS,
    GROUP_STATUSES,
    MOBILITIES,
)
from economy.events import ORDERS, RESOURCES, STATUSES, Names


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    # "ref" (a select), "enum", "int", "bool", "text", "typed_id" (a new id the player
    # chooses, economy.entry), "hex", "hexes", "powers", "links", "shares", and for the fleet
    # "ids" (several refs), "counts" ({kind: n}) and "systems" (a design's systems, R-10.0)
    kind: str
    source: str = ""  # for refs: see Choices
    options: tuple[str, ...] = ()
    help: str = ""
    engine: bool = True  # False: kept by the shell only, never sent to the engine
    max_length: int = 0  # for "text": the column's length


@dataclass(frozen=True)
class OrderType:
    label: str
    cite: str
    fields: tuple[Field, ...]
    pays: str = ""  # what it costs, where that is paid from and when, in words (issue 14)
    step: str = ""  # the round step it happens in (economy.guide.STEPS, issue 17)
    help: str = ""  # what it does, in one plain paragraph with its cost (issue 17)

    @property
    def about(self) -> str:
        """The paragraph the form shows: what it does and what it costs."""
        return " ".join(p for p in (self.help, self.pays) if p)


def _ref(name: str, label: str, source: str, help: str = "") -> Field:
    return Field(name, label, "ref", source=source, help=help)


def _enum(name: str, label: str, *options: str) -> Field:
    return Field(name, label, "enum", options=options)


def _int(name: str, label: str, help: str = "") -> Field:
    return Field(name, label, "int", help=help)


def _new_id(label: str) -> Field:
    return Field("id", label, "typed_id", help=TYPED_ID_HELP)


TYPED_ID_HELP = "1-24 lower-case letters, digits or '-', starting with a letter"
SYSTEMS_HELP = (
    "one system a line: name: points per unit, xcount, then any capacities, e.g. "
    "'Class 1 beam: 3 x2', 'Hull box: 1 x10', 'Construction yard: 40, construction 30, "
    "workshop 50'. Capacities: " + ", ".join(c.replace("_", " ") for c in CAPACITIES)
)


ORDER_TYPES: dict[str, OrderType] = {
    "declare_group": OrderType(
        "Declare a fleet group",
        "R-2",
        (
            _ref("group", "Group", "groups"),
            Field("hex", "Hex", "hex", help="XXYY"),
            _enum("order", "Standing order", *GROUP_ORDERS),
            _enum("status", "Engage outcome", *GROUP_STATUSES),
            Field("engages", "Engages powers", "powers", help="power ids, e.g. vargr zhodani"),
            Field("defending", "Defending", "bool", help="it only answers an attack (R-2a)"),
        ),
    ),
    "send_troops": OrderType(
        "Send troops to the system below",
        "Resource 1.2",
        (_ref("group", "Troop transport group", "groups"), _int("troops", "Troops")),
    ),
    "recover_troops": OrderType(
        "Recover invading troops",
        "Resource 1.2",
        (
            _ref("group", "Transport group", "groups"),
            _ref("system", "System", "systems"),
            _int("troops", "Troops"),
        ),
    ),
    "convert_invasion": OrderType(
        "Convert invading troops into loyalty",
        "Resource 1.2, R-3.4",
        (_ref("system", "System", "systems"),),
    ),
    "conscript": OrderType(
        "Conscript (spend LR for PL)",
        "Resource 2.4, R-3.5",
        (_ref("system", "System", "held"), _int("loyalty", "LR to spend")),
    ),
    "market_sell": OrderType(
        "Sell on the Common Market",
        "Resource 4, R-6.1",
        (
            _enum("resource", "Resource sold", "ore", "bio", "gal"),
            _int("amount", "Amount"),
            _ref("from", "Sold from (Ore/Bio)", "places", help="omit for Gal"),
            _ref("to", "Ore bought arrives at (Gal sales)", "places", help="only for Gal"),
        ),
    ),
    "ship": OrderType(
        "Ship between own guild hubs",
        "Resource 5.2, R-5.4",
        (
            _ref("from_hub", "From hub", "hubs"),
            _ref("to_hub", "To hub", "hubs"),
            _enum("resource", "Resource", "ore", "bio", "pl"),
            _int("amount", "Amount"),
            _enum("payer", "Cost paid by", "sender", "receiver"),
        ),
    ),
    "gal_transfer": OrderType(
        "Transfer Gal to another power",
        "R-5.6",
        (_ref("to", "To power", "other_powers"), _int("amount", "Gal")),
    ),
    "hub_setup": OrderType(
        "Set up a trade hub",
        "Support 4.1.1, R-5.1",
        (
            _new_id("New hub id"),
            Field("name", "Hub name", "text", help="optional", engine=False, max_length=60),
            Field("centre", "Centre hex", "hex", help="XXYY"),
            Field("nodes", "Node hexes", "hexes", help="e.g. 0203 0305"),
            Field("links", "Links", "links", help="e.g. 0101-0203 0203-0305"),
            _ref("pay_from", "Pay the Ore from", "places"),
        ),
    ),
    "hub_extend": OrderType(
        "Extend a trade hub",
        "Support 4.1.1, R-5.1a",
        (
            _ref("hub", "Hub", "hubs"),
            Field("nodes", "New node hexes", "hexes", help="e.g. 0406"),
            Field("links", "New links", "links", help="e.g. 0305-0406"),
        ),
    ),
    "hub_maintain": OrderType(
        "Maintain a hub (keep only some of it)",
        "Support 4.1.2, R-5.2",
        (
            _ref("hub", "Hub", "hubs"),
            Field("keep_nodes", "Nodes to keep", "hexes", help="empty keeps all"),
            Field("keep_links", "Links to keep", "links", help="empty keeps all"),
            Field("close", "Close the hub", "bool", help="shut it down this Support Phase"),
        ),
    ),
    "distribute": OrderType(
        "Distribute a hub's Ore and Bio by hand",
        "Resource 5.1.2, R-5.7",
        (
            _ref("hub", "Hub", "hubs"),
            Field("shares", "Shares", "shares", help="hex ore bio; e.g. 0101 10 5; 0203 20 0"),
        ),
    ),
    "embark": OrderType(
        "Embark PL into a static's passenger space",
        "Resource 2.4, Support 7.1",
        (
            _ref("at", "PL from", "places"),
            _int("pl", "PL"),
            _ref("into", "Into static", "statics"),
        ),
    ),
    "guild_join": OrderType("Join the guild", "Support 4.2, R-5.3", (_ref("hub", "Hub", "hubs"),)),
    "guild_leave": OrderType(
        "Leave the guild", "Support 4.2, R-5.3", (_ref("hub", "Hub", "hubs"),)
    ),
    "designate_primary": OrderType(
        "Designate a Primary system",
        "Resource 1.1, R-3.2",
        (_ref("system", "System", "held"),),
    ),
    "drop_primary": OrderType(
        "Drop Primary status", "Resource 1.1, R-3.2", (_ref("system", "System", "held"),)
    ),
    "nominate_homeworld": OrderType(
        "Nominate a Homeworld", "Resource 1.1", (_ref("system", "System", "held"),)
    ),
    "research_project": OrderType(
        "Fund a research project",
        "Support 4.3.1",
        (_int("gal", "Gal (2 Gal = 1 TP)"),),
    ),
    "recruit_troops": OrderType(
        "Recruit troops",
        "Support 3.1.1",
        (
            _ref("at", "PL from", "places"),
            _int("troops", "Troops"),
            _ref("into", "Into troop space of", "carriers"),
        ),
    ),
    "home_defense": OrderType(
        "Home defence against invaders",
        "Support 3.1.2, R-7.1",
        (
            _ref("system", "System", "held"),
            _int("troops", "Troops"),
            _ref("invader", "Invader", "other_powers"),
        ),
    ),
    "register_design": OrderType(
        "Register a design",
        "Support 1.1, R-10.0",
        (
            _new_id("New design id"),
            Field("name", "Design name", "text", help="optional", max_length=60),
            _enum("class", "Class", *CRAFT_CLASSES),
            _enum("mobility", "Mobility", *MOBILITIES),
            _int("mass", "Mass"),
            _int("npv", "NPV (Ore to build)", help="at least its systems' points"),
            _int("crew", "Crew factors needed", help="optional, default 0"),
            Field("systems", "Systems", "systems", help=SYSTEMS_HELP),
            Field(
                "loadout",
                "Built with consumables",
                "counts",
                source="kinds",
                help="optional, e.g. fighter 6, missile 2",
            ),
        ),
        "Costs the campaign's TP per design from your bank at the start of the Support Phase "
        "(§1); you can build it in the same round.",
    ),
    "build": OrderType(
        "Build a craft",
        "Support 1.1, R-10.1",
        (
            _new_id("New craft id"),
            _ref("design", "Design", "designs"),
            Field(
                "builders",
                "Builders",
                "ids",
                source="builders",
                help="one, or several in one hex pooling on an external build",
            ),
            _int("ore", "Ore this round", help="optional: default all the builders can take"),
        ),
        "Costs the design's NPV in Ore (+10 %, rounded up, while no craft of it is finished; its "
        "consumables at the catalogue's cost), paid each Support Phase up to the builders' "
        "construction rating from the hub pool covering their hex, else your system's stockpile "
        "there. The craft is finished in orbit with its builder once it is paid in full.",
    ),
    "adjust_build": OrderType(
        "Change or cancel work in progress",
        "R-10.7",
        (
            _ref("build", "Work in progress", "work"),
            _int("ore", "Ore this round", help="exactly this much this round"),
            Field("builders", "New builders", "ids", source="builders", help="external only"),
            Field("cancel", "Cancel it", "bool", help="the Ore paid so far is lost"),
        ),
        "Costs nothing itself; Ore this round is paid as for a build. Cancelling loses the Ore "
        "paid so far.",
    ),
    "unbuild": OrderType(
        "Unbuild a craft",
        "Support 1.3, R-10.3",
        (
            _new_id("New work id"),
            _ref("craft", "Craft to unbuild", "own_craft"),
            _ref("builder", "At builder", "builders"),
        ),
        "Works through the craft's NPV at the builder's construction rating (it builds nothing "
        "else that round). On completion you reclaim the NPV less the fatigue cost (half for a "
        "captured craft) in Ore, and its crew as PL, where the hex keeps its goods.",
    ),
    "repair": OrderType(
        "Repair a craft",
        "R-10.2",
        (
            _new_id("New work id"),
            _ref("craft", "Damaged craft", "own_craft"),
            _ref("repairer", "Repairer or builder", "repairers", help="in the craft's hex"),
            _int("ore", "Ore this round", help="optional: default all its rating can take"),
        ),
        "Destroyed systems cost their point cost in Ore, paid each Support Phase up to the "
        "repairer's rating (carried over between rounds) from the hub pool covering the hex, "
        "else your system's stockpile there; fatigue is added when it completes. Disabled "
        "systems are fixed free. Lost CF are not replaced (crew again).",
    ),
    "rebuild": OrderType(
        "Rebuild a craft",
        "R-10.2",
        (
            _new_id("New work id"),
            _ref("craft", "Damaged craft", "own_craft"),
            _ref("builder", "Builder", "builders", help="in the craft's hex"),
            Field("remove_fatigue", "Remove fatigue", "bool", help="costs extra Ore"),
            _int("ore", "Ore this round", help="optional: default all its rating can take"),
        ),
        "As a repair, at the builder's construction rating, but adds no fatigue; removing the "
        "craft's fatigue costs ceil(½ × fatigue/100 × NPV) Ore more. Lost CF are not replaced.",
    ),
    "refit": OrderType(
        "Refit a craft into a variant design",
        "Support 1.5, R-10.5a",
        (
            _new_id("New work id"),
            _ref("craft", "Craft", "own_craft"),
            _ref("builder", "Builder", "builders", help="in the craft's hex"),
            _ref("design", "Variant design", "designs", help="of the same mobility"),
            _int("ore", "Ore this round", help="optional: default all its rating can take"),
        ),
        "Systems removed are unbuilt without reclaiming their Ore; new systems cost their point "
        "cost in Ore at the builder's construction rating. The craft becomes the variant.",
    ),
    "restock": OrderType(
        "Restock consumables",
        "Support 2, 2.0",
        (
            _ref("source", "From builder or cargo craft", "own_craft"),
            _ref("target", "Craft to restock", "own_craft", help="in the same hex"),
            Field("items", "Items", "counts", help="optional: kind count, e.g. fighter 6"),
            _enum("if_engaged", "If engaged", "abandon", "disabled"),
        ),
        "Free: the consumables come from the builder's workshop or the source's cargo. The "
        "source holds (Hold-Build or Hold-Restock), the target Hold-Maintain; a retreat of "
        "either fails it.",
    ),
    "study_design": OrderType(
        "Study a received craft's design",
        "Support 1.6.3",
        (
            _new_id("New design id"),
            _ref("craft", "Received craft", "own_craft"),
            _ref("builder", "At builder", "builders", help="kept there this round"),
        ),
        "Free: registers the craft's design as yours from the next round. Captured craft can "
        "never be studied.",
    ),
    "make": OrderType(
        "Make consumables",
        "Support 1.4, R-10.1a",
        (
            _ref("builder", "Builder or repairer", "builders"),
            _ref("kind", "Consumable", "kinds"),
            _int("count", "How many"),
        ),
        "Costs the catalogue's Ore for each, within the builder's rating, from the hub pool "
        "covering its hex, else your system's stockpile there; stored in its workshop.",
    ),
    "form_group": OrderType(
        "Form a group from craft in orbit",
        "Support 1.1, R-2b",
        (
            _new_id("New group id"),
            Field("craft", "Craft", "ids", source="orbiting", help="craft in orbit, one hex"),
            _enum("kind", "Group kind", *GROUP_KINDS),
        ),
        "Free. Mobile craft form a group, static craft a static, after all building this round.",
    ),
    "crew": OrderType(
        "Crew a group or craft",
        "Support 3.2, R-7.2",
        (
            _ref("group", "Group", "crewed"),
            _ref("craft", "Or one craft", "craft"),
            _int("cf", "Crew factors", help="optional: default as many as the PL pays for"),
        ),
        "Costs 5 PL per military CF, 2 PL per civilian CF, from PL reaching the hex (its hub "
        "pool, else your system's stockpile there), after recruiting troops.",
    ),
    "supply_ep": OrderType(
        "Supply EP",
        "Support 3.4, R-7.4",
        (
            _ref("into", "Into group or static", "supplied"),
            _int("ep", "EP"),
        ),
        "Costs 1 Bio per EP, from Bio reaching the hex (its hub pool, else your system's "
        "stockpile there), up to its free EP storage.",
    ),
    "planetary_project": OrderType(
        "Planetary project",
        "Support 6, R-9.1",
        (
            _ref("system", "System", "held"),
            _enum("source", "Shift from", "ore", "gal", "bio"),
            _enum("target", "Shift to", "ore", "gal", "bio"),
            _int("pct", "Percent (0 stops)"),
        ),
    ),
}

# --- command and intelligence (Support §3.3, §4.4, §5; R-8; issue 16) ---------------------

_OFFICER = _ref("officer", "Officer", "officers")
_BUBBLE = _ref("bubble", "Bubble", "bubbles")
_POST = Field("post", "Post (the HQ's or an outpost's hex)", "hex", help="XXYY")
_NAME = Field("name", "Name", "text", help="optional", max_length=100)

COMMAND_TYPES: dict[str, OrderType] = {
    "commission": OrderType(
        "Commission an officer",
        "Support 5.1, R-8.2",
        (_new_id("New officer id"), _int("rank", "Rank"), _int("grade", "Grade (1-10)"), _NAME),
        "All or nothing when the round resolves: a bank short of either refuses the commission.",
    ),
    "promote": OrderType(
        "Promote an officer",
        "Support 5.1, R-8.2",
        (
            _OFFICER,
            _int("rank", "New rank", help="optional"),
            _int("grade", "New grade", help="optional"),
            Field("tp", "Pay in TP", "bool", help="instead of a roll"),
        ),
        "Paid from your bank when the round resolves; nothing is refunded.",
    ),
    "demote": OrderType(
        "Demote an officer",
        "Support 5.1, R-8.2",
        (_OFFICER, _int("rank", "New rank")),
        "Free; the penalty is shown on the Command page until its last round.",
    ),
    "dismiss": OrderType("Dismiss an officer", "Support 5.1, R-8.2", (_OFFICER,), "Free."),
    "assign_officer": OrderType(
        "Put an officer aboard a craft or in command of a group",
        "Support 5.1, R-8.2",
        (
            _OFFICER,
            _ref("craft", "Aboard craft", "own_craft", help="or a group"),
            _ref("group", "Or command group", "crewed"),
        ),
    ),
    "bubble_hq": OrderType(
        "Set up a command bubble's HQ",
        "Support 5.2, R-8.3",
        (_new_id("New bubble id"), Field("hex", "HQ hex", "hex", help="XXYY"), _OFFICER),
        "The Ore comes from the hub pool covering the HQ, else the stockpile of its system.",
    ),
    "bubble_outpost": OrderType(
        "Add an outpost to a bubble",
        "Support 5.2.1, R-8.3",
        (_BUBBLE, Field("hex", "Outpost hex", "hex", help="XXYY"), _OFFICER),
        "The Ore comes from the hub pool covering the HQ, else the stockpile of its system.",
    ),
    "bubble_sensor": OrderType(
        "Place a sensor",
        "Support 5.2.2, R-8.3",
        (_BUBBLE, _POST, Field("hex", "Sensor hex", "hex", help="XXYY")),
        "The Ore, to place and to keep, comes from the hub pool covering the HQ, else the "
        "stockpile of its system.",
    ),
    "post_officer": OrderType(
        "Post an officer to a bubble's HQ or outpost",
        "Support 5.2, R-8.3a",
        (_BUBBLE, _POST, _OFFICER),
    ),
    "patrol": OrderType(
        "Patrol from a bubble's post",
        "Support 5.2.4, R-8.3",
        (_ref("group", "Group", "groups"), _BUBBLE, _POST),
    ),
    "researchers": OrderType(
        "Embark researchers",
        "Support 4.3.2, R-8.1",
        (_ref("craft", "Aboard craft", "own_craft"), _int("pl", "PL")),
        "Costs the PL put aboard, all or nothing; they stay aboard until moved.",
    ),
    "appoint_diplomat": OrderType(
        "Appoint a diplomat",
        "Support 4.4.1, R-8.4",
        (_new_id("New diplomat id"), _ref("craft", "Aboard craft", "own_craft"), _NAME),
    ),
    "recall_diplomat": OrderType(
        "Recall a diplomat",
        "Support 4.4.1, R-8.4",
        (_ref("diplomat", "Diplomat", "diplomats"),),
    ),
    "diplomatic_mission": OrderType(
        "Send a diplomat on a mission",
        "Support 4.4, R-8.4",
        (
            _new_id("New mission id"),
            _ref("diplomat", "Diplomat", "diplomats"),
            _ref("target", "Target power", "other_powers"),
            _enum("kind", "Mission", *MISSION_KINDS),
            _ref("system", "System", "systems", help="optional"),
            _int("gal", "Gal spent", help="optional"),
            _int("tp", "TP spent", help="optional"),
            _int("pl", "PL spent", help="optional"),
        ),
        "The Gal and TP come from your bank and the PL from where it reaches the diplomat's "
        "craft; nothing comes back whatever the outcome.",
    ),
}
ORDER_TYPES.update(COMMAND_TYPES)

# kind -> (the step it happens in, what it does and costs) — the players' paragraph (issue 17)
_ABOUT: dict[str, tuple[str, str]] = {
    "declare_group": (
        "fleet",
        "Says where a fleet group is this round, its standing order and how its engagements "
        "went (movement and battles are played outside FTCamp). Free. Maintain Orbit at a system "
        "raises your loyalty there; Hold orders make the group build, restock, research and so on.",
    ),
    "send_troops": (
        "resource.1",
        "Lands troops from a transport group on Maintain Orbit onto the system in its hex: every "
        "25 troops add 1 loyalty to your own or a neutral system, or they invade an enemy's. The "
        "troops are spent. Free.",
    ),
    "recover_troops": (
        "resource.1",
        "Takes your invading troops back aboard a transport group on Maintain Orbit at that "
        "system, lifting their pressure on its loyalty. Free.",
    ),
    "convert_invasion": (
        "resource.1",
        "When your invading troops have brought an enemy system's loyalty to 0, turns them into "
        "your own loyalty there (1 per 25 troops): the system becomes yours. Free; the troops "
        "are spent.",
    ),
    "conscript": (
        "resource.2.2-2.4",
        "Spends loyalty of one of your systems for people: each LR spent gives that system's PL "
        "rate in PL there, after production. Loyalty cannot drop below 1 this way.",
    ),
    "market_sell": (
        "resource.4",
        "Sells on the Common Market at the current rate, less any tax: Ore buys Bio (which "
        "arrives where the Ore was), Bio buys Gal (into your bank), Gal buys Ore (delivered to "
        "the hub or system you name). The amount sold comes from the hub or system you name.",
    ),
    "ship": (
        "resource.5",
        "Ships Ore, Bio or PL between two of your hubs whose centres are in the guild. It costs 1 "
        "% per 5 hexes (at least 1 %, rounded up) on top of the amount, in the same goods (Gal "
        "for PL), paid by the end you choose; it takes a round per 20 hexes.",
    ),
    "gal_transfer": (
        "resource.5",
        "Gives Gal from your bank to another power's bank at once. Free.",
    ),
    "hub_setup": (
        "support.4.1.1",
        "Founds a trade hub: a centre (a system you hold or your civilian static), nodes and the "
        "links joining them. Costs 20 Ore plus the length of every link in hexes, once, then "
        "Gal maintenance every round; it pools its systems' goods from the next round.",
    ),
    "hub_extend": (
        "support.4.1.1",
        "Adds nodes and links to one of your hubs. Costs the new links' lengths in Ore from the "
        "hub's pool; the new parts work from the next round.",
    ),
    "hub_maintain": (
        "support.4.1.2",
        "Chooses which nodes and links of a hub you keep paying for (the rest are dropped at the "
        "end of the Support Phase), or closes it. Maintenance costs Gal: 2 to the power of the "
        "farthest node's distance, plus 1 per node and per link. Without this order the whole "
        "hub is kept.",
    ),
    "distribute": (
        "resource.5",
        "Splits a hub's pool among its members by hand instead of evenly (it matters when a "
        "node is lost). Free.",
    ),
    "embark": (
        "support.7",
        "Puts PL into a static's passenger space, where it is kept instead of being lost as the "
        "round is tidied up, and filled passenger space adds PL each round. Free.",
    ),
    "guild_join": (
        "support.4.2",
        "Brings a hub's centre into the guild, so it can ship and receive from next round. Costs "
        "5 Gal each round from the next one.",
    ),
    "guild_leave": (
        "support.4.2",
        "Takes a hub out of the guild at the end of this round (this round's fee is still due). "
        "Not while a shipment is on its way to it.",
    ),
    "designate_primary": (
        "support.4 primaries",
        "Makes one of your systems a Primary: its maximum loyalty rises to 20 and it yields 10 TP "
        "from next round. Costs 2 Gal per point of its PL rate now and every round after.",
    ),
    "drop_primary": (
        "support.4 primaries",
        "Ends a system's Primary status and its upkeep; its loyalty above the new maximum is lost.",
    ),
    "nominate_homeworld": (
        "support.4 primaries",
        "Names one of your Primary systems your Homeworld when you have none (you need one to "
        "fund research). Free.",
    ),
    "research_project": (
        "support.4.3.1",
        "Turns Gal into TP for designs and officers: 2 Gal for each TP, from your bank. Needs your "
        "Homeworld held.",
    ),
    "recruit_troops": (
        "support.3.1",
        "Turns PL into troops, 1 for 1, into the troop space of a group or static in the same hex "
        "or hub; PL that finds no space stays PL.",
    ),
    "home_defense": (
        "support.3.1",
        "Turns PL at one of your invaded systems into troops that at once destroy as many of the "
        "invader's troops, 1 for 1. Costs the PL.",
    ),
    "register_design": (
        "support.1",
        "Records a ship or static design (its mass, NPV, crew and systems) so your builders can "
        "build it.",
    ),
    "build": ("support.1", "Starts a new craft of one of your designs at your builders."),
    "adjust_build": (
        "support.1",
        "Changes how much Ore work in progress takes this round, moves an external build to new "
        "builders, or cancels it.",
    ),
    "unbuild": ("support.1", "Takes one of your craft apart at a builder in its hex."),
    "make": ("support.1", "Makes fighters, drones, missiles or other consumables in a workshop."),
    "form_group": (
        "support.1",
        "Gathers finished craft waiting in orbit with their builder into a new fleet group or "
        "static.",
    ),
    "crew": ("support.3.2", "Crews a group or one craft with crew factors (CF) from PL."),
    "supply_ep": ("support.3.4", "Stores EP on a group or static so it stays in supply."),
    "planetary_project": (
        "support.6",
        "Shifts part of a system's production from one resource to another (Ore, Gal, Bio), from "
        "next round; the most you can shift depends on its loyalty (25 % at LR 11–15, 50 % at "
        "16–20, 75 % from 21). Free; 0 stops a project.",
    ),
    "repair": (
        "support.1",
        "Repairs a craft's destroyed systems at a repairer or builder of yours in its hex: their "
        "point cost in Ore, paid at the repairer's rating and carried over between rounds; "
        "disabled systems are fixed free. The craft gains fatigue when the repair completes.",
    ),
    "rebuild": (
        "support.1",
        "Like a repair, at a builder on Hold-Build, without fatigue; it can also remove the "
        "craft's fatigue for half its share of the NPV in Ore.",
    ),
    "refit": (
        "support.1",
        "Rebuilds a craft as a variant design of yours at a builder: costs the new systems' "
        "points plus any rise in hull and drives, in Ore at the builder's rating; nothing back "
        "for what is removed.",
    ),
    "restock": (
        "support.2",
        "Loads consumables (fighters, missiles, drones...) onto a craft from a builder's workshop "
        "or another craft's cargo in the same hex. Free; a retreat or an engagement can stop it.",
    ),
    "study_design": (
        "support.1.6",
        "Registers, free, a copy of the design of another power's craft that was lent or given "
        "to you (never a captured one), at a builder of yours in its hex; you can build it from "
        "next round.",
    ),
    "commission": (
        "support.5.1",
        "Commissions an officer: rank × 50 Gal and rank × 50 + (grade − 1) × 50 TP from your bank, "
        "then rank Gal of pay every round from the next one.",
    ),
    "promote": (
        "support.5.1",
        "Raises an officer's rank or grade, paying the difference: 50 Gal a rank and 50 TP a "
        "rank or grade. Promoting by rank without the TP costs only the Gal and lowers the "
        "grade by one a rank instead; the officer's pay rises with its rank.",
    ),
    "demote": (
        "support.5.1",
        "Lowers an officer's rank and its pay. No refund, and the officer's rolls take −1 per "
        "rank demoted for 9 − grade rounds (none at grade 9 or 10).",
    ),
    "dismiss": (
        "support.5.1",
        "Ends an officer's service and pay: no refund; a post the officer commanded needs "
        "another officer.",
    ),
    "assign_officer": (
        "support.5.1",
        "Puts an officer aboard a craft (at most rank × 50 points; rank 14 and up needs a flag "
        "bridge) or in command of a group, or back to the reserve. Free.",
    ),
    "bubble_hq": (
        "support.5.2",
        "Sets up a command bubble's HQ at a system you hold or your military static, with an "
        "officer in command: 30 Ore. It covers the hexes within the officer's grade and may not "
        "overlap another bubble.",
    ),
    "bubble_outpost": (
        "support.5.2",
        "Adds an outpost within the HQ's radius, commanded by an officer junior to the HQ's: 15 "
        "Ore.",
    ),
    "bubble_sensor": (
        "support.5.2",
        "Places a sensor within a post's radius (at most rank + grade of its officer per post): "
        "10 Ore, then 5 Ore a round to keep, or it is removed.",
    ),
    "post_officer": (
        "support.5.2",
        "Gives a bubble's HQ or outpost a new commanding officer, whose grade becomes the post's "
        "radius; the one replaced goes to the reserve. An officer of the same bubble moves "
        "within its own radius. Free.",
    ),
    "patrol": (
        "support.5.2",
        "Sends a group on Hold-Patrol to patrol from a bubble's post (at most its officer's rank "
        "of groups per post). Free.",
    ),
    "researchers": (
        "support.3.3",
        "Puts PL aboard a craft's passenger space as researchers, from PL reaching its hex. A "
        "group on Hold-Research earns, per craft, floor(research ÷ 10) × floor(researchers ÷ "
        "25) × a factor TP: 0 in a system, 1 in deep space, 2 in a dust cloud, 5 in an active "
        "Area of Special Interest.",
    ),
    "appoint_diplomat": (
        "support.4.4",
        "Appoints a diplomat aboard one of your craft. Free; a group carrying one may engage only "
        "in defence.",
    ),
    "recall_diplomat": (
        "support.4.4",
        "Recalls a diplomat: it leaves the campaign, and its group may engage again. Free.",
    ),
    "diplomatic_mission": (
        "support.4.4",
        "Sends a diplomat at another power's system on a mission (one per target Homeworld or "
        "Primary a round); the Gal, TP and PL you choose to spend are charged when the round "
        "resolves, and the admin writes the outcome, applied at the start of the next "
        "resolution. The target learns of it only then.",
    ),
}
ORDER_TYPES = {
    kind: replace(spec, step=_ABOUT[kind][0], help=_ABOUT[kind][1])
    for kind, spec in ORDER_TYPES.items()
}

_INT = re.compile(r"^-?\d+$")


def payload_from(kind: str, data: Any) -> dict[str, Any]:
    """The order object from submitted form data (a QueryDict or dict). Values that do not
    parse are passed on as typed, so the engine's validator names the field and the problem."""
    spec = ORDER_TYPES.get(kind)
    payload: dict[str, Any] = {"type": kind}
    if spec is None:
        return payload
    for f in spec.fields:
        if f.kind == "ids":
            ids = _ids(data, f.name)
            if ids:
                payload[f.name] = ids
            continue
        raw = str(data.get(f.name, "") or "").strip()
        if raw == "":
            continue
        if f.kind == "int":
            payload[f.name] = int(raw) if _INT.match(raw) else raw
        elif f.kind in ("hexes", "powers"):
            payload[f.name] = [h for h in re.split(r"[\s,;]+", raw) if h]
        elif f.kind == "links":
            payload[f.name] = [
                [a for a in re.split(r"[-–/]", pair) if a]
                for pair in re.split(r"[\s,;]+", raw)
                if pair
            ]
        elif f.kind == "bool":
            payload[f.name] = raw.lower() in ("on", "true", "1", "yes")
        elif f.kind == "shares":
            payload[f.name] = [_share(part) for part in raw.split(";") if part.strip()]
        elif f.kind == "counts":
            payload[f.name] = _counts(raw)
        elif f.kind == "systems":
            lines = [line for line in re.split(r"[\n;]+", raw) if line.strip()]
            payload[f.name] = [_system(line, i) for i, line in enumerate(lines)]
        else:
            payload[f.name] = raw
    return payload


def _ids(data: Any, name: str) -> list[str]:
    """Several refs: a multiple select (a QueryDict's list), a list, or ids in one text."""
    values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
    if isinstance(values, str):
        values = [values]
    return [v for value in values for v in re.split(r"[\s,;]+", str(value)) if v]


def _number(text: str) -> int | str:
    return int(text) if _INT.match(text) else text


def _counts(text: str) -> dict[str, Any]:
    """``fighter 6, missile 2`` -> ``{"fighter": 6, "missile": 2}`` (R-10.1a)."""
    out: dict[str, Any] = {}
    for part in re.split(r"[,;]+", text):
        words = part.split()
        if words:
            out[words[0]] = _number(words[1]) if len(words) > 1 else ""
    return out


_SYSTEM = re.compile(r"^(?P<name>.+?)\s*:\s*(?P<points>[^\s,]+)(?:\s*[x×]\s*(?P<count>[^\s,]+))?")


def _system(line: str, index: int) -> dict[str, Any]:
    """R-10.0: ``Construction yard: 40 x1, construction 30`` -> a design system. Its id is its
    place in the list (``s1``, ``s2``, …); what does not parse is passed on for the engine to
    name."""
    head, *capacities = line.split(",")
    system: dict[str, Any] = {"id": f"s{index + 1}"}
    match = _SYSTEM.match(head.strip())
    if match is None:
        return {**system, "name": head.strip(), "points": head.strip()}
    system.update(name=match["name"], points=_number(match["points"]))
    if match["count"] is not None:
        system["count"] = _number(match["count"])
    for part in capacities:
        *words, amount = part.split() or [""]
        key = "_".join(words).lower()
        system[key or part.strip()] = _number(amount)
    return system


def _system_text(system: Any) -> str:
    if not isinstance(system, dict):
        return str(system)
    text = f"{system.get('name', system.get('id', ''))}: {system.get('points', '')}"
    if system.get("count", 1) != 1:
        text += f" x{system['count']}"
    extra = [k for k in system if k not in ("id", "name", "points", "count")]
    return text + "".join(f", {k.replace('_', ' ')} {system[k]}" for k in extra)


def _share(text: str) -> dict[str, Any]:
    hx, *amounts = text.split()
    share: dict[str, Any] = {"hex": hx}
    for res, amount in zip(("ore", "bio"), amounts, strict=False):
        share[res] = int(amount) if _INT.match(amount) else amount
    return share


def form_values(payload: dict[str, Any]) -> dict[str, str]:
    """The reverse of ``payload_from``: what to show in the form for a stored order."""
    spec = ORDER_TYPES.get(payload.get("type", ""))
    values: dict[str, str] = {}
    if spec is None:
        return values
    for f in spec.fields:
        v = payload.get(f.name)
        if v is None:
            continue
        if f.kind in ("hexes", "powers") and isinstance(v, list):
            values[f.name] = " ".join(map(str, v))
        elif f.kind == "links" and isinstance(v, list):
            values[f.name] = " ".join("-".join(map(str, p)) for p in v if isinstance(p, list))
        elif f.kind == "shares" and isinstance(v, list):
            values[f.name] = "; ".join(
                f"{s.get('hex')} {s.get('ore', 0)} {s.get('bio', 0)}"
                for s in v
                if isinstance(s, dict)
            )
        elif f.kind == "bool":
            values[f.name] = "on" if v is True else ""
        elif f.kind == "ids" and isinstance(v, list):
            values[f.name] = " ".join(map(str, v))
        elif f.kind == "counts" and isinstance(v, dict):
            values[f.name] = ", ".join(f"{k} {n}" for k, n in v.items())
        elif f.kind == "systems" and isinstance(v, list):
            values[f.name] = "\n".join(_system_text(x) for x in v)
        else:
            values[f.name] = str(v)
    return values


#: a ref field's choices source -> the names table its ids are looked up in (economy.events)
NAME_TABLES = {
    "groups": "groups",
    "crewed": "groups",
    "hubs": "places",  # "hub Core"
    "held": "systems",
    "systems": "systems",
    "places": "places",
    "statics": "statics",
    "carriers": "carriers",
    "supplied": "carriers",
    "other_powers": "powers",
    "craft": "craft",
    "own_craft": "craft",
    "builders": "craft",
    "orbiting": "craft",
    "designs": "designs",
    "work": "builds",
    "officers": "officers",  # Support §4.4, §5: characters by name, bubbles by their id
    "diplomats": "diplomats",
    "bubbles": "bubbles",
}

#: enum values in words (forms and sentences)
ENUM_WORDS: dict[str, str] = {
    **RESOURCES,
    **ORDERS,
    "sender": "the sender",
    "receiver": "the receiver",
    "military": "Military",
    "civilian": "Civilian",
    "mobile": "Mobile",
    "static": "Static",
    "standard": "Standard",
    "reserve": "Reserve",
    "patrol": "Patrol",
}
STATUS_WORDS = STATUSES


def enum_word(field: Field, value: str) -> str:
    """An enum's value as players read it (``hold_restock`` -> "Hold – Restock")."""
    if field.name == "status":
        return STATUS_WORDS.get(value, value)
    return ENUM_WORDS.get(value, value)


def _shown(payload: dict[str, Any], names: Names) -> dict[str, str]:
    """Each field of an order in words: ids as names, enums in words, lists joined."""
    spec = ORDER_TYPES[payload["type"]]
    values = form_values(payload)
    out: dict[str, str] = {}
    for f in spec.fields:
        v = payload.get(f.name)
        if v is None or v == "" or v == [] or v is False:
            continue
        table = NAME_TABLES.get(f.source, "")
        if f.kind in ("ref", "ids") and table:
            named = names.name(table, v)
            out[f.name] = ", ".join(map(str, named)) if isinstance(named, list) else str(named)
        elif f.kind == "powers" and isinstance(v, list):
            out[f.name] = ", ".join(str(names.name("powers", p)) for p in v)
        elif f.kind == "enum" and isinstance(v, str):
            out[f.name] = enum_word(f, v)
        elif f.kind == "links" and isinstance(v, list):
            out[f.name] = ", ".join("–".join(map(str, p)) for p in v if isinstance(p, list))
        elif f.kind == "hexes" and isinstance(v, list):
            out[f.name] = ", ".join(map(str, v))
        else:
            out[f.name] = values.get(f.name, str(v)).replace("\n", "; ")
    return out


class _Blanks(dict[str, str]):
    """A field the order lacks reads "?" (an order saved with its errors)."""

    def __missing__(self, key: str) -> str:
        return "?"


def _market(v: dict[str, str]) -> str:
    if v.get("resource") == "Gal":
        return "Sells {amount} Gal for Ore, delivered to {to}".format_map(_Blanks(v))
    bought = {"Ore": "Bio", "Bio": "Gal"}.get(v.get("resource", ""), "?")
    return f"Sells {{amount}} {{resource}} from {{from}} for {bought}".format_map(_Blanks(v))


def _optional(text: str, v: dict[str, str], *parts: tuple[str, str]) -> str:
    """``text`` with each ``(field, words)`` added when the order has that field."""
    extra = "".join(words for name, words in parts if name in v)
    return (text + extra).format_map(_Blanks(v))


def _maintain(v: dict[str, str]) -> str:
    if v.get("close") == "on":
        return "Closes {hub}".format_map(_Blanks(v))
    return _optional(
        "Maintains {hub}",
        v,
        ("keep_nodes", ", keeping nodes {keep_nodes}"),
        ("keep_links", ", keeping links {keep_links}"),
    )


def _adjust(v: dict[str, str]) -> str:
    if v.get("cancel") == "on":
        return "Cancels work {build}".format_map(_Blanks(v))
    return _optional(
        "Changes work {build}",
        v,
        ("ore", ": {ore} Ore this round"),
        ("builders", ", now at {builders}"),
    )


def _declare(v: dict[str, str]) -> str:
    text = _optional(
        "Declares {group} at {hex}: {order}",
        v,
        ("status", ", {status}"),
        ("engages", ", engaging {engages}"),
    )
    return text + (", defending only" if v.get("defending") == "on" else "")


#: kind -> the order as a sentence: a template over its fields in words, or a function of them
SENTENCES: dict[str, str | Callable[[dict[str, str]], str]] = {
    "declare_group": _declare,
    "send_troops": "Sends {troops} troops from {group} to the system in its hex",
    "recover_troops": "Recovers {troops} troops from {system} aboard {group}",
    "convert_invasion": "Converts the troops invading {system} into loyalty",
    "conscript": "Conscripts at {system}: {loyalty} LR spent for PL",
    "market_sell": _market,
    "ship": lambda v: _optional(
        "Ships {amount} {resource} from {from_hub} to {to_hub}", v, ("payer", ", paid by {payer}")
    ),
    "gal_transfer": "Transfers {amount} Gal to {to}",
    "hub_setup": lambda v: _optional(
        "Sets up hub {shown} centred at {centre}",
        {**v, "shown": v.get("name", v.get("id", "?"))},
        ("nodes", " with nodes {nodes}"),
        ("links", ", links {links}"),
        ("pay_from", ", paying Ore from {pay_from}"),
    ),
    "hub_extend": lambda v: _optional(
        "Extends {hub}", v, ("nodes", " with nodes {nodes}"), ("links", ", links {links}")
    ),
    "hub_maintain": _maintain,
    "distribute": "Distributes the pool of {hub} by hand: {shares}",
    "embark": "Embarks {pl} PL from {at} into {into}",
    "guild_join": "Takes {hub} into the guild",
    "guild_leave": "Takes {hub} out of the guild",
    "designate_primary": "Makes {system} a Primary system",
    "drop_primary": "Ends the Primary status of {system}",
    "nominate_homeworld": "Names {system} the Homeworld",
    "research_project": "Funds research with {gal} Gal",
    "recruit_troops": "Recruits {troops} troops from the PL of {at} into {into}",
    "home_defense": "Defends {system} with {troops} troops against {invader}",
    "register_design": lambda v: _optional(
        "Registers the design {name} ({class}, {mobility}, mass {mass}, NPV {npv})",
        {**v, "name": v.get("name", v.get("id", "?"))},
    ),
    "build": lambda v: _optional(
        "Builds {id}, a {design}, at {builders}", v, ("ore", ", {ore} Ore this round")
    ),
    "adjust_build": _adjust,
    "unbuild": "Unbuilds {craft} at {builder} (work {id})",
    "make": "Makes {count} {kind} at {builder}",
    "form_group": "Forms {kind} group {id} from {craft}",
    "crew": lambda v: _optional(
        "Crews {target}",
        {**v, "target": v.get("group", v.get("craft", "?"))},
        ("cf", " with {cf} CF"),
    ),
    "supply_ep": "Supplies {ep} EP to {into}",
    "planetary_project": "Shifts {pct}% of the {source} of {system} to {target}",
    "repair": lambda v: _optional(
        "Repairs {craft} at {repairer} (work {id})", v, ("ore", ", {ore} Ore this round")
    ),
    "rebuild": lambda v: _optional(
        "Rebuilds {craft} at {builder} (work {id})",
        v,
        ("remove_fatigue", ", removing its fatigue"),
        ("ore", ", {ore} Ore this round"),
    ),
    "refit": lambda v: _optional(
        "Refits {craft} as {design} at {builder} (work {id})", v, ("ore", ", {ore} Ore this round")
    ),
    "restock": lambda v: _optional("Restocks {target} from {source}", v, ("items", ": {items}")),
    "study_design": "Studies the design of {craft} at {builder} as {id}",
    "commission": lambda v: _optional(
        "Commissions officer {shown}, rank {rank}, grade {grade}",
        {**v, "shown": v.get("name", v.get("id", "?"))},
    ),
    "promote": lambda v: _optional(
        "Promotes {officer}", v, ("rank", " to rank {rank}"), ("grade", ", grade {grade}")
    ),
    "demote": "Demotes {officer} to rank {rank}",
    "dismiss": "Dismisses {officer}",
    "assign_officer": lambda v: _optional(
        "Assigns {officer}", v, ("craft", " aboard {craft}"), ("group", " to command {group}")
    ),
    "bubble_hq": "Sets up the HQ of bubble {id} at {hex} under {officer}",
    "bubble_outpost": "Adds an outpost to {bubble} at {hex} under {officer}",
    "bubble_sensor": "Places a sensor of {bubble} at {hex}, from the post at {post}",
    "post_officer": "Posts {officer} to the post of {bubble} at {post}",
    "patrol": "Sends {group} on patrol from the post of {bubble} at {post}",
    "researchers": "Embarks {pl} PL of researchers aboard {craft}",
    "appoint_diplomat": lambda v: _optional(
        "Appoints diplomat {shown} aboard {craft}", {**v, "shown": v.get("name", v.get("id", "?"))}
    ),
    "recall_diplomat": "Recalls {diplomat}",
    "diplomatic_mission": "Sends {diplomat} on a {kind} mission to {target}",
}


def summary(payload: Any, names: Names | None = None) -> str:
    """An order as a sentence, with names (``Sells 20 Ore from hub Core for Bio``): its ids
    looked up in ``names``, its enums in words, never its keys."""
    if not isinstance(payload, dict) or payload.get("type") not in SENTENCES:
        kind = payload.get("type") if isinstance(payload, dict) else None
        return f"An order of an unknown type ({str(kind)[:40]})" if kind else "An unreadable order"
    values = _shown(payload, names or Names())
    sentence = SENTENCES[payload["type"]]
    return sentence(values) if callable(sentence) else sentence.format_map(_Blanks(values))


# --- the Fleet page's design form: the systems as a table (R-10.0) ------------------------

DESIGN_ROWS = 8  # blank system rows offered
SYSTEM_COLUMNS: tuple[str, ...] = ("sys_name", "sys_points", "sys_count")
SYSTEM_COLUMNS += ("sys_cap1", "sys_amount1", "sys_cap2", "sys_amount2")


def system_rows(data: Any) -> list[dict[str, str]]:
    """The systems table as typed (``sys_<column>`` lists), padded with blank rows."""
    columns = {c: data.getlist(c) if hasattr(data, "getlist") else [] for c in SYSTEM_COLUMNS}
    count = max((len(v) for v in columns.values()), default=0)
    rows = [
        {c.removeprefix("sys_"): (columns[c][i] if i < len(columns[c]) else "") for c in columns}
        for i in range(count)
    ]
    typed = [r for r in rows if any(v.strip() for v in r.values())]
    return typed + [dict.fromkeys((c.removeprefix("sys_") for c in SYSTEM_COLUMNS), "")] * max(
        DESIGN_ROWS - len(typed), 2
    )


def design_payload(data: Any) -> dict[str, Any]:
    """A ``register_design`` order from the Fleet page's form: its fields, and its systems from
    the table's rows (one capacity or two per row); values that do not parse are passed on for
    the entry check to name."""
    payload = payload_from("register_design", data)
    systems: list[dict[str, Any]] = []
    for row in system_rows(data):
        if not row["name"].strip() and not row["points"].strip():
            continue
        system: dict[str, Any] = {"id": f"s{len(systems) + 1}"}
        if row["name"].strip():
            system["name"] = row["name"].strip()
        system["points"] = _number(row["points"].strip())
        if row["count"].strip():
            system["count"] = _number(row["count"].strip())
        for cap, amount in ((row["cap1"], row["amount1"]), (row["cap2"], row["amount2"])):
            if cap.strip() and amount.strip():
                system[cap.strip()] = _number(amount.strip())
        systems.append(system)
    if systems:
        payload["systems"] = systems
    return payload
