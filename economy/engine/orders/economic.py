"""The economy's order types: troops and loyalty, the Common Market, shipments, Gal transfers,
trade hubs and the guild, Primaries, research and planetary projects (Resource and Support
Phases; contracts §1 order table). One declaration each (``spec.OrderSpec``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .kinds import (
    ANY_POWER,
    CARRIER,
    FLAG,
    GROUP,
    HELD_SYSTEM,
    HEX_,
    HEXES,
    HUB,
    INT32,
    LINKS,
    OTHER_POWER,
    PERCENT,
    PLACE,
    POSITIVE,
    SHARES,
    STATIC,
    SYSTEM,
    Draw,
    Field,
    amount,
    choice,
    new_id,
    text,
)
from .spec import OPTIONAL, REQUIRED, Blanks, OrderSpec, shown, with_parts

if TYPE_CHECKING:
    from ..catalog import Catalog


def _market(v: dict[str, str]) -> str:
    if v.get("resource") == "Gal":
        return "Sells {amount} Gal for Ore, delivered to {to}".format_map(Blanks(v))
    bought = {"Ore": "Bio", "Bio": "Gal"}.get(v.get("resource", ""), "?")
    return f"Sells {{amount}} {{resource}} from {{from}} for {bought}".format_map(Blanks(v))


def _maintain(v: dict[str, str]) -> str:
    if v.get("close") == "on":
        return "Closes {hub}".format_map(Blanks(v))
    return with_parts(
        "Maintains {hub}",
        v,
        ("keep_nodes", ", keeping nodes {keep_nodes}"),
        ("keep_links", ", keeping links {keep_links}"),
    )


def _sold_from_and_to(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    """R-6.1: Ore and Bio are sold from a hub or system and their proceeds arrive there; Gal
    is sold from the bank, its Ore delivered where the order says."""
    if o["resource"] == "gal":
        if "from" in o:
            yield "from: Gal is sold from the bank, omit 'from' (R-6.1)"
        if "to" not in o:
            yield "to: missing: where the Ore bought arrives (R-6.1)"
    else:
        if "from" not in o:
            yield f"from: missing: the hub or system the {o['resource']} is sold from"
        if "to" in o:
            yield f"to: only for Gal sales; {o['resource']} proceeds arrive where sold (R-6.1)"


def _two_hubs(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    if o["from_hub"] == o["to_hub"]:
        yield "to_hub: must differ from from_hub"


def _a_new_link(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    if not o["links"]:
        yield "links: an extension adds at least one link (R-5.1a)"


def _whole_tp(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    if o["gal"] % 2:
        yield f"gal: 2 Gal buy 1 TP, so the amount must be even, got {o['gal']} (Support §4.3.1)"


def _a_shift(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    if o["source"] == o["target"]:
        yield "target: must differ from source (Support §6.1)"


# troops raised from PL, one for one (Support 3.1.1, 3.1.2)
_PL_FROM_AT = Draw("pl", place="at", unit="troops")
_PL_OF_SYSTEM = Draw("pl", place="system", unit="troops")

SPECS = (
    OrderSpec(
        "send_troops",
        "Send troops to the system below",
        "Resource 1.2",
        "resource.1",
        (
            Field("group", "Troop transport group", GROUP, REQUIRED),
            Field("troops", "Troops", POSITIVE, REQUIRED, draws=Draw("troops", place="group")),
        ),
        (
            "Lands troops from a transport group on Maintain Orbit onto the system in its "
            "hex: every 25 troops add 1 loyalty to your own or a neutral system, or they "
            "invade an enemy's. The troops are spent. Free."
        ),
        "Sends {troops} troops from {group} to the system in its hex",
    ),
    OrderSpec(
        "recover_troops",
        "Recover invading troops",
        "Resource 1.2",
        "resource.1",
        (
            Field("group", "Transport group", GROUP, REQUIRED),
            Field("system", "System", SYSTEM, REQUIRED),
            Field("troops", "Troops", POSITIVE, REQUIRED),
        ),
        (
            "Takes your invading troops back aboard a transport group on Maintain Orbit at "
            "that system, lifting their pressure on its loyalty. Free."
        ),
        "Recovers {troops} troops from {system} aboard {group}",
    ),
    OrderSpec(
        "convert_invasion",
        "Convert invading troops into loyalty",
        "Resource 1.2, R-3.4",
        "resource.1",
        (Field("system", "System", SYSTEM, REQUIRED),),
        (
            "When your invading troops have brought an enemy system's loyalty to 0, turns "
            "them into your own loyalty there (1 per 25 troops): the system becomes yours. "
            "Free; the troops are spent."
        ),
        "Converts the troops invading {system} into loyalty",
    ),
    OrderSpec(
        "conscript",
        "Conscript (spend LR for PL)",
        "Resource 2.4, R-3.5",
        "resource.2.2-2.4",
        (
            Field("system", "System", HELD_SYSTEM, REQUIRED),
            Field("loyalty", "LR to spend", POSITIVE, REQUIRED),
        ),
        (
            "Spends loyalty of one of your systems for people: each LR spent gives that "
            "system's PL rate in PL there, after production. Loyalty cannot drop below 1 "
            "this way."
        ),
        "Conscripts at {system}: {loyalty} LR spent for PL",
    ),
    OrderSpec(
        "market_sell",
        "Sell on the Common Market",
        "Resource 4, R-6.1",
        "resource.4",
        (
            Field("resource", "Resource sold", choice("ore", "bio", "gal"), REQUIRED),
            Field(
                "amount",
                "Amount",
                POSITIVE,
                REQUIRED,
                draws=Draw(of="resource", place="from"),
            ),
            Field("from", "Sold from (Ore/Bio)", PLACE, OPTIONAL, "omit for Gal"),
            Field("to", "Ore bought arrives at (Gal sales)", PLACE, OPTIONAL, "only for Gal"),
        ),
        (
            "Sells on the Common Market at the current rate, less any tax: Ore buys Bio "
            "(which arrives where the Ore was), Bio buys Gal (into your bank), Gal buys Ore"
            " (delivered to the hub or system you name). The amount sold comes from the hub"
            " or system you name."
        ),
        _market,
        checks=_sold_from_and_to,
    ),
    OrderSpec(
        "ship",
        "Ship between own guild hubs",
        "Resource 5.2, R-5.4",
        "resource.5",
        (
            Field("from_hub", "From hub", HUB, REQUIRED),
            Field("to_hub", "To hub", HUB, REQUIRED),
            Field("resource", "Resource", choice("ore", "bio", "pl"), REQUIRED),
            Field(
                "amount",
                "Amount",
                amount((1, INT32)),
                REQUIRED,
                draws=Draw(of="resource", place="from_hub"),
            ),
            Field("payer", "Cost paid by", choice("sender", "receiver")),
        ),
        (
            "Ships Ore, Bio or PL between two of your hubs whose centres are in the guild. "
            "It costs 1 % per 5 hexes (at least 1 %, rounded up) on top of the amount, in "
            "the same goods (Gal for PL), paid by the end you choose; it takes a round per "
            "20 hexes."
        ),
        lambda v: with_parts(
            "Ships {amount} {resource} from {from_hub} to {to_hub}",
            v,
            ("payer", ", paid by {payer}"),
        ),
        checks=_two_hubs,
    ),
    OrderSpec(
        "gal_transfer",
        "Transfer Gal to another power",
        "R-5.6",
        "resource.5",
        (
            Field("to", "To power", OTHER_POWER, REQUIRED),
            Field("amount", "Gal", POSITIVE, REQUIRED, draws=Draw("gal")),
        ),
        "Gives Gal from your bank to another power's bank at once. Free.",
        "Transfers {amount} Gal to {to}",
    ),
    OrderSpec(
        "hub_setup",
        "Set up a trade hub",
        "Support 4.1.1, R-5.1",
        "support.4.1.1",
        (
            new_id("hub"),
            Field("name", "Hub name", text(60), OPTIONAL, "optional", engine=False),
            Field("centre", "Centre hex", HEX_, REQUIRED, "XXYY"),
            Field("nodes", "Node hexes", HEXES, OPTIONAL, "e.g. 0203 0305"),
            Field("links", "Links", LINKS, OPTIONAL, "e.g. 0101-0203 0203-0305"),
            Field("pay_from", "Pay the Ore from", PLACE),
        ),
        (
            "Founds a trade hub: a centre (a system you hold or your civilian static), "
            "nodes and the links joining them. Costs 20 Ore plus the length of every link "
            "in hexes, once, then Gal maintenance every round; it pools its systems' goods "
            "from the next round."
        ),
        lambda v: with_parts(
            "Sets up hub {shown} centred at {centre}",
            shown(v),
            ("nodes", " with nodes {nodes}"),
            ("links", ", links {links}"),
            ("pay_from", ", paying Ore from {pay_from}"),
        ),
    ),
    OrderSpec(
        "hub_extend",
        "Extend a trade hub",
        "Support 4.1.1, R-5.1a",
        "support.4.1.1",
        (
            Field("hub", "Hub", HUB, REQUIRED),
            Field("nodes", "New node hexes", HEXES, OPTIONAL, "e.g. 0406"),
            Field("links", "New links", LINKS, REQUIRED, "e.g. 0305-0406"),
        ),
        (
            "Adds nodes and links to one of your hubs. Costs the new links' lengths in Ore "
            "from the hub's pool; the new parts work from the next round."
        ),
        lambda v: with_parts(
            "Extends {hub}", v, ("nodes", " with nodes {nodes}"), ("links", ", links {links}")
        ),
        checks=_a_new_link,
    ),
    OrderSpec(
        "hub_maintain",
        "Maintain a hub (keep only some of it)",
        "Support 4.1.2, R-5.2",
        "support.4.1.2",
        (
            Field("hub", "Hub", HUB, REQUIRED),
            Field("keep_nodes", "Nodes to keep", HEXES, OPTIONAL, "empty keeps all"),
            Field("keep_links", "Links to keep", LINKS, OPTIONAL, "empty keeps all"),
            Field("close", "Close the hub", FLAG, OPTIONAL, "shut it down this Support Phase"),
        ),
        (
            "Chooses which nodes and links of a hub you keep paying for (the rest are "
            "dropped at the end of the Support Phase), or closes it. Maintenance costs Gal:"
            " 2 to the power of the farthest node's distance, plus 1 per node and per link."
            " Without this order the whole hub is kept."
        ),
        _maintain,
    ),
    OrderSpec(
        "distribute",
        "Distribute a hub's Ore and Bio by hand",
        "Resource 5.1.2, R-5.7",
        "resource.5",
        (
            Field("hub", "Hub", HUB, REQUIRED),
            Field("shares", "Shares", SHARES, REQUIRED, "hex ore bio; e.g. 0101 10 5; 0203 20 0"),
        ),
        (
            "Splits a hub's pool among its members by hand instead of evenly (it matters "
            "when a node is lost). Free."
        ),
        "Distributes the pool of {hub} by hand: {shares}",
    ),
    OrderSpec(
        "embark",
        "Embark PL into a static's passenger space",
        "Resource 2.4, Support 7.1",
        "support.7",
        (
            Field("at", "PL from", PLACE, REQUIRED),
            Field("pl", "PL", POSITIVE, REQUIRED, draws=Draw("pl", place="at")),
            Field("into", "Into static", STATIC, REQUIRED),
        ),
        (
            "Puts PL into a static's passenger space, where it is kept instead of being "
            "lost as the round is tidied up, and filled passenger space adds PL each round."
            " Free."
        ),
        "Embarks {pl} PL from {at} into {into}",
    ),
    OrderSpec(
        "guild_join",
        "Join the guild",
        "Support 4.2, R-5.3",
        "support.4.2",
        (Field("hub", "Hub", HUB, REQUIRED),),
        (
            "Brings a hub's centre into the guild, so it can ship and receive from next "
            "round. Costs 5 Gal each round from the next one."
        ),
        "Takes {hub} into the guild",
    ),
    OrderSpec(
        "guild_leave",
        "Leave the guild",
        "Support 4.2, R-5.3",
        "support.4.2",
        (Field("hub", "Hub", HUB, REQUIRED),),
        (
            "Takes a hub out of the guild at the end of this round (this round's fee is "
            "still due). Not while a shipment is on its way to it."
        ),
        "Takes {hub} out of the guild",
    ),
    OrderSpec(
        "designate_primary",
        "Designate a Primary system",
        "Resource 1.1, R-3.2",
        "support.4 primaries",
        (Field("system", "System", HELD_SYSTEM, REQUIRED),),
        (
            "Makes one of your systems a Primary: its maximum loyalty rises to 20 and it "
            "yields 10 TP from next round. Costs 2 Gal per point of its PL rate now and "
            "every round after."
        ),
        "Makes {system} a Primary system",
    ),
    OrderSpec(
        "drop_primary",
        "Drop Primary status",
        "Resource 1.1, R-3.2",
        "support.4 primaries",
        (Field("system", "System", HELD_SYSTEM, REQUIRED),),
        (
            "Ends a system's Primary status and its upkeep; its loyalty above the new "
            "maximum is lost."
        ),
        "Ends the Primary status of {system}",
    ),
    OrderSpec(
        "nominate_homeworld",
        "Nominate a Homeworld",
        "Resource 1.1",
        "support.4 primaries",
        (Field("system", "System", HELD_SYSTEM, REQUIRED),),
        (
            "Names one of your Primary systems your Homeworld when you have none (you need "
            "one to fund research). Free."
        ),
        "Names {system} the Homeworld",
    ),
    OrderSpec(
        "research_project",
        "Fund a research project",
        "Support 4.3.1",
        "support.4.3.1",
        (Field("gal", "Gal (2 Gal = 1 TP)", POSITIVE, REQUIRED, draws=Draw("gal")),),
        (
            "Turns Gal into TP for designs and officers: 2 Gal for each TP, from your bank."
            " Needs your Homeworld held."
        ),
        "Funds research with {gal} Gal",
        checks=_whole_tp,
    ),
    OrderSpec(
        "recruit_troops",
        "Recruit troops",
        "Support 3.1.1",
        "support.3.1",
        (
            Field("at", "PL from", PLACE, REQUIRED),
            Field("troops", "Troops", POSITIVE, REQUIRED, draws=_PL_FROM_AT),
            Field("into", "Into troop space of", CARRIER, REQUIRED),
        ),
        (
            "Turns PL into troops, 1 for 1, into the troop space of a group or static in "
            "the same hex or hub; PL that finds no space stays PL."
        ),
        "Recruits {troops} troops from the PL of {at} into {into}",
    ),
    OrderSpec(
        "home_defense",
        "Home defence against invaders",
        "Support 3.1.2, R-7.1",
        "support.3.1",
        (
            Field("system", "System", HELD_SYSTEM, REQUIRED),
            Field("troops", "Troops", POSITIVE, REQUIRED, draws=_PL_OF_SYSTEM),
            Field("invader", "Invader", ANY_POWER),
        ),
        (
            "Turns PL at one of your invaded systems into troops that at once destroy as "
            "many of the invader's troops, 1 for 1. Costs the PL."
        ),
        "Defends {system} with {troops} troops against {invader}",
    ),
    OrderSpec(
        "planetary_project",
        "Planetary project",
        "Support 6, R-9.1",
        "support.6",
        (
            Field("system", "System", HELD_SYSTEM, REQUIRED),
            Field("source", "Shift from", choice("ore", "gal", "bio"), REQUIRED),
            Field("target", "Shift to", choice("ore", "gal", "bio"), REQUIRED),
            Field("pct", "Percent (0 stops)", PERCENT, REQUIRED),
        ),
        (
            "Shifts part of a system's production from one resource to another (Ore, Gal, "
            "Bio), from next round; the most you can shift depends on its loyalty (25 % at "
            "LR 11–15, 50 % at 16–20, 75 % from 21). Free; 0 stops a project."
        ),
        "Shifts {pct}% of the {source} of {system} to {target}",
        checks=_a_shift,
    ),
)
