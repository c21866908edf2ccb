"""The in-app rules guide (``/rules/``, issue 17): the steps of a round in the order the engine
runs them (``economy.engine.resolve.STEPS``), each in plain words with its seed section and rule
ids. The project's own summary, never the seeds' text (they are someone else's copyrighted work);
each order type's paragraph lives with its form (``economy.engine.orders``)."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    key: str  # the engine's step name (economy.engine.resolve.STEPS)
    title: str
    cite: str
    text: str

    @property
    def anchor(self) -> str:
        return anchor("step", self.key)


def anchor(kind: str, key: str) -> str:
    """An HTML id for the guide: ``step-resource-2-2-2-4``, ``order-market_sell``."""
    return f"{kind}-" + re.sub(r"[^a-z0-9_]+", "-", key.lower()).strip("-")


PHASES = (
    (
        "Fleet Orders and Engage Orders",
        "Movement and battles are played outside FTCamp. Each player declares where every fleet "
        "group is, its standing order and how its engagements went; those declarations are the "
        "round's first input (R-2).",
    ),
    (
        "Resource Phase",
        "Loyalty changes, systems produce, hubs pool their goods, shipments arrive, the Common "
        "Market trades and goods go out (Resource Phase §1–§5).",
    ),
    (
        "Support Phase",
        "Ore is spent on craft, PL on troops and crews, Bio on EP, Gal on hubs, the guild, "
        "Primary systems and research; then planetary projects and tidying up "
        "(Support Phase §1–§7, in that order: R-2c).",
    ),
    (
        "UN Meeting",
        "The UN Monetary Committee decides its motions; every third round a Common Market "
        "Report lets it change exchange rates (R-6.3, R-6.4).",
    ),
)

STEPS: tuple[Step, ...] = (
    Step(
        "fleet.battles",
        "Battle records",
        "R-10.6",
        "Battle records every power in them confirmed (or the admin did) apply first: destroyed "
        "craft leave the fleet, damaged systems and lost crew are recorded, captured craft "
        "change hands.",
    ),
    Step(
        "round.start",
        "Diplomatic outcomes",
        "Support §4.4, R-8.4a",
        "The admin's outcomes of earlier diplomatic missions apply: facts revealed to the "
        "sender, goods moved, loyalty changed.",
    ),
    Step(
        "fleet.immunity",
        "Diplomatic immunity",
        "Support §4.4.1, R-2a",
        "A group carrying a diplomat may not engage unless it is defending; such a declaration "
        "is refused.",
    ),
    Step(
        "fleet",
        "Fleet declarations",
        "R-2",
        "Each group's declared hex, standing order and engage outcome take effect. A group on "
        "Maintain Orbit at a system works on its loyalty below; an engaged group's Hold orders "
        "are interrupted for the round.",
    ),
    Step(
        "fleet.ep",
        "EP consumed",
        "R-7.4",
        "Every group uses 1 EP per 100 points of craft (rounded up), less the free EP of a system "
        "you hold in its hex. A group without enough EP is out of supply this round and its Hold "
        "order is not carried out.",
    ),
    Step(
        "resource.1",
        "Loyalty",
        "Resource §1, R-3.4",
        "Every system's loyalty (LR) changes at once: +1 with your group on Maintain Orbit there, "
        "+1 per 25 troops you send, −1 when none of your craft is in the hex (abandoned), −1 for "
        "each enemy on Maintain Orbit. A neutral system joins the one power acting on it; invaded "
        "systems may be converted.",
    ),
    Step(
        "resource.2.0",
        "Hub nodes lost",
        "Resource §2.0, R-4.6",
        "A hub node on a system you no longer hold is lost; its share of the pool is captured.",
    ),
    Step(
        "resource.2.1",
        "Hub pools",
        "Resource §2.1, R-4.5",
        "Held systems in a hub pour their stockpiles into its pool; a node with an enemy on "
        "Maintain Orbit is contested and keeps its goods apart.",
    ),
    Step(
        "resource.2.2-2.4",
        "Production",
        "Resource §2.2–§2.4, R-3.3, R-4.1–R-4.3",
        "Each held system produces Gal and TP into your bank and Ore, Bio and PL into its hub "
        "pool (or its own stockpile), scaled by its loyalty band. Conscription turns LR into PL "
        "here.",
    ),
    Step(
        "resource.3",
        "Shipments arrive",
        "Resource §3, R-5.4",
        "Goods in transit whose arrival round has come reach the centre of their hub.",
    ),
    Step(
        "resource.4",
        "Common Market",
        "Resource §4, R-6.1",
        "Market sales happen at the current rates: Ore buys Bio, Bio buys Gal, Gal buys Ore, less "
        "any tax.",
    ),
    Step(
        "resource.5",
        "Distribution and trades out",
        "Resource §5, R-5.4, R-5.6, R-5.7",
        "Shipments between your own guild hubs leave, Gal transfers between powers happen, and "
        "hand distributions of a hub's pool apply.",
    ),
    Step(
        "resource.5.3",
        "Agreements dispatched",
        "Resource §5.3, R-5.5",
        "Legs of accepted agreements leave their sender's hub in time to reach the deposit hex "
        "in the delivery round.",
    ),
    Step(
        "support.1",
        "Building, unbuilding and making",
        "Support §1, R-10",
        "Designs are registered, builders put Ore into their work (up to their construction "
        "rating), finished craft appear in orbit with their builder, unbuilds reclaim Ore, "
        "workshops make consumables and new groups are formed.",
    ),
    Step(
        "support.1 aboard",
        "Officers and diplomats left without a craft",
        "Support §1, §4.4, §5.1",
        "Officers aboard a craft that is gone go to the reserve; diplomats aboard it are recalled.",
    ),
    Step(
        "support.1.6",
        "Loans, transfers and design study",
        "Support §1.6, R-10.5, R-10.5a",
        "Accepted loans and transfers of groups take effect (a transferred craft's crew goes "
        "home as PL), and designs studied from lent or given craft are registered.",
    ),
    Step(
        "support.2",
        "Restock",
        "Support §2, R-10.4",
        "Consumables are loaded onto craft from builders' workshops and other craft's cargo, "
        "unless a retreat or an engagement stops it.",
    ),
    Step(
        "support.3.1",
        "Troops",
        "Support §3.1, R-7.1",
        "PL becomes troops in troop space; home defence destroys invaders one for one.",
    ),
    Step(
        "support.3.2",
        "Crew",
        "Support §3.2, R-7.2",
        "PL becomes crew factors: 5 PL per military CF, 2 PL per civilian CF.",
    ),
    Step(
        "support.3.3",
        "Researchers",
        "Support §3.3",
        "PL goes aboard craft as researchers, for research missions.",
    ),
    Step(
        "support.3.4",
        "EP supply",
        "Support §3.4, R-7.4",
        "Bio becomes EP stored on groups and statics, 1 for 1, up to their EP storage.",
    ),
    Step(
        "support.4.1.1",
        "Hub set-up and extension",
        "Support §4.1.1, R-5.1",
        "New hubs and extensions are paid in Ore (20 for a new hub, plus the length of every "
        "link) and work from the next round.",
    ),
    Step(
        "support.4.1.2",
        "Hub maintenance",
        "Support §4.1.2, R-5.2",
        "Every hub costs Gal each round (more for far-flung nodes); parts you stop paying for are "
        "dropped, and a hub the bank cannot pay for lapses.",
    ),
    Step(
        "support.4.2",
        "Guild",
        "Support §4.2, R-5.3",
        "Guild hubs pay 5 Gal; joins and departures take effect.",
    ),
    Step(
        "support.4 primaries",
        "Primary systems",
        "Resource §1.1, R-3.2",
        "Each Primary costs 2 Gal per point of its PL rate; unpaid, it reverts. New Primaries and "
        "Homeworld nominations are made here.",
    ),
    Step(
        "support.5.1 pay",
        "Officers' pay",
        "Support §5.1, R-5.9, R-8.2a",
        "Each officer is paid its rank in Gal; when the bank is short, officers are demoted one "
        "rank at a time, highest first.",
    ),
    Step(
        "support.4.3.1",
        "Research",
        "Support §4.3.1, R-8.1",
        "Research projects turn 2 Gal into 1 TP, for a power holding its Homeworld.",
    ),
    Step(
        "support.4.3.2",
        "Research missions and Areas of Special Interest",
        "Support §4.3.2, R-8.1, R-8.1a",
        "Groups on Hold-Research with researchers earn TP by the type of hex they are in; an "
        "Area of Special Interest may be announced.",
    ),
    Step(
        "support.4.4",
        "Diplomats",
        "Support §4.4, R-8.4",
        "Diplomats are appointed and recalled, and missions are declared and paid for; the "
        "admin decides their outcome.",
    ),
    Step(
        "support.5.1",
        "Officers",
        "Support §5.1, R-8.2",
        "Officers are commissioned, promoted, demoted, dismissed and assigned.",
    ),
    Step(
        "support.5.2",
        "Command bubbles",
        "Support §5.2, R-8.3, R-8.3a",
        "HQs, outposts and sensors are set up, posts get officers, groups patrol; then each "
        "sensor costs 5 Ore to keep.",
    ),
    Step(
        "support.6",
        "Planetary projects",
        "Support §6, R-9.1",
        "Projects set this round start shifting a system's production from next round.",
    ),
    Step(
        "support.7",
        "Tidy up",
        "Support §7, R-1.3",
        "PL not put into passenger or troop space, or spent, is lost.",
    ),
    Step(
        "end of support",
        "Unpaid hub parts dropped",
        "Support §4.1.2, R-5.2",
        "Nodes and links not kept by a maintenance order leave their hub.",
    ),
    Step(
        "loans end",
        "Loans end",
        "Support §1.6.1, R-10.5a",
        "Loans whose last round this is return to their owner with their craft and EP.",
    ),
    Step(
        "agreements closed",
        "Agreements closed",
        "R-5.5",
        "Agreements whose delivery round has passed are closed.",
    ),
    Step(
        "un",
        "UN Meeting",
        "R-6.3, R-6.4",
        "Committee motions are decided and, every third round, the Common Market Report is made; "
        "results apply from the next round.",
    ),
)

STEP_OF: dict[str, Step] = {s.key: s for s in STEPS}


#: ledger step names that are parts of one engine step
_PARTS = {f"resource.2.{n}": "resource.2.2-2.4" for n in (2, 3, 4)} | {
    "support.4": "support.4 primaries"
}


def step_of(key: str) -> Step:
    """The guide's step for an engine step, or for a ledger line's step (``resource.2.3`` is
    production, ``support.1.1`` building): the step itself, else the longest one it is a part
    of."""
    key = _PARTS.get(key, key)
    if key in STEP_OF:
        return STEP_OF[key]
    parts = [s for s in STEPS if key.startswith(s.key + ".")]
    if parts:
        return max(parts, key=lambda s: len(s.key))
    return Step(key, "Other changes", "", "")
