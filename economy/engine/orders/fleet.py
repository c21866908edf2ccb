"""The fleet's order types: group declarations, designs, building and unbuilding, repair,
refit, restock, design study, consumables, forming groups, crew and EP (R-2, R-7, R-10;
Support §1-§3). One declaration each (``spec.OrderSpec``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..codec import parse_design_systems
from ..designs import npv_problem
from ..state import CAPACITIES, CRAFT_CLASSES, GROUP_KINDS, GROUP_ORDERS, GROUP_STATUSES, MOBILITIES
from .kinds import (
    AT_LEAST_ZERO,
    BUILDER,
    BUILDERS,
    CONSUMABLE,
    CRAFT,
    CREWED_CRAFT,
    CREWED_GROUP,
    DESIGN,
    ENGAGES,
    FLAG,
    GROUP,
    HEX_,
    ITEMS,
    LOADOUT,
    ORBITING,
    POSITIVE,
    REPAIRER,
    SUPPLIED,
    SYSTEMS,
    WORK,
    Draw,
    Field,
    choice,
    new_id,
    text,
)
from .spec import OPTIONAL, REQUIRED, Blanks, OrderSpec, shown, with_parts

if TYPE_CHECKING:
    from ..catalog import Catalog

#: repair, rebuild and refit: the Ore paid at the worker's rating this round (R-10.7)


def ore_this_round(at: str) -> Field:
    """The Ore a piece of work takes this round, from what may reach the hex of the craft the
    field ``at`` names (R-1.4; warned of at entry beyond it: issue 30)."""
    return Field(
        "ore",
        "Ore this round",
        AT_LEAST_ZERO,
        OPTIONAL,
        "optional: default all its rating can take",
        draws=Draw("ore", place=at, reach=True),
    )


SYSTEMS_HELP = (
    "one system a line: name: points per unit, xcount, then any capacities, e.g. "
    "'Class 1 beam: 3 x2', 'Hull box: 1 x10', 'Construction yard: 40, construction 30, "
    "workshop 50'. Capacities: " + ", ".join(c.replace("_", " ") for c in CAPACITIES)
)


def _declare(v: dict[str, str]) -> str:
    text = with_parts(
        "Declares {group} at {hex}: {order}",
        v,
        ("status", ", {status}"),
        ("engages", ", engaging {engages}"),
    )
    return text + (", defending only" if v.get("defending") == "on" else "")


def _adjust(v: dict[str, str]) -> str:
    if v.get("cancel") == "on":
        return "Cancels work {build}".format_map(Blanks(v))
    return with_parts(
        "Changes work {build}",
        v,
        ("ore", ": {ore} Ore this round"),
        ("builders", ", now at {builders}"),
    )


# --- what a loan, a transfer or a capture changes (Support §1.6, R-2a, R-10.5) -------------


def _engages_no_lender(cat: Catalog, _: str, o: dict[str, Any]) -> Iterable[str]:
    if (owner := cat.fleet.lent.get(o["group"])) in o.get("engages", ()):
        yield f"engages: {o['group']} is on loan from {owner} and may not engage it (R-2a)"


def _owners_work(kind: str) -> Callable[[Catalog, str, dict[str, Any]], Iterable[str]]:
    def check(cat: Catalog, _: str, o: dict[str, Any]) -> Iterable[str]:
        if owner := cat.fleet.lent.get(o["craft"]):
            yield f"craft: {o['craft']} is on loan from {owner}: only its owner may {kind} it"

    return check


def _no_lent_builder(cat: Catalog, _: str, o: dict[str, Any]) -> Iterable[str]:
    lent = cat.fleet.lent
    if lent_builder := next((b for b in o["builders"] if b in lent), None):
        yield (
            f"builders: {lent_builder} is on loan from {lent[lent_builder]}: it repairs and"
            " makes for the borrower, but does not build (its craft would stay in orbit with"
            " it when it returns)"
        )


def _never_captured(cat: Catalog, _: str, o: dict[str, Any]) -> Iterable[str]:
    if o["craft"] in cat.fleet.captured:
        yield f"craft: {o['craft']} was captured: captured craft can never be studied"


def _npv_covers_systems(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    if problem := npv_problem(o["npv"], parse_design_systems(o["systems"])):
        yield f"npv: {problem}"


def _cancel_or_change(_: Catalog, __: str, o: dict[str, Any]) -> Iterable[str]:
    if (o.get("cancel") is True) == any(k in o for k in ("ore", "builders")):
        yield "cancel: either cancel, or give the ore and/or builders for this round (R-10.7)"


def _one_crewed(cat: Catalog, _: str, o: dict[str, Any]) -> Iterable[str]:
    if ("group" in o) == ("craft" in o):
        yield "craft: give either a group or a craft"
    if owner := cat.fleet.lent.get(str(o.get("group") or o.get("craft"))):
        yield f"crew: on loan from {owner}: the borrower cannot re-crew it (Support 1.6.1)"


SPECS = (
    OrderSpec(
        "declare_group",
        "Declare a fleet group",
        "R-2",
        "fleet",
        (
            Field("group", "Group", GROUP, REQUIRED),
            Field("hex", "Hex", HEX_, OPTIONAL, "XXYY"),
            Field("order", "Standing order", choice(*GROUP_ORDERS)),
            Field("status", "Engage outcome", choice(*GROUP_STATUSES, wording="statuses")),
            Field("engages", "Engages powers", ENGAGES, OPTIONAL, "power ids, e.g. vargr zhodani"),
            Field("defending", "Defending", FLAG, OPTIONAL, "it only answers an attack (R-2a)"),
        ),
        (
            "Says where a fleet group is this round, its standing order and how its "
            "engagements went (movement and battles are played outside FTCamp). Free. "
            "Maintain Orbit at a system raises your loyalty there; Hold orders make the "
            "group build, restock, research and so on."
        ),
        _declare,
        checks=_engages_no_lender,
    ),
    OrderSpec(
        "register_design",
        "Register a design",
        "Support 1.1, R-10.0",
        "support.1",
        (
            new_id("design"),
            Field("name", "Design name", text(60), OPTIONAL, "optional"),
            Field("class", "Class", choice(*CRAFT_CLASSES), REQUIRED),
            Field("mobility", "Mobility", choice(*MOBILITIES), REQUIRED),
            Field("mass", "Mass", POSITIVE, REQUIRED),
            Field("npv", "NPV (Ore to build)", POSITIVE, REQUIRED, "at least its systems' points"),
            Field("crew", "Crew factors needed", AT_LEAST_ZERO, OPTIONAL, "optional, default 0"),
            Field("systems", "Systems", SYSTEMS, REQUIRED, SYSTEMS_HELP),
            Field(
                "loadout",
                "Built with consumables",
                LOADOUT,
                OPTIONAL,
                "optional, e.g. fighter 6, missile 2",
            ),
        ),
        (
            "Records a ship or static design (its mass, NPV, crew and systems) so your "
            "builders can build it."
        ),
        lambda v: with_parts(
            "Registers the design {shown} ({class}, {mobility}, mass {mass}, NPV {npv})",
            shown(v),
        ),
        pays=(
            "Costs the campaign's TP per design from your bank at the start of the Support "
            "Phase (§1); you can build it in the same round."
        ),
        creates="design",
        checks=_npv_covers_systems,
    ),
    OrderSpec(
        "build",
        "Build a craft",
        "Support 1.1, R-10.1",
        "support.1",
        (
            new_id("craft"),
            Field("design", "Design", DESIGN, REQUIRED),
            Field(
                "builders",
                "Builders",
                BUILDERS,
                REQUIRED,
                "one, or several in one hex pooling on an external build",
            ),
            Field(
                "ore",
                "Ore this round",
                AT_LEAST_ZERO,
                OPTIONAL,
                "optional: default all the builders can take",
                draws=Draw("ore", place="builders", reach=True),  # they share one hex
            ),
        ),
        "Starts a new craft of one of your designs at your builders.",
        lambda v: with_parts(
            "Builds {id}, a {design}, at {builders}", v, ("ore", ", {ore} Ore this round")
        ),
        pays=(
            "Costs the design's NPV in Ore (+10 %, rounded up, while no craft of it is "
            "finished; its consumables at the catalogue's cost), paid each Support Phase up"
            " to the builders' construction rating from the hub pool covering their hex, "
            "else your system's stockpile there. The craft is finished in orbit with its "
            "builder once it is paid in full."
        ),
        creates="craft",
        checks=_no_lent_builder,
    ),
    OrderSpec(
        "adjust_build",
        "Change or cancel work in progress",
        "R-10.7",
        "support.1",
        (
            Field("build", "Work in progress", WORK, REQUIRED),
            Field("ore", "Ore this round", AT_LEAST_ZERO, OPTIONAL, "exactly this much this round"),
            Field("builders", "New builders", BUILDERS, OPTIONAL, "external only"),
            Field("cancel", "Cancel it", FLAG, OPTIONAL, "the Ore paid so far is lost"),
        ),
        (
            "Changes how much Ore work in progress takes this round, moves an external "
            "build to new builders, or cancels it."
        ),
        _adjust,
        pays=(
            "Costs nothing itself; Ore this round is paid as for a build. Cancelling loses "
            "the Ore paid so far."
        ),
        checks=_cancel_or_change,
    ),
    OrderSpec(
        "unbuild",
        "Unbuild a craft",
        "Support 1.3, R-10.3",
        "support.1",
        (
            new_id("unbuild"),
            Field("craft", "Craft to unbuild", CRAFT, REQUIRED),
            Field("builder", "At builder", BUILDER, REQUIRED),
        ),
        "Takes one of your craft apart at a builder in its hex.",
        "Unbuilds {craft} at {builder} (work {id})",
        pays=(
            "Works through the craft's NPV at the builder's construction rating (it builds "
            "nothing else that round). On completion you reclaim the NPV less the fatigue "
            "cost (half for a captured craft) in Ore, and its crew as PL, where the hex "
            "keeps its goods."
        ),
        checks=_owners_work("unbuild"),
    ),
    OrderSpec(
        "repair",
        "Repair a craft",
        "R-10.2",
        "support.1",
        (
            new_id("repair"),
            Field("craft", "Damaged craft", CRAFT, REQUIRED),
            Field("repairer", "Repairer or builder", REPAIRER, REQUIRED, "in the craft's hex"),
            ore_this_round("repairer"),
        ),
        (
            "Repairs a craft's destroyed systems at a repairer or builder of yours in its "
            "hex: their point cost in Ore, paid at the repairer's rating and carried over "
            "between rounds; disabled systems are fixed free. The craft gains fatigue when "
            "the repair completes."
        ),
        lambda v: with_parts(
            "Repairs {craft} at {repairer} (work {id})", v, ("ore", ", {ore} Ore this round")
        ),
        pays=(
            "Destroyed systems cost their point cost in Ore, paid each Support Phase up to "
            "the repairer's rating (carried over between rounds) from the hub pool covering"
            " the hex, else your system's stockpile there; fatigue is added when it "
            "completes. Disabled systems are fixed free. Lost CF are not replaced (crew "
            "again)."
        ),
    ),
    OrderSpec(
        "rebuild",
        "Rebuild a craft",
        "R-10.2",
        "support.1",
        (
            new_id("rebuild"),
            Field("craft", "Damaged craft", CRAFT, REQUIRED),
            Field("builder", "Builder", BUILDER, REQUIRED, "in the craft's hex"),
            Field("remove_fatigue", "Remove fatigue", FLAG, OPTIONAL, "costs extra Ore"),
            ore_this_round("builder"),
        ),
        (
            "Like a repair, at a builder on Hold-Build, without fatigue; it can also remove"
            " the craft's fatigue for half its share of the NPV in Ore."
        ),
        lambda v: with_parts(
            "Rebuilds {craft} at {builder} (work {id})",
            v,
            ("remove_fatigue", ", removing its fatigue"),
            ("ore", ", {ore} Ore this round"),
        ),
        pays=(
            "As a repair, at the builder's construction rating, but adds no fatigue; "
            "removing the craft's fatigue costs ceil(½ × fatigue/100 × NPV) Ore more. Lost "
            "CF are not replaced."
        ),
    ),
    OrderSpec(
        "refit",
        "Refit a craft into a variant design",
        "Support 1.5, R-10.5a",
        "support.1",
        (
            new_id("refit"),
            Field("craft", "Craft", CRAFT, REQUIRED),
            Field("builder", "Builder", BUILDER, REQUIRED, "in the craft's hex"),
            Field("design", "Variant design", DESIGN, REQUIRED, "of the same mobility"),
            ore_this_round("builder"),
        ),
        (
            "Rebuilds a craft as a variant design of yours at a builder: costs the new "
            "systems' points plus any rise in hull and drives, in Ore at the builder's "
            "rating; nothing back for what is removed."
        ),
        lambda v: with_parts(
            "Refits {craft} as {design} at {builder} (work {id})",
            v,
            ("ore", ", {ore} Ore this round"),
        ),
        pays=(
            "Systems removed are unbuilt without reclaiming their Ore; new systems cost "
            "their point cost in Ore at the builder's construction rating. The craft "
            "becomes the variant."
        ),
        checks=_owners_work("refit"),
    ),
    OrderSpec(
        "restock",
        "Restock consumables",
        "Support 2, 2.0",
        "support.2",
        (
            Field("source", "From builder or cargo craft", CRAFT, REQUIRED),
            Field("target", "Craft to restock", CRAFT, REQUIRED, "in the same hex"),
            Field("items", "Items", ITEMS, OPTIONAL, "optional: kind count, e.g. fighter 6"),
            Field("if_engaged", "If engaged", choice("abandon", "disabled")),
        ),
        (
            "Loads consumables (fighters, missiles, drones...) onto a craft from a "
            "builder's workshop or another craft's cargo in the same hex. Free; a retreat "
            "or an engagement can stop it."
        ),
        lambda v: with_parts("Restocks {target} from {source}", v, ("items", ": {items}")),
        pays=(
            "Free: the consumables come from the builder's workshop or the source's cargo. "
            "The source holds (Hold-Build or Hold-Restock), the target Hold-Maintain; a "
            "retreat of either fails it."
        ),
    ),
    OrderSpec(
        "study_design",
        "Study a received craft's design",
        "Support 1.6.3",
        "support.1.6",
        (
            new_id("study"),
            Field("craft", "Received craft", CRAFT, REQUIRED),
            Field("builder", "At builder", BUILDER, REQUIRED, "kept there this round"),
        ),
        (
            "Registers, free, a copy of the design of another power's craft that was lent "
            "or given to you (never a captured one), at a builder of yours in its hex; you "
            "can build it from next round."
        ),
        "Studies the design of {craft} at {builder} as {id}",
        pays=(
            "Free: registers the craft's design as yours from the next round. Captured "
            "craft can never be studied."
        ),
        checks=_never_captured,
    ),
    OrderSpec(
        "make",
        "Make consumables",
        "Support 1.4, R-10.1a",
        "support.1",
        (
            Field("builder", "Builder or repairer", BUILDER, REQUIRED),
            Field("kind", "Consumable", CONSUMABLE, REQUIRED),
            Field("count", "How many", POSITIVE, REQUIRED),
        ),
        "Makes fighters, drones, missiles or other consumables in a workshop.",
        "Makes {count} {kind} at {builder}",
        pays=(
            "Costs the catalogue's Ore for each, within the builder's rating, from the hub "
            "pool covering its hex, else your system's stockpile there; stored in its "
            "workshop."
        ),
    ),
    OrderSpec(
        "form_group",
        "Form a group from craft in orbit",
        "Support 1.1, R-2b",
        "support.1",
        (
            new_id("group"),
            Field("craft", "Craft", ORBITING, REQUIRED, "craft in orbit, one hex"),
            Field("kind", "Group kind", choice(*GROUP_KINDS)),
        ),
        (
            "Gathers finished craft waiting in orbit with their builder into a new fleet "
            "group or static."
        ),
        "Forms {kind} group {id} from {craft}",
        pays=(
            "Free. Mobile craft form a group, static craft a static, after all building this round."
        ),
        creates="carrier",
    ),
    OrderSpec(
        "crew",
        "Crew a group or craft",
        "Support 3.2, R-7.2",
        "support.3.2",
        (
            Field("group", "Group", CREWED_GROUP),
            Field("craft", "Or one craft", CREWED_CRAFT),
            Field(
                "cf",
                "Crew factors",
                POSITIVE,
                OPTIONAL,
                "optional: default as many as the PL pays for",
            ),
        ),
        "Crews a group or one craft with crew factors (CF) from PL.",
        lambda v: with_parts(
            "Crews {target}",
            {**v, "target": v.get("group", v.get("craft", "?"))},
            ("cf", " with {cf} CF"),
        ),
        pays=(
            "Costs 5 PL per military CF, 2 PL per civilian CF, from PL reaching the hex "
            "(its hub pool, else your system's stockpile there), after recruiting troops."
        ),
        checks=_one_crewed,
    ),
    OrderSpec(
        "supply_ep",
        "Supply EP",
        "Support 3.4, R-7.4",
        "support.3.4",
        (
            Field("into", "Into group or static", SUPPLIED, REQUIRED),
            Field(
                "ep",
                "EP",
                POSITIVE,
                REQUIRED,
                draws=Draw("bio", place="into", reach=True, unit="EP"),
            ),
        ),
        "Stores EP on a group or static so it stays in supply.",
        "Supplies {ep} EP to {into}",
        pays=(
            "Costs 1 Bio per EP, from Bio reaching the hex (its hub pool, else your "
            "system's stockpile there), up to its free EP storage."
        ),
    ),
)
